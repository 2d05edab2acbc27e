//! The SQL of one group-commit batch: receipts one by one, then each business's inbound messages
//! with a few multi-row statements, and the events of each write numbered in item order.

use std::collections::{BTreeMap, HashMap, HashSet};

use parley_actors::conversation::{ConversationKey, InboundMessage};
use parley_actors::events::{Event, NOTIFICATION, NOTIFICATIONS, conversation_channel, event_data};
use serde::Serialize;
use sqlx::{AssertSqlSafe, Connection as _};

use super::Write;
use crate::store::events::{Draft, append_events};
use crate::store::messages::{MessageRow, insert_messages, message_drafts, preview};
use crate::store::receipts::apply_status;
use crate::store::unread::{add_unread, number_and_unread};
use crate::store::{Params, Store, iso_time, now_ms, rows_per_statement};

impl Store {
    /// Writes receipts and inbound messages in one transaction and answers each write's events
    /// (none for a redelivery or a receipt that changes nothing). Receipts are applied one by one
    /// (they touch our own messages only), then each business's inbound messages with a few
    /// multi-row statements. Events are numbered per business in item order.
    pub(super) async fn write_batch(
        &self,
        conn: &mut sqlx::AnyConnection,
        items: &[(ConversationKey, Write)],
    ) -> Result<Vec<Vec<Event>>, sqlx::Error> {
        let mut tx = conn.begin_with(self.write_start()).await?;
        // Per business: its phone number id and unread total before the batch.
        let mut businesses: HashMap<&str, (String, i64)> = HashMap::new();
        for (key, _) in items {
            let business = key.business_id.as_str();
            if !businesses.contains_key(business) {
                let found = number_and_unread(&mut tx, business).await?;
                businesses.insert(business, found);
            }
        }
        let mut drafts: Vec<Vec<Draft>> = items.iter().map(|_| Vec::new()).collect();
        let mut inbound: BTreeMap<&str, Vec<(usize, &ConversationKey, &InboundMessage)>> =
            BTreeMap::new();
        for (i, (key, write)) in items.iter().enumerate() {
            let business = key.business_id.as_str();
            match write {
                Write::Status(update) => {
                    let pnid = &businesses[business].0;
                    drafts[i] = apply_status(&mut tx, key, update, pnid).await?;
                }
                Write::Inbound(message) => {
                    inbound.entry(business).or_default().push((i, key, message))
                }
            }
        }
        for (business, messages) in inbound {
            let (pnid, unread) = &businesses[business];
            for (i, mine) in insert_inbound(&mut tx, business, pnid, *unread, &messages).await? {
                drafts[i] = mine;
            }
        }
        let events = number_by_business(&mut tx, items, drafts).await?;
        tx.commit().await?;
        Ok(events)
    }
}

/// A conversation while a batch is written: its contact's name, whether the batch creates or
/// renames the contact, and the time of its latest message.
struct Thread {
    name: String,
    created: bool,
    renamed: bool,
    latest: i64,
}

/// A new message of the batch: its item, row, whether it is its contact's first, and content.
type NewRow<'a> = (usize, MessageRow, bool, &'a serde_json::Value);

/// What a batch's new messages change on one contact.
#[derive(Default)]
struct Activity {
    added: i64,
    last_at: i64,
    last_text: Option<String>,
    last_caption: Option<String>,
}

/// Writes one business's inbound messages (in order) and answers the events of each new one, by
/// item index. Each message behaves as if written alone: a new contact's first message announces
/// it, a newer profile name renames the contact (even on a redelivery), times are unique and
/// increasing in each conversation, and each notification carries the unread counts as they
/// were right after its message (`total_unread` is the business's before the batch). A few
/// multi-row statements do it for the whole batch.
async fn insert_inbound(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    pnid: &str,
    total_unread: i64,
    messages: &[(usize, &ConversationKey, &InboundMessage)],
) -> Result<Vec<(usize, Vec<Draft>)>, sqlx::Error> {
    let mut threads = known_threads(conn, business, messages).await?;
    let mut rows: Vec<NewRow> = Vec::with_capacity(messages.len());
    let mut seen: HashSet<&str> = HashSet::new();
    for &(i, key, message) in messages {
        let name = message.contact_name.as_deref().unwrap_or_default();
        let first = !threads.contains_key(&key.phone);
        let thread = threads.entry(key.phone.clone()).or_insert_with(|| Thread {
            name: name.to_string(),
            created: true,
            renamed: false,
            latest: 0,
        });
        if !name.is_empty() && name != thread.name {
            thread.name = name.to_string();
            thread.renamed = !thread.created;
        }
        if !seen.insert(message.provider_id.as_str()) {
            continue; // The same message twice in one batch: the second is a redelivery.
        }
        thread.latest = message.timestamp_ms.max(thread.latest + 1);
        let row = MessageRow {
            message_id: message.provider_id.clone(),
            phone: key.phone.clone(),
            direction: "incoming".into(),
            kind: message.kind.clone(),
            content: message.content.to_string(),
            status: "received".into(),
            is_read: 0,
            sender_name: thread.name.clone(),
            sent_at: thread.latest,
            error: None,
        };
        rows.push((i, row, first, &message.content));
    }
    save_contacts(conn, business, &threads).await?;
    let new: Vec<_> = rows.iter().map(|(_, row, ..)| (row, None)).collect();
    let inserted = insert_messages(conn, business, &new).await?;
    rows.retain(|(_, row, ..)| inserted.contains(&row.message_id));

    let mut activity: HashMap<&str, Activity> = HashMap::new();
    for (_, row, _, content) in &rows {
        let (text, caption) = preview(content);
        let a = activity.entry(row.phone.as_str()).or_default();
        a.added += 1;
        a.last_at = row.sent_at;
        a.last_text = text;
        a.last_caption = caption;
    }
    // Each contact's unread count before the batch; each message below adds its own.
    let mut unread = record_activity(conn, business, &activity).await?;
    for (phone, count) in unread.iter_mut() {
        *count -= activity.get(phone.as_str()).map_or(0, |a| a.added);
    }
    let mut total = total_unread;
    add_unread(conn, business, rows.len() as i64).await?;
    Ok(rows
        .into_iter()
        .map(|(i, row, first, content)| {
            total += 1;
            let unread_count = unread.get_mut(&row.phone).map_or(1, |count| {
                *count += 1;
                *count
            });
            let (text, caption) = preview(content);
            let mut drafts = message_drafts(pnid, &row.phone, &row.sender_name, first, &row);
            drafts.push(Draft {
                channels: vec![NOTIFICATIONS.into()],
                name: NOTIFICATION,
                data: event_data(&Notification {
                    conversation_id: &conversation_channel(pnid, &row.phone),
                    phone_number: &row.phone,
                    name: &row.sender_name,
                    preview: text.or(caption),
                    unread_count,
                    total_unread: total,
                    last_message_timestamp: iso_time(row.sent_at),
                }),
            });
            (i, drafts)
        })
        .collect())
}

/// The `notification` event of a new inbound message: the list's row and the unread counts.
#[derive(Serialize)]
struct Notification<'a> {
    conversation_id: &'a str,
    phone_number: &'a str,
    name: &'a str,
    preview: Option<String>,
    unread_count: i64,
    total_unread: i64,
    last_message_timestamp: String,
}

/// The batch's conversations whose contact exists: its name and latest message time (a contact
/// that does not exist has no messages either: they go with it).
async fn known_threads(
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
    for chunk in phones.chunks(rows_per_statement(1) - 1) {
        let params = Params::of(conn);
        let sql = format!(
            "SELECT c.phone, c.name, (SELECT MAX(m.sent_at) FROM messages m \
             WHERE m.business_id = c.business_id AND m.phone = c.phone) \
             FROM contacts c WHERE c.phone IN ({}) AND c.business_id = {}",
            params.list(1, chunk.len()),
            params.nth(chunk.len() + 1)
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut select = sqlx::query_as::<_, (String, String, Option<i64>)>(AssertSqlSafe(sql));
        for phone in chunk {
            select = select.bind(*phone);
        }
        for (phone, name, latest) in select.bind(business).fetch_all(&mut *conn).await? {
            let thread = Thread {
                name,
                created: false,
                renamed: false,
                latest: latest.unwrap_or(0),
            };
            threads.insert(phone, thread);
        }
    }
    Ok(threads)
}

/// Inserts the batch's new contacts and renames the ones a message renamed.
async fn save_contacts(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    threads: &HashMap<String, Thread>,
) -> Result<(), sqlx::Error> {
    let created: Vec<_> = threads.iter().filter(|(_, t)| t.created).collect();
    let now = now_ms();
    for chunk in created.chunks(rows_per_statement(4)) {
        let sql = format!(
            "INSERT INTO contacts (business_id, phone, name, created_at) VALUES {}",
            Params::of(conn).rows(chunk.len(), 4)
        );
        let mut insert = sqlx::query(AssertSqlSafe(sql));
        for (phone, thread) in chunk {
            insert = insert
                .bind(business)
                .bind(*phone)
                .bind(&thread.name)
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
    }
    for (phone, thread) in threads.iter().filter(|(_, t)| t.renamed) {
        sqlx::query("UPDATE contacts SET name = $1 WHERE business_id = $2 AND phone = $3")
            .bind(&thread.name)
            .bind(business)
            .bind(phone)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Moves each contact's last message, preview and unread count; answers the unread counts after.
async fn record_activity(
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
             UPDATE contacts SET last_message_at = batch.at, last_incoming_at = batch.at, \
             last_text = batch.last_text, last_caption = batch.last_caption, \
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
    Ok(unread)
}

/// Appends each business's drafts in item order, one `append_events` per business, and hands
/// the numbered events back to the items they belong to.
async fn number_by_business(
    conn: &mut sqlx::AnyConnection,
    items: &[(ConversationKey, Write)],
    drafts: Vec<Vec<Draft>>,
) -> Result<Vec<Vec<Event>>, sqlx::Error> {
    let counts: Vec<usize> = drafts.iter().map(Vec::len).collect();
    let mut by_business: BTreeMap<&str, Vec<Draft>> = BTreeMap::new();
    for ((key, _), mine) in items.iter().zip(drafts) {
        by_business
            .entry(key.business_id.as_str())
            .or_default()
            .extend(mine);
    }
    let mut numbered: HashMap<&str, std::vec::IntoIter<Event>> = HashMap::new();
    for (business, drafts) in by_business {
        let events = append_events(conn, business, drafts).await?;
        numbered.insert(business, events.into_iter());
    }
    Ok(items
        .iter()
        .zip(counts)
        .map(|((key, _), count)| {
            numbered
                .get_mut(key.business_id.as_str())
                .map(|events| events.by_ref().take(count).collect())
                .unwrap_or_default()
        })
        .collect())
}
