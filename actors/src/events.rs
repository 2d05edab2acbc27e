//! Events pushed to agents, and the channel names they travel on.

use serde_json::{Value, json};

/// The channel of everything in a business (list updates, receipts, template status…).
pub const NOTIFICATIONS: &str = "notifications/all";

pub const NEW_MESSAGE: &str = "new_message";
pub const MESSAGE_STATUS_UPDATE: &str = "message_status_update";
pub const NOTIFICATION: &str = "notification";
pub const NEW_CONTACT: &str = "new_contact";
pub const TEMPLATE_STATUS: &str = "template_status";
pub const SYSTEM_NOTIFICATION: &str = "system_notification";

/// The `seq` of a transient event (bulk progress): not logged, never replayed, not ordered.
pub const TRANSIENT: i64 = 0;

/// A persisted event: it has its place (`seq`) in its business's event log before anyone sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The tenant; only sessions of this business ever receive the event.
    pub business_id: String,
    /// Dense, increasing per business: clients resume after the last one they saw.
    pub seq: i64,
    /// Every channel that carries it (a receipt goes to the conversation and the notifications).
    pub channels: Vec<String>,
    /// One of the event names above.
    pub name: String,
    pub data: Value,
}

/// A conversation's channel: `{phoneNumberId}_{customerPhone}`.
pub fn conversation_channel(phone_number_id: &str, phone: &str) -> String {
    format!("{phone_number_id}_{phone}")
}

impl Event {
    /// The WebSocket frame, naming the channel it matched for this session.
    pub fn ws_frame(&self, channel: &str) -> String {
        json!({"event": self.name, "seq": self.seq, "channel": channel, "data": self.data})
            .to_string()
    }

    /// The SSE frame: the id lets the browser resume with `Last-Event-ID`.
    pub fn sse_frame(&self) -> String {
        format!(
            "id: {}\nevent: {}\ndata: {}\n\n",
            self.seq, self.name, self.data
        )
    }

    /// The first of the given subscriptions that carries this event.
    pub fn matching_channel<'a>(
        &'a self,
        subscribed: &std::collections::HashSet<String>,
    ) -> Option<&'a str> {
        self.channels
            .iter()
            .find(|c| subscribed.contains(c.as_str()))
            .map(String::as_str)
    }
}
