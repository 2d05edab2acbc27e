//! The WhatsApp Business app's address book (`value.state_sync[]` of a `smb_app_state_sync`
//! change): on a number shared by the app and the API, each contact the business adds, edits or
//! removes in the app's address book, and every contact once when the sync starts.

use serde::Deserialize;

use super::lenient;
use crate::customer::CustomerKey;

/// One change of the app's state: `{type: "contact", contact, action: add|remove, metadata}`.
#[derive(Debug, Default, Deserialize)]
pub struct StateSyncItem {
    #[serde(default, rename = "type", deserialize_with = "lenient::string")]
    pub kind: Option<String>,
    /// `add` (added or edited) or `remove`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub action: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub contact: AppContact,
}

/// A contact as the app's address book has it (no names when it was removed).
#[derive(Debug, Default, Deserialize)]
pub struct AppContact {
    #[serde(default, deserialize_with = "lenient::string")]
    pub full_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub first_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub phone_number: Option<String>,
}

impl StateSyncItem {
    /// The customer and the name the business gave them, for a contact added or edited in the
    /// app: the full name, or the first name without one. `None` for anything else (a removal,
    /// another kind of state, no phone or no name).
    pub fn named_contact(&self) -> Option<(CustomerKey, String)> {
        if self.kind.as_deref() != Some("contact") || self.action.as_deref() != Some("add") {
            return None;
        }
        let phone = CustomerKey::from_phone(self.contact.phone_number.as_deref()?)?;
        let name = [&self.contact.full_name, &self.contact.first_name]
            .into_iter()
            .flatten()
            .map(|name| name.trim())
            .find(|name| !name.is_empty())?;
        Some((phone, name.to_string()))
    }
}
