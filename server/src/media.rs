//! Files agents send and customers send: the type is read from the bytes (never trusted from
//! the client or its name), checked against the Cloud API's limits, and kept under the data dir.

use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::store::{self, MediaFile, Store};

const MB: usize = 1024 * 1024;

/// A file format recognised by its magic bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    Png,
    Jpeg,
    Gif,
    Webp,
    Mp4,
    /// 3GPP video (an ISO media file with a `3gp` brand).
    #[serde(rename = "3gp")]
    ThreeGp,
    /// MPEG-4 audio (an ISO media file with an `M4A` brand).
    M4a,
    Mp3,
    Ogg,
    Amr,
    Aac,
    Pdf,
    /// An OLE compound file: doc, xls or ppt (the name tells which).
    Ole,
    /// A zip archive: docx, xlsx or pptx (the name tells which).
    Zip,
    /// Anything else, including text.
    Other,
}

/// The kind of `bytes`, from the first few of them.
pub fn sniff(bytes: &[u8]) -> FileKind {
    let starts = |magic: &[u8]| bytes.starts_with(magic);
    if starts(b"\x89PNG\r\n\x1a\n") {
        FileKind::Png
    } else if starts(b"\xFF\xD8\xFF") {
        FileKind::Jpeg
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        FileKind::Gif
    } else if starts(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        FileKind::Webp
    } else if bytes.get(4..8) == Some(b"ftyp") {
        match bytes.get(8..11) {
            Some(b"M4A") => FileKind::M4a,
            Some(b"3gp") | Some(b"3g2") => FileKind::ThreeGp,
            // QuickTime files carry this brand; the Cloud API takes mp4 only.
            Some(b"qt ") => FileKind::Other,
            _ => FileKind::Mp4,
        }
    } else if starts(b"%PDF-") {
        FileKind::Pdf
    } else if starts(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1") {
        FileKind::Ole
    } else if starts(b"PK\x03\x04") {
        FileKind::Zip
    } else if starts(b"OggS") {
        FileKind::Ogg
    } else if starts(b"#!AMR") {
        FileKind::Amr
    } else if starts(b"ID3") {
        FileKind::Mp3
    } else if bytes.len() >= 2 && bytes[0] == 0xFF && bytes[1] & 0xF6 == 0xF0 {
        // An ADTS frame header (layer bits 00).
        FileKind::Aac
    } else if bytes.len() >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0 {
        FileKind::Mp3
    } else {
        FileKind::Other
    }
}

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

/// What the Cloud API takes of a file whose first bytes were read: (MIME type, kind), or `None`
/// when unsupported.
pub fn cloud_type(bytes: &[u8]) -> Option<(&'static str, MediaKind)> {
    Some(match sniff(bytes) {
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

/// A file that cannot be sent or kept.
#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// Not a type the Cloud API takes.
    #[error(
        "Unsupported file type: send an image (jpeg, png), audio (ogg/opus, mp3, aac, amr, m4a), \
         video (mp4, 3gp), pdf, doc or docx"
    )]
    Unsupported,
    /// Empty, of another kind than the client said, or over its limit.
    #[error("{0}")]
    Invalid(String),
    #[error("the file could not be written: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Store(#[from] store::Error),
}

/// Checks an upload: a supported type within its limit, and the kind the client named (if any).
pub fn check_upload(
    bytes: &[u8],
    claimed_kind: Option<&str>,
) -> Result<(&'static str, MediaKind), MediaError> {
    if bytes.is_empty() {
        return Err(MediaError::Invalid("The file is empty".into()));
    }
    let (mime, kind) = cloud_type(bytes).ok_or(MediaError::Unsupported)?;
    if let Some(claimed) =
        claimed_kind.filter(|c| matches!(*c, "image" | "video" | "audio" | "document"))
        && claimed != kind.name()
    {
        return Err(MediaError::Invalid(format!(
            "The file was sent as {claimed} but its content is {mime}"
        )));
    }
    if bytes.len() > kind.limit() {
        return Err(MediaError::Invalid(format!(
            "The {} is {:.1} MB; the limit for {} files is {} MB",
            kind.name(),
            bytes.len() as f64 / MB as f64,
            kind.name(),
            kind.limit() / MB
        )));
    }
    Ok((mime, kind))
}

/// The client's name for a file, or one made of its kind and type (`image.png`).
pub fn file_name(given: Option<&str>, mime: &str, kind: MediaKind) -> String {
    match given {
        Some(name) => name.to_string(),
        None => format!(
            "{}.{}",
            kind.name(),
            mime.rsplit('/').next().unwrap_or("bin")
        ),
    }
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
) -> Result<MediaFile, MediaError> {
    let file = MediaFile {
        id: id.to_string(),
        mime_type: mime_type.to_string(),
        size: bytes.len() as i64,
        filename: filename.to_string(),
        path: write_file(data_dir, business_id, id, bytes).await?,
    };
    store.insert_media(business_id, &file).await?;
    Ok(file)
}

/// Writes a business's file under `media/<business>/<id>`; answers that path, relative to
/// `data_dir`, for the caller to record. The bytes go to a file of their own first and are then
/// renamed into place, so a reader never sees part of a file: the same file may be fetched twice
/// at once (kept after its batch, and asked for by someone who opened it before that).
pub async fn write_file(
    data_dir: &Path,
    business_id: &str,
    id: &str,
    bytes: &[u8],
) -> Result<String, MediaError> {
    let relative = format!(
        "media/{}/{}",
        hex::encode(Sha256::digest(business_id))[..16].to_owned(),
        id
    );
    let path = data_dir.join(&relative);
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent).await?;
    }
    let part = path.with_file_name(format!("{id}.{}.part", uuid::Uuid::new_v4().simple()));
    let written: std::io::Result<()> = async {
        tokio::fs::write(&part, bytes).await?;
        tokio::fs::rename(&part, &path).await
    }
    .await;
    if let Err(err) = written {
        // Nothing half-written stays behind; the error that matters is the write's or rename's.
        let _ = tokio::fs::remove_file(&part).await;
        return Err(err.into());
    }
    Ok(relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 3)]
    async fn a_file_written_twice_at_once_is_never_read_in_part() {
        let dir = tempfile::tempdir().expect("dir");
        let bytes: Vec<u8> = (0..2_000_000u32).map(|i| (i % 251) as u8).collect();
        let path = write_file(dir.path(), "b", "m1", &bytes)
            .await
            .expect("first");
        let writers: Vec<_> = (0..2)
            .map(|_| {
                let (root, bytes) = (dir.path().to_path_buf(), bytes.clone());
                tokio::spawn(async move {
                    for _ in 0..20 {
                        write_file(&root, "b", "m1", &bytes).await.expect("written");
                    }
                })
            })
            .collect();
        let file = dir.path().join(&path);
        for _ in 0..200 {
            let read = tokio::fs::read(&file).await.expect("read");
            assert_eq!(read.len(), bytes.len(), "a part of the file was read");
        }
        for writer in writers {
            writer.await.expect("writer");
        }
        assert_eq!(tokio::fs::read(&file).await.expect("read"), bytes);
    }

    #[test]
    fn types_are_read_from_the_bytes() {
        assert_eq!(
            cloud_type(b"%PDF-1.7 ...").map(|s| s.0),
            Some("application/pdf")
        );
        assert_eq!(
            cloud_type(b"\x89PNG\r\n\x1a\n....").map(|s| s.1),
            Some(MediaKind::Image)
        );
        assert_eq!(
            cloud_type(b"OggS\0\x02").map(|s| s.1),
            Some(MediaKind::Audio)
        );
        assert_eq!(
            cloud_type(b"\0\0\0\x18ftypmp42").map(|s| s.0),
            Some("video/mp4")
        );
        assert_eq!(cloud_type(b"hello, plain text"), None);
    }

    #[test]
    fn a_mislabelled_or_oversized_file_is_refused() {
        assert!(check_upload(b"%PDF-1.4", Some("image")).is_err());
        let mut big = vec![0xFF, 0xD8, 0xFF];
        big.resize(5 * MB + 1, 0);
        assert!(check_upload(&big, None).is_err());
        assert!(check_upload(b"%PDF-1.4", Some("document")).is_ok());
    }

    #[test]
    fn sniffs_the_formats_by_their_first_bytes() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), FileKind::Png);
        assert_eq!(sniff(b"\xFF\xD8\xFF\xE0..JFIF"), FileKind::Jpeg);
        assert_eq!(sniff(b"\0\0\0\x18ftypmp42...."), FileKind::Mp4);
        assert_eq!(sniff(b"\0\0\0\x18ftypisom...."), FileKind::Mp4);
        assert_eq!(sniff(b"\0\0\0\x18ftypM4A ...."), FileKind::M4a);
        assert_eq!(sniff(b"\0\0\0\x18ftypqt  ...."), FileKind::Other);
        assert_eq!(sniff(b"%PDF-1.7\n"), FileKind::Pdf);
        assert_eq!(sniff(b"PK\x03\x04...."), FileKind::Zip);
        assert_eq!(sniff(b"ID3\x04...."), FileKind::Mp3);
        assert_eq!(sniff(b"OggS...."), FileKind::Ogg);
        assert_eq!(sniff(b"GIF89a...."), FileKind::Gif);
        assert_eq!(sniff(b"hello, world"), FileKind::Other);
        assert_eq!(sniff(b""), FileKind::Other);
    }
}
