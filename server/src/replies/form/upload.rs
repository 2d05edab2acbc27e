//! An uploaded file a reply may send: its type told by its bytes, its size within the limit.

use super::{FormResult, invalid};
use crate::media::{FileKind, sniff};
use crate::multipart::Part;

const MB: u64 = 1024 * 1024;

/// A file of the form that passed the checks, to be written and recorded.
pub struct Upload<'a> {
    pub part: &'a Part,
    pub mime_type: &'static str,
    /// `image`, `video`, `audio` or `document`.
    pub media_type: &'static str,
}

/// An uploaded file the reply may send: its type from its bytes (and, for Office files, the
/// name), within the Cloud API's limit for that type.
pub fn upload(part: &Part) -> FormResult<Upload<'_>> {
    let extension = part
        .filename
        .as_deref()
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    let (mime_type, media_type) = match (sniff(&part.bytes), extension.as_str()) {
        (FileKind::Png, _) => ("image/png", "image"),
        (FileKind::Jpeg, _) => ("image/jpeg", "image"),
        (FileKind::Mp4, _) => ("video/mp4", "video"),
        (FileKind::ThreeGp, _) => ("video/3gpp", "video"),
        (FileKind::Mp3, _) => ("audio/mpeg", "audio"),
        (FileKind::Ogg, _) => ("audio/ogg", "audio"),
        (FileKind::Amr, _) => ("audio/amr", "audio"),
        (FileKind::Aac, _) => ("audio/aac", "audio"),
        (FileKind::M4a, _) => ("audio/mp4", "audio"),
        (FileKind::Pdf, _) => ("application/pdf", "document"),
        (FileKind::Ole, "doc") => ("application/msword", "document"),
        (FileKind::Ole, "xls") => ("application/vnd.ms-excel", "document"),
        (FileKind::Ole, "ppt") => ("application/vnd.ms-powerpoint", "document"),
        (FileKind::Zip, "docx") => (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "document",
        ),
        (FileKind::Zip, "xlsx") => (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "document",
        ),
        (FileKind::Zip, "pptx") => (
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "document",
        ),
        _ => {
            return invalid(
                "Unsupported media file: use an image (PNG, JPEG), a video (MP4, 3GP), audio \
                 (MP3, OGG, AAC, AMR, M4A), or a PDF, Word, Excel or PowerPoint document",
            );
        }
    };
    let limit = match media_type {
        "image" => 5 * MB,
        "video" | "audio" => 16 * MB,
        _ => 100 * MB,
    };
    if part.size() > limit {
        return invalid(format!(
            "The {media_type} file must be at most {} MB",
            limit / MB
        ));
    }
    Ok(Upload {
        part,
        mime_type,
        media_type,
    })
}
