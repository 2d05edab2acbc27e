import { apiRequest } from '../../../lib/api/client';
import { queryWords } from '../search-words';

/** Results per search page. */
export const SEARCH_PAGE_SIZE = 20;

/** Most words a search looks for (the server refuses more, in search and in the chat list). */
export const SEARCH_MAX_WORDS = 12;

/**
 * What is searched for as `typed`: its first `SEARCH_MAX_WORDS` words as typed, and whether it had
 * more. Words are counted as the server counts them (punctuation separates words too), so what is
 * sent is never refused for its length.
 */
export function searchedText(typed: string): { text: string; cut: boolean } {
  const text = typed.trim();
  const { cut } = queryWords(text, SEARCH_MAX_WORDS);
  return cut === undefined ? { text, cut: false } : { text: text.slice(0, cut), cut: true };
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
