import type { Conversation } from '../../lib/api/types';
import { identityOfKey } from '../../lib/customer/customer-key';

/** Conversation ids (and their live channels) are `{phoneNumberId}_{customerKey}`. */
export function conversationIdOf(phoneNumberId: string, key: string): string {
  return `${phoneNumberId}_${key}`;
}

/** A row for a conversation opened before the list knows it (deep link, just-added contact). */
export function placeholderRow(key: string, conversationId: string): Conversation {
  return {
    ...identityOfKey(key),
    name: null,
    conversation_id: conversationId,
    last_message_content: null,
    last_message_timestamp: null,
    last_incoming_timestamp: null,
    unread_count: 0,
  };
}
