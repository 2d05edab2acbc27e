//! A group-commit batch's shared rows released before its WAL flush, on Postgres
//! (docs/decisions/0023-cross-node-delivery.md).
//!
//! Every batch of a business locks the business's unread total and event counter until its
//! commit ends, and a durable commit ends only after its WAL flush: with two nodes, each node's
//! batch waited for the other's fsync. A batch commits without waiting for the flush, which
//! releases the rows at once, then waits for a tiny durable write of its own whose flush covers
//! the batch's commit (the WAL is flushed in order), before any write is answered or any event
//! published. Meanwhile the other node's batch runs, and the two flushes can be one; so does
//! this node's next batch (`ingest::durable`).

use sqlx::pool::PoolConnection;

use super::{Backend, Store};

impl Store {
    /// What opens a batch's transaction: on Postgres, its commit will not wait for the flush,
    /// set in the same round trip as the `BEGIN` (a simple query may hold both).
    pub(super) fn batch_start(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => self.write_start(),
            Backend::Postgres => "BEGIN; SET LOCAL synchronous_commit = off",
        }
    }

    /// Answers once every batch committed before the call is durable: on Postgres a
    /// transactional message in the WAL (read by no one) commits with the session's
    /// `synchronous_commit`, so it returns once the WAL is flushed past it, and past every
    /// commit before it (a SQLite commit is durable when it returns). `conn` is the connection
    /// kept for it: taken when first needed, closed after an error.
    pub(super) async fn flushed(
        &self,
        conn: &mut Option<PoolConnection<sqlx::Any>>,
    ) -> Result<(), sqlx::Error> {
        if self.backend == Backend::Sqlite {
            return Ok(());
        }
        let mut kept = match conn.take() {
            Some(kept) => kept,
            None => self.pool.acquire().await?,
        };
        let marked = sqlx::query("SELECT pg_logical_emit_message(true, 'parley', '')::text")
            .execute(&mut *kept)
            .await;
        match marked {
            Ok(_) => *conn = Some(kept),
            Err(_) => kept.close_on_drop(),
        }
        marked.map(drop)
    }
}
