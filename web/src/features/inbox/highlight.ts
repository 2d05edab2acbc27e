import { queryWords, wordsOf, type Word } from './search-words';

export interface TextPart {
  text: string;
  match: boolean;
}

/** Where a match stands in the original text: start and end (UTF-16 offsets). */
type Range = [number, number];

/** Every place `needle` starts in `haystack`, occurrences not overlapping. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** The text's words joined by single spaces, as the server's folded text: each space stands for what lay between. */
function joined(words: Word[]): Word | undefined {
  return words.reduce<Word | undefined>((text, word) => {
    if (!text) return { ...word, from: [...word.from], to: [...word.to] };
    return {
      ...text,
      folded: `${text.folded} ${word.folded}`,
      end: word.end,
      from: [...text.from, text.end, ...word.from],
      to: [...text.to, word.start, ...word.to],
    };
  }, undefined);
}

/** The original text of folded units `start`…`end` of `word`: whole characters, with their marks. */
function rangeOf(word: Word, start: number, end: number): Range {
  return [word.from[start] ?? word.start, word.to[end - 1] ?? word.end];
}

/**
 * What the server matches for the query's folded words: each word of the text that is one of them
 * (the last as a prefix), as the list's word search finds a contact, and the words in a row
 * anywhere, as its search anywhere in a name or number does.
 */
function foldedMatches(text: string, wanted: string[]): Range[] {
  const words = wordsOf(text);
  const last = wanted.length - 1;
  const ranges = words.flatMap((word) =>
    wanted
      .filter((query, i) => (i === last ? word.folded.startsWith(query) : word.folded === query))
      .map((query) => rangeOf(word, 0, query.length)),
  );
  const all = joined(words);
  const phrase = wanted.join(' ');
  if (all) ranges.push(...occurrences(all.folded, phrase).map((at) => rangeOf(all, at, at + phrase.length)));
  return ranges;
}

/** The text split into parts, the ranges (merged where they meet) marked. */
function partsOf(text: string, ranges: Range[]): TextPart[] {
  const parts: TextPart[] = [];
  let from = 0;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < sorted.length; i += 1) {
    const [start] = sorted[i] ?? [0, 0];
    let end = sorted[i]?.[1] ?? 0;
    while ((sorted[i + 1]?.[0] ?? Infinity) <= end) {
      i += 1;
      end = Math.max(end, sorted[i]?.[1] ?? 0);
    }
    if (start > from) parts.push({ text: text.slice(from, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    from = end;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return parts;
}

/**
 * Splits text around what a search for `query` finds in it, folded as the server folds (full case
 * folding, Latin, Greek and Cyrillic accents dropped, Arabic letter forms together), each match the original characters it
 * folds from. A query without a letter or digit is found as typed, as the server looks for it.
 */
export function highlightParts(text: string, query: string): TextPart[] {
  const typed = query.trim();
  if (!typed) return [{ text, match: false }];
  const { words } = queryWords(typed);
  const ranges: Range[] =
    words.length > 0 ? foldedMatches(text, words) : occurrences(text, typed).map((at) => [at, at + typed.length]);
  return partsOf(text, ranges);
}
