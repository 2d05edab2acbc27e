//! Which sessions are connected to this node's hub, for which business, and which channels each
//! follows; and the messages a session uses to join, follow and leave. The hub asks it who gets
//! an event and reaches them through it. It also keeps the sessions' clock: one heartbeat and
//! one list of token deadlines for all of them, where each session had two timers of its own.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;

use crate::events::{Event, SharedEvent};

/// Identifies one connected session on this node.
pub type SessionId = u64;

/// What the hub hands a session. One message type, so the hub holds one address per session.
#[derive(Message, Clone)]
#[rtype(result = "()")]
pub enum Notice {
    /// Events, in order (the session picks the channel it follows each on). The events of one
    /// publish go to a session in one notice: one wake-up and, when its socket keeps up, one
    /// write for all of them.
    Deliver(Vec<Arc<SharedEvent>>),
    /// Close, with the reason sent to the client.
    Close(String),
    /// Time to ping the client (or to give up on a silent one).
    Heartbeat,
}

/// The close reason of a session whose user's access was revoked.
pub const SESSION_REVOKED: &str = "session revoked";

/// The close reason of a session whose access token ran out.
pub const TOKEN_EXPIRED: &str = "token expired";

/// How often the hub tells its sessions to ping (WebSocket) or send a keep-alive comment (SSE).
pub const HEARTBEAT_INTERVAL: Duration = Duration::from_secs(15);

#[derive(Message)]
#[rtype(result = "()")]
pub struct Connect {
    pub id: SessionId,
    pub business_id: Arc<str>,
    pub user_id: Arc<str>,
    pub session: Recipient<Notice>,
    /// When the session's access token runs out: the hub closes it then.
    pub expires_at: Instant,
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
    pub channel: Arc<str>,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Unsubscribe {
    pub id: SessionId,
    pub channel: String,
}

/// One connected session. Held by the thousand, so its strings are shared: ids with the session
/// actor, channel names with the index below.
struct SessionEntry {
    business_id: Arc<str>,
    user_id: Arc<str>,
    session: Recipient<Notice>,
    /// A handful at most, so a vector (smaller than a set).
    channels: Vec<Arc<str>>,
    expires_at: Instant,
}

/// Sessions following one channel of one business.
type ChannelIndex = HashMap<Arc<str>, HashSet<SessionId>>;

/// The connected sessions and what they follow.
#[derive(Default)]
pub(crate) struct Followers {
    /// Every connected session, with how to reach it.
    sessions: HashMap<SessionId, SessionEntry>,
    /// business → channel → sessions following it: the lookup for each routed event.
    by_channel: HashMap<Arc<str>, ChannelIndex>,
    /// Access-token deadlines, soonest first: one timer for the node instead of one per session.
    expiries: BTreeSet<(Instant, SessionId)>,
}

impl Followers {
    pub fn connect(&mut self, msg: Connect) {
        self.expiries.insert((msg.expires_at, msg.id));
        self.sessions.insert(
            msg.id,
            SessionEntry {
                business_id: msg.business_id,
                user_id: msg.user_id,
                session: msg.session,
                channels: Vec::new(),
                expires_at: msg.expires_at,
            },
        );
    }

    pub fn disconnect(&mut self, id: SessionId) {
        if let Some(entry) = self.sessions.remove(&id) {
            self.expiries.remove(&(entry.expires_at, id));
            for channel in &entry.channels {
                self.unfollow(id, &entry.business_id, channel);
            }
        }
    }

    pub fn subscribe(&mut self, id: SessionId, channel: Arc<str>) {
        let Some(entry) = self.sessions.get_mut(&id) else {
            return;
        };
        let channels = self
            .by_channel
            .entry(entry.business_id.clone())
            .or_default();
        // The index's copy of the name, shared by every session that follows it.
        let channel = match channels.get_key_value(&*channel) {
            Some((name, _)) => name.clone(),
            None => channel,
        };
        channels.entry(channel.clone()).or_default().insert(id);
        if !entry.channels.contains(&channel) {
            entry.channels.push(channel);
        }
    }

    pub fn unsubscribe(&mut self, id: SessionId, channel: &str) {
        let Some(entry) = self.sessions.get_mut(&id) else {
            return;
        };
        entry.channels.retain(|c| &**c != channel);
        let business_id = entry.business_id.clone();
        self.unfollow(id, &business_id, channel);
    }

    fn unfollow(&mut self, id: SessionId, business_id: &str, channel: &str) {
        let Some(channels) = self.by_channel.get_mut(business_id) else {
            return;
        };
        if let Some(set) = channels.get_mut(channel) {
            set.remove(&id);
            if set.is_empty() {
                channels.remove(channel);
            }
        }
        if channels.is_empty() {
            self.by_channel.remove(business_id);
        }
    }

    /// The sessions following any of the event's channels, each once (a session following two
    /// of them gets the event once).
    pub fn of(&self, event: &Event) -> HashSet<SessionId> {
        let mut reached = HashSet::new();
        if let Some(channels) = self.by_channel.get(event.business_id.as_str()) {
            for channel in &event.channels {
                reached.extend(channels.get(channel.as_str()).into_iter().flatten());
            }
        }
        reached
    }

    /// Hands a session its events in one message (none if it has gone meanwhile).
    pub fn deliver(&self, id: SessionId, events: Vec<Arc<SharedEvent>>) {
        if let Some(entry) = self.sessions.get(&id) {
            entry.session.do_send(Notice::Deliver(events));
        }
    }

    /// Tells every session to ping its client.
    pub fn heartbeat(&self) {
        for entry in self.sessions.values() {
            entry.session.do_send(Notice::Heartbeat);
        }
    }

    /// Closes the sessions whose access token has run out by `now`; answers when the next one
    /// runs out.
    pub fn expire(&mut self, now: Instant) -> Option<Instant> {
        while let Some(&(at, id)) = self.expiries.first() {
            if at > now {
                return Some(at);
            }
            self.expiries.pop_first();
            if let Some(entry) = self.sessions.get(&id) {
                entry.session.do_send(Notice::Close(TOKEN_EXPIRED.into()));
            }
        }
        None
    }

    /// Closes a user's sessions that follow `channel`; answers how many.
    pub fn close_following(&self, business_id: &str, user_id: &str, channel: &str) -> usize {
        self.close_where("closed by the client", |e| {
            e.is_user(business_id, user_id) && e.channels.iter().any(|c| &**c == channel)
        })
    }

    /// Closes every session of a user: their access was revoked.
    pub fn close_user(&self, business_id: &str, user_id: &str) -> usize {
        self.close_where(SESSION_REVOKED, |e| e.is_user(business_id, user_id))
    }

    fn close_where(&self, reason: &str, matches: impl Fn(&SessionEntry) -> bool) -> usize {
        let matching: Vec<_> = self.sessions.values().filter(|e| matches(e)).collect();
        for entry in &matching {
            entry.session.do_send(Notice::Close(reason.into()));
        }
        matching.len()
    }

    /// The businesses with a session here.
    pub fn businesses(&self) -> HashSet<&str> {
        self.sessions.values().map(|s| &*s.business_id).collect()
    }

    /// The users of a business with a session on this node.
    pub fn users_of(&self, business_id: &str) -> Vec<String> {
        let mut users: Vec<String> = self
            .sessions
            .values()
            .filter(|e| &*e.business_id == business_id)
            .map(|e| e.user_id.to_string())
            .collect();
        users.sort();
        users.dedup();
        users
    }

    pub fn len(&self) -> usize {
        self.sessions.len()
    }
}

impl SessionEntry {
    fn is_user(&self, business_id: &str, user_id: &str) -> bool {
        &*self.business_id == business_id && &*self.user_id == user_id
    }
}
