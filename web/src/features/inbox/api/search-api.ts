import { apiRequest } from '../../../lib/api/client';

/** Results per search page. */
export const SEARCH_PAGE_SIZE = 20;

/** Most words a search looks for (the server refuses more, in search and in the chat list). */
export const SEARCH_MAX_WORDS = 12;

/** What is searched for as `typed`: its first `SEARCH_MAX_WORDS` words, and whether it had more. */
export function searchedText(typed: string): { text: string; cut: boolean } {
  const words = typed.trim().split(/\s+/).filter(Boolean);
  if (words.length <= SEARCH_MAX_WORDS) return { text: typed.trim(), cut: false };
  return { text: words.slice(0, SEARCH_MAX_WORDS).join(' '), cut: true };
}

/** One hit of `GET /api/search`; `message_id` is null for a contact's name or number. */
export interface SearchResult {
  conversation_id: string;
  phone_number: string;
  name: string;
  message_id: string | null;
  timestamp: string;
  /** HTML-escaped text with the matches in `<mark>`…`</mark>`. */
  snippet: string;
}

export interface SearchPage {
  results: SearchResult[];
  next_cursor: string | null;
}

export function searchMessages(q: string, cursor?: string, signal?: AbortSignal): Promise<SearchPage> {
  const query = new URLSearchParams({ q, limit: String(SEARCH_PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  return apiRequest(`/api/search?${query}`, { signal });
}
