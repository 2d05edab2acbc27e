// `@mentions` in a note: the word being typed, which teammates it finds, and what picking one
// writes. The server mentions a user by `@username` (docs/API.md, notes).
import type { TeamMember } from './api/team-api';
import { typedQueryAt, type TypedQuery } from './typed-query';

/** Most teammates the note composer's list shows at once. */
export const MAX_MENTIONS_SHOWN = 8;

/** Letters (any script, so an Arabic name can be typed), digits and a username's `.`, `_`, `-`. */
const MENTION_WORD = /^[\p{L}\p{M}\p{N}._-]*$/u;

/** The `@word` ending at the caret, at the start of the text or after whitespace. */
export function mentionQueryAt(text: string, caret: number): TypedQuery | null {
  const typed = typedQueryAt(text, caret, '@');
  return typed && MENTION_WORD.test(typed.query) ? typed : null;
}

/**
 * The teammates (never `me`: nobody mentions themself) whose username, name or a word of the
 * name starts with the query, ignoring case; in the team's order.
 */
export function matchMembers(members: TeamMember[], query: string, me: string | null): TeamMember[] {
  const wanted = query.toLocaleLowerCase();
  const starts = (value: string) => value.toLocaleLowerCase().startsWith(wanted);
  return members
    .filter((member) => member.id !== me && (starts(member.username) || starts(member.name) || member.name.split(/\s+/).some(starts)))
    .slice(0, MAX_MENTIONS_SHOWN);
}

/** What picking a teammate writes in place of the typed word: the server's form, then a space. */
export function mentionOf(member: TeamMember): string {
  return `@${member.username} `;
}
