// Turning notifications on and off, for the browser (Web Push) and the native app (FCM) alike.
// The permission prompt comes only from the user's action (the bell, the settings); on start, a
// subscription is made or refreshed where permission was already given, unless the user turned
// notifications off on this device: that holds, across sign-outs, until they turn them on again.
import { activeRegistration } from '../offline/service-worker';
import { storeNotificationsTurnedOff } from '../preferences/preferences';
import { ensurePushSubscription, unsubscribeFromPush, webPushState, type NotificationsState } from './push';

/** The bell and the settings: asks for permission, then subscribes. Throws PushPermissionBlocked on refusal. */
export async function enableNotifications(): Promise<boolean> {
  storeNotificationsTurnedOff(false);
  const { isNative } = await import('../native/platform');
  if (isNative()) {
    await (await import('../native/push')).registerNativePush();
    return true;
  }
  const registration = await activeRegistration();
  return !!registration && (await ensurePushSubscription(registration));
}

/** The settings: the server and this device forget the subscription (a server failure is thrown). */
export async function disableNotifications(): Promise<void> {
  storeNotificationsTurnedOff(true);
  const { isNative } = await import('../native/platform');
  if (isNative()) await (await import('../native/push')).unregisterNativePush();
  else await unsubscribeFromPush(await activeRegistration());
}

/** Whether notifications are on for this device, as the settings show it. */
export async function notificationsState(): Promise<NotificationsState> {
  const { isNative } = await import('../native/platform');
  return isNative() ? (await import('../native/push')).nativePushState() : webPushState();
}

/** On start: subscribes or renews (every 7 days on the web) where allowed and not turned off, without ever prompting. */
export async function refreshNotifications(): Promise<void> {
  const { isNative } = await import('../native/platform');
  if (isNative()) {
    await (await import('../native/push')).refreshNativePush();
    return;
  }
  if (webPushState() !== 'on') return;
  const registration = await activeRegistration();
  if (registration) await ensurePushSubscription(registration);
}
