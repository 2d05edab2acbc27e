import { useEffect, useState } from 'react';
import { searchMessages, type SearchResult } from '../api/search-api';

export interface MessageSearch {
  /** Message hits, newest first (contact hits are the chat list's). */
  results: SearchResult[];
  loading: boolean;
  failed: boolean;
}

const IDLE: MessageSearch = { results: [], loading: false, failed: false };

/** Full-history search of the messages for a (debounced) query; nothing for a blank one. */
export function useMessageSearch(query: string): MessageSearch {
  const [state, setState] = useState<MessageSearch>(IDLE);
  useEffect(() => {
    if (!query) {
      setState(IDLE);
      return;
    }
    const controller = new AbortController();
    setState((current) => ({ ...current, loading: true, failed: false }));
    searchMessages(query, undefined, controller.signal)
      .then((page) => setState({ results: page.results.filter((hit) => hit.message_id !== null), loading: false, failed: false }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ results: [], loading: false, failed: true });
      });
    return () => controller.abort();
  }, [query]);
  return state;
}
