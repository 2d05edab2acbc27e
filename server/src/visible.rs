//! Characters shown and characters that only change how the text around them is shown (bidi
//! controls, zero-width characters): what names are checked for (`names`) and what a name the
//! provider sends is cleaned of. A zero-width joiner or non-joiner between two visible characters
//! outside ASCII is writing, not hiding: emoji sequences (👩‍💻) and Persian or Indic words need one.

/// Longest name (of a user, an agent, a contact), in characters.
pub const NAME_MAX: usize = 100;

/// True for characters that change how the text around them is shown without showing
/// themselves: bidi embeddings and overrides (U+202A–U+202E), bidi isolates (U+2066–U+2069),
/// bidi marks (left-to-right and right-to-left U+200E, U+200F, Arabic letter U+061C), the
/// deprecated shaping and swapping controls (U+206A–U+206F), zero-width space, non-joiner and
/// joiner (U+200B–U+200D), word joiner and the invisible operators (U+2060–U+2064), the
/// Mongolian vowel separator (U+180E) and the zero-width no-break space (U+FEFF).
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}'
        | '\u{061C}' | '\u{206A}'..='\u{206F}' | '\u{200B}'..='\u{200D}'
        | '\u{2060}'..='\u{2064}' | '\u{180E}' | '\u{FEFF}')
}

/// True for a zero-width non-joiner or joiner (U+200C, U+200D) between two visible characters
/// outside ASCII: where emoji sequences and Persian or Indic words need one. Between ASCII
/// letters, at either end or beside a space it only hides.
fn joins(before: Option<char>, c: char, after: Option<char>) -> bool {
    let visible = |n: Option<char>| {
        n.is_some_and(|n| !n.is_ascii() && !n.is_whitespace() && !n.is_control() && !is_hidden(n))
    };
    matches!(c, '\u{200C}' | '\u{200D}') && visible(before) && visible(after)
}

/// True when the character at `at` of `chars` is hidden and joins nothing.
pub fn hides(chars: &[char], at: usize) -> bool {
    let before = at.checked_sub(1).map(|b| chars[b]);
    is_hidden(chars[at]) && !joins(before, chars[at], chars.get(at + 1).copied())
}

/// The refusal of the field `field` when `text` holds a character that only hides (a joiner
/// where it joins does not); `None` when it holds none.
pub fn hidden_refusal(field: &str, text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len())
        .any(|at| hides(&chars, at))
        .then(|| format!("{field} must not contain invisible or direction-changing characters"))
}

/// True when `text` has no character that shows by itself: only spaces, characters that only
/// hide, and combining marks (an accent with no letter to sit on, `"\u{301}"`). A name or a
/// shortcut of these reads as empty.
pub fn shows_nothing(text: &str) -> bool {
    use unicode_normalization::char::is_combining_mark;
    text.chars()
        .all(|c| c.is_whitespace() || is_hidden(c) || is_combining_mark(c))
}

/// A name the provider sends (a customer's WhatsApp profile name), made fit to show as one:
/// control characters and characters that only hide dropped, trimmed, cut at `NAME_MAX`
/// characters; `None` when nothing is left.
pub fn provider_name(raw: &str) -> Option<String> {
    let chars: Vec<char> = raw.chars().filter(|c| !c.is_control()).collect();
    let kept: String = (0..chars.len())
        .filter(|&at| !hides(&chars, at))
        .map(|at| chars[at])
        .collect();
    let name: String = kept.trim().chars().take(NAME_MAX).collect();
    let name = name.trim_end();
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_providers_name_is_cleaned_and_cut_rather_than_refused() {
        assert_eq!(
            provider_name(" \u{202E}Ali\u{200B}\n Reza 👩\u{200D}💻 ").as_deref(),
            Some("Ali Reza 👩\u{200D}💻")
        );
        let long = provider_name(&format!("{} tail", "ب".repeat(NAME_MAX - 1))).expect("cut");
        assert_eq!(long, "ب".repeat(NAME_MAX - 1));
        assert_eq!(provider_name("\u{200B}\u{FEFF} "), None);
    }

    #[test]
    fn accents_without_a_letter_show_nothing() {
        assert!(shows_nothing(" \u{301}\u{308}\u{200B}"));
        assert!(!shows_nothing("e\u{301}"));
        assert!(!shows_nothing("\u{1F469}"));
    }
}
