//! One inbound message (`value.messages[]`), read by its `type`. A type Parley does not know, or
//! a message whose body does not fit its type, becomes `Kind::Unknown` with the message as sent.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Number, Value};

use super::cards::{Referral, SharedContact, cards};
use super::lenient;

/// One entry of `value.messages`: who sent it, when, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The sender's phone digits (no `+`); Meta omits it for a user known only by BSUID.
    pub from: Option<String>,
    /// The sender's business-scoped user id (2026 webhooks): their key when `from` is absent.
    pub from_user_id: Option<String>,
    /// `wamid.…`: a redelivery carries the same one, so it deduplicates.
    pub id: Option<String>,
    /// Unix seconds, when the customer sent it.
    pub timestamp: Option<i64>,
    /// The `type` as sent (`unsupported` when absent): the stored kind, known to Parley or not.
    pub type_name: String,
    /// The quoted message (`{from, id}`, `forwarded`, …), stored as sent.
    pub context: Option<Value>,
    /// The click-to-WhatsApp ad the customer came from.
    pub referral: Option<Referral>,
    /// Problems Meta reports next to the content (an `unsupported` message's 131051, …).
    pub errors: Vec<Value>,
    /// The WhatsApp group it was written in (Groups API); `None` for a message to the business.
    pub group_id: Option<String>,
    /// What was sent.
    pub kind: Kind,
}

/// What a message carries, by its `type`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Kind {
    Text {
        text: Text,
    },
    Image {
        image: Media,
    },
    Video {
        video: Media,
    },
    Audio {
        audio: Media,
    },
    Document {
        document: Media,
    },
    Sticker {
        sticker: Media,
    },
    Location {
        location: Location,
    },
    Interactive {
        #[serde(deserialize_with = "interactive")]
        interactive: Interactive,
    },
    /// A template's quick-reply button.
    Button {
        button: Button,
    },
    Order {
        order: Order,
    },
    Reaction {
        reaction: Reaction,
    },
    System {
        system: System,
    },
    /// Shared contact cards.
    Contacts {
        #[serde(deserialize_with = "cards")]
        contacts: Vec<SharedContact>,
    },
    /// Its sender (the customer, or the business in an echo) edited an earlier message.
    Edit {
        edit: Edit,
    },
    /// Its sender deleted an earlier message for everyone.
    Revoke {
        revoke: Revoke,
    },
    /// The customer opened a chat with the business for the first time (`request_welcome`):
    /// nothing they wrote, kept as a notice about them.
    RequestWelcome,
    /// Any other type (`unsupported`, whatever Meta adds next), or a
    /// body that does not fit its type: the whole message as sent, which the inbox keeps.
    #[serde(skip)]
    Unknown(Value),
}

/// The types whose body sits under their own name: a message that leaves out its `type` (as an
/// edit's new message may) is read by the one of these it carries.
const BODY_KEYS: [&str; 15] = [
    "text",
    "image",
    "video",
    "audio",
    "document",
    "sticker",
    "location",
    "interactive",
    "button",
    "order",
    "reaction",
    "system",
    "contacts",
    "edit",
    "revoke",
];

impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Message, D::Error> {
        let mut raw = Value::deserialize(d)?;
        if let Some(fields) = raw.as_object_mut()
            && fields.get("type").is_none_or(Value::is_null)
            && let Some(found) = BODY_KEYS.into_iter().find(|key| fields.contains_key(*key))
        {
            fields.insert("type".into(), Value::String(found.into()));
        }
        // Only an object is a message; anything else keeps no sender and is refused by name.
        let head = match raw.is_object() {
            true => Head::deserialize(&raw).unwrap_or_default(),
            false => Head::default(),
        };
        let kind = Kind::deserialize(&raw).unwrap_or_else(|_| Kind::Unknown(raw.clone()));
        let mut context = head.context;
        // The quoted message is named as the store names it.
        if let Some(quoted) = context.as_mut().and_then(|c| c.get_mut("id"))
            && let Some(id) = quoted.as_str()
        {
            *quoted = Value::String(lenient::fitted_id(id.to_string()));
        }
        Ok(Message {
            from: head.from,
            from_user_id: head.from_user_id,
            id: head.id,
            timestamp: head.timestamp,
            type_name: head.type_name.unwrap_or_else(|| "unsupported".into()),
            context,
            referral: head.referral,
            errors: head.errors,
            group_id: head.group_id,
            kind,
        })
    }
}

/// The fields every message has, whatever its type.
#[derive(Default, Deserialize)]
struct Head {
    #[serde(default, deserialize_with = "lenient::string")]
    from: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    from_user_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::message_id")]
    id: Option<String>,
    #[serde(default, deserialize_with = "lenient::unix_seconds")]
    timestamp: Option<i64>,
    #[serde(default, rename = "type", deserialize_with = "lenient::string")]
    type_name: Option<String>,
    #[serde(default)]
    context: Option<Value>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    referral: Option<Referral>,
    #[serde(default, deserialize_with = "lenient::items")]
    errors: Vec<Value>,
    #[serde(default, deserialize_with = "lenient::string")]
    group_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Text {
    #[serde(deserialize_with = "lenient::text")]
    pub body: String,
}

/// An image, video, audio, document or sticker: the provider keeps the file under `id`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Media {
    /// Fetched through the Graph API while its URL lasts.
    #[serde(default, deserialize_with = "lenient::text")]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub mime_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub sha256: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub caption: Option<String>,
    /// Documents only.
    #[serde(default, deserialize_with = "lenient::string")]
    pub filename: Option<String>,
    /// Audio recorded as a voice note.
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub voice: Option<bool>,
    /// Stickers only.
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub animated: Option<bool>,
    /// A short-lived download URL (newer webhooks).
    #[serde(default, deserialize_with = "lenient::string")]
    pub url: Option<String>,
}

/// A shared location; numbers kept as sent, so the stored copy matches the webhook (coordinates
/// sent as strings are stored as the numbers they hold, as a map needs them).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Location {
    #[serde(deserialize_with = "lenient::number")]
    pub latitude: Number,
    #[serde(deserialize_with = "lenient::number")]
    pub longitude: Number,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// The customer's answer to an interactive message.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Interactive {
    /// A reply button pressed.
    ButtonReply { button_reply: Choice },
    /// A list row picked.
    ListReply { list_reply: Choice },
    /// A WhatsApp Flow submitted.
    NfmReply { nfm_reply: FlowAnswer },
    /// The customer allowed or refused the business's calls.
    CallPermissionReply {
        call_permission_reply: CallPermission,
    },
    /// Another answer type or one that does not fit: the
    /// `interactive` object as sent.
    #[serde(skip)]
    Unknown(Value),
}

/// The button or row the customer chose.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Choice {
    /// The id the business gave the button or row: flow steps and triggers match on it.
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub title: String,
    /// List rows only.
    pub description: Option<String>,
}

/// A WhatsApp Flow's answer.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct FlowAnswer {
    pub name: Option<String>,
    pub body: Option<String>,
    /// The flow's answers, as a JSON string (as Meta sends them) or as the object itself.
    pub response_json: Option<Value>,
}

/// The answer to a request for permission to call the customer; stored as sent.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct CallPermission {
    /// `accept` or `reject`.
    pub response: String,
    /// Unix seconds, when an accepted permission lapses (as sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiration_timestamp: Option<Value>,
    /// `user_action` or `automatic`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_source: Option<String>,
    /// True when the customer allowed calls for good ("Always allow": no expiration then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_permanent: Option<Value>,
}

/// An edit: the message it changes and the message as it reads now.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Edit {
    #[serde(deserialize_with = "lenient::required_message_id")]
    pub original_message_id: String,
    /// `{type, text|image|…}` like any message, without sender, id or time.
    pub message: Box<Message>,
}

/// A deletion for everyone of an earlier message.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Revoke {
    #[serde(deserialize_with = "lenient::required_message_id")]
    pub original_message_id: String,
}

/// A press of a template's quick-reply button.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Button {
    /// The payload the template's button was sent with.
    pub payload: Option<String>,
    /// The button's label.
    pub text: Option<String>,
}

/// A cart sent from the catalog.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Order {
    #[serde(deserialize_with = "lenient::text")]
    pub catalog_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "lenient::string")]
    pub text: Option<String>,
    pub product_items: Vec<ProductItem>,
}

/// One line of a cart; numbers sent as strings are stored as the numbers they hold.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct ProductItem {
    #[serde(deserialize_with = "lenient::text")]
    pub product_retailer_id: String,
    #[serde(deserialize_with = "lenient::number")]
    pub quantity: Number,
    #[serde(deserialize_with = "lenient::number")]
    pub item_price: Number,
    pub currency: String,
}

/// An emoji put on (or, without one, taken off) an earlier message.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Reaction {
    #[serde(deserialize_with = "lenient::required_message_id")]
    pub message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emoji: Option<String>,
}

/// A notice about the customer's identity (a new number, a new BSUID).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct System {
    /// What the inbox shows, e.g. "User A changed from … to …".
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// `user_changed_number`, `customer_identity_changed`, `user_changed_user_id`, …
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wa_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_wa_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_user_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_user_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_parent_user_id: Option<String>,
}

/// The answer types Parley reads; another `interactive.type` is kept as `Interactive::Unknown`.
const INTERACTIVE_TYPES: [&str; 4] = [
    "button_reply",
    "list_reply",
    "nfm_reply",
    "call_permission_reply",
];

/// The `interactive` object, or `Interactive::Unknown` with it as sent when its type is another.
/// A known type whose body does not fit it fails, so the whole message is kept raw (as any body
/// that does not fit its type) rather than stored as an answer that lost what was sent.
fn interactive<'de, D: Deserializer<'de>>(d: D) -> Result<Interactive, D::Error> {
    let raw = Value::deserialize(d)?;
    match Interactive::deserialize(&raw) {
        Ok(answer) => Ok(answer),
        Err(err)
            if raw
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| INTERACTIVE_TYPES.contains(&t)) =>
        {
            Err(serde::de::Error::custom(err))
        }
        Err(_) => Ok(Interactive::Unknown(raw)),
    }
}
