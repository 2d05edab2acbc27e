// Tabs of one browser take turns to refresh (client.ts), yet a tab may still read the stored tokens
// as they were before another tab's refresh: localStorage reaches the other tabs a moment late. So
// the tab that refreshed also leaves the new pair, with the refresh token it spent, in the Cache
// API, which every tab reads as written; the next tab in turn takes the pair from there instead of
// spending the same refresh token again (the server takes a second use as theft and ends the
// session). Sign-out drops the cache with the rest of the session's.
import { SESSION_CACHE } from '../offline/service-worker';
import type { SessionTokens } from './session-store';

const HANDOFF_URL = '/__parley/refreshed';

interface Handoff extends SessionTokens {
  spent: string;
}

/** Leaves the pair a refresh of `spent` answered for the other tabs. */
export async function leaveRefreshed(spent: string, tokens: SessionTokens): Promise<void> {
  if (typeof caches === 'undefined') return;
  const handoff: Handoff = { ...tokens, spent };
  await (await caches.open(SESSION_CACHE)).put(HANDOFF_URL, new Response(JSON.stringify(handoff)));
}

/** The pair another tab got for `spent`, if one did. */
export async function refreshedElsewhere(spent: string): Promise<SessionTokens | null> {
  if (typeof caches === 'undefined') return null;
  const entry = await (await caches.open(SESSION_CACHE)).match(HANDOFF_URL);
  const handoff = entry ? ((await entry.json()) as Handoff) : null;
  return handoff?.spent === spent ? handoff : null;
}
