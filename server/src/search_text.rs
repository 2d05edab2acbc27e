//! The text side of full-history search: how text is folded into the words the index holds, how
//! a typed query becomes words to look for, and the highlighted snippet of a hit. The same
//! folding runs when a document is indexed and when a query is read, so both backends see the
//! same words.
//!
//! Folding: Unicode full case folding (`ß` and `ẞ` as `ss`, `ﬁ` as `fi`, final `ς` as `σ`, `İ`
//! as `i`); a letter of the Latin, Greek or Cyrillic script without its accents, as its canonical
//! decomposition shows them (`é` as `e`, `ñ` as `n`, `ç` as `c`, `ά` as `α`, `ё` as `е`,
//! composed or typed apart as `e` and U+0301; letters that do not decompose stay: `ø`, `đ`, `ł`,
//! `ı`); Arabic diacritics (tashkeel U+064B–U+065F, dagger alef U+0670) and tatweel (U+0640)
//! dropped; alef forms (أ إ آ ٱ) read as ا, alef maqsura (ى) as ي, ta marbuta (ة) as ه;
//! Arabic-Indic digits (U+0660–U+0669, U+06F0–U+06F9) as ASCII digits; another combining mark
//! joins the letter before it (`か` and U+3099 is `が`). Every other character that is not a
//! letter or digit separates words.

use caseless::Caseless;
use unicode_normalization::char::{compose, decompose_canonical, is_combining_mark};

/// Most words a query may hold; one with more is refused (`QueryError::TooManyWords`).
pub const MAX_QUERY_WORDS: usize = 12;
/// Characters of context a snippet shows before its first match.
const SNIPPET_BEFORE: usize = 40;
/// Characters a snippet shows from its first match on.
const SNIPPET_AFTER: usize = 120;
/// Characters that may sit between the digit groups of a phone number.
const PHONE_SEPARATORS: &[char] = &[' ', '-', '+', '(', ')', '.', '/'];

/// What one character folds to.
enum Folded {
    /// Part of a word.
    Char(char),
    /// Inside a word but not part of it (a diacritic, tatweel, a Latin letter's accent).
    Nothing,
    /// Between words.
    Separator,
}

fn fold_char(c: char) -> Folded {
    match c {
        '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{0640}' => Folded::Nothing,
        'أ' | 'إ' | 'آ' | 'ٱ' => Folded::Char('ا'),
        'ى' => Folded::Char('ي'),
        'ة' => Folded::Char('ه'),
        c if c.is_alphanumeric() => Folded::Char(ascii_digit(c).unwrap_or(c)),
        _ => Folded::Separator,
    }
}

/// The ASCII digit an Arabic-Indic digit (U+0660–U+0669, U+06F0–U+06F9) stands for; `None`
/// for any other character.
pub fn ascii_digit(c: char) -> Option<char> {
    let value = match c {
        '\u{0660}'..='\u{0669}' => c as u32 - 0x0660,
        '\u{06F0}'..='\u{06F9}' => c as u32 - 0x06F0,
        _ => return None,
    };
    char::from_digit(value, 10)
}

/// A character's Unicode full case folding (`ß` is `ss`): what case-insensitive matching
/// compares, beyond lower case. The dot that `İ` folds apart into (`i` and U+0307) is an accent
/// of a Latin letter, dropped with the others (`fold_letter`), so `istanbul` finds İstanbul.
fn case_fold(c: char) -> impl Iterator<Item = char> {
    std::iter::once(c).default_case_fold()
}

/// A name or shortcut as one compared ignoring case: its full case folding (`Straße` and
/// `STRASSE` are one), composed (NFC) as the names themselves are kept.
pub fn caseless_key(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.chars().flat_map(case_fold).nfc().collect()
}

/// Whether a letter is of the Latin, Greek or Cyrillic script (by the blocks that hold their
/// letters), whose accents folding drops.
fn drops_accents(c: char) -> bool {
    matches!(c,
        // Latin: ASCII, Latin-1, Extended-A and -B, IPA, phonetic extensions, Extended
        // Additional (Vietnamese), -C, -D, -E, ligatures, full-width, Kelvin and Ångström signs.
        'A'..='Z' | 'a'..='z' | '\u{00C0}'..='\u{02AF}' | '\u{1D00}'..='\u{1DBF}'
        | '\u{1E00}'..='\u{1EFF}' | '\u{2C60}'..='\u{2C7F}' | '\u{A720}'..='\u{A7FF}'
        | '\u{AB30}'..='\u{AB6F}' | '\u{FB00}'..='\u{FB06}' | '\u{FF21}'..='\u{FF3A}'
        | '\u{FF41}'..='\u{FF5A}' | '\u{212A}' | '\u{212B}'
        // Greek and Coptic, Greek Extended, the Ohm sign.
        | '\u{0370}'..='\u{03FF}' | '\u{1F00}'..='\u{1FFF}' | '\u{2126}'
        // Cyrillic, its Supplement, Extended-A (combining letters), -B and -C.
        | '\u{0400}'..='\u{052F}' | '\u{2DE0}'..='\u{2DFF}' | '\u{A640}'..='\u{A69F}'
        | '\u{1C80}'..='\u{1C8F}')
}

/// Adds what a letter or digit folds to to `word`: its full case folding, and for a letter of
/// the Latin, Greek or Cyrillic script first its canonical decomposition without the combining
/// marks (`É` is `E` and U+0301, so `e`). The folding is decomposed again (Unicode's canonical
/// caseless match), so no accent comes back through it.
fn fold_letter(c: char, word: &mut String) {
    if !drops_accents(c) {
        word.extend(case_fold(c));
        return;
    }
    decompose_canonical(c, |part| {
        if !is_combining_mark(part) {
            for folded in case_fold(part) {
                decompose_canonical(folded, |base| {
                    if !is_combining_mark(base) {
                        word.push(base);
                    }
                });
            }
        }
    });
}

/// A folded word and where it stands in the original text (byte range).
struct Word {
    folded: String,
    start: usize,
    end: usize,
}

/// The folded words of a text, with their places.
fn words_of(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut current: Option<Word> = None;
    for (at, c) in text.char_indices() {
        let folded = match current.as_ref() {
            // The accent of a Latin, Greek or Cyrillic letter typed apart (`e` and U+0301) is
            // dropped, as the composed letter's is.
            Some(word) if is_combining_mark(c) && word.folded.ends_with(drops_accents) => {
                Folded::Nothing
            }
            _ => fold_char(c),
        };
        match folded {
            Folded::Char(f) => {
                let word = current.get_or_insert_with(|| Word {
                    folded: String::new(),
                    start: at,
                    end: at,
                });
                fold_letter(f, &mut word.folded);
                word.end = at + c.len_utf8();
            }
            Folded::Nothing => {
                if let Some(word) = current.as_mut() {
                    word.end = at + c.len_utf8();
                }
            }
            // Another combining mark inside a word (the voicing mark of a が typed as か and
            // U+3099) joins the letter before it, so a word folds the same in either Unicode
            // form; one with no composed letter is dropped.
            Folded::Separator if is_combining_mark(c) => {
                if let Some(word) = current.as_mut() {
                    let last = word.folded.pop();
                    match last.and_then(|l| compose(l, c)) {
                        // Folded again, as the letter typed composed is.
                        Some(composed) => fold_letter(composed, &mut word.folded),
                        None => word.folded.extend(last),
                    }
                    word.end = at + c.len_utf8();
                }
            }
            Folded::Separator => words.extend(current.take()),
        }
    }
    words.extend(current);
    words.retain(|w| !w.folded.is_empty());
    words
}

/// The digits of a text's phone-like runs written in groups ("055-512 3456" → "0555123456"),
/// so a number typed without its separators finds them.
fn phone_runs(text: &str) -> Vec<String> {
    let mut runs = Vec::new();
    let (mut digits, mut groups, mut in_group) = (String::new(), 0, false);
    for c in text.chars().chain(std::iter::once('\n')) {
        match fold_char(c) {
            Folded::Char(d) if d.is_ascii_digit() => {
                digits.push(d);
                groups += usize::from(!in_group);
                in_group = true;
            }
            _ if PHONE_SEPARATORS.contains(&c) => in_group = false,
            _ => {
                if groups > 1 {
                    runs.push(std::mem::take(&mut digits));
                }
                digits.clear();
                (groups, in_group) = (0, false);
            }
        }
    }
    runs
}

/// The folded text a search document is indexed by: its words separated by single spaces, then
/// the digits of each phone-like run written in groups.
pub fn index_text(text: &str) -> String {
    let mut words: Vec<String> = words_of(text).into_iter().map(|w| w.folded).collect();
    words.extend(phone_runs(text));
    words.join(" ")
}

/// A text's folded words separated by single spaces: what automated reply triggers are matched
/// by.
pub fn folded_words(text: &str) -> String {
    let words: Vec<String> = words_of(text).into_iter().map(|w| w.folded).collect();
    words.join(" ")
}

/// What a typed query looks for: every word, the last one as a prefix.
#[derive(Debug, PartialEq, Eq)]
pub struct Query {
    /// Folded words, letters and digits only; never empty.
    pub words: Vec<String>,
}

/// Why a typed text is no query; reads after the parameter's name ("q must …").
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("must contain a letter or a digit")]
    NoWord,
    #[error("may hold at most {MAX_QUERY_WORDS} words")]
    TooManyWords,
}

impl Query {
    /// Reads a typed query: refused when it holds no letter or digit, or more than
    /// `MAX_QUERY_WORDS` words. A query of digits and phone separators only is one number
    /// ("+966 55-512" looks for "96655512…").
    pub fn parse(raw: &str) -> Result<Query, QueryError> {
        let only_number = raw.chars().all(|c| {
            PHONE_SEPARATORS.contains(&c)
                || matches!(fold_char(c), Folded::Char(d) if d.is_ascii_digit())
        });
        let words: Vec<String> = if only_number {
            let digits: String = words_of(raw).into_iter().map(|w| w.folded).collect();
            vec![digits]
        } else {
            words_of(raw).into_iter().map(|w| w.folded).collect()
        };
        if words.iter().all(String::is_empty) {
            return Err(QueryError::NoWord);
        }
        if words.len() > MAX_QUERY_WORDS {
            return Err(QueryError::TooManyWords);
        }
        Ok(Query { words })
    }

    /// Whether the query is one number: digits only (typed with or without separators).
    pub fn is_number(&self) -> bool {
        self.words.len() == 1 && self.words[0].bytes().all(|b| b.is_ascii_digit())
    }

    /// Whether a folded word of a document is one the query looks for.
    fn matches(&self, word: &str) -> bool {
        let last = self.words.len() - 1;
        self.words.iter().enumerate().any(|(i, wanted)| {
            if i == last {
                word.starts_with(wanted.as_str())
            } else {
                word == wanted
            }
        })
    }
}

/// A short excerpt of `text` around the first match, every match wrapped in `<mark>`…`</mark>`
/// and everything else HTML-escaped. Without a visible match it is the text's beginning.
pub fn snippet(text: &str, query: &Query) -> String {
    let marked: Vec<(usize, usize)> = words_of(text)
        .into_iter()
        .filter(|w| query.matches(&w.folded))
        .map(|w| (w.start, w.end))
        .collect();
    let first = marked.first().map_or(0, |&(start, _)| start);
    let from = text[..first]
        .char_indices()
        .rev()
        .nth(SNIPPET_BEFORE - 1)
        .map_or(0, |(at, _)| at);
    let to = text[first..]
        .char_indices()
        .nth(SNIPPET_AFTER)
        .map_or(text.len(), |(at, _)| first + at);
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    let mut at = from;
    for &(start, end) in marked.iter().filter(|&&(s, e)| s >= from && e <= to) {
        escape_into(&mut out, &text[at..start]);
        out.push_str("<mark>");
        escape_into(&mut out, &text[start..end]);
        out.push_str("</mark>");
        at = end;
    }
    escape_into(&mut out, &text[at..to]);
    if to < text.len() {
        out.push('…');
    }
    out
}

/// Appends `text` HTML-escaped, line breaks as spaces.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests;
