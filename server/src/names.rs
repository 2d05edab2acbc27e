//! Names people type: of users, agents and contacts. A name is at most `NAME_MAX` characters
//! and holds no character that hides or reorders text when shown (bidi overrides and isolates,
//! zero-width characters), so a name cannot pass for another one in the inbox, and no control
//! character at all. The zero-width joiner and non-joiner are let through where writing needs
//! them: between two visible characters outside ASCII (an emoji sequence such as 👩‍💻, a Persian
//! or Indic word; `visible`): stricter than the door's check of every field (`client_text`), which lets
//! tabs and line breaks through for messages and notes.

use crate::error::{ApiError, ApiResult, non_blank, required};
use crate::plain_text::ControlCharacter;
use crate::visible::{NAME_MAX, hidden_refusal};

/// Refuses `text` of the field `field` when it holds a control character, a line or paragraph
/// separator (U+2028, U+2029: line breaks, as `\n` is) or a hidden character (but a joiner where
/// it joins).
pub fn check_visible(field: &str, text: &str) -> ApiResult<()> {
    if text
        .chars()
        .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return Err(ControlCharacter(field.to_string()).into());
    }
    if let Some(refusal) = hidden_refusal(field, text) {
        return Err(ApiError::Unprocessable(refusal));
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
        for breaking in ['\u{2028}', '\u{2029}'] {
            let err = name("name", &format!("a{breaking}b")).expect_err("a line break");
            assert!(err.to_string().contains("control"), "{err}");
        }
        for mark in [
            '\u{200E}', '\u{200F}', '\u{061C}', '\u{206E}', '\u{2062}', '\u{180E}',
        ] {
            let err = name("name", &format!("a{mark}b")).expect_err("a bidi or zero-width mark");
            assert!(err.to_string().contains("invisible"), "{err}");
        }
    }

    #[test]
    fn a_joiner_is_kept_where_it_joins_and_refused_where_it_only_hides() {
        for joined in ["Sara 👩\u{200D}💻", "محمد\u{200C}رضا", "क्\u{200D}ष"] {
            assert_eq!(name("name", joined).expect("joined"), joined);
        }
        for hiding in [
            "a\u{200C}b",
            "\u{200D}👩",
            "👩\u{200D}",
            "👩 \u{200D}💻",
            "👩\u{200D}\u{200D}💻",
            "ع\u{200B}ب",
        ] {
            assert!(name("name", hiding).is_err(), "{hiding:?}");
        }
    }
}
