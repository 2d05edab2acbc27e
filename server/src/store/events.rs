//! The event log: every change is written with the events it causes, numbered per business, in
//! one transaction. Implements the actors' `EventLog` (replay on resume), and prunes old events.

use std::collections::HashMap;

use futures_util::future::BoxFuture;
use parley_actors::error::StoreError;
use parley_actors::event_log::{EventLog, Replay};
use parley_actors::events::{Event, event_data};
use serde_json::Value;
use serde_json::value::RawValue;
use sqlx::AnyConnection;

use super::early_amendments::EARLY_AMENDMENT_TTL_MS;
use super::error::StoreResult;
use super::{Params, Store, now_ms, rows_per_statement};

/// Most events one resume replays; a longer gap gets `reset` and a re-fetch.
const MAX_REPLAY: i64 = 10_000;

/// An event to append, before it has its number.
pub(super) struct Draft {
    pub(super) channels: Vec<String>,
    pub(super) name: &'static str,
    pub(super) data: Box<RawValue>,
}

/// Numbers and logs events inside the caller's transaction.
pub(super) async fn append_events(
    conn: &mut AnyConnection,
    business_id: &str,
    drafts: Vec<Draft>,
) -> Result<Vec<Event>, sqlx::Error> {
    if drafts.is_empty() {
        return Ok(Vec::new());
    }
    let count = drafts.len() as i64;
    let (last,): (i64,) = sqlx::query_as(
        "INSERT INTO event_counters (business_id, seq) VALUES ($1, $2) \
         ON CONFLICT (business_id) DO UPDATE SET seq = event_counters.seq + $3 RETURNING seq",
    )
    .bind(business_id)
    .bind(count)
    .bind(count)
    .fetch_one(&mut *conn)
    .await?;
    let now = now_ms();
    let events: Vec<Event> = drafts
        .into_iter()
        .enumerate()
        .map(|(i, draft)| Event {
            business_id: business_id.to_string(),
            seq: last - count + 1 + i as i64,
            channels: draft.channels,
            name: draft.name.to_string(),
            data: draft.data,
        })
        .collect();
    // Several rows per statement: a batch of inbound messages logs hundreds of events.
    for chunk in events.chunks(rows_per_statement(6)) {
        let rows = Params::of(conn).rows(chunk.len(), 6);
        let sql = format!(
            "INSERT INTO events (business_id, seq, channels, name, data, created_at) VALUES {rows}"
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
        for event in chunk {
            insert = insert
                .bind(business_id)
                .bind(event.seq)
                .bind(event.channels.join("\n"))
                .bind(event.name.as_str())
                .bind(event.data.get())
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
    }
    Ok(events)
}

impl Store {
    /// Forgets logged events older than `retention_ms`, and receipts and customers' changes that
    /// never met their message.
    pub async fn prune_events(&self, retention_ms: i64) -> StoreResult<()> {
        let cutoff = now_ms() - retention_ms;
        sqlx::query("DELETE FROM events WHERE created_at < $1")
            .bind(cutoff)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM early_statuses WHERE received_at < $1")
            .bind(now_ms() - EARLY_STATUS_TTL_MS)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM early_amendments WHERE received_at < $1")
            .bind(now_ms() - EARLY_AMENDMENT_TTL_MS)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Each business's last event seq.
    pub async fn last_seqs(&self) -> StoreResult<HashMap<String, i64>> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT business_id, seq FROM event_counters")
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().collect())
    }

    async fn replay(&self, business_id: &str, after: i64) -> Result<Replay, sqlx::Error> {
        let counter: Option<(i64,)> =
            sqlx::query_as("SELECT seq FROM event_counters WHERE business_id = $1")
                .bind(business_id)
                .fetch_optional(&self.pool)
                .await?;
        let current = counter.map_or(0, |(seq,)| seq);
        if after >= current {
            return Ok(Replay::Events(Vec::new()));
        }
        let (oldest,): (Option<i64>,) =
            sqlx::query_as("SELECT MIN(seq) FROM events WHERE business_id = $1")
                .bind(business_id)
                .fetch_one(&self.pool)
                .await?;
        if oldest.is_none_or(|oldest| after + 1 < oldest) || current - after > MAX_REPLAY {
            return Ok(Replay::TooOld);
        }
        Ok(Replay::Events(
            self.events_between(business_id, after + 1, i64::MAX)
                .await?,
        ))
    }

    /// A business's logged events with seqs in `first..=last`, in order.
    pub async fn events_between(
        &self,
        business_id: &str,
        first: i64,
        last: i64,
    ) -> Result<Vec<Event>, sqlx::Error> {
        let rows: Vec<(i64, String, String, String)> = sqlx::query_as(
            "SELECT seq, channels, name, data FROM events \
             WHERE business_id = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq",
        )
        .bind(business_id)
        .bind(first)
        .bind(last)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(seq, channels, name, data)| Event {
                business_id: business_id.to_string(),
                seq,
                channels: channels.split('\n').map(String::from).collect(),
                name,
                data: RawValue::from_string(data).unwrap_or_else(|_| event_data(&Value::Null)),
            })
            .collect())
    }

    /// Sends each payload as a `NOTIFY` on `channel` (Postgres only), many per statement.
    pub async fn notify(&self, channel: &str, payloads: &[String]) -> Result<(), sqlx::Error> {
        for chunk in payloads.chunks(NOTICES_PER_STATEMENT) {
            let calls: Vec<String> = (0..chunk.len())
                .map(|i| format!("pg_notify($1, ${})", i + 2))
                .collect();
            let sql = format!("SELECT {}", calls.join(", "));
            // Only numbered placeholders are formatted in; the values are bound.
            let mut select = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(channel);
            for payload in chunk {
                select = select.bind(payload.as_str());
            }
            select.execute(&self.pool).await?;
        }
        Ok(())
    }
}

/// `pg_notify` calls in one statement.
const NOTICES_PER_STATEMENT: usize = 500;

/// How long a receipt waits for a message that has not appeared.
const EARLY_STATUS_TTL_MS: i64 = 60 * 60 * 1000;

impl EventLog for Store {
    fn since(
        &self,
        business_id: &str,
        after: i64,
    ) -> BoxFuture<'static, Result<Replay, StoreError>> {
        let store = self.clone();
        let business_id = business_id.to_string();
        Box::pin(async move {
            store
                .replay(&business_id, after)
                .await
                .map_err(StoreError::store)
        })
    }
}
