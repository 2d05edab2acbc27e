//! The SQL of one group-commit batch: receipts one by one, then each business's inbound messages
//! with a few multi-row statements, then echoes, edits and deletions one by one, and the events
//! of each write numbered in item order.

use std::collections::{BTreeMap, HashMap, HashSet};

use parley_actors::conversation::{ConversationKey, InboundMessage};
use parley_actors::events::{Event, NOTIFICATION, NOTIFICATIONS, conversation_channel, event_data};
use serde::Serialize;
use sqlx::Connection as _;

use super::Write;
use super::contacts::{Activity, index_changed_contacts, record_activity, save_contacts};
use super::threads::{Shown, Thread, free_time, known_threads, read_stored_seconds};
use crate::store::amend::apply_amendment;
use crate::store::contacts::renamed_contact_draft;
use crate::store::echoes::insert_echo;
use crate::store::events::{Draft, append_events};
use crate::store::messages::{MessageRow, insert_messages, message_drafts, preview};
use crate::store::profiles::ContactProfile;
use crate::store::quotes::{add_quote, quote_earlier};
use crate::store::receipts::apply_status;
use crate::store::unread::{add_unread, number_and_unread};
use crate::store::{Store, iso_time};

impl Store {
    /// Writes receipts and inbound messages in one transaction and answers each write's events
    /// and whether it was new: a receipt or change with events, a message not seen before (a
    /// redelivery is not new, though it may announce the newer profile it came with). Receipts
    /// are applied one by one (they touch our own messages only), then each business's inbound
    /// messages with a few multi-row statements. Events are numbered per business in item order.
    pub(super) async fn write_batch(
        &self,
        conn: &mut sqlx::AnyConnection,
        items: &[(ConversationKey, Write)],
    ) -> Result<Vec<(Vec<Event>, bool)>, sqlx::Error> {
        let mut tx = conn.begin_with(self.batch_start()).await?;
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
        // After the inbound messages, so an edit finds an original queued before it.
        let mut afterwards = Vec::new();
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
                Write::Amend(_) | Write::Echo(_) => afterwards.push((i, key, write)),
            }
        }
        let mut inserted = vec![false; items.len()];
        for (business, messages) in inbound {
            let (pnid, unread) = &businesses[business];
            for (i, mine, new) in
                insert_inbound(&mut tx, business, pnid, *unread, &messages).await?
            {
                drafts[i] = mine;
                inserted[i] = new;
            }
        }
        for (i, key, write) in afterwards {
            let pnid = &businesses[key.business_id.as_str()].0;
            drafts[i] = match write {
                Write::Amend(amendment) => apply_amendment(&mut tx, key, amendment, pnid).await?,
                Write::Echo(echo) => insert_echo(&mut tx, key, echo, pnid).await?,
                Write::Inbound(_) | Write::Status(_) => continue,
            };
        }
        let events = number_by_business(&mut tx, items, drafts).await?;
        tx.commit().await?;
        // A message is new when it was stored; any other write when it has events.
        Ok(events
            .into_iter()
            .zip(items.iter().zip(inserted))
            .map(|(events, ((_, write), inserted))| {
                let new = match write {
                    Write::Inbound(_) => inserted,
                    _ => !events.is_empty(),
                };
                (events, new)
            })
            .collect())
    }
}

/// A new message of the batch: its item, row, its contact's ids when it is the contact's first
/// message, and content.
type NewRow<'a> = (
    usize,
    MessageRow,
    Option<ContactProfile>,
    &'a serde_json::Value,
);

/// Writes one business's inbound messages (in order) and answers the events of each new one, by
/// item index, marked new. Each message behaves as if written alone: a new contact's first
/// message announces it, a newer profile name, BSUID or username updates the contact (even on a
/// redelivery) and is announced with `new_contact` marked `renamed` before its next new message
/// (with the redelivery that brought it, not marked new, when no new message follows), each
/// message keeps the provider's time (moved only where another message of its conversation has
/// that exact time, to follow the latest of that second), and each notification carries the
/// unread counts as they were right after its message (`total_unread` is the business's before
/// the batch). A few multi-row statements do it for the whole batch.
async fn insert_inbound(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    pnid: &str,
    total_unread: i64,
    messages: &[(usize, &ConversationKey, &InboundMessage)],
) -> Result<Vec<(usize, Vec<Draft>, bool)>, sqlx::Error> {
    let mut threads = known_threads(conn, business, messages).await?;
    let wanted = messages
        .iter()
        .map(|(_, key, m)| (key.phone.as_str(), m.timestamp_ms));
    read_stored_seconds(conn, business, &mut threads, wanted).await?;
    let mut rows: Vec<NewRow> = Vec::with_capacity(messages.len());
    let mut seen: HashSet<&str> = HashSet::new();
    for &(i, key, message) in messages {
        let first = !threads.contains_key(&key.phone);
        let thread = threads.entry(key.phone.clone()).or_insert_with(|| Thread {
            contact: ContactProfile::new(&message.profile),
            created: true,
            ..Thread::default()
        });
        if thread.contact.take(&message.profile) && !thread.created {
            thread.renamed.get_or_insert(i);
        }
        if !seen.insert(message.provider_id.as_str()) {
            continue; // The same message twice in one batch: the second is a redelivery.
        }
        let sent_at = free_time(conn, business, &key.phone, thread, message.timestamp_ms).await?;
        let mut content = message.content.clone();
        // A reply to a message of the same batch finds it here, not yet stored.
        let earlier = rows.iter().map(|(_, row, _, answered)| (row, *answered));
        if !quote_earlier(earlier, &key.phone, &mut content) {
            add_quote(conn, business, &key.phone, &mut content).await?;
        }
        let row = MessageRow {
            message_id: message.provider_id.clone(),
            phone: key.phone.clone(),
            direction: "incoming".into(),
            kind: message.kind.clone(),
            content: content.to_string(),
            status: "received".into(),
            is_read: i64::from(message.is_notice()),
            sender_name: thread.contact.name.clone(),
            sent_at,
            error: None,
            edited_at: None,
            revoked_at: None,
            client_id: None,
        };
        rows.push((
            i,
            row,
            first.then(|| thread.contact.clone()),
            &message.content,
        ));
    }
    save_contacts(conn, business, &threads).await?;
    let new: Vec<_> = rows.iter().map(|(_, row, ..)| row).collect();
    let inserted = insert_messages(conn, business, &new).await?;
    index_changed_contacts(conn, business, &threads).await?;
    rows.retain(|(_, row, ..)| inserted.contains(&row.message_id));

    let mut activity: HashMap<&str, Activity> = HashMap::new();
    for (_, row, _, content) in &rows {
        let (text, caption) = preview(content);
        let a = activity.entry(row.phone.as_str()).or_default();
        // A notice about the customer is stored read: what is stored unread is what they wrote,
        // which counts as unread and opens the reply window.
        if row.is_read == 0 {
            a.added += 1;
            a.incoming_at = a.incoming_at.max(Some(row.sent_at));
        }
        if row.sent_at > a.last_at {
            a.last_at = row.sent_at;
            a.last_text = text;
            a.last_caption = caption;
        }
    }
    // Each contact's unread count before the batch; each message below adds its own.
    let mut unread = record_activity(conn, business, &activity, &threads).await?;
    for (phone, count) in unread.iter_mut() {
        *count -= activity.get(phone.as_str()).map_or(0, |a| a.added);
    }
    let mut total = total_unread;
    let added: i64 = activity.values().map(|a| a.added).sum();
    add_unread(conn, business, added).await?;
    // A known contact whose name or ids changed is announced once, before its first new message
    // from the change on (a redelivery that changed them announces nothing of its own).
    let mut announced: HashSet<String> = HashSet::new();
    let mut written: Vec<(usize, Vec<Draft>, bool)> = rows
        .into_iter()
        .map(|(i, row, first, content)| {
            let mut drafts = Vec::new();
            if let Some(thread) = threads.get(&row.phone)
                && thread.renamed.is_some_and(|from| from <= i)
                && announced.insert(row.phone.clone())
            {
                let contact = &thread.contact;
                drafts.push(renamed_contact_draft(
                    pnid,
                    &row.phone,
                    &contact.name,
                    contact.ids(),
                ));
            }
            let counted = 1 - row.is_read;
            total += counted;
            let unread_count = unread.get_mut(&row.phone).map_or(counted, |count| {
                *count += counted;
                *count
            });
            let (text, caption) = preview(content);
            // A late message does not take the list's place of a newer one.
            let mut shown = Shown::default();
            let shown = threads
                .get_mut(&row.phone)
                .map_or(&mut shown, |t| &mut t.shown);
            shown.offer(row.sent_at, text.or(caption));
            let created = first.as_ref().map(ContactProfile::ids);
            drafts.extend(message_drafts(
                pnid,
                &row.phone,
                &row.sender_name,
                created,
                &row,
            ));
            drafts.push(Draft {
                channels: vec![NOTIFICATIONS.into()],
                name: NOTIFICATION,
                data: event_data(&Notification {
                    conversation_id: &conversation_channel(pnid, &row.phone),
                    phone_number: &row.phone,
                    name: &row.sender_name,
                    preview: shown.preview.clone(),
                    unread_count,
                    total_unread: total,
                    last_message_timestamp: iso_time(shown.at),
                }),
            });
            (i, drafts, true)
        })
        .collect();
    // A change that no new message of its customer followed: announced with the item that
    // brought it.
    for (phone, thread) in &threads {
        if let Some(from) = thread.renamed
            && !announced.contains(phone)
        {
            let contact = &thread.contact;
            let draft = renamed_contact_draft(pnid, phone, &contact.name, contact.ids());
            written.push((from, vec![draft], false));
        }
    }
    Ok(written)
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
