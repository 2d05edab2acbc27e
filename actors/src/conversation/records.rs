//! What passes through a conversation: its key, a customer's (or an echoed) message, a change to
//! an earlier message, a receipt, and an outgoing message with where it stands.

use serde_json::Value;

/// Which conversation: a business and one of its customers.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct ConversationKey {
    pub business_id: String,
    /// The customer key: phone digits with the country code, or a business-scoped user id
    /// (BSUID) when the phone is withheld.
    pub phone: String,
}

/// A message as the provider delivered it: a customer's, or an echo of one the business sent
/// from the WhatsApp Business app on its phone.
#[derive(Clone, Debug)]
pub struct InboundMessage {
    /// The provider's id (`wamid.…`): redeliveries carry the same one.
    pub provider_id: String,
    pub timestamp_ms: i64,
    /// `text`, `image`, `location`, …
    pub kind: String,
    pub content: Value,
    /// The customer as the delivery describes them.
    pub profile: CustomerProfile,
}

/// What a delivery says of its customer, each part only when the provider sent it: what updates
/// their contact (the store's one rule for messages and changes alike). An echo names only the
/// BSUID the business wrote to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustomerProfile {
    /// Their WhatsApp profile name.
    pub name: Option<String>,
    /// Their business-scoped user id (BSUID), kept with the contact.
    pub user_id: Option<String>,
    /// Their WhatsApp username (`@name`), when they took one.
    pub username: Option<String>,
}

/// The kind of a notice about the customer (a new number, BSUID or security code): shown in
/// their conversation, but nothing they wrote, so never unread, no start of the 24-hour reply
/// window, no push, no reopening or assignment and no automated reply.
pub const NOTICE_KIND: &str = "system";

impl InboundMessage {
    /// Whether this is a notice about the customer rather than something they wrote.
    pub fn is_notice(&self) -> bool {
        self.kind == NOTICE_KIND
    }
}

/// A change to an earlier message that is no message of its own: an edit, a deletion for
/// everyone or a reaction, by the customer or by the business (from the WhatsApp Business app,
/// or a reaction sent through Parley).
#[derive(Clone, Debug)]
pub struct Amendment {
    /// The provider's id of the change itself: a redelivery carries the same one.
    pub id: String,
    /// The provider's id of the message it changes.
    pub original_id: String,
    /// Who made it: each side edits and deletes only its own messages.
    pub by: Side,
    /// When the change was made.
    pub timestamp_ms: i64,
    /// What the message is now.
    pub now: Amended,
    /// The customer as the change's delivery describes them: it updates their contact as a
    /// message of theirs does. A business's change from the WhatsApp Business app names only
    /// the customer's BSUID, one sent through Parley nothing.
    pub profile: CustomerProfile,
}

/// A changed message's kind and content.
#[derive(Clone, Debug)]
pub enum Amended {
    /// Edited: the kind and content it reads as now.
    Edited { kind: String, content: Value },
    /// Deleted for everyone: what a deleted message keeps (its kind stays).
    Revoked { content: Value },
    /// A reaction put on the message (an empty emoji takes it off); each side has at most one.
    Reacted { emoji: String },
}

/// A side of a conversation: who changed a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Customer,
    Business,
}

impl Side {
    /// Its key in a message's `reactions`.
    pub fn key(self) -> &'static str {
        match self {
            Side::Customer => "customer",
            Side::Business => "business",
        }
    }

    /// The direction of the messages it sent (and so may edit or delete).
    pub fn direction(self) -> &'static str {
        match self {
            Side::Customer => "incoming",
            Side::Business => "outgoing",
        }
    }
}

/// A receipt for one of our messages.
#[derive(Clone, Debug)]
pub struct StatusUpdate {
    pub message_id: String,
    /// `sent`, `delivered`, `read`, `failed` (or `played`, counted as read).
    pub status: String,
    pub timestamp_ms: i64,
    /// The provider's first error, for `failed`.
    pub error: Option<Value>,
    /// What the receipt says of its customer: their BSUID and username (never a name).
    pub customer: CustomerProfile,
}

/// A message an agent (or an automated reply) sends.
#[derive(Clone, Debug)]
pub struct OutgoingMessage {
    /// The client's id: the same id twice is one message.
    pub client_id: String,
    pub kind: String,
    /// What the inbox shows.
    pub content: Value,
    pub sender_name: String,
    /// The team member who sent it; `None` for the server's own sends (automated replies, bulk
    /// sends).
    pub sent_by: Option<String>,
    /// The provider request body, kept in the outbox until the provider accepts it.
    pub payload: Value,
}

/// Where an outgoing message stands after `record_outgoing`.
#[derive(Clone, Debug, PartialEq)]
pub enum OutgoingState {
    /// Stored just now, with its outbox entry.
    Created,
    /// Seen before under the same client id: its current id, status and error.
    Existing {
        message_id: String,
        status: String,
        error: Option<Value>,
    },
}

/// How the provider answered a send.
#[derive(Clone, Debug)]
pub enum SendOutcome {
    /// Accepted with the provider's id, which replaces the client's.
    Accepted {
        client_id: String,
        provider_id: String,
    },
    /// Refused for good (or retries ran out).
    Failed { client_id: String, error: Value },
}
