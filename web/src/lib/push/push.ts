// Web Push on the page (spec section 5, "Notifications"): permission, then a PushSubscription
// made with the server's VAPID key and registered with POST /api/subscribe-to-notifications. The
// registration is repeated after 7 days. The subscription is kept under the spec's fcmToken key;
import { apiRequest } from '../api/client';
import { notificationsTurnedOff } from '../preferences/preferences';

export const PUSH_REFRESH_MS = 7 * 24 * 60 * 60 * 1000;
export const PUSH_TOKEN_KEY = 'fcmToken';

/** Notifications are not allowed: the spec's permission-blocked failure. */
export class PushPermissionBlocked extends Error {
  /** The user was asked just now (rather than having refused before). */
  readonly justRefused: boolean;

  constructor(justRefused: boolean) {
    super('permission-blocked');
    this.justRefused = justRefused;
  }
}

/** Notifications on this device: on, off, refused in the browser's (or phone's) settings, or impossible here. */
export type NotificationsState = 'on' | 'off' | 'blocked' | 'unsupported';

interface StoredToken {
  token: PushSubscriptionJSON;
  subscribedAt: number;
}

function storedToken(): StoredToken | null {
  try {
    return JSON.parse(localStorage.getItem(PUSH_TOKEN_KEY) ?? 'null') as StoredToken | null;
  } catch {
    return null;
  }
}

/** This browser's notifications, as the settings show them: on once allowed, unless the user turned them off here. */
export function webPushState(): NotificationsState {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  return Notification.permission === 'granted' && !notificationsTurnedOff() ? 'on' : 'off';
}

/** The VAPID key travels as base64url; PushManager wants the bytes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/**
 * Subscribes this browser unless it did so in the last 7 days. Answers false when the browser
 * has no push support; throws PushPermissionBlocked when permission is refused.
 */
export async function ensurePushSubscription(registration: ServiceWorkerRegistration, now = Date.now()): Promise<boolean> {
  if (!('PushManager' in window) || typeof Notification === 'undefined') return false;
  const stored = storedToken();
  if (stored && now - stored.subscribedAt < PUSH_REFRESH_MS && Notification.permission === 'granted') return true;
  const asked = Notification.permission === 'default';
  const permission = asked ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') throw new PushPermissionBlocked(asked);
  const { publicKey } = await apiRequest<{ publicKey: string }>('/api/push/public-key');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const token = subscription.toJSON();
  await apiRequest('/api/subscribe-to-notifications', { method: 'POST', json: { token, platform: 'web' } });
  localStorage.setItem(PUSH_TOKEN_KEY, JSON.stringify({ token, subscribedAt: now } satisfies StoredToken));
  return true;
}

/** Turning notifications off, and sign-out: the server forgets this browser (failures are the caller's to log), then the browser does. */
export async function unsubscribeFromPush(registration: ServiceWorkerRegistration | null): Promise<void> {
  const stored = storedToken();
  if (!stored) return;
  localStorage.removeItem(PUSH_TOKEN_KEY);
  try {
    await apiRequest('/api/unsubscribe-from-notifications', { method: 'POST', json: { token: stored.token } });
  } finally {
    await (await registration?.pushManager.getSubscription())?.unsubscribe();
  }
}
