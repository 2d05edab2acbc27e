//! An agent's file, kept under the data dir before any message names it.

use super::SendError;
use crate::media::{MediaKind, file_name, store_file};

use super::Sending;

/// A file as the client uploaded it.
pub struct Upload {
    pub bytes: Vec<u8>,
    /// The client's file name, if it gave one.
    pub filename: Option<String>,
}

/// A kept upload.
pub struct Kept {
    pub mime: &'static str,
    pub kind: MediaKind,
    pub filename: String,
}

impl Sending {
    /// Keeps `upload`, whose type `media::check_upload` told, as `media_id`; a file without a
    /// name is named after its kind.
    pub(super) async fn keep_upload(
        &self,
        business_id: &str,
        media_id: &str,
        upload: &Upload,
        (mime, kind): (&'static str, MediaKind),
    ) -> Result<Kept, SendError> {
        let filename = file_name(upload.filename.as_deref(), mime, kind);
        store_file(
            &self.store,
            &self.data_dir,
            business_id,
            media_id,
            &upload.bytes,
            mime,
            &filename,
        )
        .await?;
        Ok(Kept {
            mime,
            kind,
            filename,
        })
    }
}
