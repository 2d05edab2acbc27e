//! The time each new inbound message takes in its conversation: the provider's time, moved by a
//! millisecond only where another message of the conversation has that exact time. The writer
//! remembers what its last batch knew of each conversation's times, so a busy conversation's
//! next batch reads nothing it already knows (docs/decisions/0025-postgres-ingest-tail.md).

use std::collections::{BTreeMap, HashMap, HashSet};

use sqlx::AssertSqlSafe;

use crate::store::{Params, rows_per_statement};

/// Conversations the writer remembers at most: past this it forgets them all (a forgotten
/// conversation only costs its next batch a read).
const REMEMBERED: usize = 100_000;

/// A conversation's message times as a batch knows them.
#[derive(Clone, Default)]
pub(super) struct Times {
    /// Its latest stored message's time: a later time cannot be taken already.
    stored_latest: i64,
    /// Times known to be taken: stored, or given to a message of this batch.
    taken: HashSet<i64>,
    /// The seconds whose every stored time is in `taken`.
    seconds_known: HashSet<i64>,
}

impl Times {
    /// A conversation whose latest stored message is at `latest` (0: it has none).
    pub(super) fn stored_until(latest: i64) -> Times {
        Times {
            stored_latest: latest,
            ..Times::default()
        }
    }

    /// The second of `at` when its stored times must be read before `at` can be given out (the
    /// second is then counted as known: the caller reads it).
    pub(super) fn unknown_second(&mut self, at: i64) -> Option<i64> {
        let second = at.div_euclid(1000);
        (at <= self.stored_latest && self.seconds_known.insert(second)).then_some(second)
    }

    /// Marks a stored time taken.
    pub(super) fn take(&mut self, at: i64) {
        self.taken.insert(at);
    }

    /// What the next batch may know of the conversation once this batch, which gave it the
    /// messages at `inserted`, is committed: the seconds read, and the seconds after the latest
    /// stored time's (nothing else can be stored in them).
    pub(super) fn after(&self, inserted: &[i64]) -> Option<Times> {
        let latest = inserted.iter().copied().max()?.max(self.stored_latest);
        let before = self.stored_latest.div_euclid(1000);
        let mut seconds_known = self.seconds_known.clone();
        seconds_known.extend(
            inserted
                .iter()
                .map(|at| at.div_euclid(1000))
                .filter(|second| *second > before || self.stored_latest == 0),
        );
        Some(Times {
            stored_latest: latest,
            taken: self.taken.clone(),
            seconds_known,
        })
    }
}

/// What the writer knew of each conversation's times (by business and customer key) when its
/// last batch that wrote to it committed.
#[derive(Default)]
pub(in crate::store) struct TimesMemory(HashMap<(String, String), Times>);

impl TimesMemory {
    /// What is remembered of a conversation, if it still holds: its latest stored time is the
    /// one the remembered batch left (a message stored since by anyone else moves it).
    pub(super) fn recall(&self, business: &str, phone: &str, times: &mut Times) {
        if let Some(known) = self.0.get(&(business.to_string(), phone.to_string()))
            && known.stored_latest == times.stored_latest
        {
            times.clone_from(known);
        }
    }

    /// Remembers a committed batch's conversations: each with its times and the times the batch
    /// stored in it.
    pub(super) fn learn(&mut self, learned: Vec<(String, String, Times)>) {
        if self.0.len() + learned.len() > REMEMBERED {
            self.0.clear();
        }
        for (business, phone, times) in learned {
            self.0.insert((business, phone), times);
        }
    }

    /// Forgets a conversation (a write of the batch stored a message the memory did not see).
    pub(super) fn forget(&mut self, business: &str, phone: &str) {
        self.0.remove(&(business.to_string(), phone.to_string()));
    }
}

/// The provider's time for a new message of `phone`, or the next millisecond free in its
/// conversation: only a message at that exact time (stored, or earlier in this batch) moves it.
/// Stored times matter only up to the conversation's latest stored time; `read_stored_seconds`
/// reads the seconds a batch needs beforehand, and a time moved into a second not read yet
/// (a second's every millisecond taken) reads that second here.
pub(super) async fn free_time(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    phone: &str,
    times: &mut Times,
    wanted: i64,
) -> Result<i64, sqlx::Error> {
    let mut at = wanted;
    loop {
        if let Some(second) = times.unknown_second(at) {
            let stored = stored_times(conn, business, &[(phone, second)]).await?;
            times.taken.extend(stored.into_iter().map(|(_, t)| t));
        }
        if times.taken.insert(at) {
            return Ok(at);
        }
        at += 1;
    }
}

/// The stored message times of each (conversation, second) asked: one statement per second
/// for all its conversations (a batch's messages mostly want the same one or two seconds).
/// Kept to one table and one range: a join with a `VALUES` list of pairs became a hash join
/// over all the business's messages, and a `UNION ALL` of one `SELECT` per pair cost more in
/// Postgres than the reads it replaced (docs/decisions/0022-postgres-ingest-round-trips.md).
pub(super) async fn stored_times(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    seconds: &[(&str, i64)],
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let mut by_second: BTreeMap<i64, Vec<&str>> = BTreeMap::new();
    for &(phone, second) in seconds {
        by_second.entry(second).or_default().push(phone);
    }
    let mut times = Vec::new();
    for (second, phones) in by_second {
        for chunk in phones.chunks(rows_per_statement(1) - 3) {
            let params = Params::of(conn);
            let sql = format!(
                "SELECT phone, sent_at FROM messages WHERE business_id = {} AND phone IN ({}) \
                 AND sent_at >= {} AND sent_at < {}",
                params.nth(1),
                params.list(2, chunk.len()),
                params.nth(chunk.len() + 2),
                params.nth(chunk.len() + 3)
            );
            // Only numbered placeholders are formatted in; the values are bound.
            let mut select = sqlx::query_as::<_, (String, i64)>(AssertSqlSafe(sql)).bind(business);
            for phone in chunk {
                select = select.bind(*phone);
            }
            let select = select.bind(second * 1000).bind((second + 1) * 1000);
            times.extend(select.fetch_all(&mut *conn).await?);
        }
    }
    Ok(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_conversation_holds_only_while_its_latest_time_is_unchanged() {
        let mut batch = Times::stored_until(0);
        for at in [5_000, 5_001] {
            batch.take(at);
        }
        let mut memory = TimesMemory::default();
        let after = batch
            .after(&[5_000, 5_001])
            .expect("two messages were stored");
        memory.learn(vec![("b".into(), "1".into(), after)]);

        let mut next = Times::stored_until(5_001);
        memory.recall("b", "1", &mut next);
        assert_eq!(next.unknown_second(5_000), None, "the second is known");
        assert!(!next.taken.insert(5_001), "its times are known");

        let mut moved = Times::stored_until(5_002);
        memory.recall("b", "1", &mut moved);
        assert_eq!(
            moved.unknown_second(5_000),
            Some(5),
            "another write moved the latest time"
        );
    }

    #[test]
    fn the_second_of_the_latest_stored_time_is_known_only_when_read() {
        let batch = Times::stored_until(7_500);
        let after = batch.after(&[7_600, 8_000]).expect("stored");
        let mut next = after.clone();
        assert_eq!(
            next.unknown_second(7_100),
            Some(7),
            "times before 7,500 were never read"
        );
        let mut next = after;
        assert_eq!(
            next.unknown_second(8_000),
            None,
            "second 8 holds only this batch's time"
        );
    }
}
