//! Canned replies: the rules of their form, and which ones a `/query` in the composer finds.
//! Only the owner writes them; every member of the business reads them. Their variables
//! (`{{name}}`, `{{phone}}`, `{{agent}}`) are filled by the web app when one is inserted.

use crate::store::{self, CannedReply};

/// Longest shortcut, in characters.
pub const SHORTCUT_MAX: usize = 32;
/// Longest text, in characters.
pub const TEXT_MAX: usize = 4096;

/// Why a canned reply was not saved.
#[derive(Debug, thiserror::Error)]
pub enum CannedError {
    /// A field breaks a rule; the text names the field.
    #[error("{0}")]
    Invalid(String),
    /// Another of the business's canned replies has this shortcut.
    #[error("{0}")]
    ShortcutTaken(String),
    #[error(transparent)]
    Store(store::Error),
}

impl From<store::Error> for CannedError {
    fn from(err: store::Error) -> Self {
        match err {
            store::Error::Conflict(text) => CannedError::ShortcutTaken(text),
            other => CannedError::Store(other),
        }
    }
}

/// A shortcut as stored: trimmed, one word of at most `SHORTCUT_MAX` characters.
pub fn shortcut(raw: &str) -> Result<String, CannedError> {
    let shortcut = raw.trim();
    if shortcut.is_empty() {
        return Err(CannedError::Invalid("shortcut is required".into()));
    }
    if shortcut.chars().any(char::is_whitespace) {
        return Err(CannedError::Invalid(
            "shortcut must not contain spaces".into(),
        ));
    }
    if shortcut.chars().count() > SHORTCUT_MAX {
        return Err(CannedError::Invalid(format!(
            "shortcut must be at most {SHORTCUT_MAX} characters"
        )));
    }
    Ok(shortcut.to_string())
}

/// A text as stored: as typed, not blank, at most `TEXT_MAX` characters.
pub fn text(raw: &str) -> Result<String, CannedError> {
    if raw.trim().is_empty() {
        return Err(CannedError::Invalid("text is required".into()));
    }
    if raw.chars().count() > TEXT_MAX {
        return Err(CannedError::Invalid(format!(
            "text must be at most {TEXT_MAX} characters"
        )));
    }
    Ok(raw.to_string())
}

/// The replies whose shortcut starts with `query`, ignoring case; all of them for no query.
pub fn starting_with(replies: Vec<CannedReply>, query: Option<&str>) -> Vec<CannedReply> {
    let Some(query) = query.map(str::to_lowercase).filter(|q| !q.is_empty()) else {
        return replies;
    };
    replies
        .into_iter()
        .filter(|r| r.shortcut.to_lowercase().starts_with(&query))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shortcut_is_one_trimmed_word_of_at_most_32_characters() {
        assert_eq!(shortcut("  hello ").ok().as_deref(), Some("hello"));
        assert!(shortcut("   ").is_err());
        assert!(shortcut("two words").is_err());
        assert!(shortcut(&"a".repeat(32)).is_ok());
        assert!(shortcut(&"a".repeat(33)).is_err());
    }

    #[test]
    fn a_text_counts_characters_not_bytes() {
        assert!(text(&"ش".repeat(4096)).is_ok());
        assert!(text(&"a".repeat(4097)).is_err());
        assert!(text(" \n ").is_err());
    }
}
