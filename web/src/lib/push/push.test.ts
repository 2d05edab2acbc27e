import { saveSession } from '../api/session-store';
import { fakeServer, json } from '../../testing/fake-server';
import { ensurePushSubscription, keyBytes, PUSH_REFRESH_MS, PUSH_TOKEN_KEY, PushPermissionBlocked, unsubscribeFromPush } from './push';

const PUBLIC_KEY = 'BAECAwQ'; // base64url of the bytes 4, 1, 2, 3, 4
const TOKEN = { endpoint: 'https://push.example/abc', keys: { p256dh: 'p', auth: 'a' } };
const NOW = Date.parse('2026-11-01T00:00:00Z');

/** Notification with the given permission; requestPermission answers `answer`. */
function notifications(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const requestPermission = vi.fn<() => Promise<NotificationPermission>>(async () => answer);
  vi.stubGlobal('Notification', { permission, requestPermission });
  vi.stubGlobal('PushManager', class {});
  return requestPermission;
}

function registration(existing: boolean) {
  const subscription = { toJSON: () => TOKEN, unsubscribe: vi.fn<() => Promise<boolean>>(async () => true) };
  const pushManager = {
    getSubscription: vi.fn<() => Promise<typeof subscription | null>>(async () => (existing ? subscription : null)),
    subscribe: vi.fn<(options: PushSubscriptionOptionsInit) => Promise<typeof subscription>>(async () => subscription),
  };
  return { registration: { pushManager } as unknown as ServiceWorkerRegistration, pushManager, subscription };
}

function pushServer() {
  return fakeServer({
    'GET /api/push/public-key': () => json({ publicKey: PUBLIC_KEY }),
    'POST /api/subscribe-to-notifications': () => json({ status: 'success' }),
    'POST /api/unsubscribe-from-notifications': () => json({ status: 'success' }),
  });
}

beforeEach(() => saveSession({ accessToken: 'access', refreshToken: 'refresh' }));

describe('push subscription', () => {
  it('asks permission, subscribes with the server key and registers the subscription as a web token', async () => {
    const requestPermission = notifications('default', 'granted');
    const { registration: reg, pushManager } = registration(false);
    const { requests } = pushServer();

    expect(await ensurePushSubscription(reg, NOW)).toBe(true);

    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: new Uint8Array([4, 1, 2, 3, 4]) });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/push/public-key', 'POST /api/subscribe-to-notifications']);
    expect(requests[1]?.body).toEqual({ token: TOKEN, platform: 'web' });
    expect(requests[1]?.headers.Authorization).toBe('Bearer access');
    expect(JSON.parse(localStorage.getItem(PUSH_TOKEN_KEY) ?? '{}')).toEqual({ token: TOKEN, subscribedAt: NOW });
  });

  it('does not register again within 7 days, and does after', async () => {
    notifications('granted');
    const { registration: reg, pushManager } = registration(true);
    const { requests } = pushServer();
    await ensurePushSubscription(reg, NOW);

    await ensurePushSubscription(reg, NOW + PUSH_REFRESH_MS - 1);
    expect(requests.filter((r) => r.path === '/api/subscribe-to-notifications')).toHaveLength(1);

    await ensurePushSubscription(reg, NOW + PUSH_REFRESH_MS);
    expect(requests.filter((r) => r.path === '/api/subscribe-to-notifications')).toHaveLength(2);
    expect(PUSH_REFRESH_MS).toBe(7 * 24 * 3600 * 1000);
    // The browser's existing subscription is reused.
    expect(pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('fails as permission-blocked when permission is refused, telling whether the user was just asked', async () => {
    notifications('default', 'denied');
    const { registration: reg, pushManager } = registration(false);
    const { requests } = pushServer();

    const refused = await ensurePushSubscription(reg, NOW).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PushPermissionBlocked);
    expect(refused).toMatchObject({ message: 'permission-blocked', justRefused: true });

    notifications('denied');
    const before = await ensurePushSubscription(reg, NOW).catch((error: unknown) => error);
    expect(before).toMatchObject({ message: 'permission-blocked', justRefused: false });
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('unsubscribes on the server with the stored token, then in the browser', async () => {
    notifications('granted');
    const { registration: reg, subscription } = registration(true);
    const { requests } = pushServer();
    await ensurePushSubscription(reg, NOW);

    await unsubscribeFromPush(reg);

    expect(requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/unsubscribe-from-notifications', body: { token: TOKEN } });
    expect(subscription.unsubscribe).toHaveBeenCalled();
    expect(localStorage.getItem(PUSH_TOKEN_KEY)).toBeNull();
  });

  it('decodes base64url keys', () => {
    expect([...keyBytes('_-8')]).toEqual([255, 239]);
  });
});
