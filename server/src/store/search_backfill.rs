//! The one-time passes of search over what was stored before: indexing the history kept before
//! search existed, and folding again the documents indexed by older folding rules. Each runs at
//! start until it is recorded as done in `search_backfills`, as does folding the label names' and
//! shortcuts' keys again (`caseless_keys`).

use sqlx::{AnyConnection, AssertSqlSafe};

use super::search_index::{MessageSource, index_contacts, index_messages, indexed};
use super::{Store, now_ms};

/// Items read per step of a pass.
const BACKFILL_BATCH: i64 = 500;

impl Store {
    /// Creates this backend's full-text indexes and indexes what was stored before them, once.
    pub(super) async fn prepare_search(&self) -> Result<(), sqlx::Error> {
        self.prepare_full_text().await?;
        if self.backfill_pending("history").await? {
            self.backfill_messages().await?;
            self.backfill_contacts().await?;
            self.backfill_done("history").await?;
            // What was just indexed is folded by today's rules.
            self.backfill_done(FOLDING).await?;
        }
        if self.backfill_pending(FOLDING).await? {
            self.refold_documents().await?;
            self.backfill_done(FOLDING).await?;
        }
        Ok(())
    }

    /// Whether the one-time pass `name` is still to run.
    pub(super) async fn backfill_pending(&self, name: &str) -> Result<bool, sqlx::Error> {
        let done: Option<(String,)> =
            sqlx::query_as("SELECT name FROM search_backfills WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?;
        Ok(done.is_none())
    }

    /// Notes that the one-time pass `name` is done.
    pub(super) async fn backfill_done(&self, name: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO search_backfills (name, finished_at) VALUES ($1, $2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(name)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Folds every document again by today's rules, rewriting those that change (documents
    /// indexed before combining marks joined their letter, where a decomposed `é` split its word
    /// in two, before full case folding, where `ß` stayed `ß`, or before accents were dropped,
    /// where `josé` stayed `josé`).
    async fn refold_documents(&self) -> Result<(), sqlx::Error> {
        let select = "SELECT business_id, doc_id, body, folded FROM search_documents";
        let key = |row: &(String, String, String, String)| (row.0.clone(), row.1.clone());
        self.each_batch(select, "doc_id", key, async |tx, rows| {
            for (business_id, doc_id, body, folded) in rows {
                let now = indexed(body);
                if now != *folded {
                    sqlx::query(
                        "UPDATE search_documents SET folded = $1 \
                         WHERE business_id = $2 AND doc_id = $3",
                    )
                    .bind(now)
                    .bind(business_id)
                    .bind(doc_id)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            Ok(())
        })
        .await
    }

    /// Indexes every stored message (rewriting a document is harmless).
    async fn backfill_messages(&self) -> Result<(), sqlx::Error> {
        let select = "SELECT business_id, message_id, phone, kind, sent_at, content FROM messages";
        let key = |row: &StoredMessage| (row.0.clone(), row.1.clone());
        self.each_batch(
            select,
            "message_id",
            key,
            async |tx, rows: &[StoredMessage]| {
                for run in rows.chunk_by(|a, b| a.0 == b.0) {
                    let messages: Vec<MessageSource> = run
                        .iter()
                        .map(
                            |(_, message_id, phone, kind, sent_at, content)| MessageSource {
                                message_id,
                                phone,
                                kind,
                                sent_at: *sent_at,
                                content,
                            },
                        )
                        .collect();
                    index_messages(tx, &run[0].0, &messages).await?;
                }
                Ok(())
            },
        )
        .await
    }

    /// Indexes every stored contact.
    async fn backfill_contacts(&self) -> Result<(), sqlx::Error> {
        let select = "SELECT business_id, phone FROM contacts";
        let key = |row: &(String, String)| row.clone();
        self.each_batch(
            select,
            "phone",
            key,
            async |tx, rows: &[(String, String)]| {
                for run in rows.chunk_by(|a, b| a.0 == b.0) {
                    let phones: Vec<&str> = run.iter().map(|(_, phone)| phone.as_str()).collect();
                    index_contacts(tx, &run[0].0, &phones).await?;
                }
                Ok(())
            },
        )
        .await
    }

    /// Walks the rows `select` reads (business first, then the column `column`) in key order,
    /// `BACKFILL_BATCH` at a time, and hands each batch to `write` in a transaction of its own.
    async fn each_batch<R>(
        &self,
        select: &str,
        column: &str,
        key: impl Fn(&R) -> (String, String),
        mut write: impl AsyncFnMut(&mut AnyConnection, &[R]) -> Result<(), sqlx::Error>,
    ) -> Result<(), sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        let sql = format!(
            "{select} WHERE business_id > $1 OR (business_id = $2 AND {column} > $3) \
             ORDER BY business_id, {column} LIMIT $4"
        );
        let (mut business, mut after) = (String::new(), String::new());
        loop {
            // Only the caller's constant text is formatted in; the values are bound.
            let rows: Vec<R> = sqlx::query_as(AssertSqlSafe(sql.as_str()))
                .bind(&business)
                .bind(&business)
                .bind(&after)
                .bind(BACKFILL_BATCH)
                .fetch_all(&self.pool)
                .await?;
            let Some(last) = rows.last() else {
                return Ok(());
            };
            (business, after) = key(last);
            let mut tx = self.begin_write().await?;
            write(&mut tx, &rows).await?;
            tx.commit().await?;
        }
    }
}

/// The one-time pass that folds documents again by today's rules; it takes a new name whenever
/// the rules change, so a store folded by older ones is folded once more (`composed_marks` when
/// combining marks came to join their letter, `full_case_folding` for full case folding, then
/// this one when Latin, Greek and Cyrillic letters came to lose their accents).
const FOLDING: &str = "accents_dropped";

/// A stored message as the one-time indexing reads it: business, id, customer key, kind, time
/// and content.
type StoredMessage = (String, String, String, String, i64, String);
