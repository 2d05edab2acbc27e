import { saveSession } from '../api/session-store';
import { fakeServer } from '../../testing/fake-server';
import { WEB_PUSH_TOKEN, webPushBrowser, webPushServer } from '../../testing/web-push';
import { disableNotifications, enableNotifications, notificationsState, refreshNotifications } from './notifications';
import { PUSH_REFRESH_MS, PUSH_TOKEN_KEY } from './push';

vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => false, getPlatform: () => 'web' } }));

const calls = (requests: { method: string; path: string }[]) => requests.map((r) => `${r.method} ${r.path}`);

beforeEach(() => {
  localStorage.clear();
  saveSession({ accessToken: 'access', refreshToken: 'refresh' });
});

describe('notification permission comes only from the user', () => {
  it('on start, never asks and subscribes nothing while permission was not given', async () => {
    const { notification } = webPushBrowser('default');
    const { requests } = fakeServer({});

    await refreshNotifications();

    expect(notification.requestPermission).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('the bell asks, then subscribes this browser', async () => {
    const { notification } = webPushBrowser('default', 'granted');
    const { requests } = webPushServer();

    expect(await enableNotifications()).toBe(true);

    expect(notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(requests.at(-1)?.body).toMatchObject({ platform: 'web' });
    expect(await notificationsState()).toBe('on');
  });
});

describe('turning notifications off', () => {
  it('forgets this browser on the server and in the browser, and the start no longer subscribes it', async () => {
    const { pushManager, subscription } = webPushBrowser('granted');
    const { requests } = webPushServer();
    await enableNotifications();

    await disableNotifications();

    expect(requests.at(-1)).toMatchObject({ path: '/api/unsubscribe-from-notifications', body: { token: WEB_PUSH_TOKEN } });
    expect(subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(await notificationsState()).toBe('off');
    const before = requests.length;
    await refreshNotifications();
    expect(requests.length).toBe(before);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
  });

  it('leaves the bell able to turn them on again', async () => {
    webPushBrowser('granted');
    const { requests } = webPushServer();
    await enableNotifications();
    await disableNotifications();

    expect(await enableNotifications()).toBe(true);

    expect(calls(requests).at(-1)).toBe('POST /api/subscribe-to-notifications');
    expect(await notificationsState()).toBe('on');
  });
});

describe("this browser's notification state", () => {
  it('is blocked when the browser refuses them, and unsupported without Web Push', async () => {
    webPushBrowser('denied');
    expect(await notificationsState()).toBe('blocked');

    Reflect.deleteProperty(navigator, 'serviceWorker');
    expect(await notificationsState()).toBe('unsupported');
  });

  it('is on once allowed, and off once turned off here', async () => {
    webPushBrowser('granted');
    webPushServer();
    expect(await notificationsState()).toBe('on');
    await disableNotifications();
    expect(await notificationsState()).toBe('off');
  });
});

describe('the start', () => {
  it('subscribes a browser that allowed notifications, as after signing in again', async () => {
    const { notification } = webPushBrowser('granted');
    const { requests } = webPushServer();

    await refreshNotifications();

    expect(notification.requestPermission).not.toHaveBeenCalled();
    expect(calls(requests)).toEqual(['GET /api/push/public-key', 'POST /api/subscribe-to-notifications']);
  });

  it('keeps notifications turned off across a sign-out, which forgets the push token', async () => {
    webPushBrowser('granted');
    const { requests } = webPushServer();
    await enableNotifications();
    await disableNotifications();
    localStorage.removeItem(PUSH_TOKEN_KEY);
    const before = requests.length;

    await refreshNotifications();

    expect(requests.length).toBe(before);
    expect(await notificationsState()).toBe('off');
  });
});

describe('the 7-day refresh', () => {
  it('registers a subscription the user turned on again once it is 7 days old', async () => {
    webPushBrowser('granted');
    const { requests } = webPushServer();
    await enableNotifications();
    const stored = JSON.parse(localStorage.getItem(PUSH_TOKEN_KEY) ?? '{}') as { subscribedAt: number };
    localStorage.setItem(PUSH_TOKEN_KEY, JSON.stringify({ ...stored, subscribedAt: stored.subscribedAt - PUSH_REFRESH_MS }));
    const before = requests.length;

    await refreshNotifications();

    expect(calls(requests.slice(before))).toEqual(['GET /api/push/public-key', 'POST /api/subscribe-to-notifications']);
  });
});
