import { useEffect, useState } from 'react';
import { searchMessages, type SearchResult } from '../api/search-api';

export interface MessageSearch {
  /** Whether there is a query long enough to search for. */
  active: boolean;
  /** Message hits, newest first (contact hits are the chat list's). */
  results: SearchResult[];
  loading: boolean;
  failed: boolean;
}

const IDLE: MessageSearch = { active: false, results: [], loading: false, failed: false };

/** Shorter queries match most of a long history (slow, and useless as results). */
const MIN_QUERY_LENGTH = 2;

/** Full-history search of the messages for a (debounced) query; nothing for a shorter one. */
export function useMessageSearch(query: string): MessageSearch {
  const [state, setState] = useState<MessageSearch>(IDLE);
  useEffect(() => {
    if ([...query].length < MIN_QUERY_LENGTH) {
      setState(IDLE);
      return;
    }
    const controller = new AbortController();
    setState((current) => ({ ...current, active: true, loading: true, failed: false }));
    searchMessages(query, undefined, controller.signal)
      .then((page) => setState({ active: true, results: page.results.filter((hit) => hit.message_id !== null), loading: false, failed: false }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ active: true, results: [], loading: false, failed: true });
      });
    return () => controller.abort();
  }, [query]);
  return state;
}
