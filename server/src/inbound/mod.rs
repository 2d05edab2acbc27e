//! Inbound deliveries: what one webhook POST carries is taken item by item (`batch`), each
//! item's customer is found by phone or BSUID, everything is persisted through the conversation
//! actors, then each message seen for the first time sets off its follow-ups: a Web Push and an
//! automated reply (`reply`, docs/AUTOMATED_REPLIES.md). The files of committed messages are
//! kept while the provider still has them (`media`); items follow a customer an identity notice
//! of the same delivery moved (`moves`).

mod batch;
mod media;
mod moves;
mod reply;

use std::sync::Arc;

use futures_util::future::join_all;
use parley_actors::conversation::{Amend, ConversationKey, Conversations, Echo, Inbound, Receipt};
use parley_actors::error::StoreError;
use parley_actors::hub::EventBus;

use crate::customer::Sighting;
use crate::metrics;
use crate::outbox::Outbox;
use crate::push::Push;
use crate::store::{self, Store};
use batch::Arrival;
use moves::Moved;

pub use batch::{Batch, SetsOff};
pub use media::keep_media;
pub use reply::AUTOMATED_SENDER;

/// Address-book contacts written per transaction.
const APP_CONTACTS_PER_WRITE: usize = 500;

/// Why a delivery was not taken.
#[derive(Debug, thiserror::Error)]
pub enum InboundError {
    /// The provider redelivers it later; redeliveries are deduplicated by message id.
    #[error("webhook not persisted: {0}")]
    NotPersisted(StoreError),
    #[error(transparent)]
    Store(#[from] store::Error),
    #[error(transparent)]
    Outbox(#[from] crate::outbox::OutboxError),
}

/// What taking a delivery needs.
pub struct Intake<'a> {
    pub store: &'a Store,
    pub bus: &'a dyn EventBus,
    pub conversations: &'a Conversations,
    pub outbox: &'a Arc<Outbox>,
    pub push: &'a Push,
}

impl Intake<'_> {
    /// Persists everything in `batch`, then starts the follow-ups of the new messages. Returns
    /// once everything is persisted; the follow-ups run on.
    pub async fn take(&self, mut batch: Batch) -> Result<(), InboundError> {
        for (business_id, update) in &batch.templates {
            let update = serde_json::to_value(update).unwrap_or_default();
            let events = self.store.template_decided(business_id, &update).await?;
            self.bus.publish(events);
        }
        // Items are stored after every move is made, so the items of a customer a move would
        // have carried along (those delivered before it, and edits and echoes, which settle
        // last) follow it to the new key, as if each had come alone.
        let mut moves = Vec::new();
        for (business_id, sighting) in &batch.identities {
            let (settled, events) = self.store.identify(business_id, sighting).await?;
            self.bus.publish(events);
            moves.extend(Moved::of(business_id, sighting, &settled));
        }
        // A whole address book comes at once when the sync starts: written a share at a time,
        // so the write lock is never held for all of it (a redelivery changes nothing twice).
        for (business_id, named) in &batch.app_contacts {
            for share in named.chunks(APP_CONTACTS_PER_WRITE) {
                let (_, events) = self.store.import_contacts(business_id, share).await?;
                self.bus.publish(events);
            }
        }
        batch.share_phones();
        // Which customer each item is from, in delivery order: linking a phone and a BSUID, or
        // a changed number, moves records before the item is stored under its key.
        for i in 0..batch.messages.len() {
            let (earlier, rest) = batch.messages.split_at_mut(i);
            let arrival = &mut rest[0];
            self.settle(&mut arrival.key, &arrival.sighting).await?;
            Moved::follow_all(&moves, &mut arrival.key, &arrival.sighting);
            let (business_id, key) = (&arrival.key.business_id, &arrival.key.phone);
            if let Some(moved) = Moved::of(business_id, &arrival.sighting, key) {
                for before in earlier {
                    moved.follow(&mut before.key, &before.sighting);
                }
                moves.push(moved);
            }
        }
        for change in &mut batch.changes {
            self.settle(&mut change.key, &change.sighting).await?;
            Moved::follow_all(&moves, &mut change.key, &change.sighting);
        }
        for echo in &mut batch.echoes {
            self.settle(&mut echo.key, &echo.sighting).await?;
            Moved::follow_all(&moves, &mut echo.key, &echo.sighting);
        }
        // A receipt that names no customer goes to the conversation of its message; one whose
        // message is not recorded yet is kept by the business until it is, whichever actor
        // takes it.
        for (key, update) in &mut batch.statuses {
            if key.phone.is_empty()
                && let Some(phone) = (self.store)
                    .conversation_of_message(&key.business_id, &update.message_id)
                    .await?
            {
                key.phone = phone;
            }
        }
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
        let echoes = batch
            .echoes
            .into_iter()
            .map(|echo| async move { self.conversations.ask(&echo.key, Echo(echo.item)).await? });
        // Queued after the messages and echoes (each conversation's actor takes them in this
        // order), so an edit or reaction finds an original delivered with it.
        let changes = batch.changes.into_iter().map(|change| async move {
            self.conversations
                .ask(&change.key, Amend(change.item))
                .await?
        });
        let (messages, statuses, echoes, changes) = futures_util::join!(
            join_all(messages),
            join_all(statuses),
            join_all(echoes),
            join_all(changes)
        );
        // The new messages stored are followed up even when another item was not stored: the
        // redelivery that item needs finds them stored, no longer new.
        let mut failed = None;
        let mut ingested = 0;
        for outcome in messages {
            match outcome {
                // Only a message seen for the first time is answered, so redeliveries never
                // double up.
                Ok(Some(arrival)) => {
                    ingested += 1;
                    let sets_off = batch
                        .sets_off
                        .get(&arrival.key.business_id)
                        .copied()
                        .unwrap_or_default();
                    self.follow_up(sets_off, arrival);
                }
                Ok(None) => {}
                Err(err) => failed = failed.or(Some(err)),
            }
        }
        metrics::messages_ingested(ingested);
        let receipts = statuses.into_iter().filter_map(Result::err);
        let others = receipts.chain(changes.into_iter().chain(echoes).filter_map(Result::err));
        match others.chain(failed).next() {
            Some(err) => Err(InboundError::NotPersisted(err)),
            None => Ok(()),
        }
    }

    /// Puts the item named by `sighting` under the key its customer is kept under.
    async fn settle(
        &self,
        key: &mut ConversationKey,
        sighting: &Sighting,
    ) -> Result<(), InboundError> {
        let (settled, events) = self.store.identify(&key.business_id, sighting).await?;
        self.bus.publish(events);
        key.phone = settled;
        Ok(())
    }

    /// A new message's push (none for a notice about the customer) and automated reply.
    fn follow_up(&self, sets_off: SetsOff, arrival: Arrival) {
        if sets_off.push && !arrival.stored.is_notice() {
            self.push.notify(&arrival.key, &arrival.stored);
        }
        if sets_off.replies {
            let (store, outbox) = (self.store.clone(), self.outbox.clone());
            actix_web::rt::spawn(async move {
                if let Err(err) = reply::auto_reply(&store, &outbox, arrival).await {
                    tracing::warn!(error = %err, "automated reply not sent");
                }
            });
        }
    }
}
