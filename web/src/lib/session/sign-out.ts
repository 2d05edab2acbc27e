// The spec's sign-out sequence: unsubscribe push (best effort; natively also the device token
// and the Google sign-in), close event streams, clear local
// stores, clear tokens and push tokens. The caller then goes to /login replacing history.
// Signing out everywhere first ends every session of the account on the server (every device's
// tokens refused at once); that must succeed, or nothing is cleared and the caller is told.
import { apiRequest } from '../api/client';
import { clearSession, getRefreshToken } from '../api/session-store';
import { clearMediaCache } from '../media/media-cache';
import { clearLocalStores } from '../offline/local-store';
import { activeRegistration } from '../offline/service-worker';
import { unsubscribeFromPush } from '../push/push';
import { closeAllStreams } from '../realtime/streams';

const PUSH_TOKEN_KEYS = ['fcmToken', 'nativeFcmToken'];

/** Ends every session of the account, on every device, then signs this one out. */
export async function signOutEverywhere(): Promise<void> {
  await apiRequest('/identity/auth/logout-all', { method: 'POST', json: {} });
  await signOut();
}

export async function signOut(): Promise<void> {
  try {
    await unsubscribeFromPush(await activeRegistration());
  } catch (error) {
    // A server failure here is only logged; cleanup continues (spec section 4).
    console.warn('unsubscribe-from-notifications failed', error);
  }
  await (await import('../native/native-session')).signOutNative();
  closeAllStreams();
  clearMediaCache();
  await clearLocalStores().catch((error: unknown) => console.warn('local stores not cleared', error));
  const refreshToken = getRefreshToken();
  if (refreshToken) {
    await apiRequest('/identity/auth/logout', { method: 'POST', json: { refreshToken }, anonymous: true }).catch(
      (error: unknown) => console.warn('logout failed', error),
    );
  }
  clearSession();
  PUSH_TOKEN_KEYS.forEach((key) => localStorage.removeItem(key));
}
