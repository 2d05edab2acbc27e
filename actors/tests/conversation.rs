//! The conversation actor with an in-memory store: the order users see, persist-then-publish,
//! and stopping when idle.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use parley_actors::conversation::{
    Amendment, ConversationKey, ConversationStore, Conversations, Inbound, InboundMessage,
    MarkRead, Outgoing, OutgoingMessage, OutgoingState, SendOutcome, StatusUpdate,
};
use parley_actors::error::StoreError;
use parley_actors::events::{Event, NEW_MESSAGE, conversation_channel, event_data};
use parley_actors::hub::{EventBus, Revocation};
use serde_json::{Value, json};

/// How long an outgoing write takes: long enough that later messages reach the actor meanwhile.
const WRITE_TIME: Duration = Duration::from_millis(50);

/// The conversation as stored.
#[derive(Default)]
struct Memory {
    /// Message ids in the order the store took them: the order users see on reload.
    messages: Mutex<Vec<String>>,
    /// The business's last event seq.
    seq: AtomicI64,
    /// Every write fails and stores nothing (a full disk, a lost database).
    failing: AtomicBool,
}

impl Memory {
    /// Stores a message; answers its `new_message` event, numbered.
    fn store(&self, id: &str) -> Result<Event, StoreError> {
        if self.failing.load(Ordering::SeqCst) {
            return Err(StoreError::store(std::io::Error::other("disk full")));
        }
        self.messages.lock().expect("messages").push(id.to_string());
        Ok(Event {
            business_id: "b1".into(),
            seq: self.seq.fetch_add(1, Ordering::SeqCst) + 1,
            channels: vec![conversation_channel("pn1", "15550001")],
            name: NEW_MESSAGE.into(),
            data: event_data(&json!({ "id": id })),
        })
    }

    fn messages(&self) -> Vec<String> {
        self.messages.lock().expect("messages").clone()
    }
}

struct MemoryStore(Arc<Memory>);

impl ConversationStore for MemoryStore {
    fn record_inbound(
        &self,
        _: ConversationKey,
        message: Arc<InboundMessage>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>> {
        // Queued at the call, in mailbox order, and published once "committed", as the real
        // store's group commit does.
        let stored = self.0.store(&message.provider_id);
        Box::pin(async move {
            bus.publish(vec![stored?]);
            Ok(true)
        })
    }

    fn record_amendment(
        &self,
        _: ConversationKey,
        _: Arc<Amendment>,
        _: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>> {
        // The in-memory conversation keeps ids, not content: there is nothing to change.
        Box::pin(async { Ok(false) })
    }

    fn record_echo(
        &self,
        key: ConversationKey,
        message: Arc<InboundMessage>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>> {
        self.record_inbound(key, message, bus)
    }

    fn record_status(
        &self,
        _: ConversationKey,
        _: StatusUpdate,
        _: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }

    fn mark_read(
        &self,
        _: ConversationKey,
    ) -> BoxFuture<'static, Result<(u64, Vec<Event>), StoreError>> {
        Box::pin(async { Ok((1, Vec::new())) })
    }

    fn record_outgoing(
        &self,
        _: ConversationKey,
        message: OutgoingMessage,
    ) -> BoxFuture<'static, Result<(OutgoingState, Vec<Event>), StoreError>> {
        let memory = self.0.clone();
        Box::pin(async move {
            tokio::time::sleep(WRITE_TIME).await;
            let event = memory.store(&message.client_id)?;
            Ok((OutgoingState::Created, vec![event]))
        })
    }

    fn record_send_outcome(
        &self,
        _: ConversationKey,
        _: SendOutcome,
    ) -> BoxFuture<'static, Result<Vec<Event>, StoreError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
}

/// Collects what is published: each message id with whether the store held it at that moment.
struct Published {
    memory: Arc<Memory>,
    seen: Mutex<Vec<(String, bool)>>,
}

impl EventBus for Published {
    fn publish(&self, events: Vec<Event>) {
        let stored = self.memory.messages();
        let mut seen = self.seen.lock().expect("seen");
        for event in events {
            let data: Value = serde_json::from_str(event.data.get()).expect("event json");
            let id = data["id"].as_str().expect("message id").to_string();
            let persisted = stored.contains(&id);
            seen.push((id, persisted));
        }
    }

    /// Conversations never revoke anyone.
    fn revoke(&self, _: Revocation) {}
}

impl Published {
    fn ids(&self) -> Vec<String> {
        let seen = self.seen.lock().expect("seen");
        seen.iter().map(|(id, _)| id.clone()).collect()
    }
}

fn start(idle: Duration) -> (Conversations, Arc<Memory>, Arc<Published>) {
    let memory = Arc::new(Memory::default());
    let bus = Arc::new(Published {
        memory: memory.clone(),
        seen: Mutex::new(Vec::new()),
    });
    let conversations =
        Conversations::new(Arc::new(MemoryStore(memory.clone())), bus.clone(), idle);
    (conversations, memory, bus)
}

fn key() -> ConversationKey {
    ConversationKey {
        business_id: "b1".into(),
        phone: "15550001".into(),
    }
}

fn inbound(id: &str) -> Inbound {
    Inbound(Arc::new(InboundMessage {
        provider_id: id.into(),
        timestamp_ms: 1,
        kind: "text".into(),
        content: json!({ "body": id }),
        profile: Default::default(),
    }))
}

fn outgoing(client_id: &str) -> Outgoing {
    Outgoing(OutgoingMessage {
        client_id: client_id.into(),
        kind: "text".into(),
        content: json!({ "body": client_id }),
        sender_name: "Agent".into(),
        sent_by: Some("agent-1".into()),
        payload: json!({}),
    })
}

const IDLE: Duration = Duration::from_secs(60);

#[actix::test]
async fn a_customer_message_sent_during_an_agents_send_comes_after_it() {
    let (conversations, memory, bus) = start(IDLE);
    let key = key();
    // Asked in this order without waiting: the reply's write takes a while, and the second
    // customer message must still not overtake it.
    let (first, reply, second) = futures_util::join!(
        conversations.ask(&key, inbound("wamid.1")),
        conversations.ask(&key, outgoing("client.1")),
        conversations.ask(&key, inbound("wamid.2")),
    );
    assert!(first.expect("mailbox").expect("stored"));
    assert_eq!(
        reply.expect("mailbox").expect("stored"),
        OutgoingState::Created
    );
    assert!(second.expect("mailbox").expect("stored"));

    let order = vec!["wamid.1", "client.1", "wamid.2"];
    assert_eq!(memory.messages(), order, "the stored order");
    assert_eq!(bus.ids(), order, "the order agents are told");
}

#[actix::test]
async fn an_agents_message_is_published_only_once_stored() {
    let (conversations, memory, bus) = start(IDLE);
    let key = key();
    let send = conversations.ask(&key, outgoing("client.1"));
    let watch = async {
        tokio::time::sleep(WRITE_TIME / 2).await;
        (memory.messages().len(), bus.ids().len())
    };
    let (sent, during_write) = futures_util::join!(send, watch);
    sent.expect("mailbox").expect("stored");

    assert_eq!(
        during_write,
        (0, 0),
        "nothing stored or published mid-write"
    );
    let seen = bus.seen.lock().expect("seen").clone();
    assert_eq!(
        seen,
        vec![("client.1".to_string(), true)],
        "published once, after the store had it"
    );
}

#[actix::test]
async fn a_failed_write_publishes_nothing_and_the_conversation_carries_on() {
    let (conversations, memory, bus) = start(IDLE);
    let key = key();
    memory.failing.store(true, Ordering::SeqCst);
    let failed = conversations
        .ask(&key, outgoing("client.1"))
        .await
        .expect("mailbox");
    assert!(
        matches!(failed, Err(StoreError::Store(_))),
        "the store's failure reaches the caller"
    );
    assert!(
        bus.ids().is_empty(),
        "no event for a message that was not stored"
    );

    memory.failing.store(false, Ordering::SeqCst);
    conversations
        .ask(&key, outgoing("client.2"))
        .await
        .expect("mailbox")
        .expect("stored");
    assert_eq!(bus.ids(), vec!["client.2"]);
    assert_eq!(memory.messages(), vec!["client.2"]);
}

async fn mark_read(conversations: &Conversations, key: &ConversationKey) -> u64 {
    let read = conversations.ask(key, MarkRead).await;
    read.expect("mailbox").expect("read")
}

#[actix::test]
async fn a_quiet_conversation_stops_its_actor_and_a_new_message_starts_another() {
    let idle = Duration::from_millis(40);
    let (conversations, _, _) = start(idle);
    let key = key();
    assert_eq!(mark_read(&conversations, &key).await, 1);
    assert_eq!(conversations.running(), 1);

    tokio::time::sleep(idle * 4).await;
    assert_eq!(
        conversations.running(),
        0,
        "stopped after {idle:?} without work"
    );

    assert_eq!(mark_read(&conversations, &key).await, 1);
    assert_eq!(conversations.running(), 1);
}
