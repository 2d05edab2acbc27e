// Native Google sign-in: the plugin's account picker, then its ID token exchanged at
// POST /identity/auth/google/mobile for a Parley session.
import { apiRequest } from '../api/client';
import { saveSession } from '../api/session-store';

interface SessionAnswer {
  accessToken: string;
  refreshToken: string;
  role: string | null;
}

/**
 * The server's Google OAuth client id (the audience of the ID token), given to the native build
 * as VITE_GOOGLE_CLIENT_ID (docs/NATIVE.md).
 */
const webClientId: string | undefined = import.meta.env.VITE_GOOGLE_CLIENT_ID;

/**
 * Signs in with the device's Google account; answers false when no ID token came back. An
 * account this creates takes `language`.
 */
export async function nativeGoogleSignIn(language: 'en' | 'ar' | null): Promise<boolean> {
  if (!webClientId) throw new Error('VITE_GOOGLE_CLIENT_ID was not set for this build');
  const { SocialLogin } = await import('@capgo/capacitor-social-login');
  await SocialLogin.initialize({ google: { webClientId } });
  const { result } = await SocialLogin.login({ provider: 'google', options: {} });
  const idToken = 'idToken' in result ? result.idToken : null;
  if (!idToken) return false;
  const json = language ? { token: idToken, language } : { token: idToken };
  const session = await apiRequest<SessionAnswer>('/identity/auth/google/mobile', { method: 'POST', json, anonymous: true });
  saveSession(session);
  return true;
}

/** Sign-out on native also signs out of the Google account picker. */
export async function nativeGoogleSignOut(): Promise<void> {
  const { SocialLogin } = await import('@capgo/capacitor-social-login');
  await SocialLogin.logout({ provider: 'google' });
}
