// The words of a text as the server's search reads them (server/src/search_text.rs): the same
// folding, so the search box counts a query's words as the server does and highlighting finds
// what the server finds.
//
// Folding: Unicode full case folding (`ß` and `ẞ` as `ss`, `ﬁ` as `fi`, final `ς` as `σ`, `İ` as
// a plain `i`); a Latin, Greek or Cyrillic letter without its accents, composed or typed apart
// (`é` and `e` with U+0301 as `e`, `ñ` as `n`; `ø`, `đ`, `ł` stay); Arabic diacritics and tatweel
// dropped; alef forms as ا, ى as ي, ة as ه; Arabic-Indic digits as ASCII digits; another
// combining mark joins the letter before it (`か` and U+3099 is `が`). Every other character that
// is not a letter or digit separates words.

/** Characters that may sit between the digit groups of a phone number. */
const PHONE_SEPARATORS = new Set([' ', '-', '+', '(', ')', '.', '/']);
/** Arabic diacritics (tashkeel, dagger alef) and tatweel: inside a word, not part of it. */
const DROPPED = /[\u064B-\u065F\u0670\u0640]/u;
const ARABIC_FORMS: Record<string, string> = { أ: 'ا', إ: 'ا', آ: 'ا', ٱ: 'ا', ى: 'ي', ة: 'ه' };
/** What Rust's `char::is_alphanumeric` accepts. */
const ALPHANUMERIC = /[\p{Alphabetic}\p{N}]/u;
const COMBINING_MARK = /\p{M}/u;
const COMBINING_MARKS = /\p{M}/gu;
/** The blocks of the Latin, Greek and Cyrillic letters, whose accents folding drops (the server's `drops_accents`). */
const ACCENTED_BLOCKS: [number, number][] = [
  // Latin: ASCII, Latin-1 to IPA, phonetic extensions, Extended Additional, -C, -D, -E, ligatures, full-width.
  [0x41, 0x5a], [0x61, 0x7a], [0xc0, 0x2af], [0x1d00, 0x1dbf], [0x1e00, 0x1eff], [0x2c60, 0x2c7f],
  [0xa720, 0xa7ff], [0xab30, 0xab6f], [0xfb00, 0xfb06], [0xff21, 0xff3a], [0xff41, 0xff5a], [0x212a, 0x212b],
  // Greek and Coptic, Greek Extended, the Ohm sign.
  [0x370, 0x3ff], [0x1f00, 0x1fff], [0x2126, 0x2126],
  // Cyrillic, its Supplement, Extended-A, -B and -C.
  [0x400, 0x52f], [0x2de0, 0x2dff], [0xa640, 0xa69f], [0x1c80, 0x1c8f],
];

function dropsAccents(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return ACCENTED_BLOCKS.some(([first, last]) => code >= first && code <= last);
}

/** Cherokee folds to its capitals, the other way round from every other script. */
const CHEROKEE = /\p{Script=Cherokee}/u;

/**
 * A character's Unicode full case folding (CaseFolding.txt, statuses C and F). Lower case of the
 * upper case of the lower case is that folding for every code point (checked against the whole
 * table) but two: the dotless `ı`, which has none, and Cherokee. The dot `İ` folds apart into
 * (`i` and U+0307) is dropped, as the server drops it.
 */
export function caseFold(char: string): string {
  if (char === 'ı') return char;
  if (CHEROKEE.test(char)) return char.toUpperCase();
  return char.toLowerCase().toUpperCase().toLowerCase().replaceAll('\u0307', '');
}

/** A character's canonical decomposition without its combining marks (`É` as `E`). */
function withoutAccents(text: string): string {
  return text.normalize('NFD').replace(COMBINING_MARKS, '');
}

/**
 * What a letter or digit folds to: its case folding, and for a Latin, Greek or Cyrillic letter
 * first without its accents, the folding's own decomposition too (no accent comes back through it).
 */
function foldLetter(char: string): string {
  if (!dropsAccents(char)) return caseFold(char);
  return [...withoutAccents(char)].map((part) => withoutAccents(caseFold(part))).join('');
}

/** The ASCII digit an Arabic-Indic digit stands for; the character itself otherwise. */
function asciiDigit(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x0660 && code <= 0x0669) return String(code - 0x0660);
  if (code >= 0x06f0 && code <= 0x06f9) return String(code - 0x06f0);
  return char;
}

/** What one character folds to: a letter of a word, nothing (inside a word) or a separator. */
function foldChar(char: string): string | 'nothing' | 'separator' {
  if (DROPPED.test(char)) return 'nothing';
  const form = ARABIC_FORMS[char];
  if (form) return form;
  return ALPHANUMERIC.test(char) ? asciiDigit(char) : 'separator';
}

/** The single character `base` and `mark` compose to, if any. */
function compose(base: string, mark: string): string | undefined {
  const composed = (base + mark).normalize('NFC');
  return [...composed].length === 1 ? composed : undefined;
}

/** A folded word and where it stands in the original text (UTF-16 offsets). */
export interface Word {
  folded: string;
  start: number;
  end: number;
  /** For each UTF-16 unit of `folded`, where the character it folds from starts in the text. */
  from: number[];
  /** For each UTF-16 unit of `folded`, where that character ends, with the marks it carries. */
  to: number[];
}

/** Adds `folded` to the word as coming from the text's `start`…`end`. */
function append(word: Word, folded: string, start: number, end: number) {
  word.folded += folded;
  for (let unit = 0; unit < folded.length; unit += 1) {
    word.from.push(start);
    word.to.push(end);
  }
  word.end = end;
}

/**
 * Joins a combining mark to the word's last letter: the letter it composes with replaces that
 * letter (folded again: `ǰ` folds apart), else the mark is dropped, so a word folds the same in
 * either Unicode form.
 */
function joinMark(word: Word, mark: string, end: number) {
  const last = [...word.folded].pop();
  const composed = last === undefined ? undefined : compose(last, mark);
  if (last === undefined || composed === undefined) return extend(word, end);
  word.folded = word.folded.slice(0, -last.length);
  word.to.length -= last.length;
  const start = word.from.splice(-last.length)[0] ?? word.start;
  append(word, foldLetter(composed), start, end);
}

/** Makes the characters that ended the word at its end now end at `end` (a mark they carry). */
function extend(word: Word, end: number) {
  for (let unit = word.to.length - 1; unit >= 0 && word.to[unit] === word.end; unit -= 1) word.to[unit] = end;
  word.end = end;
}

/** The folded words of a text, with their places (the server's `words_of`). */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let current: Word | undefined;
  let at = 0;
  for (const char of text) {
    const end = at + char.length;
    const last = current && [...current.folded].pop();
    // The accent of a Latin, Greek or Cyrillic letter typed apart is dropped, as the composed one's is.
    const accent = last !== undefined && COMBINING_MARK.test(char) && dropsAccents(last);
    const folded = accent ? 'nothing' : foldChar(char);
    if (folded === 'nothing') {
      if (current) extend(current, end);
    } else if (folded !== 'separator') {
      current ??= { folded: '', start: at, end: at, from: [], to: [] };
      append(current, foldLetter(folded), at, end);
    } else if (COMBINING_MARK.test(char)) {
      if (current) joinMark(current, char, end);
    } else if (current) {
      words.push(current);
      current = undefined;
    }
    at = end;
  }
  if (current) words.push(current);
  return words;
}

/** Whether a typed query is one number: digits and phone separators only (the server's rule). */
function isNumber(typed: string): boolean {
  return [...typed].every((char) => PHONE_SEPARATORS.has(char) || /^[0-9]$/.test(asciiDigit(char)));
}

/**
 * The words a typed query looks for, as the server reads it (`Query::parse`): its folded words,
 * or for digits and phone separators alone one number; empty without a letter or digit. `cut`
 * is where in `typed` the query's first `most` words end, when it holds more.
 */
export function queryWords(typed: string, most = Infinity): { words: string[]; cut?: number } {
  const words = wordsOf(typed);
  if (words.length === 0) return { words: [] };
  if (isNumber(typed)) return { words: [words.map((word) => word.folded).join('')] };
  const cut = words.length > most ? words[most - 1]?.end : undefined;
  return { words: words.map((word) => word.folded), cut };
}
