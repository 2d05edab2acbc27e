// What the native app adds to signing out and to being open: the device forgets its push token
// and the Google account picker signs out; deep links and notification taps open conversations.
import { nativeGoogleSignOut } from './google';
import { listenForDeepLinks } from './deep-links';
import { isNative } from './platform';
import { listenForNotificationTaps, unregisterNativePush } from './push';

/** Sign-out's native part; each step is best effort (the spec only logs their failures). */
export async function signOutNative(): Promise<void> {
  if (!isNative()) return;
  await unregisterNativePush().catch((error: unknown) => console.warn('native push not unregistered', error));
  await nativeGoogleSignOut().catch((error: unknown) => console.warn('Google sign-out failed', error));
}

/** Opens conversations from deep links and notification taps; answers how to stop. */
export async function listenForNativeOpens(open: (conversationId: string) => void): Promise<() => void> {
  if (!isNative()) return () => undefined;
  const handles = await Promise.all([listenForDeepLinks(open), listenForNotificationTaps(open)]);
  return () => handles.forEach((handle) => void handle.remove());
}
