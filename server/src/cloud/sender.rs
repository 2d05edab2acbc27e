//! Who an inbound item names as its customer: a message's sender (phone, BSUID, their profile,
//! and the new phone or BSUID a system notice announces), and the customer of a
//! `user_id_update`. Where that customer is kept is the store's to say.

use super::envelope::{Contact, UserIdChange};
use super::message::{Kind, Message, System};
use crate::customer::{CustomerKey, Sighting};

impl Message {
    /// Who sent the message, as its delivery names them, with their profile among `contacts`
    /// (which fills in a phone or BSUID the message leaves out); `None` when it names no one.
    pub fn sender<'a>(&self, contacts: &'a [Contact]) -> Option<(Sighting, Option<&'a Contact>)> {
        let mut sighting = Sighting {
            phone: self.from.as_deref().and_then(CustomerKey::from_phone),
            // A `from` that holds a BSUID names the customer by it.
            user_id: (self.from_user_id.as_deref())
                .or(self.from.as_deref())
                .and_then(CustomerKey::from_user_id),
            ..Sighting::default()
        };
        if sighting.phone.is_none() && sighting.user_id.is_none() {
            return None;
        }
        let profile = contacts.iter().find(|c| {
            let phone = c.wa_id.as_deref().and_then(CustomerKey::from_phone);
            let user_id = c.user_id.as_deref().and_then(CustomerKey::from_user_id);
            (phone.is_some() && phone == sighting.phone)
                || (user_id.is_some() && user_id == sighting.user_id)
        });
        if let Some(profile) = profile {
            let phone = profile.wa_id.as_deref().and_then(CustomerKey::from_phone);
            let user_id = (profile.user_id.as_deref()).and_then(CustomerKey::from_user_id);
            sighting.phone = sighting.phone.or(phone);
            sighting.user_id = sighting.user_id.or(user_id);
        }
        if let Kind::System { system } = &self.kind {
            match system.change.as_deref() {
                // `customer_changed_number` is the older name, with the number in `new_wa_id`.
                // A new number also gives the customer a new BSUID, which Meta reports with it
                // (`user_id`, `previous_user_id`): their next message may name only that one.
                Some("user_changed_number" | "customer_changed_number") => {
                    let new = system.wa_id.as_deref().or(system.new_wa_id.as_deref());
                    sighting.new_phone = new.and_then(CustomerKey::from_phone);
                    system.new_user_id(&mut sighting);
                }
                Some("user_changed_user_id") => system.new_user_id(&mut sighting),
                _ => {}
            }
        }
        Some((sighting, profile))
    }
}

impl System {
    /// Puts the new BSUID the notice gives the customer, and the one it replaces, in `sighting`.
    fn new_user_id(&self, sighting: &mut Sighting) {
        let new = self.user_id.as_deref();
        sighting.new_user_id = new.and_then(CustomerKey::from_user_id);
        let previous = self.previous_user_id.as_deref();
        if let Some(previous) = previous.and_then(CustomerKey::from_user_id) {
            sighting.user_id = Some(previous);
        }
    }
}

impl UserIdChange {
    /// The customer whose BSUID changed, and the new one; `None` when either is missing.
    pub fn sighting(&self) -> Option<Sighting> {
        let sighting = Sighting {
            phone: self.wa_id.as_deref().and_then(CustomerKey::from_phone),
            user_id: (self.previous_user_id.as_deref()).and_then(CustomerKey::from_user_id),
            new_user_id: self.user_id.as_deref().and_then(CustomerKey::from_user_id),
            ..Sighting::default()
        };
        (!sighting.key().is_empty() && sighting.new_user_id.is_some()).then_some(sighting)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn contacts(value: serde_json::Value) -> Vec<Contact> {
        serde_json::from_value(value).expect("contacts")
    }

    #[test]
    fn a_username_sender_is_named_by_bsuid_and_a_shared_phone_fills_in() {
        let bsuid = "US.13491208655302741918";
        let profiles = contacts(
            json!([{"profile": {"name": "Sheena", "username": "@sheena"},
                                        "user_id": bsuid, "wa_id": "16505551234"}]),
        );
        let message: Message = serde_json::from_value(json!({"from_user_id": bsuid,
            "id": "wamid.1", "timestamp": "1749416383", "type": "text", "text": {"body": "hi"}}))
        .expect("message");
        let (sighting, profile) = message.sender(&profiles).expect("a sender");
        assert_eq!(
            sighting.phone.as_ref().map(CustomerKey::as_str),
            Some("16505551234")
        );
        assert_eq!(
            sighting.user_id.as_ref().map(CustomerKey::as_str),
            Some(bsuid)
        );
        assert_eq!(
            profile.and_then(|p| p.profile.username.as_deref()),
            Some("@sheena")
        );

        let nobody: Message = serde_json::from_value(json!({"id": "wamid.2", "type": "text",
            "text": {"body": "hi"}}))
        .expect("message");
        assert!(nobody.sender(&profiles).is_none());
    }
}
