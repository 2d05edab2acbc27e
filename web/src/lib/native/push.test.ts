import 'fake-indexeddb/auto';
import { saveSession } from '../api/session-store';
import { disableNotifications, enableNotifications, notificationsState, refreshNotifications } from '../push/notifications';
import { PushPermissionBlocked } from '../push/push';
import { signOut } from '../session/sign-out';
import { fakeServer, json } from '../../testing/fake-server';
import { listenForNotificationTaps, NATIVE_TOKEN_KEY, registerNativePush } from './push';

type Listener = (event: unknown) => void;

const device = vi.hoisted(() => ({
  platform: 'android',
  permission: 'prompt' as string,
  answer: 'granted' as string,
  listeners: new Map<string, Listener>(),
  register: vi.fn<() => Promise<void>>(),
  unregister: vi.fn<() => Promise<undefined>>(async () => undefined),
  requestPermissions: vi.fn<() => Promise<{ receive: string }>>(),
  googleLogout: vi.fn<(options: { provider: string }) => Promise<undefined>>(async () => undefined),
}));

vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => true, getPlatform: () => device.platform } }));
vi.mock('@capacitor/push-notifications', () => ({
  PushNotifications: {
    checkPermissions: async () => ({ receive: device.permission }),
    requestPermissions: device.requestPermissions,
    register: device.register,
    unregister: device.unregister,
    addListener: async (event: string, listener: Listener) => {
      device.listeners.set(event, listener);
      return { remove: async () => void device.listeners.delete(event) };
    },
  },
}));
vi.mock('@capgo/capacitor-social-login', () => ({ SocialLogin: { logout: device.googleLogout } }));

function pushServer() {
  return fakeServer({
    'POST /api/subscribe-to-notifications': () => json({ status: 'success' }),
    'POST /api/unsubscribe-from-notifications': () => json({ status: 'success' }),
    'POST /identity/auth/logout': () => json({ status: 'success' }),
  });
}

beforeEach(() => {
  saveSession({ accessToken: 'access', refreshToken: 'refresh' });
  vi.clearAllMocks();
  device.permission = 'prompt';
  // The device remembers the answer, as a phone does.
  device.requestPermissions.mockImplementation(async () => ({ receive: (device.permission = device.answer) }));
  device.register.mockImplementation(async () => {
    device.listeners.get('registration')?.({ value: 'fcm-token-1' });
  });
});

describe('native push', () => {
  it.each(['android', 'ios'])('asks, registers and sends the %s device token with its platform', async (platform) => {
    device.platform = platform;
    device.answer = 'granted';
    const { requests } = pushServer();

    expect(await registerNativePush()).toBe('fcm-token-1');

    expect(device.requestPermissions).toHaveBeenCalled();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/subscribe-to-notifications']);
    expect(requests[0]?.body).toEqual({ token: 'fcm-token-1', platform });
    expect(localStorage.getItem(NATIVE_TOKEN_KEY)).toBe('fcm-token-1');
    expect(device.listeners.has('registration')).toBe(false);
  });

  it('registers nothing when the user refuses', async () => {
    device.answer = 'denied';
    const { requests } = pushServer();

    await expect(registerNativePush()).rejects.toBeInstanceOf(PushPermissionBlocked);

    expect(device.register).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('opens the conversation of a tapped notification', async () => {
    const open = vi.fn<(conversationId: string) => void>();
    await listenForNotificationTaps(open);

    device.listeners.get('pushNotificationActionPerformed')?.({
      actionId: 'tap',
      notification: { id: '1', data: { conversation_id: '1555_15550001111', preview: 'Hello' } },
    });

    expect(open).toHaveBeenCalledWith('1555_15550001111');
  });

  it('forgets the device token on the server and on the device at sign-out', async () => {
    const { requests } = pushServer();
    localStorage.setItem(NATIVE_TOKEN_KEY, 'fcm-token-1');

    await signOut();

    const unsubscribe = requests.find((r) => r.path === '/api/unsubscribe-from-notifications');
    expect(unsubscribe?.body).toEqual({ token: 'fcm-token-1' });
    expect(device.unregister).toHaveBeenCalled();
    expect(device.googleLogout).toHaveBeenCalledWith({ provider: 'google' });
    expect(localStorage.getItem(NATIVE_TOKEN_KEY)).toBeNull();
  });

  it('turns off in the settings: the server and the device forget the token, and the start does not register again', async () => {
    device.answer = 'granted';
    const { requests } = pushServer();
    await enableNotifications();
    expect(await notificationsState()).toBe('on');

    await disableNotifications();

    expect(requests.at(-1)).toMatchObject({ path: '/api/unsubscribe-from-notifications', body: { token: 'fcm-token-1' } });
    expect(device.unregister).toHaveBeenCalledTimes(1);
    expect(await notificationsState()).toBe('off');
    await refreshNotifications();
    expect(device.register).toHaveBeenCalledTimes(1);
    expect(requests.at(-1)?.path).toBe('/api/unsubscribe-from-notifications');
    // Signing out and in again leaves them off.
    await signOut();
    saveSession({ accessToken: 'access', refreshToken: 'refresh' });
    await refreshNotifications();
    expect(device.register).toHaveBeenCalledTimes(1);

    await enableNotifications();
    expect(device.register).toHaveBeenCalledTimes(2);
    expect(requests.at(-1)?.path).toBe('/api/subscribe-to-notifications');
    expect(await notificationsState()).toBe('on');
  });

  it('registers at start where the phone allows notifications, without asking (signed in again too)', async () => {
    device.permission = 'granted';
    localStorage.removeItem(NATIVE_TOKEN_KEY);
    const { requests } = pushServer();

    await refreshNotifications();

    expect(device.requestPermissions).not.toHaveBeenCalled();
    expect(requests.at(-1)?.body).toMatchObject({ token: 'fcm-token-1' });
  });

  it('shows blocked when the phone refuses notifications', async () => {
    device.permission = 'denied';
    expect(await notificationsState()).toBe('blocked');
  });
});
