import type { Conversation } from '../../lib/api/types';

/** Conversation ids (and their live channels) are `{phoneNumberId}_{customerPhone}`. */
export function conversationIdOf(phoneNumberId: string, phone: string): string {
  return `${phoneNumberId}_${phone}`;
}

/** The conversation id's last underscore-separated segment is the customer's phone. */
export function phoneOfConversation(conversationId: string): string {
  return conversationId.split('_').pop() ?? conversationId;
}

/** A row for a conversation opened before the list knows it (deep link, just-added contact). */
export function placeholderRow(phone: string, conversationId: string): Conversation {
  return {
    phone_number: phone,
    name: null,
    conversation_id: conversationId,
    last_message_content: null,
    last_message_timestamp: null,
    last_incoming_timestamp: null,
    unread_count: 0,
  };
}
