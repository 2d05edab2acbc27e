//! What one webhook POST carries, read item by item into a batch: a message or echo that names no
//! customer, or that belongs to a WhatsApp group, is logged and skipped, never failing the rest
//! (a receipt that names no customer still finds its message by id). Each message, edit, deletion
//! and echo keeps the customer as the delivery names them (`Sighting`) until the store says which
//! customer that is.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use parley_actors::conversation::{
    Amended, Amendment, ConversationKey, CustomerProfile, InboundMessage, Side, StatusUpdate,
};
use sha2::{Digest, Sha256};

use crate::cloud::{
    Contact, EchoesValue, Kind, Message, MessagesValue, StateSyncValue, TemplateStatusUpdate,
    UserIdUpdateValue,
};
use crate::customer::{CustomerKey, Sighting};
use crate::visible;

/// What a business's new messages set off, as its profile says.
#[derive(Clone, Copy, Debug, Default)]
pub struct SetsOff {
    /// It has an active automated reply.
    pub replies: bool,
    /// A browser of its team subscribed to Web Push.
    pub push: bool,
}

/// The work one webhook POST carries, grouped by business.
#[derive(Default)]
pub struct Batch {
    pub(super) messages: Vec<Arrival>,
    pub(super) statuses: Vec<(ConversationKey, StatusUpdate)>,
    /// Edits, deletions and reactions of earlier messages: the customer's, and the business's
    /// from the WhatsApp Business app (echoed).
    pub(super) changes: Vec<Named<Arc<Amendment>>>,
    /// Messages the business sent from the WhatsApp Business app.
    pub(super) echoes: Vec<Named<Arc<InboundMessage>>>,
    /// Template review decisions: (business, decision).
    pub(super) templates: Vec<(String, TemplateStatusUpdate)>,
    /// Customers whose BSUID changed, announced without a message: (business, sighting).
    pub(super) identities: Vec<(String, Sighting)>,
    /// Names the business gave customers in the WhatsApp Business app's address book, per
    /// business: (phone, name).
    pub(super) app_contacts: HashMap<String, Vec<(String, String)>>,
    /// Per business id.
    pub(super) sets_off: HashMap<String, SetsOff>,
}

/// An item for a customer: the conversation the delivery names (its key is settled by the
/// store before the item is written), the customer as named, and the item.
pub(super) struct Named<T> {
    pub key: ConversationKey,
    pub sighting: Sighting,
    pub item: T,
}

/// An inbound message: where it goes, what is stored, and the message as read (its follow-ups
/// read the model, not the stored JSON).
pub(super) struct Arrival {
    pub key: ConversationKey,
    pub sighting: Sighting,
    pub stored: Arc<InboundMessage>,
    pub message: Message,
}

impl Batch {
    /// Remembers what `business_id`'s new messages set off.
    pub fn sets_off(&mut self, business_id: &str, sets_off: SetsOff) {
        self.sets_off.insert(business_id.to_string(), sets_off);
    }

    /// Adds the messages, edits, deletions and receipts of a `messages` change for
    /// `business_id`. A message that names no customer (its sender is neither a phone number nor
    /// a BSUID), or that was written in a WhatsApp group, is logged and skipped; the rest of the
    /// batch is kept. The change's own errors are logged.
    pub fn add_messages(&mut self, business_id: &str, value: MessagesValue) {
        // Errors about the change as a whole (Meta's, with no secret in them) are the
        // operator's to see; the change's messages and receipts are still taken.
        for error in &value.errors {
            tracing::warn!(business_id, %error, "webhook change reported an error of its own");
        }
        // The only profile of a change whose messages all come from one sender is theirs even
        // when its `wa_id` is written otherwise than `from` (Meta: a user's phone number and
        // WhatsApp id may differ, as Brazil's with and without the ninth digit).
        let senders: HashSet<_> = (value.messages.iter())
            .map(|m| (&m.from, &m.from_user_id))
            .collect();
        let only_profile = match (&value.contacts[..], senders.len()) {
            ([only], 1) => Some(only),
            _ => None,
        };
        for message in value.messages {
            if in_a_group(&message) {
                continue;
            }
            let Some((sighting, contact)) = message.sender(&value.contacts) else {
                tracing::warn!(id = ?message.id, kind = %message.type_name, "webhook message whose sender is neither a phone number nor a BSUID skipped");
                continue;
            };
            // Its name and username are kept, not its ids.
            let contact = contact.or(only_profile);
            let key = conversation(business_id, sighting.key());
            // The same for a message and a change: either updates the contact the same way.
            let profile = CustomerProfile {
                name: contact.and_then(|c| visible::provider_name(c.profile.name.as_deref()?)),
                user_id: (sighting.new_user_id.as_ref())
                    .or(sighting.user_id.as_ref())
                    .map(|id| id.to_string()),
                username: contact.and_then(|c| c.profile.username.clone()),
            };
            let by = (Side::Customer, &profile);
            let Some((key, sighting)) = self.unless_change(key, sighting, &message, by) else {
                continue;
            };
            if matches!(message.kind, Kind::Unknown(_)) {
                tracing::info!(id = ?message.id, kind = %message.type_name, "webhook message Parley cannot read kept raw");
            }
            let (kind, content) = message.stored();
            let stored = InboundMessage {
                provider_id: (message.id.clone()).unwrap_or_else(|| generated_id(&key, &message)),
                timestamp_ms: milliseconds(message.timestamp),
                kind,
                content,
                profile,
            };
            self.messages.push(Arrival {
                key,
                sighting,
                stored: Arc::new(stored),
                message,
            });
        }
        for status in value.statuses {
            // A receipt of a message to a group is the group's; Parley sends to none.
            if status.recipient_type.as_deref() == Some("group") {
                tracing::debug!(id = ?status.id, "receipt of a group message not acted on");
                continue;
            }
            let recipient = (status.recipient_id.as_deref())
                .and_then(CustomerKey::from_phone)
                .or_else(|| CustomerKey::from_user_id(status.recipient_user_id.as_deref()?));
            let (Some(id), Some(state)) = (status.id, status.status) else {
                tracing::warn!("webhook status without id or status skipped");
                continue;
            };
            // The customer as the receipt names them: its BSUID, and the username of the
            // `contacts` entry that names the same customer (delivered and read receipts).
            let user_id = (status.recipient_user_id.as_deref())
                .and_then(CustomerKey::from_user_id)
                .map(CustomerKey::into_string);
            let named = |c: &&Contact| {
                let phone = c.wa_id.as_deref().and_then(CustomerKey::from_phone);
                (phone.is_some() && phone == recipient)
                    || (user_id.is_some() && c.user_id == user_id)
            };
            let username =
                (value.contacts.iter().find(named)).and_then(|c| c.profile.username.clone());
            let update = StatusUpdate {
                message_id: id,
                status: state,
                timestamp_ms: milliseconds(status.timestamp),
                error: status.errors.into_iter().next(),
                customer: CustomerProfile {
                    name: None,
                    user_id,
                    username,
                },
            };
            // One that names no customer (neither a phone nor a BSUID) is still about one
            // message of the business: its conversation is found by the message's id.
            let key = conversation(
                business_id,
                recipient.as_ref().map_or("", CustomerKey::as_str),
            );
            self.statuses.push((key, update));
        }
    }

    /// Adds the echoes of a `smb_message_echoes` change for `business_id`: the business's
    /// reactions, edits and deletions change the message they name, as the customer's do; any
    /// other echo is a message. An echo without an id or a customer is skipped with a warning
    /// rather than costing the rest of the delivery.
    pub fn add_echoes(&mut self, business_id: &str, value: EchoesValue) {
        for echo in value.message_echoes {
            if in_a_group(&echo.message) {
                continue;
            }
            let sighting = Sighting {
                phone: echo.to.as_deref().and_then(CustomerKey::from_phone),
                user_id: echo
                    .to_user_id
                    .as_deref()
                    .and_then(CustomerKey::from_user_id),
                ..Sighting::default()
            };
            let (Some(id), false) = (&echo.message.id, sighting.key().is_empty()) else {
                tracing::warn!(id = ?echo.message.id, "echo without a customer or an id skipped");
                continue;
            };
            let key = conversation(business_id, sighting.key());
            // No profile of the customer comes with an echo: only the BSUID it was sent to.
            let profile = CustomerProfile {
                user_id: sighting.user_id.as_ref().map(|id| id.to_string()),
                ..CustomerProfile::default()
            };
            let by = (Side::Business, &profile);
            let Some((key, sighting)) = self.unless_change(key, sighting, &echo.message, by) else {
                continue;
            };
            let (kind, content) = echo.message.stored();
            let stored = Arc::new(InboundMessage {
                provider_id: id.clone(),
                timestamp_ms: milliseconds(echo.message.timestamp),
                kind,
                content,
                profile,
            });
            self.echoes.push(Named {
                key,
                sighting,
                item: stored,
            });
        }
    }

    /// Queues `message` as a side's change of an earlier message when it is one (an edit, a
    /// deletion, a reaction), with what its delivery says of the customer; otherwise hands its
    /// conversation and customer back.
    fn unless_change(
        &mut self,
        key: ConversationKey,
        sighting: Sighting,
        message: &Message,
        by: (Side, &CustomerProfile),
    ) -> Option<(ConversationKey, Sighting)> {
        let Some(change) = amendment(&key, message, by) else {
            return Some((key, sighting));
        };
        self.changes.push(Named {
            key,
            sighting,
            item: Arc::new(change),
        });
        None
    }

    /// Adds the BSUID changes of a `user_id_update` change for `business_id`.
    pub fn add_user_id_changes(&mut self, business_id: &str, value: UserIdUpdateValue) {
        for change in value.user_id_update {
            let Some(sighting) = change.sighting() else {
                tracing::warn!("user_id_update without a customer or a new user id skipped");
                continue;
            };
            self.identities.push((business_id.to_string(), sighting));
        }
    }

    /// Adds the contacts added or edited in the WhatsApp Business app's address book of a
    /// `smb_app_state_sync` change for `business_id`. A removal from the address book leaves the
    /// customer and their history as they are.
    pub fn add_state_sync(&mut self, business_id: &str, value: StateSyncValue) {
        let named = self
            .app_contacts
            .entry(business_id.to_string())
            .or_default();
        for item in &value.state_sync {
            match item.named_contact() {
                Some((phone, name)) => named.push((phone.into_string(), name)),
                None => {
                    tracing::debug!(kind = ?item.kind, action = ?item.action, "app state sync item not acted on");
                }
            }
        }
    }

    /// Adds a template review decision for `business_id`.
    pub fn add_template_decision(&mut self, business_id: &str, update: TemplateStatusUpdate) {
        self.templates.push((business_id.to_string(), update));
    }

    /// Gives a message, edit or echo that names only a BSUID the phone a message of the delivery
    /// names with it, so that one customer's items in one delivery are kept together.
    pub(super) fn share_phones(&mut self) {
        let phones: HashMap<(String, CustomerKey), CustomerKey> = (self.messages.iter())
            .filter_map(|a| {
                let user_id = a.sighting.user_id.clone()?;
                Some((
                    (a.key.business_id.clone(), user_id),
                    a.sighting.phone.clone()?,
                ))
            })
            .collect();
        let share = |key: &ConversationKey, sighting: &mut Sighting| {
            if let (None, Some(user_id)) = (&sighting.phone, &sighting.user_id) {
                let known = (key.business_id.clone(), user_id.clone());
                sighting.phone = phones.get(&known).cloned();
            }
        };
        for arrival in &mut self.messages {
            share(&arrival.key, &mut arrival.sighting);
        }
        for item in &mut self.changes {
            share(&item.key, &mut item.sighting);
        }
        for echo in &mut self.echoes {
            share(&echo.key, &mut echo.sighting);
        }
    }
}

/// Whether `message` was written in a WhatsApp group (`group_id`): the group's, not a word
/// between the business and one customer, so it is kept out of the sender's chat (logged).
fn in_a_group(message: &Message) -> bool {
    let Some(group) = &message.group_id else {
        return false;
    };
    tracing::info!(id = ?message.id, group = %group, "webhook message of a WhatsApp group not kept");
    true
}

fn conversation(business_id: &str, key: &str) -> ConversationKey {
    ConversationKey {
        business_id: business_id.to_string(),
        phone: key.to_string(),
    }
}

/// `by`'s edit, deletion or reaction of the message it names (with what its delivery says of the
/// customer), or `None` for a message of its own.
fn amendment(
    key: &ConversationKey,
    message: &Message,
    (by, profile): (Side, &CustomerProfile),
) -> Option<Amendment> {
    let original_id = message.amends()?.to_string();
    let (kind, content) = message.stored();
    let now = match &message.kind {
        Kind::Revoke { .. } => Amended::Revoked { content },
        Kind::Reaction { reaction } => Amended::Reacted {
            emoji: reaction.emoji.clone().unwrap_or_default(),
        },
        _ => Amended::Edited { kind, content },
    };
    Some(Amendment {
        id: (message.id.clone()).unwrap_or_else(|| generated_id(key, message)),
        original_id,
        by,
        timestamp_ms: milliseconds(message.timestamp),
        now,
        profile: profile.clone(),
    })
}

/// A stable id for a message that came without one, so that its redelivery is still known:
/// a hash of its sender, time, kind and content.
fn generated_id(key: &ConversationKey, message: &Message) -> String {
    let (kind, content) = message.stored();
    let mut hash = Sha256::new();
    for part in [
        key.phone.as_str(),
        &format!("{:?}", message.timestamp),
        &kind,
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.update(content.to_string().as_bytes());
    format!("parley.{}", hex::encode(&hash.finalize()[..16]))
}

/// How far ahead of this server's clock a provider's time may be and still be taken.
const CLOCK_SKEW_MS: i64 = 24 * 60 * 60 * 1000;

/// Unix seconds as stored (ms). A message without a readable time, or with one no message can
/// have (before 1970, or more than a day ahead of this server's clock: milliseconds sent as
/// seconds, say), counts as sent now.
fn milliseconds(seconds: Option<i64>) -> i64 {
    let now = crate::store::now_ms();
    seconds
        .and_then(|secs| secs.checked_mul(1000))
        .filter(|ms| (0..=now + CLOCK_SKEW_MS).contains(ms))
        .unwrap_or(now)
}
