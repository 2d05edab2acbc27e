//! SQLite: a search document's rowid follows its time. The full-text index yields rowids, so a
//! search window reads only the matches at or after its oldest time's first rowid, without an
//! index of the documents by time (which every inbound message would pay for). A document at
//! millisecond `at` gets a rowid in that millisecond's range, `at × 2^20` onwards; past the
//! range's end (over a million documents in one millisecond) it gets one past every rowid: never
//! below its range, so never skipped (docs/decisions/0048-search-rowids-by-time.md).

use std::collections::HashMap;

use sqlx::AnyConnection;

use super::{Params, now_ms, rows_per_statement};

/// Rowids per millisecond.
const PER_MS_BITS: u32 = 20;
const RANGE: i64 = 1 << PER_MS_BITS;
/// Times after this (the year 2109) share its range, so that a rowid cannot overflow.
const LATEST_MS: i64 = 1 << 42;
/// Marks in `search_backfills` that the stored documents' rowids follow their times.
const RENUMBERED: &str = "rowids by time";

/// The first rowid of documents at `at` (ms); times before 1970 share the first range.
pub(super) fn first_rowid(at: i64) -> i64 {
    at.clamp(0, LATEST_MS) << PER_MS_BITS
}

/// The highest rowid in `[from, to)`, or below `to` when `from` is `None`.
async fn highest(conn: &mut AnyConnection, from: i64, to: i64) -> Result<Option<i64>, sqlx::Error> {
    let (highest,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(rowid) FROM search_documents WHERE rowid >= $1 AND rowid < $2")
            .bind(from)
            .bind(to)
            .fetch_one(&mut *conn)
            .await?;
    Ok(highest)
}

/// Unused rowids for new documents at `times`, in order, within the transaction that writes
/// them (SQLite's one writer).
pub(super) async fn assign(
    conn: &mut AnyConnection,
    times: &[i64],
) -> Result<Vec<i64>, sqlx::Error> {
    // The next free rowid of each millisecond's range met so far.
    let mut next: HashMap<i64, i64> = HashMap::new();
    let mut rowids = Vec::with_capacity(times.len());
    for &at in times {
        let first = first_rowid(at);
        let free = match next.get(&first) {
            Some(&free) => free,
            None => highest(conn, first, first + RANGE)
                .await?
                .map_or(first, |used| used + 1),
        };
        next.insert(first, free + 1);
        rowids.push((free < first + RANGE).then_some(free));
    }
    if rowids.iter().all(Option::is_some) {
        return Ok(rowids.into_iter().flatten().collect());
    }
    // A full range: past every stored rowid and every one given above.
    let mut past = highest(conn, i64::MIN, i64::MAX).await?.unwrap_or(0);
    past = past.max(rowids.iter().flatten().copied().max().unwrap_or(0));
    Ok(rowids
        .into_iter()
        .map(|rowid| {
            rowid.unwrap_or_else(|| {
                past += 1;
                past
            })
        })
        .collect())
}

/// Whether the stored documents were given rowids by time.
pub(super) async fn renumbered(conn: &mut AnyConnection) -> Result<bool, sqlx::Error> {
    let done: Option<(String,)> =
        sqlx::query_as("SELECT name FROM search_backfills WHERE name = $1")
            .bind(RENUMBERED)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(done.is_some())
}

/// Gives every stored document its rowid by time, once (a database made by a version that let
/// SQLite number them). The full-text indexes' triggers must be off; the caller refills them.
pub(super) async fn renumber(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    let stored: Vec<(i64, i64)> =
        sqlx::query_as("SELECT rowid, at FROM search_documents ORDER BY at, rowid")
            .fetch_all(&mut *conn)
            .await?;
    // In time order each takes its range's first free rowid; one that spills over a full range
    // only pushes the next ones up, above their own ranges' starts.
    let mut last = i64::MIN;
    let moves: Vec<(i64, i64)> = stored
        .into_iter()
        .map(|(old, at)| {
            last = first_rowid(at).max(last.saturating_add(1));
            (old, last)
        })
        .collect();
    sqlx::query(
        "CREATE TEMP TABLE search_renumbering (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)",
    )
    .execute(&mut *conn)
    .await?;
    for chunk in moves.chunks(rows_per_statement(2)) {
        let sql = format!(
            "INSERT INTO search_renumbering (old, new) VALUES {}",
            Params::of(conn).rows(chunk.len(), 2)
        );
        // Only placeholders are formatted in; the values are bound.
        let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (old, new) in chunk {
            insert = insert.bind(old).bind(new);
        }
        insert.execute(&mut *conn).await?;
    }
    // Out of the way first (old rowids are positive, new ones not negative), so that no move
    // lands on a rowid still in use.
    for statement in [
        "UPDATE search_documents SET rowid = -rowid",
        "UPDATE search_documents SET rowid = \
         (SELECT new FROM search_renumbering WHERE old = -search_documents.rowid)",
        "DROP TABLE search_renumbering",
    ] {
        sqlx::query(statement).execute(&mut *conn).await?;
    }
    sqlx::query("INSERT INTO search_backfills (name, finished_at) VALUES ($1, $2)")
        .bind(RENUMBERED)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use sqlx::{Connection, Executor};

    use super::*;

    async fn documents(rowids: &[i64]) -> AnyConnection {
        sqlx::any::install_default_drivers();
        let mut conn = AnyConnection::connect("sqlite::memory:")
            .await
            .expect("memory");
        conn.execute("CREATE TABLE search_documents (at BIGINT NOT NULL)")
            .await
            .expect("table");
        for rowid in rowids {
            sqlx::query("INSERT INTO search_documents (rowid, at) VALUES ($1, 0)")
                .bind(rowid)
                .execute(&mut conn)
                .await
                .expect("row");
        }
        conn
    }

    #[tokio::test]
    async fn documents_take_the_next_free_rowids_of_their_milliseconds() {
        let first = first_rowid(1_000);
        let mut conn = documents(&[first, first + 1, first_rowid(2_000)]).await;
        let rowids = assign(&mut conn, &[1_000, 3_000, 1_000, -5])
            .await
            .expect("rowids");
        assert_eq!(
            rowids,
            [first + 2, first_rowid(3_000), first + 3, first_rowid(0)]
        );
        assert_eq!(first_rowid(i64::MAX), LATEST_MS << PER_MS_BITS);
    }

    #[tokio::test]
    async fn a_full_millisecond_spills_past_every_rowid_never_below_its_own() {
        let full = first_rowid(1_000) + RANGE - 1;
        let newest = first_rowid(9_000);
        let mut conn = documents(&[full, newest]).await;
        let rowids = assign(&mut conn, &[1_000, 9_000, 1_000])
            .await
            .expect("rowids");
        // The free one of 9,000 first; the spilled ones past it, in order.
        assert_eq!(rowids, [newest + 2, newest + 1, newest + 3]);
    }
}
