// Turning notifications on, for the browser (Web Push) and the native app (FCM) alike. The
// permission prompt comes only from the user's action (the bell); on start, a subscription is
// only refreshed where permission was already given.
import { activeRegistration } from '../offline/service-worker';
import { ensurePushSubscription } from './push';

/** The bell: asks for permission, then subscribes. Throws PushPermissionBlocked on refusal. */
export async function enableNotifications(): Promise<boolean> {
  const { isNative } = await import('../native/platform');
  if (isNative()) {
    await (await import('../native/push')).registerNativePush();
    return true;
  }
  const registration = await activeRegistration();
  return !!registration && (await ensurePushSubscription(registration));
}

/** On start: renews the subscription (every 7 days on the web) without ever prompting. */
export async function refreshNotifications(): Promise<void> {
  const { isNative } = await import('../native/platform');
  if (isNative()) {
    await (await import('../native/push')).refreshNativePush();
    return;
  }
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const registration = await activeRegistration();
  if (registration) await ensurePushSubscription(registration);
}
