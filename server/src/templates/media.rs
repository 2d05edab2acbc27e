//! What an uploaded file really is, told by its first bytes rather than by its name or the
//! browser's guess, and the header media limits of the template form.

use serde::{Deserialize, Serialize};

const MB: u64 = 1024 * 1024;
/// Header image (png or jpeg) limit.
pub const HEADER_IMAGE_MAX: u64 = 5 * MB;
/// Header video (mp4) limit.
pub const HEADER_VIDEO_MAX: u64 = 16 * MB;
/// Header document (pdf) limit.
pub const HEADER_DOCUMENT_MAX: u64 = 100 * MB;

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

/// The file of a media header, as the rules need to see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct HeaderFile {
    /// What its bytes say it is.
    pub kind: FileKind,
    /// Its full size in bytes.
    pub size: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

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
