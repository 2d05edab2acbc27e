//! The WhatsApp Cloud API as typed data: what Meta's webhook sends and what the provider client
//! sends and reads (docs: /work/shared/CLOUD_API.md's facts, Meta's reference wins). Reading is
//! lenient: unknown fields are ignored, and an unknown or malformed item becomes an explicit
//! catch-all that keeps its raw JSON, so one odd item never fails a whole delivery.
//!
//! - `envelope`: the webhook body, its changes, contacts, statuses and template decisions
//! - `message`: one inbound message by its `type`
//! - `cards`: shared contact cards and ad referrals a message may carry
//! - `echo`: messages the business sent from the WhatsApp Business app (coexistence echoes)
//! - `state_sync`: contacts of the WhatsApp Business app's address book
//! - `sender`: who an inbound message or identity change names as its customer
//! - `inbound`: what the inbox stores of an inbound message (kind, content, media to keep)
//! - `graph`: the Graph API bodies the provider client sends and reads
//! - `lenient`: the deserializers that make one odd field or item harmless

pub mod cards;
pub mod echo;
pub mod envelope;
pub mod graph;
pub mod inbound;
pub mod lenient;
pub mod message;
pub mod sender;
pub mod state_sync;

#[cfg(test)]
mod tests;

pub use envelope::{
    Change, Contact, EchoesValue, Envelope, EnvelopeError, MessagesValue, StateSyncValue, Status,
    TemplateStatusUpdate, UserIdUpdateValue,
};
pub use message::{Interactive, Kind, Message};

/// The longest text message body the Cloud API sends, in characters.
pub const TEXT_MAX: usize = 4096;
/// The longest media caption, and the longest body of an interactive message.
pub const CAPTION_MAX: usize = 1024;
