// The WebSocket authenticates with the access token in its URL, so it must be fresh when connecting.
import { refreshAccessToken } from '../api/client';
import { getAccessToken } from '../api/session-store';
import { tokenClaims } from '../api/token-claims';

/** Seconds of validity a token must still have to be used for a new connection. */
const MARGIN_SECS = 1;

/** Expiry (seconds since epoch) of a JWT, or null when it cannot be read. */
export function tokenExpiry(token: string): number | null {
  const exp = tokenClaims(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/** The stored access token, refreshed first when it is about to expire or the server said so. */
export async function freshAccessToken(forceRefresh: boolean): Promise<string> {
  const token = getAccessToken();
  const expiry = token ? tokenExpiry(token) : null;
  const stale = !token || (expiry !== null && expiry * 1000 < Date.now() + MARGIN_SECS * 1000);
  return forceRefresh || stale ? refreshAccessToken() : token;
}
