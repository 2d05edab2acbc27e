// A browser with Web Push for unit tests: Notification with its permission (a prompt answers
// `answer` and the permission becomes it), a service worker controlling the page, and its
// PushManager holding at most one subscription, as a browser does. Undone after the test.
import { onTestFinished } from 'vitest';
import { fakeServer, json } from './fake-server';

export const WEB_PUSH_TOKEN = { endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } };

export function webPushBrowser(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const notification: { permission: NotificationPermission; requestPermission: () => Promise<NotificationPermission> } = {
    permission,
    requestPermission: vi.fn<() => Promise<NotificationPermission>>(async () => (notification.permission = answer)),
  };
  type Subscription = { toJSON: () => typeof WEB_PUSH_TOKEN; unsubscribe: () => Promise<boolean> };
  let current: Subscription | null = null;
  const subscription = {
    toJSON: () => WEB_PUSH_TOKEN,
    unsubscribe: vi.fn<() => Promise<boolean>>(async () => {
      current = null;
      return true;
    }),
  };
  const pushManager = {
    getSubscription: vi.fn<() => Promise<Subscription | null>>(async () => current),
    subscribe: vi.fn<() => Promise<Subscription>>(async () => (current = subscription)),
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', class {});
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { controller: {}, ready: Promise.resolve({ pushManager }) } });
  onTestFinished(() => void Reflect.deleteProperty(navigator, 'serviceWorker'));
  return { notification, pushManager, subscription };
}

/** The server's push calls, answering success. */
export function webPushServer() {
  return fakeServer({
    'GET /api/push/public-key': () => json({ publicKey: 'BAECAwQ' }),
    'POST /api/subscribe-to-notifications': () => json({ status: 'success' }),
    'POST /api/unsubscribe-from-notifications': () => json({ status: 'success' }),
  });
}
