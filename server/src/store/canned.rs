//! Canned replies: the business's ready texts, each under a shortcut unique in the business.

use sqlx::FromRow;

use super::error::{Error, StoreResult};
use super::{Store, is_unique_violation, now_ms};

/// A canned reply as stored.
#[derive(Clone, Debug, FromRow)]
pub struct CannedReply {
    pub id: String,
    /// As the owner typed it; uniqueness ignores case.
    pub shortcut: String,
    /// The text, with its `{{name}}`, `{{phone}}` and `{{agent}}` variables unfilled.
    pub text: String,
    /// Unix milliseconds.
    pub updated_at: i64,
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
    /// The business's canned replies, by shortcut.
    pub async fn canned_replies(&self, business_id: &str) -> StoreResult<Vec<CannedReply>> {
        Ok(sqlx::query_as(
            "SELECT id, shortcut, body AS text, updated_at FROM canned_replies \
             WHERE business_id = $1 ORDER BY shortcut_key",
        )
        .bind(business_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// One canned reply of the business; not found for another business's id.
    pub async fn canned_reply(&self, business_id: &str, id: &str) -> StoreResult<CannedReply> {
        let row: Option<CannedReply> = sqlx::query_as(
            "SELECT id, shortcut, body AS text, updated_at FROM canned_replies \
             WHERE business_id = $1 AND id = $2",
        )
        .bind(business_id)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.ok_or_else(not_found)
    }

    /// Stores a new canned reply; a conflict when its shortcut is taken.
    pub async fn add_canned_reply(
        &self,
        business_id: &str,
        shortcut: &str,
        text: &str,
    ) -> StoreResult<CannedReply> {
        let id = uuid::Uuid::new_v4().to_string();
        let now = now_ms();
        sqlx::query(
            "INSERT INTO canned_replies \
             (business_id, id, shortcut, shortcut_key, body, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6)",
        )
        .bind(business_id)
        .bind(&id)
        .bind(shortcut)
        .bind(shortcut.to_lowercase())
        .bind(text)
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(|err| taken(err, shortcut))?;
        self.canned_reply(business_id, &id).await
    }

    /// Replaces a canned reply's shortcut and text; not found for another business's id.
    pub async fn update_canned_reply(
        &self,
        business_id: &str,
        id: &str,
        shortcut: &str,
        text: &str,
    ) -> StoreResult<CannedReply> {
        let done = sqlx::query(
            "UPDATE canned_replies SET shortcut = $3, shortcut_key = $4, body = $5, \
             updated_at = $6 WHERE business_id = $1 AND id = $2",
        )
        .bind(business_id)
        .bind(id)
        .bind(shortcut)
        .bind(shortcut.to_lowercase())
        .bind(text)
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(|err| taken(err, shortcut))?;
        if done.rows_affected() == 0 {
            return Err(not_found());
        }
        self.canned_reply(business_id, id).await
    }

    /// Deletes a canned reply; not found for another business's id.
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
