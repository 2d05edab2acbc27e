//! The conversations of a batch's inbound messages: their contacts as they were, the time each
//! new message takes in its conversation, and the contacts' rows written back.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use parley_actors::conversation::{ConversationKey, InboundMessage};
use sqlx::{AssertSqlSafe, FromRow};

use crate::store::labels::relist_labels;
use crate::store::search_index::index_contacts;
use crate::store::{Params, key_list, now_ms, rows_per_statement};

/// A conversation while a batch is written: its contact's name and ids, whether the batch
/// creates the contact or changes its name or ids, the time of its latest stored message, the
/// first and last time taken in each second its new messages want, and what the list shows of
/// it.
#[derive(Default)]
pub(super) struct Thread {
    pub(super) name: String,
    pub(super) user_id: Option<String>,
    pub(super) username: Option<String>,
    pub(super) created: bool,
    pub(super) renamed: bool,
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

/// A new contact's BSUID and username.
pub(super) type OwnedIds = (Option<String>, Option<String>);

pub(super) fn thread_ids(thread: &Thread) -> OwnedIds {
    (thread.user_id.clone(), thread.username.clone())
}

/// The time for a new message of `phone` that wants `wanted` (the provider's): that time,
/// unless it lies between the first and last time its conversation already holds in that
/// second; then the millisecond after the second's latest (the next second's, the same way,
/// when that one is the second's last). The provider's times are whole seconds, so a message
/// keeps its time unless a message holds that very millisecond, and the messages of a busy
/// second follow each other in the order they came. `read_stored_seconds` reads the seconds a
/// batch wants beforehand; a second reached by moving on is read here.
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

/// Reads, for every conversation and second the batch's new messages want (only where the
/// conversation has a message that late or later), the first and last stored time in it: a
/// statement per second for all its conversations, not one per conversation and second.
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

/// The first and last stored message time of each conversation in one second: its first time
/// from the second's start and its last before the next second's, each one step down the
/// conversation's time index (`messages_conversation`) however many messages the second holds
/// (a busy conversation's second holds a thousand); the second holds messages when the first
/// is in it. One bound each: with both, Postgres planned a walk of the business's messages of
/// the second (`messages_business_time`) for a prepared statement's generic plan, or on a table
/// without statistics. One statement per second for all its conversations: a join with a
/// `VALUES` list of pairs became a hash join over all the business's messages on Postgres
/// (docs/decisions/0022-postgres-ingest-round-trips.md).
async fn second_spans(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    phones: &[&str],
    second: i64,
) -> Result<Vec<(String, Option<(i64, i64)>)>, sqlx::Error> {
    let from = "FROM messages m WHERE m.business_id = $1 AND m.phone = k.value";
    let sql = format!(
        "SELECT k.value, (SELECT MIN(m.sent_at) {from} AND m.sent_at >= $3), \
         (SELECT MAX(m.sent_at) {from} AND m.sent_at < $4) FROM {}",
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
        .map(|(phone, first, last)| (phone, first.filter(|f| *f < end).zip(last)))
        .collect())
}

/// What a batch's new messages change on one contact: the count, and the newest of them.
#[derive(Default)]
pub(super) struct Activity {
    pub(super) added: i64,
    pub(super) last_at: i64,
    pub(super) last_text: Option<String>,
    pub(super) last_caption: Option<String>,
}

/// A known contact as the batch reads it.
#[derive(FromRow)]
struct KnownThread {
    phone: String,
    name: String,
    user_id: Option<String>,
    username: Option<String>,
    /// Its latest message's time.
    latest: Option<i64>,
    last_message_at: Option<i64>,
    last_text: Option<String>,
    last_caption: Option<String>,
}

/// The batch's conversations whose contact exists: its name and latest message time (a contact
/// that does not exist has no messages either: they go with it).
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
    let mut threads = HashMap::with_capacity(phones.len());
    let sql = format!(
        "SELECT c.phone, c.name, c.user_id, c.username, (SELECT MAX(m.sent_at) FROM messages m \
         WHERE m.business_id = c.business_id AND m.phone = c.phone) AS latest, \
         c.last_message_at, c.last_text, c.last_caption \
         FROM contacts c WHERE c.business_id = $1 AND {}",
        Params::of(conn).one_of("c.phone", 2)
    );
    // Only the list's text is formatted in; the values are bound.
    let select = sqlx::query_as::<_, KnownThread>(AssertSqlSafe(sql))
        .bind(business)
        .bind(key_list(&phones)?);
    for known in select.fetch_all(&mut *conn).await? {
        let thread = Thread {
            name: known.name,
            user_id: known.user_id,
            username: known.username,
            created: false,
            renamed: false,
            stored_latest: known.latest.unwrap_or(0),
            shown: Shown {
                at: known.last_message_at.unwrap_or(0),
                preview: known.last_text.or(known.last_caption),
            },
            ..Thread::default()
        };
        threads.insert(known.phone, thread);
    }
    Ok(threads)
}

/// Inserts the batch's new contacts and updates the ones whose name or ids a message changed
/// (their search documents follow in `index_changed_contacts`).
pub(super) async fn save_contacts(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    threads: &HashMap<String, Thread>,
) -> Result<(), sqlx::Error> {
    let created: Vec<_> = threads.iter().filter(|(_, t)| t.created).collect();
    let now = now_ms();
    for chunk in created.chunks(rows_per_statement(6)) {
        let sql = format!(
            "INSERT INTO contacts (business_id, phone, name, user_id, username, created_at) \
             VALUES {}",
            Params::of(conn).rows(chunk.len(), 6)
        );
        let mut insert = sqlx::query(AssertSqlSafe(sql));
        for (phone, thread) in chunk {
            insert = insert
                .bind(business)
                .bind(*phone)
                .bind(&thread.name)
                .bind(&thread.user_id)
                .bind(&thread.username)
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
    }
    for (phone, thread) in threads.iter().filter(|(_, t)| t.renamed) {
        sqlx::query(
            "UPDATE contacts SET name = $1, user_id = $2, username = $3 \
             WHERE business_id = $4 AND phone = $5",
        )
        .bind(&thread.name)
        .bind(&thread.user_id)
        .bind(&thread.username)
        .bind(business)
        .bind(phone)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Indexes the batch's new and renamed contacts for search; after their messages are written,
/// so a new contact's document is dated at its first message.
pub(super) async fn index_changed_contacts(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    threads: &HashMap<String, Thread>,
) -> Result<(), sqlx::Error> {
    let changed: Vec<&str> = threads
        .iter()
        .filter(|(_, t)| t.created || t.renamed)
        .map(|(phone, _)| phone.as_str())
        .collect();
    index_contacts(conn, business, &changed).await
}

/// Moves each contact's last message and preview (only forward: a late message does not take
/// the place of a newer one), latest inbound time and unread count, and its labels' list time;
/// answers the unread counts after.
pub(super) async fn record_activity(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    activity: &HashMap<&str, Activity>,
) -> Result<HashMap<String, i64>, sqlx::Error> {
    let activity: Vec<_> = activity.iter().collect();
    let mut unread = HashMap::with_capacity(activity.len());
    for chunk in activity.chunks(rows_per_statement(5) - 1) {
        let params = Params::of(conn);
        let sql = format!(
            "WITH batch (phone, at, last_text, last_caption, added) AS (VALUES {}) \
             UPDATE contacts SET \
             last_message_at = CASE WHEN batch.at >= COALESCE(contacts.last_message_at, 0) \
                 THEN batch.at ELSE contacts.last_message_at END, \
             last_incoming_at = CASE WHEN batch.at >= COALESCE(contacts.last_incoming_at, 0) \
                 THEN batch.at ELSE contacts.last_incoming_at END, \
             last_text = CASE WHEN batch.at >= COALESCE(contacts.last_message_at, 0) \
                 THEN batch.last_text ELSE contacts.last_text END, \
             last_caption = CASE WHEN batch.at >= COALESCE(contacts.last_message_at, 0) \
                 THEN batch.last_caption ELSE contacts.last_caption END, \
             unread_count = contacts.unread_count + batch.added \
             FROM batch WHERE contacts.phone = batch.phone AND contacts.business_id = {} \
             RETURNING contacts.phone, contacts.unread_count",
            params.rows(chunk.len(), 5),
            params.nth(chunk.len() * 5 + 1)
        );
        let mut update = sqlx::query_as::<_, (String, i64)>(AssertSqlSafe(sql));
        for (phone, a) in chunk {
            update = update
                .bind(**phone)
                .bind(a.last_at)
                .bind(&a.last_text)
                .bind(&a.last_caption)
                .bind(a.added);
        }
        unread.extend(update.bind(business).fetch_all(&mut *conn).await?);
    }
    let phones: Vec<&str> = activity.iter().map(|(phone, _)| **phone).collect();
    relist_labels(conn, business, &phones).await?;
    Ok(unread)
}

#[cfg(test)]
mod tests {
    use super::place;

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
