// Signs a test in as a user: an access token whose claims name them (and their business), and the
// stored role.
import { saveSession } from '../lib/api/session-store';

export function signInAs(id: string, role: 'admin' | 'agent', business = 'b1'): void {
  const claims = btoa(JSON.stringify({ sub: id, bid: business, role, iat: 0, exp: 4_102_444_800 }));
  saveSession({ accessToken: `header.${claims}.signature`, refreshToken: 'refresh', role });
}
