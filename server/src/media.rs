//! Files agents send and customers send: the type is read from the bytes (never trusted from
//! the client), checked against the Cloud API's limits, and kept under the data dir.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};
use crate::store::{MediaFile, Store};
use crate::templates::media::{FileKind, sniff as kind_of};

const MB: usize = 1024 * 1024;

/// The Cloud API's kinds of media message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MediaKind {
    Image,
    Video,
    Audio,
    Document,
}

impl MediaKind {
    pub fn name(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Video => "video",
            MediaKind::Audio => "audio",
            MediaKind::Document => "document",
        }
    }

    /// The Cloud API's size limit for this kind.
    pub fn limit(self) -> usize {
        match self {
            MediaKind::Image => 5 * MB,
            MediaKind::Video | MediaKind::Audio => 16 * MB,
            MediaKind::Document => 100 * MB,
        }
    }
}

/// What the Cloud API takes of a file whose first bytes were read (`templates::media::sniff`):
/// (MIME type, kind), or `None` when unsupported.
pub fn sniff(bytes: &[u8]) -> Option<(&'static str, MediaKind)> {
    Some(match kind_of(bytes) {
        FileKind::Jpeg => ("image/jpeg", MediaKind::Image),
        FileKind::Png => ("image/png", MediaKind::Image),
        FileKind::Mp4 => ("video/mp4", MediaKind::Video),
        FileKind::ThreeGp => ("video/3gpp", MediaKind::Video),
        FileKind::Ogg => ("audio/ogg", MediaKind::Audio),
        FileKind::Mp3 => ("audio/mpeg", MediaKind::Audio),
        FileKind::Aac => ("audio/aac", MediaKind::Audio),
        FileKind::Amr => ("audio/amr", MediaKind::Audio),
        FileKind::M4a => ("audio/mp4", MediaKind::Audio),
        FileKind::Pdf => ("application/pdf", MediaKind::Document),
        FileKind::Ole => ("application/msword", MediaKind::Document),
        // A zip is a Word document only when it holds the `word/` part.
        FileKind::Zip if contains(&bytes[..bytes.len().min(64 * 1024)], b"word/") => (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            MediaKind::Document,
        ),
        _ => return None,
    })
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Checks an upload: a supported type within its limit, and the kind the client named (if any).
pub fn check_upload(
    bytes: &[u8],
    claimed_kind: Option<&str>,
) -> ApiResult<(&'static str, MediaKind)> {
    if bytes.is_empty() {
        return Err(ApiError::Unprocessable("The file is empty".into()));
    }
    let (mime, kind) = sniff(bytes).ok_or_else(|| {
        ApiError::Unsupported(
            "Unsupported file type: send an image (jpeg, png), audio (ogg/opus, mp3, aac, amr, \
             m4a), video (mp4, 3gp), pdf, doc or docx"
                .into(),
        )
    })?;
    if let Some(claimed) =
        claimed_kind.filter(|c| matches!(*c, "image" | "video" | "audio" | "document"))
        && claimed != kind.name()
    {
        return Err(ApiError::Unprocessable(format!(
            "The file was sent as {claimed} but its content is {mime}"
        )));
    }
    if bytes.len() > kind.limit() {
        return Err(ApiError::Unprocessable(format!(
            "The {} is {:.1} MB; the limit for {} files is {} MB",
            kind.name(),
            bytes.len() as f64 / MB as f64,
            kind.name(),
            kind.limit() / MB
        )));
    }
    Ok((mime, kind))
}

/// Writes a business's file under `media/<business>/<id>` and records it.
pub async fn store_file(
    store: &Store,
    data_dir: &Path,
    business_id: &str,
    id: &str,
    bytes: &[u8],
    mime_type: &str,
    filename: &str,
) -> ApiResult<MediaFile> {
    let relative = format!(
        "media/{}/{}",
        hex::encode(Sha256::digest(business_id))[..16].to_owned(),
        id
    );
    let path = data_dir.join(&relative);
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent)
            .await
            .map_err(anyhow::Error::from)?;
    }
    tokio::fs::write(&path, bytes)
        .await
        .map_err(anyhow::Error::from)?;
    let file = MediaFile {
        id: id.to_string(),
        mime_type: mime_type.to_string(),
        size: bytes.len() as i64,
        filename: filename.to_string(),
        path: relative,
    };
    store.insert_media(business_id, &file).await?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_read_from_the_bytes() {
        assert_eq!(sniff(b"%PDF-1.7 ...").map(|s| s.0), Some("application/pdf"));
        assert_eq!(
            sniff(b"\x89PNG\r\n\x1a\n....").map(|s| s.1),
            Some(MediaKind::Image)
        );
        assert_eq!(sniff(b"OggS\0\x02").map(|s| s.1), Some(MediaKind::Audio));
        assert_eq!(sniff(b"\0\0\0\x18ftypmp42").map(|s| s.0), Some("video/mp4"));
        assert_eq!(sniff(b"hello, plain text"), None);
    }

    #[test]
    fn a_mislabelled_or_oversized_file_is_refused() {
        assert!(check_upload(b"%PDF-1.4", Some("image")).is_err());
        let mut big = vec![0xFF, 0xD8, 0xFF];
        big.resize(5 * MB + 1, 0);
        assert!(check_upload(&big, None).is_err());
        assert!(check_upload(b"%PDF-1.4", Some("document")).is_ok());
    }
}
