//! Who a customer is on the wire: a phone number, a business-scoped user id (BSUID), or both,
//! and how the Cloud API names them in webhooks, send answers and receipts. A username customer
//! has no phone in webhooks: only `user_id` and `from_user_id`.

use serde_json::{Value, json};

use super::Sandbox;
pub(super) use crate::customer::is_bsuid;

/// A simulated customer as the webhooks name them.
#[derive(Clone, Debug, Default)]
pub(super) struct Customer {
    /// Phone digits; `None` for a username customer whose phone Meta withholds.
    pub(super) phone: Option<String>,
    /// Their business-scoped user id, when the sandbox plays one.
    pub(super) user_id: Option<String>,
    /// `@name` as Meta sends it, for a customer who took a username.
    pub(super) username: Option<String>,
    /// Profile name.
    pub(super) name: String,
}

impl Customer {
    /// The `contacts[]` entry of a webhook from this customer.
    pub(super) fn contact(&self) -> Value {
        let mut profile = json!({"name": self.name});
        if let Some(username) = &self.username {
            profile["username"] = json!(username);
        }
        let mut contact = json!({"profile": profile});
        if let Some(phone) = &self.phone {
            contact["wa_id"] = json!(phone);
        }
        if let Some(user_id) = &self.user_id {
            contact["user_id"] = json!(user_id);
        }
        contact
    }

    /// Marks `message` as sent by this customer (`from`, `from_user_id`).
    pub(super) fn stamp_sender(&self, message: &mut Value) {
        if let Some(phone) = &self.phone {
            message["from"] = json!(phone);
        }
        if let Some(user_id) = &self.user_id {
            message["from_user_id"] = json!(user_id);
        }
    }
}

/// Whom a send is addressed to: `to` (a phone) wins over `recipient` (a BSUID).
#[derive(Clone, Debug)]
pub(super) enum Addressee {
    Phone(String),
    User(String),
}

impl Addressee {
    /// From a send's body; `None` when neither names a customer the Cloud API would accept.
    pub(super) fn of(body: &Value) -> Option<Addressee> {
        if let Some(to) = body.get("to").and_then(Value::as_str) {
            let digits: String = to.chars().filter(char::is_ascii_digit).collect();
            return (digits.len() >= 6).then_some(Addressee::Phone(digits));
        }
        let recipient = body.get("recipient").and_then(Value::as_str)?;
        is_bsuid(recipient).then(|| Addressee::User(recipient.to_string()))
    }

    /// The key of the customer's conversation: their phone, else their BSUID.
    pub(super) fn key(&self) -> &str {
        match self {
            Addressee::Phone(key) | Addressee::User(key) => key,
        }
    }

    /// The `contacts[]` entry of the answer to `body`: what was used as `input`, then `wa_id`
    /// for a phone or `user_id` for a BSUID.
    pub(super) fn answer_contact(&self, body: &Value) -> Value {
        match self {
            Addressee::Phone(phone) => json!({"input": body["to"], "wa_id": phone}),
            Addressee::User(user_id) => json!({"input": body["recipient"], "user_id": user_id}),
        }
    }
}

impl Sandbox {
    /// Remembers a customer who has a BSUID, so sends, receipts and answers can name them.
    pub(super) fn meet(&self, phone_number_id: &str, customer: &Customer) {
        let Some(user_id) = &customer.user_id else {
            return;
        };
        let mut people = self.people.lock().unwrap_or_else(|p| p.into_inner());
        let known = people.entry(phone_number_id.to_string()).or_default();
        known.retain(|c| {
            c.user_id.as_ref() != Some(user_id)
                && (customer.phone.is_none() || c.phone != customer.phone)
        });
        known.push(customer.clone());
    }

    /// The customer a send went to, as far as the sandbox knows them.
    pub(super) fn customer(&self, phone_number_id: &str, to: &Addressee) -> Customer {
        let people = self.people.lock().unwrap_or_else(|p| p.into_inner());
        let known = people.get(phone_number_id).and_then(|list| {
            list.iter()
                .find(|c| match to {
                    Addressee::Phone(phone) => c.phone.as_ref() == Some(phone),
                    Addressee::User(user_id) => c.user_id.as_ref() == Some(user_id),
                })
                .cloned()
        });
        known.unwrap_or_else(|| match to {
            Addressee::Phone(phone) => Customer {
                phone: Some(phone.clone()),
                ..Customer::default()
            },
            Addressee::User(user_id) => Customer {
                user_id: Some(user_id.clone()),
                ..Customer::default()
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bsuids_and_parent_bsuids_are_told_from_other_text() {
        assert!(is_bsuid("US.13491208655302741918"));
        assert!(is_bsuid("US.ENT.11815799212886844830"));
        assert!(is_bsuid(&format!("BR.{}", "a".repeat(128))));
        assert!(!is_bsuid(&format!("BR.{}", "a".repeat(129))));
        assert!(!is_bsuid("us.1349"));
        assert!(!is_bsuid("USA.1349"));
        assert!(!is_bsuid("US."));
        assert!(!is_bsuid("US.13-49"));
        assert!(!is_bsuid("15551234567"));
    }

    #[test]
    fn to_wins_over_recipient() {
        let both = json!({"to": "+1 555 123 4567", "recipient": "US.1"});
        assert!(matches!(Addressee::of(&both), Some(Addressee::Phone(p)) if p == "15551234567"));
        let user = json!({"recipient": "US.1"});
        assert!(matches!(Addressee::of(&user), Some(Addressee::User(u)) if u == "US.1"));
        assert!(Addressee::of(&json!({"recipient": "15551234567"})).is_none());
        assert!(Addressee::of(&json!({})).is_none());
    }
}
