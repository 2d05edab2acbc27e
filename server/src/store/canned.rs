//! Canned replies: the business's ready texts, each under a shortcut unique in the business,
//! each with an optional file kept in `media`.

use sqlx::FromRow;

use super::error::{Error, StoreResult};
use super::outbox::{MediaFile, insert_media_file};
use super::{Store, is_unique_violation, now_ms};
use crate::search_text::caseless_key;

/// A canned reply as stored.
#[derive(Clone, Debug)]
pub struct CannedReply {
    pub id: String,
    /// As the owner typed it; uniqueness ignores case.
    pub shortcut: String,
    /// The text, with its `{{name}}`, `{{phone}}` and `{{agent}}` variables unfilled.
    pub text: String,
    /// The file the composer attaches with the text, if any.
    pub media: Option<MediaFile>,
    /// Unix milliseconds.
    pub updated_at: i64,
}

/// What an edit does to a canned reply's file.
pub enum CannedMedia<'a> {
    Keep,
    /// Names this file, already written under the data dir, instead.
    Replace(&'a MediaFile),
    Remove,
}

/// A reply joined with its file; the file's columns are null when it has none.
#[derive(FromRow)]
struct CannedRow {
    id: String,
    shortcut: String,
    text: String,
    updated_at: i64,
    media_id: Option<String>,
    media_mime_type: Option<String>,
    media_size: Option<i64>,
    media_filename: Option<String>,
    media_path: Option<String>,
}

impl From<CannedRow> for CannedReply {
    fn from(row: CannedRow) -> Self {
        let media = match (row.media_id, row.media_mime_type, row.media_path) {
            (Some(id), Some(mime_type), Some(path)) => Some(MediaFile {
                id,
                mime_type,
                size: row.media_size.unwrap_or_default(),
                filename: row.media_filename.unwrap_or_default(),
                path,
            }),
            _ => None,
        };
        CannedReply {
            id: row.id,
            shortcut: row.shortcut,
            text: row.text,
            media,
            updated_at: row.updated_at,
        }
    }
}

/// The business's replies with their files, then `$tail` (more of the WHERE, an ORDER BY).
macro_rules! canned_select {
    ($tail:literal) => {
        concat!(
            "SELECT c.id, c.shortcut, c.body AS text, c.updated_at, m.id AS media_id, \
     m.mime_type AS media_mime_type, m.size AS media_size, m.filename AS media_filename, \
     m.path AS media_path FROM canned_replies c \
     LEFT JOIN media m ON m.business_id = c.business_id AND m.id = c.media_id \
     WHERE c.business_id = $1 ",
            $tail
        )
    };
}

fn not_found() -> Error {
    Error::NotFound("Canned reply not found".into())
}

/// A unique violation is the shortcut taken by another of the business's replies.
fn taken(err: sqlx::Error, shortcut: &str) -> Error {
    if is_unique_violation(&err) {
        Error::Conflict(format!(
            "A canned reply with the shortcut \"{shortcut}\" already exists"
        ))
    } else {
        err.into()
    }
}

impl Store {
    /// The business's canned replies, by shortcut (case aside) in code point order on both
    /// backends: sorted here, not by Postgres's collation (see `labels::all_labels`).
    pub async fn canned_replies(&self, business_id: &str) -> StoreResult<Vec<CannedReply>> {
        let mut rows: Vec<CannedRow> = sqlx::query_as(canned_select!(""))
            .bind(business_id)
            .fetch_all(&self.pool)
            .await?;
        rows.sort_by_cached_key(|row| row.shortcut.to_lowercase());
        Ok(rows.into_iter().map(CannedReply::from).collect())
    }

    /// One canned reply of the business; not found for another business's id.
    pub async fn canned_reply(&self, business_id: &str, id: &str) -> StoreResult<CannedReply> {
        let row: Option<CannedRow> = sqlx::query_as(canned_select!("AND c.id = $2"))
            .bind(business_id)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(CannedReply::from).ok_or_else(not_found)
    }

    /// Stores a new canned reply, and records its file; a conflict when its shortcut is taken.
    pub async fn add_canned_reply(
        &self,
        business_id: &str,
        shortcut: &str,
        text: &str,
        media: Option<&MediaFile>,
    ) -> StoreResult<CannedReply> {
        let id = uuid::Uuid::new_v4().to_string();
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        if let Some(file) = media {
            insert_media_file(&mut tx, business_id, file, now).await?;
        }
        sqlx::query(
            "INSERT INTO canned_replies \
             (business_id, id, shortcut, shortcut_key, body, media_id, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
        )
        .bind(business_id)
        .bind(&id)
        .bind(shortcut)
        .bind(caseless_key(shortcut))
        .bind(text)
        .bind(media.map(|file| file.id.clone()))
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|err| taken(err, shortcut))?;
        tx.commit().await?;
        self.canned_reply(business_id, &id).await
    }

    /// Replaces a canned reply's shortcut and text (`None` keeps the stored one, as it is when
    /// the update runs, so two edits of different fields at once both stay), and its file as
    /// `media` says; not found for another business's id. A file it stops naming stays recorded.
    pub async fn update_canned_reply(
        &self,
        business_id: &str,
        id: &str,
        shortcut: Option<&str>,
        text: Option<&str>,
        media: CannedMedia<'_>,
    ) -> StoreResult<CannedReply> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let media_id = match media {
            CannedMedia::Keep => None,
            CannedMedia::Replace(file) => {
                insert_media_file(&mut tx, business_id, file, now).await?;
                Some(Some(file.id.clone()))
            }
            CannedMedia::Remove => Some(None),
        };
        // The key is made again only for a new shortcut: a reply whose key was set aside when
        // keys were folded again (`caseless_keys`) keeps it through an edit that sends it as is.
        let sql = match media_id {
            None => {
                "UPDATE canned_replies SET shortcut = COALESCE($3, shortcut), \
                 shortcut_key = CASE WHEN shortcut = $3 THEN shortcut_key \
                 ELSE COALESCE($4, shortcut_key) END, body = COALESCE($5, body), \
                 updated_at = $6 WHERE business_id = $1 AND id = $2"
            }
            Some(_) => {
                "UPDATE canned_replies SET shortcut = COALESCE($3, shortcut), \
                 shortcut_key = CASE WHEN shortcut = $3 THEN shortcut_key \
                 ELSE COALESCE($4, shortcut_key) END, body = COALESCE($5, body), \
                 updated_at = $6, media_id = $7 WHERE business_id = $1 AND id = $2"
            }
        };
        let mut query = sqlx::query(sql)
            .bind(business_id)
            .bind(id)
            .bind(shortcut)
            .bind(shortcut.map(caseless_key))
            .bind(text)
            .bind(now);
        if let Some(media_id) = media_id {
            query = query.bind(media_id);
        }
        let done = query
            .execute(&mut *tx)
            .await
            .map_err(|err| taken(err, shortcut.unwrap_or_default()))?;
        if done.rows_affected() == 0 {
            return Err(not_found());
        }
        tx.commit().await?;
        self.canned_reply(business_id, id).await
    }

    /// Deletes a canned reply; not found for another business's id. Its file stays recorded,
    /// since messages already sent may show it.
    pub async fn delete_canned_reply(&self, business_id: &str, id: &str) -> StoreResult<()> {
        let done = sqlx::query("DELETE FROM canned_replies WHERE business_id = $1 AND id = $2")
            .bind(business_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        match done.rows_affected() {
            0 => Err(not_found()),
            _ => Ok(()),
        }
    }
}
