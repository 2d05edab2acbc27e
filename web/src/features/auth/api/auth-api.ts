import { apiRequest } from '../../../lib/api/client';

export interface LoginAnswer {
  role: string;
  accessToken: string;
  refreshToken: string;
}

export interface RegisterRequest {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
}

export function login(emailOrUsername: string, password: string): Promise<LoginAnswer> {
  return apiRequest('/identity/auth/login', {
    method: 'POST',
    json: { emailOrUsername, password },
    anonymous: true,
  });
}

export function register(request: RegisterRequest): Promise<Partial<LoginAnswer>> {
  return apiRequest('/identity/auth/register', { method: 'POST', json: request, anonymous: true });
}

/** Keeps the language the account was made in as its profile's, which the signed-in app follows. */
export function saveProfileLanguage(language: string): Promise<unknown> {
  return apiRequest('/identity/users/profile', { method: 'PATCH', json: { language } });
}

export async function isGoogleEnabled(): Promise<boolean> {
  const answer = await apiRequest<{ enabled?: boolean }>('/identity/auth/google/config', { anonymous: true });
  return answer.enabled === true;
}

/** The language a new account takes from the page it is made on: one of the app's, or none. */
export function accountLanguage(language: string | undefined): 'en' | 'ar' | null {
  return language === 'en' || language === 'ar' ? language : null;
}

/**
 * The browser flow: the server redirects to Google and back to the app with tokens in the query.
 * An account it creates takes `language`.
 */
export function googleSignInPath(language: 'en' | 'ar' | null): string {
  return language ? `/identity/auth/google?language=${language}` : '/identity/auth/google';
}
