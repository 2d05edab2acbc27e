//! The webhook's envelope: `{object, entry: [{id, changes: [{field, value}]}]}`, and what a
//! `messages` or `message_template_status_update` change holds. Unknown fields are ignored; an
//! unknown change field is kept as sent in `Change::Unknown`.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::echo::EchoMessage;
use super::lenient;
use super::message::Message;
use super::state_sync::StateSyncItem;
use crate::plain_text;

/// One webhook POST.
#[derive(Debug, Deserialize)]
pub struct Envelope {
    /// `whatsapp_business_account`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub object: Option<String>,
    #[serde(deserialize_with = "lenient::array")]
    pub entry: Vec<Entry>,
}

/// How JSON writes U+0000 (it has no other way to).
const NUL_ESCAPE: &[u8] = b"\\u0000";

/// Why a webhook body was refused before anything in it was looked at.
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    #[error("Webhook body is not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("Webhook body is not a JSON object")]
    NotObject,
}

impl Envelope {
    /// Reads a webhook body; only a body that is not a JSON object is refused. An object
    /// without an `entry` array carries nothing (it is logged, not refused: the provider would
    /// redeliver a refusal for days).
    pub fn read(body: &[u8]) -> Result<Envelope, EnvelopeError> {
        // A text with half a UTF-16 pair escaped is kept with U+FFFD in its place, not refused
        // with the whole delivery (checked only when the body does not read as it is).
        let mut raw: Value = match serde_json::from_slice(body) {
            Ok(raw) => raw,
            Err(err) => plain_text::replace_lone_surrogates(body)
                .and_then(|repaired| serde_json::from_slice(&repaired).ok())
                .ok_or(EnvelopeError::NotJson(err))?,
        };
        // Postgres text cannot hold U+0000, which JSON only carries escaped; the delivery is
        // kept, not refused.
        if body.windows(NUL_ESCAPE.len()).any(|w| w == NUL_ESCAPE) {
            plain_text::replace_nul(&mut raw);
        }
        if !raw.is_object() {
            return Err(EnvelopeError::NotObject);
        }
        let object = raw
            .get("object")
            .and_then(Value::as_str)
            .map(str::to_string);
        // Read from the body's own tree, which each level takes apart instead of copying.
        Ok(Envelope::deserialize(raw).unwrap_or_else(|_| {
            tracing::warn!("webhook body without an entry array: nothing to take");
            Envelope {
                object,
                entry: Vec::new(),
            }
        }))
    }
}

/// The updates for one WhatsApp Business Account.
#[derive(Debug, Default, Deserialize)]
pub struct Entry {
    /// The WhatsApp Business Account id: template decisions are routed by it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub changes: Vec<Change>,
}

/// One change, by its `field`.
#[derive(Debug)]
pub enum Change {
    /// `messages`: inbound messages and receipts for one phone number.
    Messages(Box<MessagesValue>),
    /// `message_template_status_update`: Meta's review decided a template.
    TemplateStatus(TemplateStatusUpdate),
    /// `smb_message_echoes`: messages the business sent from the WhatsApp Business app.
    Echoes(Box<EchoesValue>),
    /// `user_id_update` (an early shape of the `user_changed_user_id` system message): customers
    /// whose BSUID changed.
    UserIdUpdate(Box<UserIdUpdateValue>),
    /// `smb_app_state_sync`: contacts the business added, edited or removed in the WhatsApp
    /// Business app's address book.
    StateSync(Box<StateSyncValue>),
    /// Any other field (account updates, history, …), kept as sent and not acted on.
    Unknown { field: String, value: Value },
}

impl<'de> Deserialize<'de> for Change {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Change, D::Error> {
        let mut raw = Value::deserialize(d)?;
        let value = raw.get_mut("value").map(Value::take).unwrap_or_default();
        let field = raw.get("field").and_then(Value::as_str).unwrap_or_default();
        // Every field of a known value is read leniently, so any object reads as one; its parts
        // are moved out of it, not copied.
        fn read<T: DeserializeOwned + Default>(value: Value) -> T {
            T::deserialize(value).unwrap_or_default()
        }
        Ok(match field {
            "messages" if value.is_object() => Change::Messages(Box::new(read(value))),
            "message_template_status_update" if value.is_object() => {
                Change::TemplateStatus(read(value))
            }
            "smb_message_echoes" if value.is_object() => Change::Echoes(Box::new(read(value))),
            "user_id_update" if value.is_object() => Change::UserIdUpdate(Box::new(read(value))),
            "smb_app_state_sync" if value.is_object() => Change::StateSync(Box::new(read(value))),
            _ => Change::Unknown {
                field: field.to_string(),
                value,
            },
        })
    }
}

impl Change {
    /// The business phone number the change is about (template decisions name none).
    pub fn phone_number_id(&self) -> Option<&str> {
        match self {
            Change::Messages(value) => value.metadata.phone_number_id.as_deref(),
            Change::TemplateStatus(_) => None,
            Change::Echoes(value) => value.metadata.phone_number_id.as_deref(),
            Change::UserIdUpdate(value) => value.metadata.phone_number_id.as_deref(),
            Change::StateSync(value) => value.metadata.phone_number_id.as_deref(),
            Change::Unknown { value, .. } => value.pointer("/metadata/phone_number_id")?.as_str(),
        }
    }
}

/// The `value` of a `messages` change.
#[derive(Debug, Default, Deserialize)]
pub struct MessagesValue {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub metadata: Metadata,
    /// The senders' profiles (none with statuses).
    #[serde(default, deserialize_with = "lenient::items")]
    pub contacts: Vec<Contact>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub messages: Vec<Message>,
    #[serde(default, deserialize_with = "lenient::items")]
    pub statuses: Vec<Status>,
    /// Errors about the whole change rather than one message.
    #[serde(default, deserialize_with = "lenient::items")]
    pub errors: Vec<Value>,
}

/// The `value` of a `smb_message_echoes` change: messages the business sent from the WhatsApp
/// Business app.
#[derive(Debug, Default, Deserialize)]
pub struct EchoesValue {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub metadata: Metadata,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub message_echoes: Vec<EchoMessage>,
}

/// The `value` of a `user_id_update` change: `{metadata, user_id_update: [UserIdChange]}`.
#[derive(Debug, Default, Deserialize)]
pub struct UserIdUpdateValue {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub metadata: Metadata,
    #[serde(default, deserialize_with = "lenient::items")]
    pub user_id_update: Vec<UserIdChange>,
}

/// The `value` of a `smb_app_state_sync` change: `{metadata, state_sync: [StateSyncItem]}`.
#[derive(Debug, Default, Deserialize)]
pub struct StateSyncValue {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub metadata: Metadata,
    #[serde(default, deserialize_with = "lenient::items")]
    pub state_sync: Vec<StateSyncItem>,
}

/// One customer's new BSUID.
#[derive(Debug, Default, Deserialize)]
pub struct UserIdChange {
    /// The customer's phone, when Meta shares it.
    #[serde(default, deserialize_with = "lenient::string")]
    pub wa_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub previous_user_id: Option<String>,
    /// The new BSUID.
    #[serde(default, deserialize_with = "lenient::string")]
    pub user_id: Option<String>,
}

/// The business number the change is for.
#[derive(Debug, Default, Deserialize)]
pub struct Metadata {
    #[serde(default, deserialize_with = "lenient::string")]
    pub display_phone_number: Option<String>,
    /// Routes the change to its business.
    #[serde(default, deserialize_with = "lenient::string")]
    pub phone_number_id: Option<String>,
}

/// A sender's profile.
#[derive(Debug, Default, Deserialize)]
pub struct Contact {
    /// Phone digits; omitted when Meta may not share the phone (2026 usernames).
    #[serde(default, deserialize_with = "lenient::string")]
    pub wa_id: Option<String>,
    /// The business-scoped user id (BSUID): names the customer when the phone is withheld.
    #[serde(default, deserialize_with = "lenient::string")]
    pub user_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub profile: Profile,
}

#[derive(Debug, Default, Deserialize)]
pub struct Profile {
    /// Shown as the conversation's name.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    /// The user's WhatsApp username (`@name`), when they took one: shown where the phone would be.
    #[serde(default, deserialize_with = "lenient::string")]
    pub username: Option<String>,
}

/// A receipt for a message the business sent.
#[derive(Debug, Default, Deserialize)]
pub struct Status {
    /// The provider's id of the message it is about.
    #[serde(default, deserialize_with = "lenient::message_id")]
    pub id: Option<String>,
    /// `sent`, `delivered`, `read`, `failed` or `played`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "lenient::unix_seconds")]
    pub timestamp: Option<i64>,
    /// The customer's phone; absent when the message went to a BSUID whose phone is withheld.
    #[serde(default, deserialize_with = "lenient::string")]
    pub recipient_id: Option<String>,
    /// The customer's BSUID: names the conversation when `recipient_id` is absent.
    #[serde(default, deserialize_with = "lenient::string")]
    pub recipient_user_id: Option<String>,
    /// `group` for a receipt of a message sent to a WhatsApp group (`recipient_id` is then the
    /// group's id); absent otherwise.
    #[serde(default, deserialize_with = "lenient::string")]
    pub recipient_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub conversation: Option<Conversation>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub pricing: Option<Pricing>,
    /// Why a `failed` message failed; the first is stored with the message as sent.
    #[serde(default, deserialize_with = "lenient::items")]
    pub errors: Vec<Value>,
}

/// The billing conversation a message opened or belongs to.
#[derive(Debug, Default, Deserialize)]
pub struct Conversation {
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient::unix_seconds")]
    pub expiration_timestamp: Option<i64>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub origin: Option<Origin>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Origin {
    /// `service`, `marketing`, `utility`, `authentication`, …
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub category: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Pricing {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub billable: Option<bool>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub pricing_model: Option<String>,
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub category: Option<String>,
}

/// The `value` of a `message_template_status_update` change; the store reads it back as JSON.
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct TemplateStatusUpdate {
    /// `APPROVED`, `REJECTED`, `PENDING`, `PAUSED`, `DISABLED`, …
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// An integer from Meta; kept as sent, as the store compares ids as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_template_id: Option<Value>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_template_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_template_language: Option<String>,
    /// Why a template was rejected or paused.
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_template_category: Option<String>,
}
