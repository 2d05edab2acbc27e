//! Which sessions are connected to this node's hub, for which business, and which channels each
//! follows; and the messages a session uses to join, follow and leave. The hub asks it who gets
//! an event and reaches them through it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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

/// The close reason of a session whose user's access was revoked.
pub const SESSION_REVOKED: &str = "session revoked";

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

struct SessionEntry {
    business_id: String,
    user_id: String,
    deliver: Recipient<Deliver>,
    close: Recipient<CloseSession>,
    channels: HashSet<String>,
}

/// The connected sessions and what they follow.
#[derive(Default)]
pub(crate) struct Followers {
    /// Every connected session, with how to reach and close it.
    sessions: HashMap<SessionId, SessionEntry>,
    /// (business, channel) → sessions following it: the lookup for each routed event.
    by_channel: HashMap<(String, String), HashSet<SessionId>>,
}

impl Followers {
    pub fn connect(&mut self, msg: Connect) {
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

    pub fn disconnect(&mut self, id: SessionId) {
        if let Some(entry) = self.sessions.remove(&id) {
            for channel in &entry.channels {
                self.unfollow(id, &entry.business_id, channel);
            }
        }
    }

    pub fn subscribe(&mut self, id: SessionId, channel: String) {
        if let Some(entry) = self.sessions.get_mut(&id) {
            entry.channels.insert(channel.clone());
            self.by_channel
                .entry((entry.business_id.clone(), channel))
                .or_default()
                .insert(id);
        }
    }

    pub fn unsubscribe(&mut self, id: SessionId, channel: &str) {
        let Some(entry) = self.sessions.get_mut(&id) else {
            return;
        };
        entry.channels.remove(channel);
        let business_id = entry.business_id.clone();
        self.unfollow(id, &business_id, channel);
    }

    fn unfollow(&mut self, id: SessionId, business_id: &str, channel: &str) {
        let key = (business_id.to_string(), channel.to_string());
        if let Some(set) = self.by_channel.get_mut(&key) {
            set.remove(&id);
            if set.is_empty() {
                self.by_channel.remove(&key);
            }
        }
    }

    /// The sessions following any of the event's channels, each once (a session following two
    /// of them gets the event once).
    pub fn of(&self, event: &Event) -> HashSet<SessionId> {
        let mut reached = HashSet::new();
        for channel in &event.channels {
            let key = (event.business_id.clone(), channel.clone());
            reached.extend(self.by_channel.get(&key).into_iter().flatten());
        }
        reached
    }

    /// Hands a session its events in one message (none if it has gone meanwhile).
    pub fn deliver(&self, id: SessionId, events: Vec<Arc<SharedEvent>>) {
        if let Some(entry) = self.sessions.get(&id) {
            entry.deliver.do_send(Deliver(events));
        }
    }

    /// Closes a user's sessions that follow `channel`; answers how many.
    pub fn close_following(&self, business_id: &str, user_id: &str, channel: &str) -> usize {
        self.close_where("closed by the client", |e| {
            e.business_id == business_id && e.user_id == user_id && e.channels.contains(channel)
        })
    }

    /// Closes every session of a user: their access was revoked.
    pub fn close_user(&self, business_id: &str, user_id: &str) -> usize {
        self.close_where(SESSION_REVOKED, |e| {
            e.business_id == business_id && e.user_id == user_id
        })
    }

    fn close_where(&self, reason: &str, matches: impl Fn(&SessionEntry) -> bool) -> usize {
        let matching: Vec<_> = self.sessions.values().filter(|e| matches(e)).collect();
        for entry in &matching {
            entry.close.do_send(CloseSession(reason.into()));
        }
        matching.len()
    }

    /// The businesses with a session here.
    pub fn businesses(&self) -> HashSet<&String> {
        self.sessions.values().map(|s| &s.business_id).collect()
    }

    /// The users of a business with a session on this node.
    pub fn users_of(&self, business_id: &str) -> Vec<String> {
        let mut users: Vec<String> = self
            .sessions
            .values()
            .filter(|e| e.business_id == business_id)
            .map(|e| e.user_id.clone())
            .collect();
        users.sort();
        users.dedup();
        users
    }

    pub fn len(&self) -> usize {
        self.sessions.len()
    }
}
