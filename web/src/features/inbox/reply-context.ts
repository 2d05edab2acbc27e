import type { Message, MessageContext } from '../../lib/api/types';

/** The emoji an agent can react with, as WhatsApp offers them first. */
export const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/** What a quoted reply carries of the message it answers: its text, else its caption, else its
 * file's name (a document without a caption), as the server quotes it. */
export function contextOf(message: Message): MessageContext {
  const { content } = message;
  const filename = content.document?.filename?.trim() || null;
  const text = content.text ?? content.caption ?? filename;
  const direction = message.direction === 'outgoing' ? 'outgoing' : 'incoming';
  return { id: message.message_id, quoted: { type: message.type, text, direction } };
}

/** The emoji shown under a message: the customer's first, then the business's; none twice. */
export function reactionsOf(message: Message): string[] {
  const { customer, business } = message.content.reactions ?? {};
  return [...new Set([customer, business].filter((emoji): emoji is string => Boolean(emoji)))];
}

/** The business's reaction after choosing `emoji`: choosing the current one again takes it off. */
export function nextReaction(message: Message, emoji: string): string {
  return message.content.reactions?.business === emoji ? '' : emoji;
}
