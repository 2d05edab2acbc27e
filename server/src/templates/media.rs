//! The header media of the template form: its size limits and the file as the rules see it.

use serde::Deserialize;

use crate::media::FileKind;

const MB: u64 = 1024 * 1024;
/// Header image (png or jpeg) limit.
pub const HEADER_IMAGE_MAX: u64 = 5 * MB;
/// Header video (mp4) limit.
pub const HEADER_VIDEO_MAX: u64 = 16 * MB;
/// Header document (pdf) limit.
pub const HEADER_DOCUMENT_MAX: u64 = 100 * MB;

/// The file of a media header, as the rules need to see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct HeaderFile {
    /// What its bytes say it is.
    pub kind: FileKind,
    /// Its full size in bytes.
    pub size: u64,
}
