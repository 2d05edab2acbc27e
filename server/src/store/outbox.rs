//! The outbox (outgoing messages the provider has not accepted yet) and stored media files.

use std::collections::HashSet;

use sqlx::{AnyConnection, AssertSqlSafe, FromRow};

use super::error::StoreResult;
use super::outgoing::OUTBOX_LEASE_MS;
use super::{Params, Store, key_list, now_ms};

/// A send waiting for the provider.
#[derive(Clone, Debug, FromRow)]
pub struct OutboxItem {
    pub business_id: String,
    pub client_id: String,
    pub phone: String,
    /// The provider request body (JSON).
    pub payload: String,
    pub attempts: i64,
    pub next_attempt_at: i64,
}

/// A stored file of a business.
#[derive(Clone, Debug, FromRow)]
pub struct MediaFile {
    pub id: String,
    pub mime_type: String,
    pub size: i64,
    pub filename: String,
    /// Relative to the data dir.
    pub path: String,
}

/// Records a file written under the data dir (kept as it is when its id is already known).
pub(super) async fn insert_media_file(
    conn: &mut AnyConnection,
    business_id: &str,
    file: &MediaFile,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO media (business_id, id, mime_type, size, filename, path, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
    )
    .bind(business_id)
    .bind(&file.id)
    .bind(&file.mime_type)
    .bind(file.size)
    .bind(&file.filename)
    .bind(&file.path)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

impl Store {
    /// Outgoing messages waiting for the provider, across every business (for `/metrics`).
    pub async fn outbox_depth(&self) -> StoreResult<i64> {
        let (waiting,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM outbox")
            .fetch_one(&self.pool)
            .await?;
        Ok(waiting)
    }

    /// Due entries, each claimed for one attempt (its lease pushed forward) so that no other
    /// worker or node takes it at the same time.
    pub async fn claim_due_outbox(&self, limit: i64) -> StoreResult<Vec<OutboxItem>> {
        let now = now_ms();
        let due: Vec<OutboxItem> = sqlx::query_as(
            "SELECT business_id, client_id, phone, payload, attempts, next_attempt_at FROM outbox \
             WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut claimed = Vec::with_capacity(due.len());
        for item in due {
            let taken = sqlx::query(
                "UPDATE outbox SET next_attempt_at = $1 WHERE business_id = $2 AND client_id = $3 \
                 AND next_attempt_at = $4",
            )
            .bind(now + OUTBOX_LEASE_MS)
            .bind(&item.business_id)
            .bind(&item.client_id)
            .bind(item.next_attempt_at)
            .execute(&self.pool)
            .await?;
            if taken.rows_affected() == 1 {
                claimed.push(item);
            }
        }
        Ok(claimed)
    }

    /// The entry of one send, as `record_outgoing` left it (already leased to the caller).
    pub async fn outbox_item(
        &self,
        business_id: &str,
        client_id: &str,
    ) -> StoreResult<Option<OutboxItem>> {
        Ok(sqlx::query_as(
            "SELECT business_id, client_id, phone, payload, attempts, next_attempt_at FROM outbox \
             WHERE business_id = $1 AND client_id = $2",
        )
        .bind(business_id)
        .bind(client_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// After a failed attempt that is worth retrying: count it and set when to try again.
    pub async fn reschedule_outbox(
        &self,
        item: &OutboxItem,
        next_attempt_at: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "UPDATE outbox SET attempts = $1, next_attempt_at = $2 WHERE business_id = $3 \
             AND client_id = $4",
        )
        .bind(item.attempts + 1)
        .bind(next_attempt_at)
        .bind(&item.business_id)
        .bind(&item.client_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn insert_media(&self, business_id: &str, file: &MediaFile) -> StoreResult<()> {
        let mut conn = self.pool.acquire().await?;
        insert_media_file(&mut conn, business_id, file, now_ms()).await?;
        Ok(())
    }

    /// A file of this business; another business's id is "not found".
    pub async fn media(&self, business_id: &str, id: &str) -> StoreResult<Option<MediaFile>> {
        Ok(sqlx::query_as(
            "SELECT id, mime_type, size, filename, path FROM media WHERE business_id = $1 AND id = $2",
        )
        .bind(business_id)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Which of `ids` this business keeps a file of: one read for all of them.
    pub async fn kept_media(
        &self,
        business_id: &str,
        ids: &[&str],
    ) -> StoreResult<HashSet<String>> {
        let mut conn = self.pool.acquire().await?;
        let sql = format!(
            "SELECT id FROM media WHERE business_id = $1 AND {}",
            Params::of(&conn).one_of("id", 2)
        );
        // Only the list's text is formatted in; the values are bound.
        let kept: Vec<(String,)> = sqlx::query_as(AssertSqlSafe(sql))
            .bind(business_id)
            .bind(key_list(ids)?)
            .fetch_all(&mut *conn)
            .await?;
        Ok(kept.into_iter().map(|(id,)| id).collect())
    }

    /// The businesses that keep a file under `id` (a share link names no business; its
    /// signature tells which of these it was issued for).
    pub async fn media_owners(&self, id: &str) -> StoreResult<Vec<String>> {
        let owners: Vec<(String,)> =
            sqlx::query_as("SELECT business_id FROM media WHERE id = $1 ORDER BY business_id")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        Ok(owners.into_iter().map(|(owner,)| owner).collect())
    }
}
