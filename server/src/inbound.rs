//! Inbound deliveries: what one webhook POST carries is persisted through the conversation
//! actors, then each message seen for the first time sets off its follow-ups: a Web Push, an
//! automated reply (docs/AUTOMATED_REPLIES.md), and keeping its media while the provider still
//! has it.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::future::join_all;
use parley_actors::conversation::{
    ConversationKey, Conversations, Inbound, InboundMessage, OutgoingMessage, Receipt, StatusUpdate,
};
use parley_actors::error::StoreError;
use parley_actors::hub::EventBus;

use crate::cloud::{Message, MessagesValue, TemplateStatusUpdate};
use crate::customer::CustomerKey;
use crate::outbox::{Delivery, Outbox};
use crate::push::Push;
use crate::replies::engine::{InboundKind, choose_reply};
use crate::store::{self, Store};
use crate::team::Team;

/// The sender of automated replies, as the inbox shows it.
pub const AUTOMATED_SENDER: &str = "Automated reply";

/// Why a delivery was not taken.
#[derive(Debug, thiserror::Error)]
pub enum InboundError {
    #[error("A message lacks from or id")]
    MessageWithoutSender,
    #[error("A status lacks id, status or recipient_id")]
    IncompleteStatus,
    /// The provider redelivers it later; redeliveries are deduplicated by message id.
    #[error("webhook not persisted: {0}")]
    NotPersisted(StoreError),
    #[error(transparent)]
    Store(#[from] store::Error),
    #[error(transparent)]
    Outbox(#[from] crate::outbox::OutboxError),
}

/// What a business's new messages set off, as its profile says.
#[derive(Clone, Copy, Debug, Default)]
pub struct SetsOff {
    /// It has an active automated reply.
    pub replies: bool,
    /// A browser of its team subscribed to Web Push.
    pub push: bool,
}

/// The work one webhook POST carries, grouped by business.
#[derive(Default)]
pub struct Batch {
    messages: Vec<Arrival>,
    statuses: Vec<(ConversationKey, StatusUpdate)>,
    /// Template review decisions: (business, decision).
    templates: Vec<(String, TemplateStatusUpdate)>,
    /// Per business id.
    sets_off: HashMap<String, SetsOff>,
}

/// An inbound message: where it goes, what is stored, and the message as read (its follow-ups
/// read the model, not the stored JSON).
struct Arrival {
    key: ConversationKey,
    stored: Arc<InboundMessage>,
    message: Message,
}

impl Batch {
    /// Remembers what `business_id`'s new messages set off.
    pub fn sets_off(&mut self, business_id: &str, sets_off: SetsOff) {
        self.sets_off.insert(business_id.to_string(), sets_off);
    }

    /// Adds the messages and receipts of a `messages` change for `business_id`.
    pub fn add_messages(
        &mut self,
        business_id: &str,
        value: MessagesValue,
    ) -> Result<(), InboundError> {
        let names: HashMap<String, String> = value
            .contacts
            .into_iter()
            .filter_map(|c| Some((c.wa_id?, c.profile.name?)))
            .collect();
        let key = |customer: &str| ConversationKey {
            business_id: business_id.to_string(),
            phone: CustomerKey::from_provider(customer).into_string(),
        };
        for message in value.messages {
            let (Some(from), Some(id)) = (&message.from, &message.id) else {
                return Err(InboundError::MessageWithoutSender);
            };
            let key = key(from);
            let (kind, content) = message.stored();
            let stored = Arc::new(InboundMessage {
                provider_id: id.clone(),
                timestamp_ms: milliseconds(message.timestamp),
                kind,
                content,
                contact_name: names.get(&key.phone).cloned(),
            });
            self.messages.push(Arrival {
                key,
                stored,
                message,
            });
        }
        for status in value.statuses {
            let (Some(id), Some(state), Some(recipient)) =
                (status.id, status.status, status.recipient_id)
            else {
                return Err(InboundError::IncompleteStatus);
            };
            let update = StatusUpdate {
                message_id: id,
                status: state,
                timestamp_ms: milliseconds(status.timestamp),
                error: status.errors.into_iter().next(),
            };
            self.statuses.push((key(&recipient), update));
        }
        Ok(())
    }

    /// Adds a template review decision for `business_id`.
    pub fn add_template_decision(&mut self, business_id: &str, update: TemplateStatusUpdate) {
        self.templates.push((business_id.to_string(), update));
    }
}

/// Unix seconds as stored (ms); a message without a readable time counts as sent now.
fn milliseconds(seconds: Option<i64>) -> i64 {
    seconds.map_or_else(crate::store::now_ms, |secs| secs * 1000)
}

/// What taking a delivery needs.
pub struct Intake<'a> {
    pub store: &'a Store,
    pub bus: &'a dyn EventBus,
    pub conversations: &'a Conversations,
    pub outbox: &'a Arc<Outbox>,
    pub push: &'a Push,
    pub team: &'a Team,
}

impl Intake<'_> {
    /// Persists everything in `batch`, then starts the follow-ups of the new messages. Returns
    /// once everything is persisted; the follow-ups run on.
    pub async fn take(&self, batch: Batch) -> Result<(), InboundError> {
        for (business_id, update) in &batch.templates {
            let update = serde_json::to_value(update).unwrap_or_default();
            let events = self.store.template_decided(business_id, &update).await?;
            self.bus.publish(events);
        }
        let media: Vec<(String, String)> = batch
            .messages
            .iter()
            .filter_map(|a| Some((a.key.business_id.clone(), a.message.media_id()?.to_string())))
            .collect();
        let messages = batch.messages.into_iter().map(|arrival| async move {
            let new = self
                .conversations
                .ask(&arrival.key, Inbound(arrival.stored.clone()))
                .await?;
            new.map(|new| new.then_some(arrival))
        });
        let statuses = batch.statuses.into_iter().map(|(key, update)| async move {
            self.conversations.ask(&key, Receipt(update)).await?
        });
        let (messages, statuses) = futures_util::join!(join_all(messages), join_all(statuses));
        for outcome in statuses {
            outcome.map_err(InboundError::NotPersisted)?;
        }
        for outcome in messages {
            // Only a message seen for the first time is answered, so redeliveries never double up.
            if let Some(arrival) = outcome.map_err(InboundError::NotPersisted)? {
                let sets_off = batch
                    .sets_off
                    .get(&arrival.key.business_id)
                    .copied()
                    .unwrap_or_default();
                self.follow_up(sets_off, arrival);
            }
        }
        // Media is kept now, while the provider still has it (its URLs expire); a failure here
        // is retried when someone opens the file.
        for (business_id, media_id) in media {
            let outbox = self.outbox.clone();
            actix_web::rt::spawn(async move {
                if let Err(err) = outbox.fetch_inbound_media(&business_id, &media_id).await {
                    tracing::warn!(error = %err, "inbound media not fetched yet");
                }
            });
        }
        Ok(())
    }

    /// A new message's reopening and assignment, push and automated reply.
    fn follow_up(&self, sets_off: SetsOff, arrival: Arrival) {
        let (team, key) = (self.team.clone(), arrival.key.clone());
        actix_web::rt::spawn(async move {
            if let Err(err) = team.customer_wrote(&key).await {
                tracing::warn!(error = %err, "conversation not reopened or assigned");
            }
        });
        if sets_off.push {
            self.push.notify(&arrival.key, &arrival.stored);
        }
        if sets_off.replies {
            let (store, outbox) = (self.store.clone(), self.outbox.clone());
            actix_web::rt::spawn(async move {
                if let Err(err) = auto_reply(&store, &outbox, arrival).await {
                    tracing::warn!(error = %err, "automated reply not sent");
                }
            });
        }
    }
}

/// Answers a new inbound message with the business's automated reply, if one applies. The reply
/// goes through the conversation's actor and the outbox like any other message, after the
/// message it answers.
async fn auto_reply(store: &Store, outbox: &Outbox, arrival: Arrival) -> Result<(), InboundError> {
    let Arrival {
        key,
        stored,
        message,
    } = arrival;
    let replies = store.replies(&key.business_id).await?;
    if !replies.iter().any(|r| r.is_active) {
        return Ok(());
    }
    let inbound = InboundKind::from(&message.kind);
    let steps = store.all_flow_steps(&key.business_id).await?;
    let last_sent = store.reply_deliveries(&key.business_id, &key.phone).await?;
    let now = crate::store::now_ms();
    let Some(choice) = choose_reply(&replies, &steps, &inbound, &last_sent, now) else {
        return Ok(());
    };
    let reply = choice.answer.message(&key.phone);
    store
        .record_reply_delivery(&key.business_id, &choice.reply_id, &key.phone, now)
        .await?;
    let outgoing = OutgoingMessage {
        client_id: format!("auto:{}", stored.provider_id),
        kind: reply.kind,
        content: reply.content,
        sender_name: AUTOMATED_SENDER.into(),
        payload: reply.payload,
    };
    if let Delivery::Refused(err) = outbox.send(key, outgoing).await? {
        tracing::warn!(error = %err, "automated reply refused by the provider");
    }
    Ok(())
}
