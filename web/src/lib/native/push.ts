// Native push (FCM on Android, FCM over APNs on iOS): asked for when the user turns
// notifications on, the device token registered with POST /api/subscribe-to-notifications under
// its platform and kept under the spec's nativeFcmToken key; forgotten when the user turns
// notifications off and on sign-out. Tapping a notification
// opens its conversation.
import type { PluginListenerHandle } from '@capacitor/core';
import { apiRequest } from '../api/client';
import { notificationsTurnedOff } from '../preferences/preferences';
import { PushPermissionBlocked, type NotificationsState } from '../push/push';
import { pushPlatform } from './platform';

export const NATIVE_TOKEN_KEY = 'nativeFcmToken';

/** Registers the device for push and answers its token; the user's action started this. */
export async function registerNativePush(): Promise<string> {
  const { PushNotifications } = await import('@capacitor/push-notifications');
  const before = await PushNotifications.checkPermissions();
  const permission = before.receive === 'granted' ? before : await PushNotifications.requestPermissions();
  if (permission.receive !== 'granted') throw new PushPermissionBlocked(before.receive !== 'denied');
  const listeners: PluginListenerHandle[] = [];
  const token = new Promise<string>((resolve, reject) => {
    void Promise.all([
      PushNotifications.addListener('registration', ({ value }) => resolve(value)),
      PushNotifications.addListener('registrationError', ({ error }) => reject(new Error(error))),
    ]).then((handles) => listeners.push(...handles));
  });
  try {
    await PushNotifications.register();
    const value = await token;
    await apiRequest('/api/subscribe-to-notifications', { method: 'POST', json: { token: value, platform: pushPlatform() } });
    localStorage.setItem(NATIVE_TOKEN_KEY, value);
    return value;
  } finally {
    await Promise.all(listeners.map((handle) => handle.remove()));
  }
}

/** This device's notifications, as the settings show them. */
export async function nativePushState(): Promise<NotificationsState> {
  const { PushNotifications } = await import('@capacitor/push-notifications');
  const { receive } = await PushNotifications.checkPermissions();
  if (receive === 'denied') return 'blocked';
  return receive === 'granted' && !notificationsTurnedOff() ? 'on' : 'off';
}

/** Re-registers on start where notifications are allowed and the user did not turn them off here (no prompt). */
export async function refreshNativePush(): Promise<void> {
  if ((await nativePushState()) === 'on') await registerNativePush();
}

/** Turning notifications off, and sign-out: the server forgets the device token (failures are the caller's to log), then the device does. */
export async function unregisterNativePush(): Promise<void> {
  const { PushNotifications } = await import('@capacitor/push-notifications');
  const token = localStorage.getItem(NATIVE_TOKEN_KEY);
  localStorage.removeItem(NATIVE_TOKEN_KEY);
  try {
    if (token) await apiRequest('/api/unsubscribe-from-notifications', { method: 'POST', json: { token } });
  } finally {
    await PushNotifications.unregister();
  }
}

/** Calls `open` with the conversation of each tapped notification. */
export async function listenForNotificationTaps(open: (conversationId: string) => void): Promise<PluginListenerHandle> {
  const { PushNotifications } = await import('@capacitor/push-notifications');
  return PushNotifications.addListener('pushNotificationActionPerformed', ({ notification }) => {
    const id: unknown = notification.data?.conversation_id;
    if (typeof id === 'string' && id) open(id);
  });
}
