//! One actor per (business, customer phone): the single writer of its conversation. Inbound
//! messages, edits and deletions, echoes, outgoing sends, receipts and mark-as-read pass through
//! its mailbox one at a time, so their order is the order users see. Each change is persisted
//! before its events are published. Inbound messages (with edits, deletions and echoes) are only
//! queued in mailbox order for the store's group commit, which publishes them: a busy
//! conversation gets many messages per commit, not one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix::prelude::*;
use futures_util::future::BoxFuture;

use crate::error::StoreError;
use crate::events::Event;
use crate::hub::EventBus;

mod records;

pub use records::{
    Amended, Amendment, ConversationKey, CustomerProfile, InboundMessage, NOTICE_KIND,
    OutgoingMessage, OutgoingState, SendOutcome, Side, StatusUpdate,
};

/// What the conversation actor needs from storage. Each call persists its change and the events
/// it causes in one transaction and answers those events, already numbered.
pub trait ConversationStore: Send + Sync + 'static {
    /// Queues the message for the next group commit at once, in call order, and publishes its
    /// events on `bus` after the commit, in seq order with the rest of its batch. Answers whether
    /// the message was new: a redelivery records and publishes nothing but a newer profile of
    /// the customer it may carry.
    fn record_inbound(
        &self,
        key: ConversationKey,
        message: Arc<InboundMessage>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>>;

    /// Applies an edit, deletion or reaction to the stored message, queued and published like
    /// `record_inbound` (after any message queued before it). Answers whether it changed
    /// anything: an unknown original, the other side's message or a redelivery changes nothing.
    fn record_amendment(
        &self,
        key: ConversationKey,
        amendment: Arc<Amendment>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>>;

    /// Stores a message the business sent from the WhatsApp Business app as an outgoing one,
    /// queued and published like `record_inbound`. Answers whether it was new.
    fn record_echo(
        &self,
        key: ConversationKey,
        message: Arc<InboundMessage>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>>;

    /// Moves a message's status forward only; an unknown message's status is kept for later.
    /// Queued like `record_inbound`, whose batches it shares, and published the same way.
    fn record_status(
        &self,
        key: ConversationKey,
        update: StatusUpdate,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<(), StoreError>>;

    /// Marks the customer's messages read; answers how many changed.
    fn mark_read(
        &self,
        key: ConversationKey,
    ) -> BoxFuture<'static, Result<(u64, Vec<Event>), StoreError>>;

    /// Stores an outgoing message (`sending`) with its outbox entry, once per client id.
    fn record_outgoing(
        &self,
        key: ConversationKey,
        message: OutgoingMessage,
    ) -> BoxFuture<'static, Result<(OutgoingState, Vec<Event>), StoreError>>;

    /// Records the provider's answer and clears the outbox entry.
    fn record_send_outcome(
        &self,
        key: ConversationKey,
        outcome: SendOutcome,
    ) -> BoxFuture<'static, Result<Vec<Event>, StoreError>>;
}

/// Answers true when the message was new (not a redelivery).
#[derive(Message, Clone)]
#[rtype(result = "Result<bool, StoreError>")]
pub struct Inbound(pub Arc<InboundMessage>);

/// Answers true when it changed the stored message.
#[derive(Message, Clone)]
#[rtype(result = "Result<bool, StoreError>")]
pub struct Amend(pub Arc<Amendment>);

/// Answers true when the echo was new (not a redelivery).
#[derive(Message, Clone)]
#[rtype(result = "Result<bool, StoreError>")]
pub struct Echo(pub Arc<InboundMessage>);

#[derive(Message, Clone)]
#[rtype(result = "Result<(), StoreError>")]
pub struct Receipt(pub StatusUpdate);

#[derive(Message, Clone)]
#[rtype(result = "Result<u64, StoreError>")]
pub struct MarkRead;

#[derive(Message, Clone)]
#[rtype(result = "Result<OutgoingState, StoreError>")]
pub struct Outgoing(pub OutgoingMessage);

#[derive(Message, Clone)]
#[rtype(result = "Result<(), StoreError>")]
pub struct Sent(pub SendOutcome);

pub struct ConversationActor {
    key: ConversationKey,
    store: Arc<dyn ConversationStore>,
    bus: Arc<dyn EventBus>,
    registry: Conversations,
    last_active: Instant,
}

impl ConversationActor {
    /// Runs `work` while the mailbox waits, then publishes the events it recorded.
    fn persist_then_publish<T: 'static>(
        &mut self,
        work: BoxFuture<'static, Result<(T, Vec<Event>), StoreError>>,
    ) -> AtomicResponse<Self, Result<T, StoreError>> {
        self.last_active = Instant::now();
        let bus = self.bus.clone();
        AtomicResponse::new(Box::pin(
            async move {
                let (answer, events) = work.await?;
                bus.publish(events);
                Ok(answer)
            }
            .into_actor(self),
        ))
    }
}

impl Actor for ConversationActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let idle = self.registry.inner.idle;
        ctx.run_interval(idle / 2, move |actor, ctx| {
            if actor.last_active.elapsed() >= idle {
                ctx.stop();
            }
        });
    }

    fn stopping(&mut self, ctx: &mut Self::Context) -> Running {
        self.registry.forget(&self.key, &ctx.address());
        Running::Stop
    }
}

impl Handler<Inbound> for ConversationActor {
    type Result = ResponseFuture<Result<bool, StoreError>>;
    fn handle(&mut self, msg: Inbound, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        // Not atomic: the message is queued now, in mailbox order, so the next one does not wait
        // for this one's commit, and the store publishes (one ordered publisher per batch).
        self.store
            .record_inbound(self.key.clone(), msg.0, self.bus.clone())
    }
}

impl Handler<Amend> for ConversationActor {
    type Result = ResponseFuture<Result<bool, StoreError>>;
    fn handle(&mut self, msg: Amend, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        // Queued like an inbound message, so it lands after the message it changes.
        self.store
            .record_amendment(self.key.clone(), msg.0, self.bus.clone())
    }
}

impl Handler<Echo> for ConversationActor {
    type Result = ResponseFuture<Result<bool, StoreError>>;
    fn handle(&mut self, msg: Echo, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        self.store
            .record_echo(self.key.clone(), msg.0, self.bus.clone())
    }
}

impl Handler<Receipt> for ConversationActor {
    type Result = AtomicResponse<Self, Result<(), StoreError>>;
    fn handle(&mut self, msg: Receipt, _: &mut Context<Self>) -> Self::Result {
        self.last_active = Instant::now();
        // Atomic, so a receipt and the send result it may depend on apply in order; the store
        // publishes.
        let recorded = self
            .store
            .record_status(self.key.clone(), msg.0, self.bus.clone());
        AtomicResponse::new(Box::pin(recorded.into_actor(self)))
    }
}

impl Handler<MarkRead> for ConversationActor {
    type Result = AtomicResponse<Self, Result<u64, StoreError>>;
    fn handle(&mut self, _: MarkRead, _: &mut Context<Self>) -> Self::Result {
        let recorded = self.store.mark_read(self.key.clone());
        self.persist_then_publish(recorded)
    }
}

impl Handler<Outgoing> for ConversationActor {
    type Result = AtomicResponse<Self, Result<OutgoingState, StoreError>>;
    fn handle(&mut self, msg: Outgoing, _: &mut Context<Self>) -> Self::Result {
        let recorded = self.store.record_outgoing(self.key.clone(), msg.0);
        self.persist_then_publish(recorded)
    }
}

impl Handler<Sent> for ConversationActor {
    type Result = AtomicResponse<Self, Result<(), StoreError>>;
    fn handle(&mut self, msg: Sent, _: &mut Context<Self>) -> Self::Result {
        let recorded = self.store.record_send_outcome(self.key.clone(), msg.0);
        self.persist_then_publish(Box::pin(async move { Ok(((), recorded.await?)) }))
    }
}

struct Registry {
    actors: Mutex<HashMap<ConversationKey, Addr<ConversationActor>>>,
    store: Arc<dyn ConversationStore>,
    bus: Arc<dyn EventBus>,
    /// A conversation quiet this long stops its actor.
    idle: Duration,
}

/// Finds or starts the actor of a conversation and hands it work.
#[derive(Clone)]
pub struct Conversations {
    inner: Arc<Registry>,
}

impl Conversations {
    pub fn new(
        store: Arc<dyn ConversationStore>,
        bus: Arc<dyn EventBus>,
        idle: Duration,
    ) -> Conversations {
        Conversations {
            inner: Arc::new(Registry {
                actors: Mutex::new(HashMap::new()),
                store,
                bus,
                idle,
            }),
        }
    }

    fn actor(&self, key: &ConversationKey) -> Addr<ConversationActor> {
        let mut actors = self.inner.actors.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(addr) = actors.get(key).filter(|a| a.connected()) {
            return addr.clone();
        }
        let addr = ConversationActor {
            key: key.clone(),
            store: self.inner.store.clone(),
            bus: self.inner.bus.clone(),
            registry: self.clone(),
            last_active: Instant::now(),
        }
        .start();
        actors.insert(key.clone(), addr.clone());
        addr
    }

    fn forget(&self, key: &ConversationKey, addr: &Addr<ConversationActor>) {
        let mut actors = self.inner.actors.lock().unwrap_or_else(|p| p.into_inner());
        if actors.get(key) == Some(addr) {
            actors.remove(key);
        }
    }

    /// Sends `msg` to the conversation's actor, starting a fresh one if the old one just stopped.
    pub async fn ask<M>(&self, key: &ConversationKey, msg: M) -> Result<M::Result, StoreError>
    where
        M: Message + Clone + Send + 'static,
        M::Result: Send,
        ConversationActor: Handler<M>,
    {
        match self.actor(key).send(msg.clone()).await {
            Ok(answer) => Ok(answer),
            Err(_) => {
                let addr = self.actor(key);
                Ok(addr.send(msg).await?)
            }
        }
    }

    /// How many conversation actors are running (for tests and metrics).
    pub fn running(&self) -> usize {
        self.inner
            .actors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
    }
}
