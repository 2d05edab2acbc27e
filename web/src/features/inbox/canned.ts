// Canned replies in the composer: the `/query` being typed, which replies it finds, and a reply's
// variables filled from the conversation at the moment it is inserted.
import type { CannedReply } from '../../lib/api/canned-replies';
import type { Conversation } from '../../lib/api/types';
import { titleOf } from './customer-labels';
import { typedQueryAt, type TypedQuery } from './typed-query';

/** Most replies the composer's list shows at once. */
export const MAX_CANNED_SHOWN = 8;

/** What a reply's `{{name}}`, `{{phone}}` and `{{agent}}` become. */
export interface CannedValues {
  name: string;
  phone: string;
  agent: string;
}

/** The `/query` under the caret: where it starts (the slash) and ends, and what follows the slash. */
export type SlashQuery = TypedQuery;

/** The `/word` ending at the caret, at the start of the text or after whitespace. */
export function slashQueryAt(text: string, caret: number): SlashQuery | null {
  return typedQueryAt(text, caret, '/');
}

/** Replies whose shortcut starts with the query first, then those whose shortcut or text holds it. */
export function matchCanned(replies: CannedReply[], query: string): CannedReply[] {
  const wanted = query.toLocaleLowerCase();
  const prefix = replies.filter((reply) => reply.shortcut.toLocaleLowerCase().startsWith(wanted));
  const inside = replies.filter(
    (reply) =>
      !prefix.includes(reply) &&
      (reply.shortcut.toLocaleLowerCase().includes(wanted) || reply.text.toLocaleLowerCase().includes(wanted)),
  );
  return [...prefix, ...inside].slice(0, MAX_CANNED_SHOWN);
}

/** The reply's text with its variables filled; unknown `{{…}}` stay as written. */
export function fillCanned(text: string, values: CannedValues): string {
  return text.replace(/\{\{\s*(name|phone|agent)\s*\}\}/g, (_, variable: keyof CannedValues) => values[variable]);
}

/**
 * The values of a conversation: the contact's name (else their WhatsApp username), their phone's
 * digits (empty for a customer known without a phone) and the signed-in member's name.
 */
export function cannedValuesOf(conversation: Conversation, agent: string): CannedValues {
  return { name: titleOf(conversation) ?? '', phone: conversation.phone_number ?? '', agent };
}
