//! Multipart forms and their limits. A form read into memory (`Form::read`) holds text fields
//! and files alike as parts; a file longer than its limit is cut at one byte past it, so a size
//! rule can still say "too large" without the server holding the whole upload. Typed forms
//! (`MultipartForm`) have the limits below too. Both refuse with `FormError`.

use actix_multipart::form::text::Text;
use actix_multipart::{Multipart, MultipartError};
use actix_web::error::PayloadError;
use futures_util::TryStreamExt;

use crate::plain_text::{self, ControlCharacter};

/// A form that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FormError {
    #[error("Too many form parts (at most {MAX_PARTS})")]
    TooManyParts,
    #[error("{0} is too long (at most {mb} MB)", mb = MAX_TEXT / MB)]
    FieldTooLong(String),
    /// A typed form over its limits.
    #[error(
        "The form is too large (at most {} MB in all, its text fields at most {} MB)",
        MAX_UPLOAD / MB,
        MAX_FORM_TEXT / MB
    )]
    TooLarge,
    #[error("The body must be multipart/form-data")]
    NotMultipart,
    #[error("Invalid multipart body: {0}")]
    Invalid(String),
    #[error(transparent)]
    ControlCharacter(#[from] ControlCharacter),
}

impl From<&MultipartError> for FormError {
    fn from(err: &MultipartError) -> Self {
        match err {
            MultipartError::ContentTypeMissing
            | MultipartError::ContentTypeParse
            | MultipartError::ContentTypeIncompatible => FormError::NotMultipart,
            MultipartError::Payload(PayloadError::Overflow) => FormError::TooLarge,
            other => FormError::Invalid(other.to_string()),
        }
    }
}

const MB: usize = 1024 * 1024;
/// Most parts one form may have.
const MAX_PARTS: usize = 200;
/// Most bytes of a part without a file name (a text field).
const MAX_TEXT: usize = MB;
/// Largest typed multipart upload (documents may be 100 MB).
pub const MAX_UPLOAD: usize = 110 * MB;
/// Most bytes of a typed form's text fields together.
pub const MAX_FORM_TEXT: usize = 2 * MB;

/// One part of the form.
pub struct Part {
    pub name: String,
    /// Present on file parts.
    pub filename: Option<String>,
    pub content_type: Option<String>,
    /// The bytes, at most the limit plus one.
    pub bytes: Vec<u8>,
}

impl Part {
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// The parts of a form, in order.
pub struct Form {
    pub parts: Vec<Part>,
}

impl Form {
    /// Reads every part; file parts keep at most `max_file + 1` bytes.
    pub async fn read(mut payload: Multipart, max_file: usize) -> Result<Form, FormError> {
        let mut parts = Vec::new();
        while let Some(mut field) = payload.try_next().await.map_err(|e| FormError::from(&e))? {
            if parts.len() == MAX_PARTS {
                return Err(FormError::TooManyParts);
            }
            let name = field.name().unwrap_or_default().to_string();
            // `filename*=UTF-8''…` (RFC 5987), as some clients name files beyond ASCII, is
            // a file's name too; it wins over the plain fallback.
            let filename = field.content_disposition().and_then(|d| {
                d.get_filename_ext()
                    .map(|ext| String::from_utf8_lossy(&ext.value).into_owned())
                    .or_else(|| d.get_filename().map(String::from))
            });
            let content_type = field.content_type().map(|m| m.essence_str().to_string());
            let limit = if filename.is_some() {
                max_file
            } else {
                MAX_TEXT
            };
            let mut bytes = Vec::new();
            while let Some(chunk) = field.try_next().await.map_err(|e| FormError::from(&e))? {
                let room = (limit + 1).saturating_sub(bytes.len());
                bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
                if bytes.len() > limit {
                    if filename.is_none() {
                        return Err(FormError::FieldTooLong(name));
                    }
                    break;
                }
            }
            match &filename {
                Some(filename) => plain_text::check(&name, filename)?,
                None => plain_text::check_field(&name, &String::from_utf8_lossy(&bytes))?,
            }
            parts.push(Part {
                name,
                filename,
                content_type,
                bytes,
            });
        }
        Ok(Form { parts })
    }

    /// The first part named `name`.
    pub fn part(&self, name: &str) -> Option<&Part> {
        self.parts.iter().find(|p| p.name == name)
    }

    /// The text of the first part named `name`.
    pub fn text(&self, name: &str) -> Option<String> {
        self.part(name).map(Part::text)
    }

    /// The first non-empty file part named `name` (browsers send an empty part for no file).
    pub fn file(&self, name: &str) -> Option<&Part> {
        self.parts
            .iter()
            .find(|p| p.name == name && p.filename.is_some() && !p.bytes.is_empty())
    }

    /// The first file part named `name` that names its file or holds bytes: an empty file the
    /// client chose is there, to be refused as empty; the nameless empty part browsers send for
    /// no file is not.
    pub fn chosen_file(&self, name: &str) -> Option<&Part> {
        self.parts.iter().find(|p| {
            p.name == name
                && p.filename
                    .as_deref()
                    .is_some_and(|file| !file.is_empty() || !p.bytes.is_empty())
        })
    }
}

/// Refuses the first text field, of a form read by `MultipartForm`, with a control character.
pub fn check_texts<'a>(
    fields: impl IntoIterator<Item = (&'a str, &'a Option<Text<String>>)>,
) -> Result<(), ControlCharacter> {
    fields.into_iter().try_for_each(|(name, text)| match text {
        Some(text) => plain_text::check_field(name, &text.0),
        None => Ok(()),
    })
}
