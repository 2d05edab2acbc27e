//! The hub: one per node. It knows which sessions are connected for which business and which
//! channels they follow, and forwards each event to exactly those sessions, in `seq` order.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;

use crate::events::{Event, SharedEvent};

/// Identifies one connected session on this node.
pub type SessionId = u64;

/// Events for a session, in order (the session picks the channel it follows each on). The
/// events of one publish go to a session in one message: one wake-up and, when its socket
/// keeps up, one write for all of them.
#[derive(Message, Clone)]
#[rtype(result = "()")]
pub struct Deliver(pub Vec<Arc<SharedEvent>>);

/// Asks a session to close, with the reason sent to the client.
#[derive(Message, Clone)]
#[rtype(result = "()")]
pub struct CloseSession(pub String);

#[derive(Message)]
#[rtype(result = "()")]
pub struct Connect {
    pub id: SessionId,
    pub business_id: String,
    pub user_id: String,
    pub deliver: Recipient<Deliver>,
    pub close: Recipient<CloseSession>,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Disconnect {
    pub id: SessionId,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Subscribe {
    pub id: SessionId,
    pub channel: String,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Unsubscribe {
    pub id: SessionId,
    pub channel: String,
}

/// Closes a user's sessions that follow `channel` (the SSE shim's close call).
#[derive(Message)]
#[rtype(result = "usize")]
pub struct CloseChannel {
    pub business_id: String,
    pub user_id: String,
    pub channel: String,
}

/// Persisted events to route, in the order they were committed.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Publish(pub Vec<Event>);

/// How many sessions are connected (for health and tests).
#[derive(Message)]
#[rtype(result = "usize")]
pub struct SessionCount;

/// How long an out-of-order event waits for the ones before it before it goes out anyway.
const GAP_WAIT: Duration = Duration::from_millis(500);

struct SessionEntry {
    business_id: String,
    user_id: String,
    deliver: Recipient<Deliver>,
    close: Recipient<CloseSession>,
    channels: HashSet<String>,
}

/// Puts one business's events back in `seq` order: conversation actors commit in seq order but
/// may reach the hub in another, and a client that resumes after seq N must have seen all < N.
struct Sequencer {
    /// The seq due next. Known from the start (the log's counter when the hub started, else 1),
    /// so even the first events after a start wait for the ones before them.
    next: i64,
    waiting: BTreeMap<i64, Arc<SharedEvent>>,
    waiting_since: Option<Instant>,
}

impl Sequencer {
    /// For a business whose last logged event is `seq` (0: none yet).
    fn after(seq: i64) -> Sequencer {
        Sequencer {
            next: seq + 1,
            waiting: BTreeMap::new(),
            waiting_since: None,
        }
    }

    /// Events ready to go out, in order.
    fn accept(&mut self, event: Arc<SharedEvent>) -> Vec<Arc<SharedEvent>> {
        let seq = event.event.seq;
        if seq == crate::events::TRANSIENT {
            return vec![event];
        }
        if seq > self.next {
            self.waiting.insert(seq, event);
            self.waiting_since.get_or_insert_with(Instant::now);
            return Vec::new();
        }
        if seq < self.next {
            // A straggler, given up on earlier: late rather than never.
            return vec![event];
        }
        self.next = seq + 1;
        let mut ready = vec![event];
        self.drain_consecutive(&mut ready);
        ready
    }

    fn drain_consecutive(&mut self, ready: &mut Vec<Arc<SharedEvent>>) {
        while let Some(event) = self.waiting.remove(&self.next) {
            self.next += 1;
            ready.push(event);
        }
        if self.waiting.is_empty() {
            self.waiting_since = None;
        }
    }

    /// After `GAP_WAIT`, a missing event is given up on (its publisher died): release the rest.
    fn release_stale(&mut self) -> Vec<Arc<SharedEvent>> {
        if self
            .waiting_since
            .is_none_or(|since| since.elapsed() < GAP_WAIT)
        {
            return Vec::new();
        }
        let mut ready = Vec::new();
        if let Some((&first, _)) = self.waiting.iter().next() {
            self.next = first;
            self.drain_consecutive(&mut ready);
            self.waiting_since = (!self.waiting.is_empty()).then(Instant::now);
        }
        ready
    }
}

#[derive(Default)]
pub struct Hub {
    sessions: HashMap<SessionId, SessionEntry>,
    /// (business, channel) → sessions following it.
    followers: HashMap<(String, String), HashSet<SessionId>>,
    order: HashMap<String, Sequencer>,
}

impl Hub {
    /// A hub that continues each business's event log after the given last seqs (a business
    /// not named starts at seq 1).
    pub fn resuming(last_seqs: HashMap<String, i64>) -> Hub {
        Hub {
            order: last_seqs
                .into_iter()
                .map(|(business, seq)| (business, Sequencer::after(seq)))
                .collect(),
            ..Hub::default()
        }
    }

    /// Hands each session the events it follows, in order, in one message.
    fn route(&self, events: Vec<Arc<SharedEvent>>) {
        let mut batches: HashMap<SessionId, Vec<Arc<SharedEvent>>> = HashMap::new();
        for shared in events {
            let event = &shared.event;
            let mut reached = HashSet::new();
            for channel in &event.channels {
                let key = (event.business_id.clone(), channel.clone());
                for id in self.followers.get(&key).into_iter().flatten() {
                    // A session following two of the event's channels gets it once.
                    if reached.insert(*id) {
                        batches.entry(*id).or_default().push(shared.clone());
                    }
                }
            }
        }
        for (id, batch) in batches {
            if let Some(entry) = self.sessions.get(&id) {
                entry.deliver.do_send(Deliver(batch));
            }
        }
    }

    fn unfollow(&mut self, id: SessionId, business_id: &str, channel: &str) {
        let key = (business_id.to_string(), channel.to_string());
        if let Some(set) = self.followers.get_mut(&key) {
            set.remove(&id);
            if set.is_empty() {
                self.followers.remove(&key);
            }
        }
    }
}

impl Actor for Hub {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.run_interval(GAP_WAIT / 2, |hub, _| {
            let released: Vec<_> = hub
                .order
                .values_mut()
                .flat_map(Sequencer::release_stale)
                .collect();
            hub.route(released);
        });
    }
}

impl Handler<Connect> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Connect, _: &mut Context<Self>) {
        self.sessions.insert(
            msg.id,
            SessionEntry {
                business_id: msg.business_id,
                user_id: msg.user_id,
                deliver: msg.deliver,
                close: msg.close,
                channels: HashSet::new(),
            },
        );
    }
}

impl Handler<Disconnect> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Disconnect, _: &mut Context<Self>) {
        if let Some(entry) = self.sessions.remove(&msg.id) {
            for channel in &entry.channels {
                self.unfollow(msg.id, &entry.business_id, channel);
            }
        }
    }
}

impl Handler<Subscribe> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Subscribe, _: &mut Context<Self>) {
        if let Some(entry) = self.sessions.get_mut(&msg.id) {
            entry.channels.insert(msg.channel.clone());
            self.followers
                .entry((entry.business_id.clone(), msg.channel))
                .or_default()
                .insert(msg.id);
        }
    }
}

impl Handler<Unsubscribe> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Unsubscribe, _: &mut Context<Self>) {
        let Some(entry) = self.sessions.get_mut(&msg.id) else {
            return;
        };
        entry.channels.remove(&msg.channel);
        let business_id = entry.business_id.clone();
        self.unfollow(msg.id, &business_id, &msg.channel);
    }
}

impl Handler<CloseChannel> for Hub {
    type Result = usize;
    fn handle(&mut self, msg: CloseChannel, _: &mut Context<Self>) -> usize {
        let matching: Vec<_> = self
            .sessions
            .values()
            .filter(|e| {
                e.business_id == msg.business_id
                    && e.user_id == msg.user_id
                    && e.channels.contains(&msg.channel)
            })
            .collect();
        for entry in &matching {
            entry
                .close
                .do_send(CloseSession("closed by the client".into()));
        }
        matching.len()
    }
}

impl Handler<Publish> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Publish, _: &mut Context<Self>) {
        let mut ready = Vec::new();
        for event in msg.0 {
            ready.extend(
                self.order
                    .entry(event.business_id.clone())
                    .or_insert_with(|| Sequencer::after(0))
                    .accept(Arc::new(SharedEvent::new(event))),
            );
        }
        self.route(ready);
    }
}

impl Handler<SessionCount> for Hub {
    type Result = usize;
    fn handle(&mut self, _: SessionCount, _: &mut Context<Self>) -> usize {
        self.sessions.len()
    }
}

/// Where conversation actors publish: the local hub (`InProcessBus`), or with several nodes on
/// one Postgres the local hub and then the other nodes (`parley_server::cluster::ClusterBus`).
pub trait EventBus: Send + Sync + 'static {
    /// Publishes events in the order given (a commit's events together).
    fn publish(&self, events: Vec<Event>);
}

/// The single-node bus: straight into this node's hub.
pub struct InProcessBus(pub Addr<Hub>);

impl EventBus for InProcessBus {
    fn publish(&self, events: Vec<Event>) {
        if !events.is_empty() {
            self.0.do_send(Publish(events));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(seq: i64) -> Arc<SharedEvent> {
        Arc::new(SharedEvent::new(Event {
            business_id: "b".into(),
            seq,
            channels: vec!["c".into()],
            name: "n".into(),
            data: crate::events::event_data(&json!({})),
        }))
    }

    #[test]
    fn sequencer_holds_an_early_event_until_the_gap_fills() {
        let mut seq = Sequencer::after(0);
        assert_eq!(seq.accept(event(1)).len(), 1);
        assert!(seq.accept(event(3)).is_empty());
        let out: Vec<i64> = seq.accept(event(2)).iter().map(|e| e.event.seq).collect();
        assert_eq!(out, vec![2, 3]);
    }

    #[test]
    fn sequencer_gives_up_on_a_gap_after_the_wait() {
        let mut seq = Sequencer::after(0);
        seq.accept(event(1));
        assert!(seq.accept(event(3)).is_empty());
        assert!(seq.release_stale().is_empty());
        seq.waiting_since = Some(Instant::now() - GAP_WAIT);
        let out: Vec<i64> = seq.release_stale().iter().map(|e| e.event.seq).collect();
        assert_eq!(out, vec![3]);
        assert_eq!(seq.accept(event(4)).len(), 1);
    }

    #[test]
    fn sequencer_holds_even_the_first_events_after_a_start_until_the_earlier_ones_arrive() {
        let mut seq = Sequencer::after(5);
        assert!(seq.accept(event(7)).is_empty());
        let out: Vec<i64> = seq.accept(event(6)).iter().map(|e| e.event.seq).collect();
        assert_eq!(out, vec![6, 7]);
    }
}
