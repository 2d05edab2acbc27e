//! One actor per connected WebSocket or SSE stream. It holds the user's identity and
//! subscriptions, replays missed events on resume, pings, and closes consumers that cannot keep
//! up instead of buffering for them without bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use actix::WeakAddr;
use actix::prelude::*;
use serde_json::json;
use tungstenite::Utf8Bytes;

use crate::event_log::{EventLog, Replay};
use crate::events::{Event, SharedEvent, USER_CHANNEL_PREFIX, channel_name};
use crate::followers::{Connect, Disconnect, Notice, SessionId, Subscribe, Unsubscribe};
use crate::hub::{EventBus, Hub};
use crate::presence::{PresenceState, SessionPresence};
use crate::queue;

/// A WebSocket client silent this long is gone (the hub's heartbeat checks every
/// `followers::HEARTBEAT_INTERVAL`).
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(45);
/// Longest channel name a client may follow.
const MAX_CHANNEL_LEN: usize = 160;

/// The gauge of connected sessions, by `transport` (`websocket`, `sse`); the server renders it.
pub const SESSIONS_CONNECTED: &str = "parley_sessions_connected";

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// What the writer task sends on the wire.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A formatted event (JSON for WebSocket, an SSE block for SSE); shared, not copied, when
    /// many sessions send the same event.
    Text(Utf8Bytes),
    Ping,
    /// The last frame: the connection ends with this reason.
    Close(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    WebSocket,
    Sse,
}

impl Transport {
    fn label(self) -> &'static str {
        match self {
            Transport::WebSocket => "websocket",
            Transport::Sse => "sse",
        }
    }
}

/// What a client can ask over the WebSocket.
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub enum ClientOp {
    Subscribe(String),
    Unsubscribe(String),
    /// Replay after a seq, following the channels named with it first: one frame, so no live
    /// event can go out between a reconnect's subscriptions and its resume.
    Resume(i64, Vec<String>),
    /// What the agent is doing in a conversation, for the others there.
    Presence(String, PresenceState),
    /// Any frame from the client proves it is alive.
    Heard,
    /// A text frame that is not a known op.
    Invalid,
    /// The client went away.
    Gone,
}

/// Thousands are held at once, mostly idle, so what each holds is kept small: its ids are shared
/// with the hub and its presence, and its timers are the hub's (one for all sessions).
pub struct SessionActor {
    id: SessionId,
    business_id: Arc<str>,
    user_id: Arc<str>,
    transport: Transport,
    /// Weak: the hub outlives every session, and a strong address costs each one an allocation.
    hub: WeakAddr<Hub>,
    log: Arc<dyn EventLog>,
    /// Bounded: when it is full the client is too slow and gets closed.
    out: queue::Sender<Frame>,
    /// Followed channels: a handful at most, so a vector (smaller than a set when idle).
    channels: Vec<Arc<str>>,
    last_heard: Instant,
    /// Time left on the access token; the stream ends when it runs out.
    expires_in: Duration,
    /// While a resume is replaying, live events wait here so order holds.
    held: Option<Vec<Arc<SharedEvent>>>,
    /// Highest seq sent, so an event both replayed and live goes out once.
    last_sent: i64,
    /// First seq sent on this connection (0 before any): a resume to a point before it cannot
    /// put what it replays ahead of what already went out.
    first_sent: i64,
    /// Resume asked at connect time (SSE `Last-Event-ID`).
    resume_from: Option<i64>,
    /// Where this session is viewing or typing.
    presence: SessionPresence,
}

/// Everything a session starts with.
pub struct SessionSetup {
    pub business_id: String,
    pub user_id: String,
    /// The user's name, as presence shows it to the others.
    pub name: String,
    /// Where presence is published (it crosses nodes).
    pub bus: Arc<dyn EventBus>,
    pub transport: Transport,
    pub hub: WeakAddr<Hub>,
    pub log: Arc<dyn EventLog>,
    pub out: queue::Sender<Frame>,
    pub channels: Vec<String>,
    pub expires_in: Duration,
    pub resume_from: Option<i64>,
}

impl SessionActor {
    pub fn new(setup: SessionSetup) -> SessionActor {
        let business_id: Arc<str> = setup.business_id.into();
        let user_id: Arc<str> = setup.user_id.into();
        let presence =
            SessionPresence::new(setup.bus, business_id.clone(), user_id.clone(), setup.name);
        SessionActor {
            presence,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            business_id,
            user_id,
            transport: setup.transport,
            hub: setup.hub,
            log: setup.log,
            out: setup.out,
            channels: setup.channels.into_iter().map(channel_name).collect(),
            last_heard: Instant::now(),
            expires_in: setup.expires_in,
            held: None,
            last_sent: 0,
            first_sent: 0,
            resume_from: setup.resume_from,
        }
    }

    /// Queues a frame; a full queue closes the session as a slow consumer.
    fn push(&mut self, frame: Frame, ctx: &mut Context<Self>) {
        if self.out.capacity() <= 1 {
            let _ = self.out.try_send(Frame::Close(
                "slow consumer: too many undelivered events".into(),
            ));
            ctx.stop();
            return;
        }
        if self.out.try_send(frame).is_err() {
            // The writer is gone: the connection closed.
            ctx.stop();
        }
    }

    fn close(&mut self, reason: &str, ctx: &mut Context<Self>) {
        let _ = self.out.try_send(Frame::Close(reason.to_string()));
        ctx.stop();
    }

    fn send_event(&mut self, shared: &SharedEvent, ctx: &mut Context<Self>) {
        let seq = shared.event.seq;
        let transient = seq == crate::events::TRANSIENT;
        if (seq <= self.last_sent && !transient) || self.presence.is_echo(&shared.event) {
            return;
        }
        let Some(channel) = shared.matching_channel(&self.channels) else {
            return;
        };
        let text = match self.transport {
            Transport::WebSocket => shared.ws_frame(channel),
            Transport::Sse => shared.sse_frame(),
        };
        if !transient {
            self.last_sent = seq;
            if self.first_sent == 0 {
                self.first_sent = seq;
            }
        }
        self.push(Frame::Text(text), ctx);
    }

    fn send_control(&mut self, name: &str, channel: Option<&str>, ctx: &mut Context<Self>) {
        let text = match self.transport {
            Transport::WebSocket => json!({"event": name, "channel": channel}).to_string(),
            Transport::Sse => format!("event: {name}\ndata: {{}}\n\n"),
        };
        self.push(Frame::Text(text.into()), ctx);
    }

    /// A channel a client may name. A user's own channel is followed from the start, never
    /// asked for.
    fn may_follow(channel: &str) -> bool {
        !channel.is_empty()
            && channel.len() <= MAX_CHANNEL_LEN
            && !channel.starts_with(USER_CHANNEL_PREFIX)
    }

    /// Tells the hub, if it is still there (it lives as long as the process).
    fn tell_hub<M>(&self, msg: M)
    where
        M: Message + Send + 'static,
        M::Result: Send,
        Hub: Handler<M>,
    {
        if let Some(hub) = self.hub.upgrade() {
            hub.do_send(msg);
        }
    }

    fn subscribe(&mut self, channel: String, ctx: &mut Context<Self>) {
        if !Self::may_follow(&channel) {
            self.send_control("invalid_channel", None, ctx);
            return;
        }
        let channel = channel_name(channel);
        self.tell_hub(Subscribe {
            id: self.id,
            channel: channel.clone(),
        });
        if self.transport == Transport::WebSocket {
            self.send_control("subscribed", Some(&channel), ctx);
        }
        if !self.channels.contains(&channel) {
            self.channels.push(channel);
        }
    }

    /// The hub's heartbeat: a WebSocket client silent too long is gone; others get a ping.
    fn heartbeat(&mut self, ctx: &mut Context<Self>) {
        if self.transport == Transport::WebSocket && self.last_heard.elapsed() > CLIENT_TIMEOUT {
            self.close("heartbeat timeout", ctx);
            return;
        }
        self.push(Frame::Ping, ctx);
    }

    /// Whether `events` hold one of the followed channels earlier than `first`, the first seq
    /// already sent (none: nothing was).
    fn misses_before(&self, events: &[Event], first: Option<i64>) -> bool {
        let followed = |e: &&Event| {
            (e.channels.iter()).any(|channel| self.channels.iter().any(|c| **c == **channel))
        };
        first.is_some_and(|first| events.iter().filter(followed).any(|e| e.seq < first))
    }

    /// Replays the followed channels' events after `after`, then the live ones held meanwhile.
    /// Events that went out live before the resume came (a client subscribes, then resumes)
    /// leave no place for earlier missed ones: when the replay holds such an event the client is
    /// told to `reset` (re-fetch) rather than get it out of order or not at all.
    fn resume(&mut self, after: i64, ctx: &mut Context<Self>) {
        self.held.get_or_insert_with(Vec::new);
        let sent_before = (self.first_sent > after).then_some(self.first_sent);
        let replay = self.log.since(&self.business_id, after);
        ctx.spawn(replay.into_actor(self).map(move |result, session, ctx| {
            match result {
                Ok(Replay::Events(events)) if session.misses_before(&events, sent_before) => {
                    session.send_control("reset", None, ctx);
                }
                Ok(Replay::Events(events)) => {
                    session.last_sent = session.last_sent.max(after);
                    for event in events {
                        session.send_event(&SharedEvent::new(event), ctx);
                    }
                }
                Ok(Replay::TooOld) | Err(_) => {
                    if let Err(err) = &result {
                        tracing::warn!(error = %err, "event log replay failed");
                    }
                    session.send_control("reset", None, ctx);
                }
            }
            for event in session.held.take().unwrap_or_default() {
                session.send_event(&event, ctx);
            }
        }));
    }
}

impl Actor for SessionActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        metrics::gauge!(SESSIONS_CONNECTED, "transport" => self.transport.label()).increment(1.0);
        self.tell_hub(Connect {
            id: self.id,
            business_id: self.business_id.clone(),
            user_id: self.user_id.clone(),
            session: ctx.address().recipient(),
            expires_at: Instant::now() + self.expires_in,
        });
        for channel in &self.channels {
            self.tell_hub(Subscribe {
                id: self.id,
                channel: channel.clone(),
            });
        }
        // The hub has our registration queued ahead of any event published after this frame.
        self.send_control("ready", None, ctx);
        if let Some(after) = self.resume_from.take() {
            self.resume(after, ctx);
        }
    }

    fn stopped(&mut self, _: &mut Self::Context) {
        metrics::gauge!(SESSIONS_CONNECTED, "transport" => self.transport.label()).decrement(1.0);
        self.presence.clear();
        self.tell_hub(Disconnect { id: self.id });
    }
}

impl Handler<Notice> for SessionActor {
    type Result = ();
    fn handle(&mut self, msg: Notice, ctx: &mut Context<Self>) {
        match msg {
            Notice::Deliver(events) => match self.held.as_mut() {
                Some(held) => held.extend(events),
                None => {
                    for event in &events {
                        self.send_event(event, ctx);
                    }
                }
            },
            Notice::Close(reason) => self.close(&reason, ctx),
            Notice::Heartbeat => self.heartbeat(ctx),
        }
    }
}

impl Handler<ClientOp> for SessionActor {
    type Result = ();
    fn handle(&mut self, msg: ClientOp, ctx: &mut Context<Self>) {
        self.last_heard = Instant::now();
        match msg {
            ClientOp::Subscribe(channel) => self.subscribe(channel, ctx),
            ClientOp::Unsubscribe(channel) => {
                self.channels.retain(|c| **c != *channel);
                self.tell_hub(Unsubscribe {
                    id: self.id,
                    channel,
                });
            }
            ClientOp::Resume(after, channels) => {
                for channel in channels {
                    self.subscribe(channel, ctx);
                }
                self.resume(after, ctx);
            }
            ClientOp::Presence(channel, state) => {
                if Self::may_follow(&channel) {
                    let following = self.channels.iter().any(|c| **c == *channel);
                    self.presence.set(&channel, state, following);
                } else {
                    self.send_control("invalid_channel", None, ctx);
                }
            }
            ClientOp::Heard => {}
            ClientOp::Invalid => self.send_control("invalid_op", None, ctx),
            ClientOp::Gone => ctx.stop(),
        }
    }
}

impl ClientOp {
    /// Parses a WebSocket text frame: `{"op":"subscribe"|"unsubscribe","channel":…}`,
    /// `{"op":"resume","after":seq,"channels"?:[…]}` or
    /// `{"op":"presence","channel":…,"state":…}`.
    pub fn parse(text: &str) -> ClientOp {
        Self::parse_known(text).unwrap_or(ClientOp::Invalid)
    }

    fn parse_known(text: &str) -> Option<ClientOp> {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        let channel = || value.get("channel")?.as_str().map(String::from);
        match value.get("op")?.as_str()? {
            "subscribe" => channel().map(ClientOp::Subscribe),
            "unsubscribe" => channel().map(ClientOp::Unsubscribe),
            "resume" => {
                let after = value.get("after")?.as_i64()?;
                let channels = match value.get("channels") {
                    None => Vec::new(),
                    Some(named) => (named.as_array()?.iter())
                        .map(|channel| channel.as_str().map(String::from))
                        .collect::<Option<_>>()?,
                };
                Some(ClientOp::Resume(after, channels))
            }
            "presence" => {
                let state = PresenceState::parse(value.get("state")?.as_str()?)?;
                channel().map(|channel| ClientOp::Presence(channel, state))
            }
            "ping" => Some(ClientOp::Heard),
            _ => None,
        }
    }
}
