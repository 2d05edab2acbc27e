//! Canned replies: the rules of their form, and which ones a `/query` in the composer finds.
//! Only the owner writes them; every member of the business reads them. Their variables
//! (`{{name}}`, `{{phone}}`, `{{agent}}`) are filled by the web app when one is inserted. A
//! reply may carry one file, held to the same types and limits as a file an agent sends.

use std::path::Path;

use unicode_normalization::UnicodeNormalization;

use crate::cloud::{CAPTION_MAX, TEXT_MAX};
use crate::media::{self, MediaError};
use crate::multipart::Part;
use crate::search_text::caseless_key;
use crate::store::{self, CannedMedia, CannedReply, MediaFile, Store};
use crate::visible::{hidden_refusal, shows_nothing};

/// Longest shortcut, in characters.
pub const SHORTCUT_MAX: usize = 32;

/// Why a canned reply was not saved.
#[derive(Debug, thiserror::Error)]
pub enum CannedError {
    /// A field breaks a rule; the text names the field.
    #[error("{0}")]
    Invalid(String),
    /// Another of the business's canned replies has this shortcut.
    #[error("{0}")]
    ShortcutTaken(String),
    /// The file is of a type or size the Cloud API refuses.
    #[error(transparent)]
    Media(#[from] MediaError),
    #[error(transparent)]
    Store(store::Error),
}

/// What a create or an edit asks for; on edit a field left out keeps its value.
#[derive(Default)]
pub struct CannedInput<'a> {
    pub shortcut: Option<&'a str>,
    pub text: Option<&'a str>,
    /// A new file for the reply.
    pub file: Option<&'a Part>,
    /// Drops the reply's file (an edit only).
    pub remove_media: bool,
}

/// Saves a new canned reply, with its file written under `data_dir`.
pub async fn create(
    store: &Store,
    data_dir: &Path,
    business_id: &str,
    input: CannedInput<'_>,
) -> Result<CannedReply, CannedError> {
    let shortcut = shortcut(input.shortcut.unwrap_or_default())?;
    let text = text(input.text.unwrap_or_default())?;
    if input.file.is_some() {
        caption(&text)?;
    }
    let file = match input.file {
        Some(part) => Some(write_file(data_dir, business_id, part).await?),
        None => None,
    };
    let saved = store
        .add_canned_reply(business_id, &shortcut, &text, file.as_ref())
        .await;
    forget_if_unsaved(data_dir, file.as_ref(), &saved).await;
    Ok(saved?)
}

/// Edits a canned reply: a new file replaces its file, `remove_media` drops it.
pub async fn update(
    store: &Store,
    data_dir: &Path,
    business_id: &str,
    id: &str,
    input: CannedInput<'_>,
) -> Result<CannedReply, CannedError> {
    // An unknown id is refused before a file is written for it.
    let current = store.canned_reply(business_id, id).await?;
    let shortcut = input.shortcut.map(shortcut).transpose()?;
    let text = input.text.map(text).transpose()?;
    if input.file.is_some() || (current.media.is_some() && !input.remove_media) {
        caption(text.as_deref().unwrap_or(&current.text))?;
    }
    let file = match (input.file, input.remove_media) {
        (Some(_), true) => {
            return Err(CannedError::Invalid(
                "send either a file or remove_media, not both".into(),
            ));
        }
        (Some(part), false) => Some(write_file(data_dir, business_id, part).await?),
        (None, _) => None,
    };
    let media = match (&file, input.remove_media) {
        (Some(file), _) => CannedMedia::Replace(file),
        (None, true) => CannedMedia::Remove,
        (None, false) => CannedMedia::Keep,
    };
    let saved = store
        .update_canned_reply(business_id, id, shortcut.as_deref(), text.as_deref(), media)
        .await;
    forget_if_unsaved(data_dir, file.as_ref(), &saved).await;
    Ok(saved?)
}

/// Checks an uploaded file as a chat attachment is checked, and writes it under a new id.
async fn write_file(
    data_dir: &Path,
    business_id: &str,
    part: &Part,
) -> Result<MediaFile, CannedError> {
    let (mime, kind) = media::check_upload(&part.bytes, None)?;
    let filename = media::file_name(part.filename.as_deref(), mime, kind);
    let id = uuid::Uuid::new_v4().to_string();
    let path = media::write_file(data_dir, business_id, &id, &part.bytes).await?;
    Ok(MediaFile {
        id,
        mime_type: mime.to_string(),
        size: part.bytes.len() as i64,
        filename,
        path,
    })
}

/// Nothing refers to a file written for a save that failed.
async fn forget_if_unsaved<T>(
    data_dir: &Path,
    file: Option<&MediaFile>,
    saved: &Result<T, store::Error>,
) {
    if let (Some(file), Err(_)) = (file, saved) {
        let _ = tokio::fs::remove_file(data_dir.join(&file.path)).await;
    }
}

impl From<store::Error> for CannedError {
    fn from(err: store::Error) -> Self {
        match err {
            store::Error::Conflict(text) => CannedError::ShortcutTaken(text),
            other => CannedError::Store(other),
        }
    }
}

/// A shortcut as stored: trimmed, one word of at most `SHORTCUT_MAX` characters, in the
/// composed form (NFC) so that shortcuts which look the same are the same, with a character that
/// shows (not only accents) and none that only hides. It does not start with `/`: the composer's
/// `/` opens the replies and the shortcut follows it (a shortcut `/hi` would need `//hi`).
pub fn shortcut(raw: &str) -> Result<String, CannedError> {
    let shortcut: String = raw.trim().nfc().collect();
    if shows_nothing(&shortcut) {
        return Err(CannedError::Invalid("shortcut is required".into()));
    }
    if shortcut.starts_with('/') {
        return Err(CannedError::Invalid(
            "shortcut must not start with / (the composer's / is typed before it)".into(),
        ));
    }
    if shortcut.chars().any(char::is_whitespace) {
        return Err(CannedError::Invalid(
            "shortcut must not contain spaces".into(),
        ));
    }
    if let Some(refusal) = hidden_refusal("shortcut", &shortcut) {
        return Err(CannedError::Invalid(refusal));
    }
    if shortcut.chars().count() > SHORTCUT_MAX {
        return Err(CannedError::Invalid(format!(
            "shortcut must be at most {SHORTCUT_MAX} characters"
        )));
    }
    Ok(shortcut)
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

/// The text of a reply with a file, which goes out as the file's caption: at most `CAPTION_MAX`
/// characters.
fn caption(text: &str) -> Result<(), CannedError> {
    match text.chars().count() > CAPTION_MAX {
        true => Err(CannedError::Invalid(format!(
            "text must be at most {CAPTION_MAX} characters with a file (it is the file's caption)"
        ))),
        false => Ok(()),
    }
}

/// The replies whose shortcut starts with `query`, ignoring case; all of them for no query.
pub fn starting_with(replies: Vec<CannedReply>, query: Option<&str>) -> Vec<CannedReply> {
    let Some(query) = query
        .map(|q| caseless_key(&q.nfc().collect::<String>()))
        .filter(|q| !q.is_empty())
    else {
        return replies;
    };
    replies
        .into_iter()
        .filter(|r| caseless_key(&r.shortcut).starts_with(&query))
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
