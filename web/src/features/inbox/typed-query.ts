// The word being typed at the caret when it starts with a trigger character: `/` opens the canned
// replies, `@` the teammates a note can mention.

/** The `/query` or `@query` under the caret: where it starts (the trigger) and ends, and what
 * follows the trigger. */
export interface TypedQuery {
  start: number;
  end: number;
  query: string;
}

/**
 * The word that ends at the caret, when it starts with `trigger` at the start of the text or after
 * whitespace; null otherwise (a URL's slashes or an email's `@` never open a list).
 */
export function typedQueryAt(text: string, caret: number, trigger: string): TypedQuery | null {
  const before = text.slice(0, caret);
  const start = Math.max(before.lastIndexOf(' '), before.lastIndexOf('\n'), before.lastIndexOf('\t')) + 1;
  if (before[start] !== trigger) return null;
  return { start, end: caret, query: before.slice(start + 1) };
}

/** The text with the typed word replaced by `inserted`, and where the caret goes: after it. */
export function replaceQuery(text: string, typed: TypedQuery, inserted: string): { text: string; caret: number } {
  return { text: text.slice(0, typed.start) + inserted + text.slice(typed.end), caret: typed.start + inserted.length };
}
