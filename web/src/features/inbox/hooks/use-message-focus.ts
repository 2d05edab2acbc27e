import { useEffect, useState } from 'react';
import type { Message } from '../../../lib/api/types';

/** A message to show: chosen from search results, maybe older than the loaded page. */
export interface MessageFocus {
  key: string;
  messageId: string;
}

interface Loaded {
  messages: Message[];
  hasOlder: boolean;
  loading: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<void>;
}

/**
 * Loads older pages of the conversation until the focused message is among them; answers its id
 * once it is (null before, or when the history holds no such message).
 */
export function useMessageFocus(chat: Loaded, focus: MessageFocus | null): string | null {
  const present = focus !== null && chat.messages.some((message) => message.message_id === focus.messageId);
  const { loading, loadingOlder, hasOlder, loadOlder } = chat;
  useEffect(() => {
    if (!focus || present || loading || loadingOlder || !hasOlder) return;
    void loadOlder();
  }, [focus, present, loading, loadingOlder, hasOlder, loadOlder]);
  return present ? focus.messageId : null;
}

/**
 * The message to show in conversation `key`: the last chosen of `focus` (from search) and a quote
 * whose original is further up (`showQuoted`). Older pages load until it is there; a quoted
 * message the whole history has not calls `onQuoteMissing`.
 */
export function useShownMessage(chat: Loaded, key: string, focus: MessageFocus | null, onQuoteMissing: () => void) {
  const [quoted, setQuoted] = useState<MessageFocus | null>(null);
  const [searched, setSearched] = useState(focus);
  if (searched !== focus) {
    setSearched(focus);
    setQuoted(null);
  }
  const shownId = useMessageFocus(chat, quoted ?? focus);
  const missing = quoted !== null && shownId === null && !chat.loading && !chat.loadingOlder && !chat.hasOlder;
  useEffect(() => {
    if (!missing) return;
    setQuoted(null);
    onQuoteMissing();
  }, [missing, onQuoteMissing]);
  return { shownId, showQuoted: (messageId: string) => setQuoted({ key, messageId }) };
}
