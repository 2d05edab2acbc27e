//! Group commit of inbound messages (docs/decisions/0002-group-commit.md). Conversation actors
//! hand their messages to one writer task; it takes everything waiting, writes it in one
//! transaction and, only after the commit, publishes the batch's events in seq order and answers
//! each message. While one commit (and its fsync) runs, the next batch gathers, so there is no
//! timer and no added wait. Being the one publisher of inbound events keeps them in order on
//! their way to the hub, however busy the threads of the actors that queued them.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use parley_actors::conversation::{ConversationKey, InboundMessage};
use parley_actors::events::{Event, NOTIFICATION, NOTIFICATIONS, conversation_channel};
use parley_actors::hub::EventBus;
use serde_json::json;
use tokio::sync::{mpsc, oneshot};

use super::conversations::{
    Draft, MessageRow, append_events, ensure_contact, insert_message, message_drafts, next_time,
    phone_number_id, preview, total_unread,
};
use super::{Store, iso_time};

/// Most messages in one transaction: bounds how long one commit holds the write lock.
const MAX_BATCH: usize = 512;

/// One message waiting for the writer, where its events go, and where its answer (new or not)
/// goes.
struct Pending {
    key: ConversationKey,
    message: InboundMessage,
    bus: Arc<dyn EventBus>,
    answer: oneshot::Sender<Result<bool, sqlx::Error>>,
}

/// The writer's queue. Cheap to clone.
#[derive(Clone)]
pub(super) struct Ingest(mpsc::UnboundedSender<Pending>);

impl Ingest {
    /// The queue, and the writer that drains it (to spawn once the store exists).
    pub(super) fn new() -> (Ingest, Writer) {
        let (queue, waiting) = mpsc::unbounded_channel();
        (Ingest(queue), Writer(waiting))
    }

    /// Queues one message for the next batch now; the future answers once it is committed and
    /// its events are published (false when the message was seen before).
    pub(super) fn submit(
        &self,
        key: ConversationKey,
        message: InboundMessage,
        bus: Arc<dyn EventBus>,
    ) -> impl Future<Output = Result<bool, sqlx::Error>> + use<> {
        let (answer, answered) = oneshot::channel();
        let queued = self.0.send(Pending {
            key,
            message,
            bus,
            answer,
        });
        async move {
            let writer_gone = || sqlx::Error::PoolClosed;
            queued.map_err(|_| writer_gone())?;
            answered.await.map_err(|_| writer_gone())?
        }
    }
}

/// The receiving end of the queue.
pub(super) struct Writer(mpsc::UnboundedReceiver<Pending>);

/// Commits batches until the runtime stops (the store it holds keeps the queue open).
pub(super) async fn run(store: Store, Writer(mut waiting): Writer) {
    let mut batch = Vec::new();
    while waiting.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let (items, outlets): (Vec<_>, Vec<_>) = batch
            .drain(..)
            .map(|p: Pending| ((p.key, p.message), (p.bus, p.answer)))
            .unzip();
        match store.insert_inbound(&items).await {
            Ok(events) => {
                for ((bus, answer), events) in outlets.into_iter().zip(events) {
                    let _ = answer.send(Ok(publish(&*bus, events)));
                }
            }
            // One bad message must not fail the others: each is retried in its own transaction.
            Err(err) if items.len() > 1 => {
                tracing::warn!(error = %err, size = items.len(), "batch not committed, retrying its messages one by one");
                for ((bus, answer), item) in outlets.into_iter().zip(&items) {
                    let result = store
                        .insert_inbound(std::slice::from_ref(item))
                        .await
                        .map(|mut events| publish(&*bus, events.pop().unwrap_or_default()));
                    let _ = answer.send(result);
                }
            }
            Err(err) => {
                if let Some((_, answer)) = outlets.into_iter().next() {
                    let _ = answer.send(Err(err));
                }
            }
        }
    }
}

/// Publishes one message's committed events; answers whether there were any (a new message).
fn publish(bus: &dyn EventBus, events: Vec<Event>) -> bool {
    let new = !events.is_empty();
    for event in events {
        bus.publish(event);
    }
    new
}

impl Store {
    /// Writes inbound messages in one transaction, in order; answers each one's events (none for
    /// a redelivery). Events are numbered per business after every message is written, with one
    /// counter update per business.
    pub async fn insert_inbound(
        &self,
        items: &[(ConversationKey, InboundMessage)],
    ) -> Result<Vec<Vec<Event>>, sqlx::Error> {
        let mut tx = self.begin_write().await?;
        let mut pnids: HashMap<&str, String> = HashMap::new();
        let mut totals: HashMap<&str, i64> = HashMap::new();
        let mut drafts: Vec<Vec<Draft>> = Vec::with_capacity(items.len());
        for (key, message) in items {
            let business = key.business_id.as_str();
            if !pnids.contains_key(business) {
                let pnid = phone_number_id(&mut tx, business).await?;
                pnids.insert(business, pnid);
            }
            let pnid = &pnids[business];
            let (name, created) =
                ensure_contact(&mut tx, key, message.contact_name.as_deref()).await?;
            let sent_at = next_time(&mut tx, key, message.timestamp_ms).await?;
            let row = MessageRow {
                message_id: message.provider_id.clone(),
                phone: key.phone.clone(),
                direction: "incoming".into(),
                kind: message.kind.clone(),
                content: message.content.to_string(),
                status: "received".into(),
                is_read: 0,
                sender_name: name.clone(),
                sent_at,
                error: None,
            };
            if insert_message(&mut tx, business, &row, None).await? == 0 {
                // A redelivery: no new message and no events (its contact existed already; a
                // newer profile name in it is kept).
                drafts.push(Vec::new());
                continue;
            }
            let (text, caption) = preview(&message.content);
            let (unread,): (i64,) = sqlx::query_as(
                "UPDATE contacts SET last_message_at = $1, last_incoming_at = $2, last_text = $3, \
                 last_caption = $4, unread_count = unread_count + 1 \
                 WHERE business_id = $5 AND phone = $6 RETURNING unread_count",
            )
            .bind(sent_at)
            .bind(sent_at)
            .bind(&text)
            .bind(&caption)
            .bind(business)
            .bind(&key.phone)
            .fetch_one(&mut *tx)
            .await?;
            // Summed once per business and batch (this message included), then counted on.
            let total = match totals.get_mut(business) {
                Some(total) => {
                    *total += 1;
                    *total
                }
                None => *totals
                    .entry(business)
                    .or_insert(total_unread(&mut tx, business).await?),
            };
            let mut mine = message_drafts(pnid, &key.phone, &name, created, &row);
            mine.push(Draft {
                channels: vec![NOTIFICATIONS.into()],
                name: NOTIFICATION,
                data: json!({
                    "conversation_id": conversation_channel(pnid, &key.phone),
                    "phone_number": key.phone,
                    "name": name,
                    "preview": text.or(caption),
                    "unread_count": unread,
                    "total_unread": total,
                    "last_message_timestamp": iso_time(sent_at),
                }),
            });
            drafts.push(mine);
        }
        let events = number_by_business(&mut tx, items, drafts).await?;
        tx.commit().await?;
        Ok(events)
    }
}

/// Appends each business's drafts in item order, one `append_events` per business, and hands
/// the numbered events back to the items they belong to.
async fn number_by_business(
    conn: &mut sqlx::AnyConnection,
    items: &[(ConversationKey, InboundMessage)],
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
