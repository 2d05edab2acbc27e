//! Events pushed to agents, and the channel names they travel on.

use std::sync::{Arc, LazyLock, OnceLock};

use serde::Serialize;
use serde_json::value::RawValue;
use tungstenite::Utf8Bytes;

/// The channel of everything in a business (list updates, receipts, template status…).
pub const NOTIFICATIONS: &str = "notifications/all";

pub const NEW_MESSAGE: &str = "new_message";
/// A stored message changed in place: edited, deleted for everyone, or reacted to.
pub const MESSAGE_UPDATED: &str = "message_updated";
pub const MESSAGE_STATUS_UPDATE: &str = "message_status_update";
pub const NOTIFICATION: &str = "notification";
pub const NEW_CONTACT: &str = "new_contact";
pub const TEMPLATE_STATUS: &str = "template_status";
pub const SYSTEM_NOTIFICATION: &str = "system_notification";
pub const CONVERSATION_UPDATED: &str = "conversation_updated";
pub const MENTION: &str = "mention";
/// A conversation was deleted with its contact: lists drop its row, an open pane closes.
pub const CONTACT_DELETED: &str = "contact_deleted";
/// The business's labels changed (created, renamed, recoloured or deleted): the whole list.
pub const LABELS_CHANGED: &str = "labels_changed";

/// The `seq` of a transient event (bulk progress): not logged, never replayed, not ordered.
pub const TRANSIENT: i64 = 0;

/// A persisted event: it has its place (`seq`) in its business's event log before anyone sees it.
#[derive(Clone, Debug)]
pub struct Event {
    /// The tenant; only sessions of this business ever receive the event.
    pub business_id: String,
    /// Dense, increasing per business: clients resume after the last one they saw.
    pub seq: i64,
    /// Every channel that carries it (a receipt goes to the conversation and the notifications).
    pub channels: Vec<String>,
    /// One of the event names above.
    pub name: String,
    /// The event's JSON, serialized once: logged and framed as it is, never parsed again.
    pub data: Box<RawValue>,
}

/// An event's `data` from anything serializable (a JSON value or a payload struct).
pub fn event_data(data: &impl Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(data)
        .expect("event data of strings, numbers and JSON serializes")
}

/// A conversation's channel: `{phoneNumberId}_{customerPhone}`.
pub fn conversation_channel(phone_number_id: &str, phone: &str) -> String {
    format!("{phone_number_id}_{phone}")
}

/// A user's own channel (mentions): every session of the user follows it, and no client may
/// subscribe to it.
pub fn user_channel(user_id: &str) -> String {
    format!("{USER_CHANNEL_PREFIX}{user_id}")
}

/// What starts every user's own channel.
pub const USER_CHANNEL_PREFIX: &str = "user/";

/// A channel's name as sessions and the hub hold it. `NOTIFICATIONS`, which nearly every session
/// follows, is one copy for the whole process.
pub fn channel_name(name: String) -> Arc<str> {
    static SHARED: LazyLock<Arc<str>> = LazyLock::new(|| NOTIFICATIONS.into());
    if name == NOTIFICATIONS {
        SHARED.clone()
    } else {
        name.into()
    }
}

/// The WebSocket frame of an event, borrowing it (no copy of its data per frame).
#[derive(Serialize)]
struct WsFrame<'a> {
    event: &'a str,
    seq: i64,
    channel: &'a str,
    data: &'a RawValue,
}

/// An event on its way to sessions. Its frames are formatted once, when the first session needs
/// them, and then shared by every session that follows the same channel.
#[derive(Debug)]
pub struct SharedEvent {
    pub event: Event,
    /// The WebSocket frame for each of `event.channels`, by index.
    ws: Vec<OnceLock<Utf8Bytes>>,
    sse: OnceLock<Utf8Bytes>,
}

impl SharedEvent {
    pub fn new(event: Event) -> SharedEvent {
        SharedEvent {
            ws: event.channels.iter().map(|_| OnceLock::new()).collect(),
            sse: OnceLock::new(),
            event,
        }
    }

    /// The WebSocket frame naming `event.channels[channel]`, the channel it matched.
    pub fn ws_frame(&self, channel: usize) -> Utf8Bytes {
        self.ws[channel]
            .get_or_init(|| {
                let e = &self.event;
                let frame = WsFrame {
                    event: &e.name,
                    seq: e.seq,
                    channel: &e.channels[channel],
                    data: &e.data,
                };
                serde_json::to_string(&frame)
                    .expect("a frame of strings and JSON values serializes")
                    .into()
            })
            .clone()
    }

    /// The SSE frame: the id lets the browser resume with `Last-Event-ID`.
    pub fn sse_frame(&self) -> Utf8Bytes {
        self.sse
            .get_or_init(|| {
                let e = &self.event;
                format!(
                    "id: {}\nevent: {}\ndata: {}\n\n",
                    e.seq,
                    e.name,
                    e.data.get()
                )
                .into()
            })
            .clone()
    }

    /// The index of the first of the given subscriptions that carries this event.
    pub fn matching_channel(&self, subscribed: &[Arc<str>]) -> Option<usize> {
        self.event
            .channels
            .iter()
            .position(|c| subscribed.iter().any(|s| **s == **c))
    }
}
