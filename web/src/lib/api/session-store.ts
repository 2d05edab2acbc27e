// The session as the spec stores it on the device: accessToken, refreshToken and userRole.

const ACCESS = 'accessToken';
const REFRESH = 'refreshToken';
const ROLE = 'userRole';

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  role?: string | null;
}

export function getAccessToken(): string | null {
  return localStorage.getItem(ACCESS);
}

export function getRefreshToken(): string | null {
  return localStorage.getItem(REFRESH);
}

export function getStoredRole(): string | null {
  return localStorage.getItem(ROLE);
}

/** Authenticated means a refresh token is stored (spec section 4). */
export function isAuthenticated(): boolean {
  return getRefreshToken() !== null;
}

export function saveSession({ accessToken, refreshToken, role }: SessionTokens): void {
  localStorage.setItem(ACCESS, accessToken);
  localStorage.setItem(REFRESH, refreshToken);
  if (role) localStorage.setItem(ROLE, role);
}

export function saveRole(role: string): void {
  localStorage.setItem(ROLE, role);
}

export function clearSession(): void {
  localStorage.removeItem(ACCESS);
  localStorage.removeItem(REFRESH);
  localStorage.removeItem(ROLE);
}

/** Raised when the session is gone (refresh failed, session check failed); the app goes to /login. */
export const LOGOUT_EVENT = 'parley:logout';

export function raiseLogout(): void {
  clearSession();
  window.dispatchEvent(new Event(LOGOUT_EVENT));
}
