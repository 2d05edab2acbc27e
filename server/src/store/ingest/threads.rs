//! The conversations of a batch's inbound messages: their contacts as they were, and the time
//! each new message takes in its conversation.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use parley_actors::conversation::{ConversationKey, InboundMessage};
use sqlx::{AssertSqlSafe, FromRow};

use crate::store::profiles::ContactProfile;
use crate::store::{Backend, Params, key_list};

/// A conversation while a batch is written: its contact's name and ids, whether the batch
/// creates the contact or changes its name or ids, whether it carries labels, the time of its
/// latest stored message, the first and last time taken in each second its new messages want,
/// and what the list shows of it.
#[derive(Default)]
pub(super) struct Thread {
    pub(super) contact: ContactProfile,
    pub(super) created: bool,
    /// For a known contact whose name or ids the batch changes: the item that changed them first.
    pub(super) renamed: Option<usize>,
    /// It carries a label, whose list time follows its own (a new contact carries none).
    pub(super) labelled: bool,
    /// Its latest message's time before the batch: a later time cannot be stored already.
    pub(super) stored_latest: i64,
    /// For each second read (or starting after `stored_latest`), the first and last millisecond
    /// taken in it by a stored message or by the batch, or `None` while none is.
    pub(super) seconds: HashMap<i64, Option<(i64, i64)>>,
    /// What the conversation list shows of it.
    pub(super) shown: Shown,
}

/// The conversation list's last message time and preview of a conversation.
#[derive(Default)]
pub(super) struct Shown {
    pub(super) at: i64,
    pub(super) preview: Option<String>,
}

impl Shown {
    /// Takes a new message's time and preview unless the list shows a newer one.
    pub(super) fn offer(&mut self, at: i64, preview: Option<String>) {
        if at >= self.at {
            self.at = at;
            self.preview = preview;
        }
    }
}

/// The time for a new message of `phone` that wants `wanted` (the provider's): that time,
/// unless it lies between the first and last time its conversation already holds in that
/// second; then the millisecond after the second's latest (the next second's, the same way,
/// when that one is the second's last). The provider's times are whole seconds, so a message
/// keeps its time unless a message holds that very millisecond, and the messages of a busy
/// second follow each other in the order they came. `known_threads` and `read_stored_seconds`
/// read the seconds a batch wants beforehand; a second reached by moving on is read here.
pub(super) async fn free_time(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    phone: &str,
    thread: &mut Thread,
    wanted: i64,
) -> Result<i64, sqlx::Error> {
    let mut at = wanted;
    loop {
        let second = at.div_euclid(1000);
        let span = match thread.seconds.entry(second) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(unread) if second * 1000 <= thread.stored_latest => {
                let read = second_spans(conn, business, &[phone], second).await?;
                unread.insert(read.into_iter().next().and_then(|(_, span)| span))
            }
            Entry::Vacant(after_stored) => after_stored.insert(None),
        };
        match place(span, at) {
            Ok(time) => return Ok(time),
            Err(next) => at = next,
        }
    }
}

/// Places a message that wants `at` in a second whose taken times span `span` (first and
/// last), and widens the span: `Ok` with its time, or `Err` with the next second's start when
/// it must move and the second's last millisecond is taken.
fn place(span: &mut Option<(i64, i64)>, at: i64) -> Result<i64, i64> {
    let time = match *span {
        Some((first, last)) if (first..=last).contains(&at) => {
            if (last + 1).rem_euclid(1000) == 0 {
                return Err(last + 1);
            }
            last + 1
        }
        _ => at,
    };
    *span = Some(span.map_or((time, time), |(first, last)| {
        (first.min(time), last.max(time))
    }));
    Ok(time)
}

/// Reads, for every conversation and second the batch's new messages want that `known_threads`
/// did not read (only where the conversation has a message that late or later), the first and
/// last stored time in it: a statement per second for all its conversations, not one per
/// conversation and second.
pub(super) async fn read_stored_seconds(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    threads: &mut HashMap<String, Thread>,
    wanted: impl IntoIterator<Item = (&str, i64)>,
) -> Result<(), sqlx::Error> {
    let mut by_second: BTreeMap<i64, Vec<&str>> = BTreeMap::new();
    for (phone, at) in wanted {
        let second = at.div_euclid(1000);
        if let Some(thread) = threads.get(phone)
            && second * 1000 <= thread.stored_latest
            && !thread.seconds.contains_key(&second)
        {
            let phones = by_second.entry(second).or_default();
            if !phones.contains(&phone) {
                phones.push(phone);
            }
        }
    }
    for (second, phones) in by_second {
        for (phone, span) in second_spans(conn, business, &phones, second).await? {
            if let Some(thread) = threads.get_mut(&phone) {
                thread.seconds.insert(second, span);
            }
        }
    }
    Ok(())
}

/// The subqueries of a second's first and last stored time in the conversation whose phone is
/// the column `phone`, for the business `$1`: its first time from the second's start (`$3`)
/// and its last before the next second's (`$4`), each one step down the conversation's time
/// index (`messages_conversation`) however many messages the second holds (a busy
/// conversation's second holds a thousand). One bound each: with both, Postgres planned a walk
/// of the business's messages of the second (`messages_business_time`) for a prepared
/// statement's generic plan, or on a table without statistics.
fn second_bounds(phone: &str) -> (String, String) {
    let from = format!("FROM messages m WHERE m.business_id = $1 AND m.phone = {phone}");
    (
        format!("(SELECT MIN(m.sent_at) {from} AND m.sent_at >= $3)"),
        format!("(SELECT MAX(m.sent_at) {from} AND m.sent_at < $4)"),
    )
}

/// A second's span from what `second_bounds` read: the second holds messages when the first is
/// in it (before `end`, the next second's start).
fn span(first: Option<i64>, last: Option<i64>, end: i64) -> Option<(i64, i64)> {
    first.filter(|first| *first < end).zip(last)
}

/// The first and last stored message time of each conversation in one second
/// (`second_bounds`). One statement per second for all its conversations: a join with a
/// `VALUES` list of pairs became a hash join over all the business's messages on Postgres
/// (docs/decisions/0022-postgres-ingest-round-trips.md).
async fn second_spans(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    phones: &[&str],
    second: i64,
) -> Result<Vec<(String, Option<(i64, i64)>)>, sqlx::Error> {
    let (first, last) = second_bounds("k.value");
    let sql = format!(
        "SELECT k.value, {first}, {last} FROM {}",
        Params::of(conn).keys(2)
    );
    let end = (second + 1) * 1000;
    // Only the list's text is formatted in; the values are bound.
    let spans = sqlx::query_as::<_, (String, Option<i64>, Option<i64>)>(AssertSqlSafe(sql))
        .bind(business)
        .bind(key_list(phones)?)
        .bind(second * 1000)
        .bind(end)
        .fetch_all(&mut *conn)
        .await?;
    Ok(spans
        .into_iter()
        .map(|(phone, first, last)| (phone, span(first, last, end)))
        .collect())
}

/// A known contact as the batch reads it, with the first and last stored time in the second
/// most of the batch's messages want (when its latest message is that late).
#[derive(FromRow)]
struct KnownThread {
    phone: String,
    name: String,
    user_id: Option<String>,
    username: Option<String>,
    /// 1 when the business named it.
    named_by_business: i64,
    /// Its latest message's time.
    latest: Option<i64>,
    last_message_at: Option<i64>,
    last_text: Option<String>,
    last_caption: Option<String>,
    /// How many labels it carries.
    labels: i64,
    second_first: Option<i64>,
    second_last: Option<i64>,
}

/// The batch's conversations whose contact exists: its name, latest message time, whether it
/// carries labels (a contact that does not exist has no messages or labels either: they go with
/// it) and what its messages took of the second most of the batch's messages want, so that
/// `read_stored_seconds` has the others only, mostly none. That second is read like
/// `second_spans` reads one, except that the latest message stands for the second's last when
/// nothing is later, and that a conversation whose latest message is earlier reads nothing.
pub(super) async fn known_threads(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    messages: &[(usize, &ConversationKey, &InboundMessage)],
) -> Result<HashMap<String, Thread>, sqlx::Error> {
    let mut phones: Vec<&str> = messages
        .iter()
        .map(|(_, key, _)| key.phone.as_str())
        .collect();
    phones.sort_unstable();
    phones.dedup();
    let second = common_second(messages.iter().map(|(_, _, m)| m.timestamp_ms));
    let (start, end) = (second * 1000, (second + 1) * 1000);
    let mut threads = HashMap::with_capacity(phones.len());
    let (first, last) = second_bounds("t.phone");
    // Locked on Postgres (the batch updates these rows anyway), so a rename committed meanwhile
    // is the name its events carry, not one read before it.
    let lock = Backend::of(conn).row_lock(true);
    // Materialized, so that each contact's latest message is read once.
    let sql = format!(
        "WITH t AS MATERIALIZED (SELECT c.phone, c.name, c.user_id, c.username, \
         c.named_by_business, (SELECT MAX(m.sent_at) FROM messages m WHERE m.business_id = c.business_id \
         AND m.phone = c.phone) AS latest, c.last_message_at, c.last_text, c.last_caption, \
         (SELECT COUNT(*) FROM conversation_labels l WHERE l.business_id = c.business_id \
         AND l.phone = c.phone) AS labels FROM contacts c WHERE c.business_id = $1 AND {}{lock}) \
         SELECT t.*, CASE WHEN t.latest >= $3 THEN {first} END AS second_first, \
         CASE WHEN t.latest >= $4 THEN {last} ELSE t.latest END AS second_last FROM t",
        Params::of(conn).one_of("c.phone", 2)
    );
    // Only the list's text and the backend's lock clause are formatted in; the values are bound.
    let select = sqlx::query_as::<_, KnownThread>(AssertSqlSafe(sql))
        .bind(business)
        .bind(key_list(&phones)?)
        .bind(start)
        .bind(end);
    for known in select.fetch_all(&mut *conn).await? {
        let stored_latest = known.latest.unwrap_or(0);
        let mut seconds = HashMap::new();
        if start <= stored_latest {
            let read = span(known.second_first, known.second_last, end);
            seconds.insert(second, read);
        }
        let thread = Thread {
            contact: ContactProfile {
                name: known.name,
                user_id: known.user_id,
                username: known.username,
                given: known.named_by_business != 0,
            },
            created: false,
            renamed: None,
            labelled: known.labels > 0,
            stored_latest,
            seconds,
            shown: Shown {
                at: known.last_message_at.unwrap_or(0),
                preview: known.last_text.or(known.last_caption),
            },
        };
        threads.insert(known.phone, thread);
    }
    Ok(threads)
}

/// The second most of these times fall in (the latest of those that tie).
fn common_second(times: impl Iterator<Item = i64>) -> i64 {
    let mut counts: HashMap<i64, usize> = HashMap::new();
    for at in times {
        *counts.entry(at.div_euclid(1000)).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(second, count)| (count, second))
        .map_or(0, |(second, _)| second)
}

#[cfg(test)]
mod tests {
    use super::{common_second, place};

    #[test]
    fn the_batchs_common_second_is_the_one_most_messages_want_and_the_latest_of_a_tie() {
        let second = 1_763_700_000_i64;
        let at = |s: i64, ms: i64| s * 1000 + ms;
        let most = [at(second, 0), at(second + 1, 0), at(second + 1, 0)];
        assert_eq!(common_second(most.into_iter()), second + 1);
        let tie = [at(second + 2, 0), at(second, 0)];
        assert_eq!(common_second(tie.into_iter()), second + 2);
        assert_eq!(common_second([at(second, 999)].into_iter()), second);
    }

    #[test]
    fn a_message_keeps_a_free_time_and_otherwise_follows_the_seconds_latest() {
        let second = 1_763_700_000_000_i64;
        // Nothing in the second: the wanted time, again and again after it.
        let mut span = None;
        assert_eq!(place(&mut span, second), Ok(second));
        assert_eq!(place(&mut span, second), Ok(second + 1));
        assert_eq!(place(&mut span, second), Ok(second + 2));
        assert_eq!(span, Some((second, second + 2)));
        // An agent's reply at .500 only: the second's start is free; then after the reply.
        let mut span = Some((second + 500, second + 500));
        assert_eq!(place(&mut span, second), Ok(second));
        assert_eq!(place(&mut span, second), Ok(second + 501));
        // A time after the span is free; one inside it moves after the latest.
        assert_eq!(place(&mut span, second + 900), Ok(second + 900));
        assert_eq!(place(&mut span, second + 700), Ok(second + 901));
        // The second's last millisecond taken: on to the next second's start.
        let mut span = Some((second, second + 999));
        assert_eq!(place(&mut span, second), Err(second + 1000));
        assert_eq!(span, Some((second, second + 999)));
    }
}
