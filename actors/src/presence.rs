//! Who is here: an agent viewing or typing in a conversation, told to the other sessions that
//! follow it. Presence is transient (never logged, no `seq`), crosses nodes like bulk progress,
//! and is never echoed to the session that sent it.

use std::sync::Arc;

use serde::Serialize;

use crate::events::{Event, TRANSIENT, event_data};
use crate::hub::EventBus;

pub const AGENT_ACTIVITY: &str = "agent_activity";

/// What an agent is doing in a conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PresenceState {
    Viewing,
    Typing,
    Idle,
}

impl PresenceState {
    pub fn parse(raw: &str) -> Option<PresenceState> {
        match raw {
            "viewing" => Some(PresenceState::Viewing),
            "typing" => Some(PresenceState::Typing),
            "idle" => Some(PresenceState::Idle),
            _ => None,
        }
    }
}

/// The `agent_activity` event's data.
#[derive(Serialize)]
struct AgentActivity<'a> {
    conversation_id: &'a str,
    user_id: &'a str,
    name: &'a str,
    state: PresenceState,
}

/// An `agent_activity` event on a conversation's channel.
pub fn presence_event(
    business_id: &str,
    conversation_id: &str,
    user_id: &str,
    name: &str,
    state: PresenceState,
) -> Event {
    Event {
        business_id: business_id.to_string(),
        seq: TRANSIENT,
        channels: vec![conversation_id.to_string()],
        name: AGENT_ACTIVITY.to_string(),
        data: event_data(&AgentActivity {
            conversation_id,
            user_id,
            name,
            state,
        }),
    }
}

/// One session's presence: where it is not idle, and its own events on their way back.
pub struct SessionPresence {
    bus: Arc<dyn EventBus>,
    /// Shared with the session.
    business_id: Arc<str>,
    user_id: Arc<str>,
    /// The user's name as the others see it.
    name: String,
    /// Conversations this session is viewing or typing in; cleared when it closes.
    active: Vec<String>,
    /// The data of events this session published that the hub has not yet handed back.
    echoes: Vec<String>,
}

/// Most conversations one session is present in at once; more are ignored.
const MAX_ACTIVE: usize = 32;

impl SessionPresence {
    pub fn new(
        bus: Arc<dyn EventBus>,
        business_id: Arc<str>,
        user_id: Arc<str>,
        name: String,
    ) -> SessionPresence {
        SessionPresence {
            bus,
            business_id,
            user_id,
            name,
            active: Vec::new(),
            echoes: Vec::new(),
        }
    }

    /// Tells the others following `channel`; `following` when this session follows it too (its
    /// own event then comes back and is dropped).
    pub fn set(&mut self, channel: &str, state: PresenceState, following: bool) {
        let known = self.active.iter().any(|c| c == channel);
        match state {
            PresenceState::Idle => self.active.retain(|c| c != channel),
            _ if !known && self.active.len() >= MAX_ACTIVE => return,
            _ if !known => self.active.push(channel.to_string()),
            _ => {}
        }
        self.publish(channel, state, following);
    }

    fn publish(&mut self, channel: &str, state: PresenceState, following: bool) {
        let event = presence_event(&self.business_id, channel, &self.user_id, &self.name, state);
        if following {
            if self.echoes.len() >= MAX_ACTIVE {
                self.echoes.remove(0);
            }
            self.echoes.push(event.data.get().to_string());
        }
        self.bus.publish(vec![event]);
    }

    /// True for this session's own event coming back (it is dropped, once).
    pub fn is_echo(&mut self, event: &Event) -> bool {
        if event.name != AGENT_ACTIVITY || event.seq != TRANSIENT {
            return false;
        }
        match self.echoes.iter().position(|e| e == event.data.get()) {
            Some(i) => {
                self.echoes.swap_remove(i);
                true
            }
            None => false,
        }
    }

    /// The session closed: the others see it idle wherever it was present.
    pub fn clear(&mut self) {
        for channel in std::mem::take(&mut self.active) {
            self.publish(&channel, PresenceState::Idle, false);
        }
    }
}
