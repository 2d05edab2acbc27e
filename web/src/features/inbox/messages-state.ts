// Pure updates of a conversation's message list, shared by loading, sending and live events.
import type { Message, MessageStatus } from '../../lib/api/types';

const STATUS_RANK: Record<MessageStatus, number> = {
  failed: 0,
  sending: 1,
  pending: 1,
  sent: 2,
  delivered: 3,
  read: 4,
};

/** A status never goes backwards (a late "sent" must not undo "read"); failed always applies. */
function laterStatus(current: MessageStatus, next: MessageStatus): MessageStatus {
  if (next === 'failed') return next;
  return STATUS_RANK[next] >= STATUS_RANK[current] ? next : current;
}

/** Oldest first; messages of one time by id, as the server orders and pages them (code unit order, the ids' bytes). */
function byTime(a: Message, b: Message): number {
  const apart = new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime();
  if (apart !== 0) return apart;
  if (a.message_id === b.message_id) return 0;
  return a.message_id < b.message_id ? -1 : 1;
}

/** Adds messages (a page or a live one), replacing known ids, kept oldest → newest. */
export function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  const known = new Map(current.map((message) => [message.message_id, message]));
  for (const message of incoming) {
    const existing = known.get(message.message_id);
    known.set(
      message.message_id,
      existing ? { ...existing, ...message, status: laterStatus(existing.status, message.status) } : message,
    );
  }
  return [...known.values()].sort(byTime);
}

/**
 * A message the customer edited or deleted, whole as it is now, in place of the shown one (its
 * content is replaced, not merged). A message not shown (an older page) is left to its page.
 */
export function replaceMessage(current: Message[], updated: Message): Message[] {
  return current.map((message) =>
    message.message_id === updated.message_id ? { ...updated, status: laterStatus(message.status, updated.status) } : message,
  );
}

export function applyStatus(current: Message[], messageId: string, status: MessageStatus, error?: unknown): Message[] {
  return current.map((message) =>
    message.message_id === messageId
      ? { ...message, status: laterStatus(message.status, status), error: error ?? message.error }
      : message,
  );
}

/**
 * A status event from the server. The first one for a message we sent names our temporary id
 * as `client_message_id` with the provider's id, which then replaces the temporary one.
 */
export function applyStatusEvent(
  current: Message[],
  event: { message_id: string; client_message_id?: string; status: MessageStatus; error?: unknown },
): Message[] {
  const confirmed = event.client_message_id ? confirmSent(current, event.client_message_id, event.message_id) : current;
  return applyStatus(confirmed, event.message_id, event.status, event.error);
}

/** The provider's id replaces the temporary one; if the live event already brought it, keep that. */
export function confirmSent(current: Message[], tempId: string, providerId: string | undefined): Message[] {
  const id = providerId ?? tempId;
  const withoutTemp = current.filter((message) => message.message_id !== tempId);
  if (id !== tempId && withoutTemp.some((message) => message.message_id === id)) return withoutTemp;
  return current.map((message) =>
    message.message_id === tempId ? { ...message, message_id: id, status: laterStatus(message.status, 'sent') } : message,
  );
}

/**
 * Server copies still under a temporary id that has since been confirmed (a page or an event
 * from before the provider answered) take the provider's id, so they merge with the confirmed
 * copy instead of showing beside it.
 */
export function renameConfirmed(messages: Message[], confirmed: ReadonlyMap<string, string>): Message[] {
  return messages.map((message) => {
    const providerId = confirmed.get(message.message_id);
    return providerId === undefined ? message : { ...message, message_id: providerId };
  });
}

/**
 * Whether the customer wrote `message`: an incoming message that is no notice about them (a new
 * number or security code, type `system`), which WhatsApp writes and which opens no reply window.
 */
export function customerWrote(message: Message): boolean {
  return message.direction === 'incoming' && message.type !== 'system';
}

/** The time of the newest message the customer wrote: the reply window runs 24 h from it. */
export function lastIncomingTimestamp(messages: Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message && customerWrote(message)) return message.timestamp;
  }
  return null;
}
