//! The hub: one per node. It knows which sessions are connected for which business and which
//! channels they follow, and forwards each event to exactly those sessions, in `seq` order.
//! While the process is busy it hands events over at most every `MERGE_WINDOW`, so a session
//! following a busy conversation gets one message (and its socket one write) for several commits.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;

use crate::events::{Event, SharedEvent};
use crate::session::{EventLog, Replay};

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

/// Reads the log past the last event routed, for every business with a session here: after
/// this node may have missed other nodes' notices (its listener lost its connection).
#[derive(Message)]
#[rtype(result = "()")]
pub struct CatchUp;

/// How many sessions are connected (for health and tests).
#[derive(Message)]
#[rtype(result = "usize")]
pub struct SessionCount;

/// How long an out-of-order event waits for the ones before it before they are read from the
/// log (and, if the log has none of them either, it goes out anyway).
const GAP_WAIT: Duration = Duration::from_millis(500);

/// While the process is busy, the longest an event waits for later ones to go out with it. Each
/// hand-over costs every following session a wake-up and its socket a `send` (about 5 µs on
/// loopback, most of a busy fan-out's time); merging them trades at most this much latency for
/// the CPU time that keeps a saturated node from falling behind (docs/decisions/0004).
const MERGE_WINDOW: Duration = Duration::from_millis(5);
/// How often the hub samples the process's CPU use.
const LOAD_SAMPLE: Duration = Duration::from_millis(100);
/// Share of the process's cores in use from which it counts as busy, and below which it no
/// longer does (apart, so merging, which lowers the load, does not switch itself off).
const BUSY_FROM: f64 = 0.75;
const BUSY_UNTIL: f64 = 0.5;
/// Linux reports process CPU time in `/proc` in these units per second (`USER_HZ`).
const CLOCK_TICKS_PER_SEC: f64 = 100.0;

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
    /// The missing events are being read from the log.
    filling: bool,
}

impl Sequencer {
    /// For a business whose last logged event is `seq` (0: none yet).
    fn after(seq: i64) -> Sequencer {
        Sequencer {
            next: seq + 1,
            waiting: BTreeMap::new(),
            waiting_since: None,
            filling: false,
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

    /// Whether events have waited `GAP_WAIT` for a missing one, with no read of it under way.
    fn stale(&self) -> bool {
        !self.filling
            && self
                .waiting_since
                .is_some_and(|since| since.elapsed() >= GAP_WAIT)
    }

    /// Gives up on the missing events: releases what waits, from the first on.
    fn give_up(&mut self) -> Vec<Arc<SharedEvent>> {
        let mut ready = Vec::new();
        if let Some((&first, _)) = self.waiting.iter().next() {
            self.next = first;
            self.drain_consecutive(&mut ready);
            self.waiting_since = (!self.waiting.is_empty()).then(Instant::now);
        }
        ready
    }
}

/// Whether this process is busy, from the CPU time it used between two samples.
struct Load {
    busy: bool,
    /// The previous sample: when, and the CPU time used until then (in clock ticks).
    last: Option<(Instant, u64)>,
    /// Reads the CPU time used so far (`cpu_ticks`; none in tests that fix `busy`).
    clock: fn() -> Option<u64>,
    /// The cores the process may run on (its CPU affinity and cgroup quota), read once.
    cores: f64,
}

impl Default for Load {
    fn default() -> Load {
        Load {
            busy: false,
            last: None,
            clock: cpu_ticks,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
        }
    }
}

impl Load {
    fn sample(&mut self) {
        let Some(ticks) = (self.clock)() else {
            return; // Not Linux: never busy, events go out at once.
        };
        let now = Instant::now();
        if let Some((then, before)) = self.last.replace((now, ticks)) {
            let secs = now.duration_since(then).as_secs_f64();
            let used =
                ticks.saturating_sub(before) as f64 / CLOCK_TICKS_PER_SEC / secs / self.cores;
            self.busy = used >= if self.busy { BUSY_UNTIL } else { BUSY_FROM };
        }
    }
}

/// User plus system CPU time of this process so far, from `/proc/self/stat` (fields 14 and 15;
/// the ones after the parenthesised command name, which may hold spaces, start at field 3).
fn cpu_ticks() -> Option<u64> {
    stat_cpu_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

fn stat_cpu_ticks(stat: &str) -> Option<u64> {
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

#[derive(Default)]
pub struct Hub {
    sessions: HashMap<SessionId, SessionEntry>,
    /// (business, channel) → sessions following it.
    followers: HashMap<(String, String), HashSet<SessionId>>,
    order: HashMap<String, Sequencer>,
    /// Routed events not yet handed to their sessions, per session in order.
    routed: HashMap<SessionId, Vec<Arc<SharedEvent>>>,
    /// When events were last handed over, and whether the next hand-over is scheduled.
    handed_over: Option<Instant>,
    hand_over_due: bool,
    load: Load,
    /// Where missing events are read from (none for a hub tested alone: gaps are given up on).
    log: Option<Arc<dyn EventLog>>,
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
        let stale: Vec<(String, i64, i64)> = self
            .order
            .iter_mut()
            .filter(|(_, sequencer)| sequencer.stale())
            .filter_map(|(business, sequencer)| {
                let (&last, _) = sequencer.waiting.iter().next_back()?;
                sequencer.filling = true;
                Some((business.clone(), sequencer.next - 1, last))
            })
            .collect();
        for (business, after, last) in stale {
            self.read_log(business, after, Some(last), ctx);
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
        result: Result<Replay, String>,
        last: Option<i64>,
        ctx: &mut Context<Self>,
    ) {
        let Some(sequencer) = self.order.get_mut(business) else {
            return;
        };
        let mut ready = Vec::new();
        match result {
            Ok(Replay::Events(events)) => {
                for event in events {
                    // `next` moves on as events are taken: one already routed is skipped.
                    if event.seq >= sequencer.next && last.is_none_or(|last| event.seq <= last) {
                        ready.extend(sequencer.accept(Arc::new(SharedEvent::new(event))));
                    }
                }
            }
            Ok(Replay::TooOld) => {}
            Err(err) => tracing::warn!(error = %err, "missing events not read from the log"),
        }
        if last.is_some() {
            sequencer.filling = false;
            ready.extend(sequencer.give_up());
        }
        self.route(ready, ctx);
    }

    /// Gives each session the events it follows, in order: at once, or while the process is busy
    /// and the last hand-over was under `MERGE_WINDOW` ago, together with what follows until then.
    /// The followers are the ones of the moment each event is routed, either way.
    fn route(&mut self, events: Vec<Arc<SharedEvent>>, ctx: &mut Context<Self>) {
        for shared in events {
            let event = &shared.event;
            let mut reached = HashSet::new();
            for channel in &event.channels {
                let key = (event.business_id.clone(), channel.clone());
                for id in self.followers.get(&key).into_iter().flatten() {
                    // A session following two of the event's channels gets it once.
                    if reached.insert(*id) {
                        self.routed.entry(*id).or_default().push(shared.clone());
                    }
                }
            }
        }
        if self.routed.is_empty() || self.hand_over_due {
            return;
        }
        let since = self.handed_over.map(|at| at.elapsed());
        match since.filter(|since| self.load.busy && *since < MERGE_WINDOW) {
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
            if let Some(entry) = self.sessions.get(&id) {
                entry.deliver.do_send(Deliver(events));
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
        ctx.run_interval(GAP_WAIT / 2, Hub::fill_gaps);
        ctx.run_interval(LOAD_SAMPLE, |hub, _| hub.load.sample());
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
    fn handle(&mut self, msg: Publish, ctx: &mut Context<Self>) {
        let mut ready = Vec::new();
        for event in msg.0 {
            ready.extend(
                self.order
                    .entry(event.business_id.clone())
                    .or_insert_with(|| Sequencer::after(0))
                    .accept(Arc::new(SharedEvent::new(event))),
            );
        }
        self.route(ready, ctx);
    }
}

impl Handler<CatchUp> for Hub {
    type Result = ();
    fn handle(&mut self, _: CatchUp, ctx: &mut Context<Self>) {
        let businesses: HashSet<&String> = self.sessions.values().map(|s| &s.business_id).collect();
        let reads: Vec<(String, i64)> = businesses
            .into_iter()
            .filter_map(|business| Some((business.clone(), self.order.get(business)?.next - 1)))
            .collect();
        for (business, after) in reads {
            self.read_log(business, after, None, ctx);
        }
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

    fn logged(seq: i64) -> Event {
        Event {
            business_id: "b".into(),
            seq,
            channels: vec!["c".into()],
            name: "n".into(),
            data: crate::events::event_data(&json!({})),
        }
    }

    fn event(seq: i64) -> Arc<SharedEvent> {
        Arc::new(SharedEvent::new(logged(seq)))
    }

    /// A session that records the seqs of each hand-over it gets.
    struct Recorder(Arc<std::sync::Mutex<Vec<Vec<i64>>>>);

    impl Actor for Recorder {
        type Context = Context<Self>;
    }

    impl Handler<Deliver> for Recorder {
        type Result = ();
        fn handle(&mut self, msg: Deliver, _: &mut Context<Self>) {
            let seqs = msg.0.iter().map(|e| e.event.seq).collect();
            self.0.lock().expect("recorder lock").push(seqs);
        }
    }

    impl Handler<CloseSession> for Recorder {
        type Result = ();
        fn handle(&mut self, _: CloseSession, _: &mut Context<Self>) {}
    }

    /// Publishes seqs 1, 2 and 3 one by one to a hub whose load is fixed; answers the hand-overs
    /// its one follower got.
    async fn hand_overs(busy: bool) -> Vec<Vec<i64>> {
        let hub = Hub {
            load: Load {
                busy,
                clock: || None,
                ..Load::default()
            },
            ..Hub::default()
        }
        .start();
        let got = Arc::new(std::sync::Mutex::new(Vec::new()));
        let recorder = Recorder(got.clone()).start();
        hub.do_send(Connect {
            id: 1,
            business_id: "b".into(),
            user_id: "u".into(),
            deliver: recorder.clone().recipient(),
            close: recorder.recipient(),
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

    #[test]
    fn cpu_time_is_user_plus_system_ticks_after_the_command_name() {
        // The command name may hold spaces and parentheses; fields 14 and 15 follow it.
        let stat = "42 (a (b) c) S 1 42 42 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 9 0";
        assert_eq!(stat_cpu_ticks(stat), Some(300));
        assert_eq!(stat_cpu_ticks("42 (truncated"), None);
        assert!(
            cpu_ticks().is_some(),
            "/proc/self/stat is readable on Linux"
        );
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
    fn sequencer_counts_a_gap_stale_after_the_wait_and_gives_it_up() {
        let mut seq = Sequencer::after(0);
        seq.accept(event(1));
        assert!(seq.accept(event(3)).is_empty());
        assert!(!seq.stale());
        seq.waiting_since = Some(Instant::now() - GAP_WAIT);
        assert!(seq.stale());
        let out: Vec<i64> = seq.give_up().iter().map(|e| e.event.seq).collect();
        assert_eq!(out, vec![3]);
        assert!(!seq.stale());
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
