import { saveSession } from '../api/session-store';
import { fakeServer, json } from '../../testing/fake-server';
import { enableNotifications, refreshNotifications } from './notifications';

const subscription = { toJSON: () => ({ endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } }), unsubscribe: async () => true };
const pushManager = { getSubscription: async () => null, subscribe: async () => subscription };

vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => false, getPlatform: () => 'web' } }));
vi.mock('../offline/service-worker', () => ({ activeRegistration: async () => ({ pushManager }) }));

function notifications(permission: NotificationPermission) {
  const requestPermission = vi.fn<() => Promise<NotificationPermission>>(async () => 'granted');
  vi.stubGlobal('Notification', { permission, requestPermission });
  vi.stubGlobal('PushManager', class {});
  return requestPermission;
}

beforeEach(() => {
  localStorage.clear();
  saveSession({ accessToken: 'access', refreshToken: 'refresh' });
});

describe('notification permission comes only from the user', () => {
  it('on start, never asks and subscribes nothing while permission was not given', async () => {
    const requestPermission = notifications('default');
    const { requests } = fakeServer({});

    await refreshNotifications();

    expect(requestPermission).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('the bell asks, then subscribes this browser', async () => {
    const requestPermission = notifications('default');
    const { requests } = fakeServer({
      'GET /api/push/public-key': () => json({ publicKey: 'BAECAwQ' }),
      'POST /api/subscribe-to-notifications': () => json({ status: 'success' }),
    });

    expect(await enableNotifications()).toBe(true);

    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(requests.at(-1)?.body).toMatchObject({ platform: 'web' });
  });
});
