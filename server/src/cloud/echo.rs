//! One coexistence echo (`value.message_echoes[]` of a `smb_message_echoes` change): a message
//! the business sent from the WhatsApp Business app on the phone that shares its number with the
//! API. It has the shape of an inbound message, sent by the business (`from`) to a customer
//! (`to`, `to_user_id`).

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::lenient;
use super::message::Message;

/// One message the business sent from the app.
#[derive(Clone, Debug, PartialEq)]
pub struct EchoMessage {
    /// The customer's phone digits; omitted when Meta may not share the phone.
    pub to: Option<String>,
    /// The customer's business-scoped user id (2026 webhooks).
    pub to_user_id: Option<String>,
    /// What was sent, read as any message is (`from` is the business's number).
    pub message: Message,
}

impl<'de> Deserialize<'de> for EchoMessage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<EchoMessage, D::Error> {
        let raw = Value::deserialize(d)?;
        let head = Recipient::deserialize(&raw).unwrap_or_default();
        let message = Message::deserialize(raw).map_err(serde::de::Error::custom)?;
        Ok(EchoMessage {
            to: head.to,
            to_user_id: head.to_user_id,
            message,
        })
    }
}

/// Whom an echo went to.
#[derive(Default, Deserialize)]
struct Recipient {
    #[serde(default, deserialize_with = "lenient::string")]
    to: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    to_user_id: Option<String>,
}
