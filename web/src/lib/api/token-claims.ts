// What the access token (a JWT) says about the signed-in user; the server checks it, the app only
// reads it to know who it is.
import { getAccessToken } from './session-store';

export interface TokenClaims {
  /** The user's id. */
  sub?: string;
  /** The business's id. */
  bid?: string;
  /** `admin` for the business owner, `agent` for staff. */
  role?: string;
  /** Expiry in seconds since the epoch. */
  exp?: number;
}

/** The claims of a JWT, or null when it cannot be read. */
export function tokenClaims(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** The signed-in user's id, from the stored access token. */
export function currentUserId(): string | null {
  const token = getAccessToken();
  const sub = token ? tokenClaims(token)?.sub : undefined;
  return typeof sub === 'string' ? sub : null;
}

/** Whose data a token carries: `{business id}:{user id}`, or null when the token says neither. */
export function accountOf(token: string): string | null {
  const claims = tokenClaims(token);
  return typeof claims?.bid === 'string' && typeof claims.sub === 'string' ? `${claims.bid}:${claims.sub}` : null;
}

/** The signed-in account (business and user), from the stored access token. */
export function currentAccount(): string | null {
  const token = getAccessToken();
  return token ? accountOf(token) : null;
}
