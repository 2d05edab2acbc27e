//! The hub: one per node. It knows which sessions are connected for which business and which
//! channels they follow, and forwards each event to exactly those sessions, in `seq` order.
//! While the process is busy it hands events over at most every `MERGE_WINDOW`, so a session
//! following a busy conversation gets one message (and its socket one write) for several commits.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;

use crate::error::StoreError;
use crate::event_log::{EventLog, Replay};
use crate::events::{Event, SharedEvent};
use crate::followers::{
    Connect, Disconnect, Followers, HEARTBEAT_INTERVAL, SessionId, Subscribe, Unsubscribe,
};
use crate::load::{LOAD_SAMPLE, Load};
use crate::sequencer::{GAP_WAIT, Sequencers};

/// Closes a user's sessions that follow `channel` (the SSE shim's close call).
#[derive(Message)]
#[rtype(result = "usize")]
pub struct CloseChannel {
    pub business_id: String,
    pub user_id: String,
    pub channel: String,
}

/// A user's access was revoked (deleted, new password, signed out everywhere): their sessions
/// close, on every node.
#[derive(Message, Clone, Debug)]
#[rtype(result = "()")]
pub struct Revocation {
    pub business_id: String,
    pub user_id: String,
    /// The version the user's access tokens must carry from now on; `None` once the account is
    /// gone.
    pub version: Option<i64>,
}

/// Persisted events to route, in the order they were committed.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Publish(pub Vec<Event>);

/// Reads the log past the last event routed, for every business with a session here: after
/// this node may have missed other nodes' notices (its listener lost its connection).
#[derive(Message)]
#[rtype(result = "()")]
pub struct CatchUp;

/// The users of a business with a session on this node (round-robin assignment picks among
/// them).
#[derive(Message)]
#[rtype(result = "Vec<String>")]
pub struct OnlineUsers(pub String);

/// How many sessions are connected (for health and tests).
#[derive(Message)]
#[rtype(result = "usize")]
pub struct SessionCount;

/// While the process is busy, the longest an event waits for later ones to go out with it. Each
/// hand-over costs every following session a wake-up and its socket a `send` (about 5 µs on
/// loopback, most of a busy fan-out's time); merging them trades at most this much latency for
/// the CPU time that keeps a saturated node from falling behind (docs/decisions/0004).
const MERGE_WINDOW: Duration = Duration::from_millis(5);

#[derive(Default)]
pub struct Hub {
    /// The connected sessions and the channels each follows.
    followers: Followers,
    /// Each business's events in `seq` order.
    order: Sequencers,
    /// Routed events not yet handed to their sessions, per session in order.
    routed: HashMap<SessionId, Vec<Arc<SharedEvent>>>,
    /// When events were last handed over, and whether the next hand-over is scheduled.
    handed_over: Option<Instant>,
    hand_over_due: bool,
    /// Whether the process is busy enough to merge hand-overs.
    load: Load,
    /// Where missing events are read from (none for a hub tested alone: gaps are given up on).
    log: Option<Arc<dyn EventLog>>,
    /// The timer set for the soonest access token to run out, and when that is.
    expiry_timer: Option<(Instant, SpawnHandle)>,
}

impl Hub {
    /// A hub that continues each business's event log after the given last seqs (a business
    /// not named starts at seq 1).
    pub fn resuming(last_seqs: HashMap<String, i64>) -> Hub {
        Hub {
            order: Sequencers::resuming(last_seqs),
            ..Hub::default()
        }
    }

    /// This hub, reading missing events from `log`.
    pub fn reading(self, log: Arc<dyn EventLog>) -> Hub {
        Hub {
            log: Some(log),
            ..self
        }
    }

    /// Reads from the log the events each business has been missing for `GAP_WAIT` (another
    /// node's notice was lost, or a publisher stopped between its commit and its publish), up to
    /// the last one waiting, then gives up on any the log does not have either.
    fn fill_gaps(&mut self, ctx: &mut Context<Self>) {
        for gap in self.order.stale_gaps() {
            self.read_log(gap.business, gap.after, Some(gap.last), ctx);
        }
    }

    /// Reads a business's logged events after `after` (up to `last`, if given) and routes those
    /// not routed yet, in order.
    fn read_log(
        &mut self,
        business: String,
        after: i64,
        last: Option<i64>,
        ctx: &mut Context<Self>,
    ) {
        let Some(log) = &self.log else {
            self.read(&business, Ok(Replay::Events(Vec::new())), last, ctx);
            return;
        };
        let read = log.since(&business, after);
        ctx.spawn(read.into_actor(self).map(move |result, hub, ctx| {
            hub.read(&business, result, last, ctx);
        }));
    }

    fn read(
        &mut self,
        business: &str,
        result: Result<Replay, StoreError>,
        last: Option<i64>,
        ctx: &mut Context<Self>,
    ) {
        let events = match result {
            Ok(Replay::Events(events)) => events,
            Ok(Replay::TooOld) => Vec::new(),
            Err(err) => {
                tracing::warn!(error = %err, "missing events not read from the log");
                Vec::new()
            }
        };
        let ready = self.order.logged(business, events, last);
        self.route(ready, ctx);
    }

    /// Gives each session the events it follows, in order: at once, or while the process is busy
    /// and the last hand-over was under `MERGE_WINDOW` ago, together with what follows until then.
    /// The followers are the ones of the moment each event is routed, either way.
    fn route(&mut self, events: Vec<Arc<SharedEvent>>, ctx: &mut Context<Self>) {
        for shared in events {
            for id in self.followers.of(&shared.event) {
                self.routed.entry(id).or_default().push(shared.clone());
            }
        }
        if self.routed.is_empty() || self.hand_over_due {
            return;
        }
        let since = self.handed_over.map(|at| at.elapsed());
        match since.filter(|since| self.load.busy() && *since < MERGE_WINDOW) {
            Some(since) => {
                self.hand_over_due = true;
                ctx.run_later(MERGE_WINDOW - since, |hub, _| {
                    hub.hand_over_due = false;
                    hub.hand_over();
                });
            }
            None => self.hand_over(),
        }
    }

    /// Hands each session its routed events in one message.
    fn hand_over(&mut self) {
        self.handed_over = Some(Instant::now());
        for (id, events) in self.routed.drain() {
            self.followers.deliver(id, events);
        }
    }

    /// Closes the sessions whose token has run out and sets the timer for the next one.
    fn expire(&mut self, ctx: &mut Context<Self>) {
        if let Some((_, timer)) = self.expiry_timer.take() {
            ctx.cancel_future(timer);
        }
        let next = self.followers.expire(Instant::now());
        self.expiry_timer = next.map(|due| {
            let wait = due.saturating_duration_since(Instant::now());
            (due, ctx.run_later(wait, Hub::expire))
        });
    }
}

impl Actor for Hub {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.run_interval(GAP_WAIT / 2, Hub::fill_gaps);
        ctx.run_interval(LOAD_SAMPLE, |hub, _| hub.load.sample());
        // One heartbeat and one expiry timer for every session here, not two timers each.
        ctx.run_interval(HEARTBEAT_INTERVAL, |hub, _| hub.followers.heartbeat());
    }
}

impl Handler<Connect> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Connect, ctx: &mut Context<Self>) {
        let expires_at = msg.expires_at;
        self.followers.connect(msg);
        if self.expiry_timer.is_none_or(|(due, _)| expires_at < due) {
            self.expire(ctx);
        }
    }
}

impl Handler<Disconnect> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Disconnect, _: &mut Context<Self>) {
        self.followers.disconnect(msg.id);
    }
}

impl Handler<Subscribe> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Subscribe, _: &mut Context<Self>) {
        self.followers.subscribe(msg.id, msg.channel);
    }
}

impl Handler<Unsubscribe> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Unsubscribe, _: &mut Context<Self>) {
        self.followers.unsubscribe(msg.id, &msg.channel);
    }
}

impl Handler<CloseChannel> for Hub {
    type Result = usize;
    fn handle(&mut self, msg: CloseChannel, _: &mut Context<Self>) -> usize {
        self.followers
            .close_following(&msg.business_id, &msg.user_id, &msg.channel)
    }
}

impl Handler<Revocation> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Revocation, _: &mut Context<Self>) {
        self.followers.close_user(&msg.business_id, &msg.user_id);
    }
}

impl Handler<Publish> for Hub {
    type Result = ();
    fn handle(&mut self, msg: Publish, ctx: &mut Context<Self>) {
        let ready = msg
            .0
            .into_iter()
            .flat_map(|e| self.order.accept(e))
            .collect();
        self.route(ready, ctx);
    }
}

impl Handler<CatchUp> for Hub {
    type Result = ();
    fn handle(&mut self, _: CatchUp, ctx: &mut Context<Self>) {
        let reads: Vec<(String, i64)> = self
            .followers
            .businesses()
            .into_iter()
            .filter_map(|business| Some((business.to_string(), self.order.released(business)?)))
            .collect();
        for (business, after) in reads {
            self.read_log(business, after, None, ctx);
        }
    }
}

impl Handler<OnlineUsers> for Hub {
    type Result = Vec<String>;
    fn handle(&mut self, msg: OnlineUsers, _: &mut Context<Self>) -> Vec<String> {
        self.followers.users_of(&msg.0)
    }
}

impl Handler<SessionCount> for Hub {
    type Result = usize;
    fn handle(&mut self, _: SessionCount, _: &mut Context<Self>) -> usize {
        self.followers.len()
    }
}

/// Where conversation actors publish: the local hub (`InProcessBus`), or with several nodes on
/// one Postgres the local hub and then the other nodes (`parley_server::cluster::ClusterBus`).
pub trait EventBus: Send + Sync + 'static {
    /// Publishes events in the order given (a commit's events together).
    fn publish(&self, events: Vec<Event>);

    /// Closes the revoked user's sessions on this node and then on the others.
    fn revoke(&self, revocation: Revocation);
}

/// The single-node bus: straight into this node's hub.
pub struct InProcessBus(pub Addr<Hub>);

impl EventBus for InProcessBus {
    fn publish(&self, events: Vec<Event>) {
        if !events.is_empty() {
            self.0.do_send(Publish(events));
        }
    }

    fn revoke(&self, revocation: Revocation) {
        self.0.do_send(revocation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::followers::Notice;
    use serde_json::json;

    fn logged(seq: i64) -> Event {
        Event {
            business_id: "b".into(),
            seq,
            channels: vec!["c".into()],
            name: "n".into(),
            data: crate::events::event_data(&json!({})),
        }
    }

    /// A session that records the seqs of each hand-over it gets.
    struct Recorder(Arc<std::sync::Mutex<Vec<Vec<i64>>>>);

    impl Actor for Recorder {
        type Context = Context<Self>;
    }

    impl Handler<Notice> for Recorder {
        type Result = ();
        fn handle(&mut self, msg: Notice, _: &mut Context<Self>) {
            if let Notice::Deliver(events) = msg {
                let seqs = events.iter().map(|e| e.event.seq).collect();
                self.0.lock().expect("recorder lock").push(seqs);
            }
        }
    }

    /// Publishes seqs 1, 2 and 3 one by one to a hub whose load is fixed; answers the hand-overs
    /// its one follower got.
    async fn hand_overs(busy: bool) -> Vec<Vec<i64>> {
        let hub = Hub {
            load: Load::fixed(busy),
            ..Hub::default()
        }
        .start();
        let got = Arc::new(std::sync::Mutex::new(Vec::new()));
        let recorder = Recorder(got.clone()).start();
        hub.do_send(Connect {
            id: 1,
            business_id: "b".into(),
            user_id: "u".into(),
            session: recorder.recipient(),
            expires_at: Instant::now() + Duration::from_secs(60),
        });
        hub.do_send(Subscribe {
            id: 1,
            channel: "c".into(),
        });
        for seq in 1..=3 {
            hub.do_send(Publish(vec![logged(seq)]));
        }
        tokio::time::sleep(MERGE_WINDOW * 4).await;
        got.lock().expect("recorder lock").clone()
    }

    #[actix::test]
    async fn an_idle_hub_hands_each_publish_over_at_once() {
        assert_eq!(hand_overs(false).await, vec![vec![1], vec![2], vec![3]]);
    }

    #[actix::test]
    async fn a_busy_hub_merges_what_follows_a_hand_over_within_the_window() {
        assert_eq!(hand_overs(true).await, vec![vec![1], vec![2, 3]]);
    }
}
