//! Names people type: of users, agents and contacts. A name is at most `NAME_MAX` characters
//! and holds no character that hides or reorders text when shown (bidi overrides and isolates,
//! zero-width characters), so a name cannot pass for another one in the inbox, and no control
//! character at all: stricter than the door's check of every field (`client_text`), which lets
//! tabs and line breaks through for messages and notes.

use crate::error::{ApiError, ApiResult, non_blank, required};
use crate::plain_text::ControlCharacter;

/// Longest name, in characters.
pub const NAME_MAX: usize = 100;

/// True for characters that change how the text around them is shown without showing
/// themselves: bidi embeddings and overrides (U+202A–U+202E), bidi isolates (U+2066–U+2069),
/// zero-width space, non-joiner and joiner (U+200B–U+200D), word joiner (U+2060) and the
/// zero-width no-break space (U+FEFF).
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200B}'..='\u{200D}'
        | '\u{2060}' | '\u{FEFF}')
}

/// Refuses `text` of the field `field` when it holds a control or a hidden character.
pub fn check_visible(field: &str, text: &str) -> ApiResult<()> {
    if text.chars().any(char::is_control) {
        return Err(ControlCharacter(field.to_string()).into());
    }
    if text.chars().any(is_hidden) {
        return Err(ApiError::Unprocessable(format!(
            "{field} must not contain invisible or direction-changing characters"
        )));
    }
    Ok(())
}

/// A name, trimmed: visible characters only, at most `NAME_MAX` of them; 422 naming the field.
pub fn name(field: &str, raw: &str) -> ApiResult<String> {
    let name = raw.trim();
    check_visible(field, name)?;
    if name.chars().count() > NAME_MAX {
        return Err(ApiError::Unprocessable(format!(
            "{field} must be at most {NAME_MAX} characters"
        )));
    }
    Ok(name.to_string())
}

/// A required name: present, not blank, and a valid `name`.
pub fn required_name(value: &Option<String>, field: &str) -> ApiResult<String> {
    name(field, &required(value, field)?)
}

/// An optional name: `None` when absent or blank, else a valid `name`.
pub fn optional_name(value: &Option<String>, field: &str) -> ApiResult<Option<String>> {
    non_blank(value).map(|v| name(field, &v)).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_visible_and_at_most_a_hundred_characters() {
        assert_eq!(name("firstName", "  Zoë ").expect("valid"), "Zoë");
        assert!(name("firstName", &"ع".repeat(NAME_MAX)).is_ok());
        let long = name("lastName", &"x".repeat(NAME_MAX + 1)).expect_err("too long");
        assert!(long.to_string().starts_with("lastName "), "{long}");
        for hidden in [
            '\u{202E}', '\u{2066}', '\u{200B}', '\u{200D}', '\u{2060}', '\u{FEFF}',
        ] {
            let err = name("name", &format!("a{hidden}b")).expect_err("hidden");
            assert!(err.to_string().contains("invisible"), "{err}");
        }
        let control = name("name", "a\nb").expect_err("a line break");
        assert_eq!(
            control.to_string(),
            "name must not contain control characters"
        );
        assert!(name("name", "a\u{85}b").is_err());
    }
}
