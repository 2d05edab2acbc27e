//! Who a customer is to Parley: the one place that decides what a customer key is. The key names
//! the customer in conversation ids (`{phoneNumberId}_{key}`), channels and the store (the
//! `phone` columns): the digits of their phone number with its country code, or, for a customer
//! whose phone Meta withholds, their business-scoped user id (BSUID, e.g.
//! `US.13491208655302741918`). When both are known the key is the phone and the BSUID is kept
//! with the contact. A `Sighting` is what one inbound item says of who its customer is; the
//! store decides which key that customer is kept under.

use std::fmt;

use serde_json::{Value, json};

use crate::phone::{InvalidPhone, Region, e164_digits};

/// A customer's key: phone digits (country code first) or a BSUID.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CustomerKey(String);

/// Text that names no customer.
#[derive(Debug, thiserror::Error)]
#[error(
    "'{0}' is not a customer: use a phone number's digits with the country code, or a \
     business-scoped user id such as US.13491208655302741918"
)]
pub struct InvalidCustomerKey(String);

/// Longest part after the country of a BSUID, as Meta documents it.
pub const MAX_BSUID_ID: usize = 128;

impl CustomerKey {
    /// A key as Parley writes it (a path, a stored number): digits with a country code (a
    /// leading `+` is dropped), or a BSUID.
    pub fn parse(raw: &str) -> Result<CustomerKey, InvalidCustomerKey> {
        let text = raw.trim();
        if is_bsuid(text) {
            return Ok(CustomerKey(text.to_string()));
        }
        let phone = text.trim_start_matches('+');
        if phone.len() < 6 || phone.len() > 15 || !phone.chars().all(|c| c.is_ascii_digit()) {
            return Err(InvalidCustomerKey(raw.to_string()));
        }
        Ok(CustomerKey(phone.to_string()))
    }

    /// A key from what a person typed: a BSUID as written, or a phone number in any usual
    /// writing, with `region` for numbers without a country code (see `phone`).
    pub fn typed(raw: &str, region: Option<Region>) -> Result<CustomerKey, InvalidPhone> {
        let text = raw.trim();
        if is_bsuid(text) {
            return Ok(CustomerKey(text.to_string()));
        }
        e164_digits(text, region).map(CustomerKey)
    }

    /// A phone key from what the provider sent (`from`, `wa_id`, a status's `recipient_id`):
    /// its digits, whatever phone punctuation (`+`, spaces, `-`, `.`, parentheses) came with
    /// them; `None` for anything else: no digits, more than 15 (E.164's most), another
    /// character, or a BSUID.
    pub fn from_phone(raw: &str) -> Option<CustomerKey> {
        let phone_like = raw
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | ' ' | '-' | '.' | '(' | ')'));
        let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
        (phone_like && (1..=15).contains(&digits.len())).then_some(CustomerKey(digits))
    }

    /// A BSUID key from what the provider sent (`from_user_id`, `user_id`,
    /// `recipient_user_id`); `None` when it is not shaped like one.
    pub fn from_user_id(raw: &str) -> Option<CustomerKey> {
        is_bsuid(raw.trim()).then(|| CustomerKey(raw.trim().to_string()))
    }

    /// True when the key is a BSUID rather than a phone number.
    pub fn is_user_id(&self) -> bool {
        is_bsuid(&self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// Who an inbound message (or identity change) names as its customer.
#[derive(Clone, Debug, Default)]
pub struct Sighting {
    /// The sender's phone, when Meta shares it.
    pub phone: Option<CustomerKey>,
    /// The sender's BSUID (the previous one on a `user_changed_user_id` notice).
    pub user_id: Option<CustomerKey>,
    /// The number a `user_changed_number` notice moves the customer to.
    pub new_phone: Option<CustomerKey>,
    /// The BSUID a `user_changed_user_id` notice gives the customer.
    pub new_user_id: Option<CustomerKey>,
}

impl Sighting {
    /// The key the delivery itself names: the phone if given, else the BSUID.
    pub fn key(&self) -> &str {
        self.phone
            .as_ref()
            .or(self.user_id.as_ref())
            .map_or("", CustomerKey::as_str)
    }
}

/// Addresses a Cloud API send body to the customer `key`: `to` for a phone, `recipient` for a
/// BSUID (Meta takes `to` when both are given, and a customer whose phone is known is keyed by
/// it, so one field is always enough).
pub fn address(payload: &mut Value, key: &str) {
    let field = if is_bsuid(key) { "recipient" } else { "to" };
    payload[field] = json!(key);
}

/// Two capital letters (the country), a dot, then letters and digits, possibly in dotted parts
/// (a parent BSUID is `US.ENT.…`), at most 128 after the country.
pub fn is_bsuid(text: &str) -> bool {
    let Some((country, id)) = text.split_once('.') else {
        return false;
    };
    country.len() == 2
        && country.chars().all(|c| c.is_ascii_uppercase())
        && !id.is_empty()
        && id.len() <= MAX_BSUID_ID
        && id
            .split('.')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric()))
}

impl fmt::Display for CustomerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_phone_keeps_its_digits_and_loses_the_plus() {
        assert_eq!(
            CustomerKey::parse(" +15551234567 ")
                .expect("a phone")
                .as_str(),
            "15551234567"
        );
        assert!(CustomerKey::parse("12345").is_err());
        assert!(CustomerKey::parse("1234567890123456").is_err());
        assert!(CustomerKey::parse("1555-123-4567").is_err());
    }

    #[test]
    fn a_bsuid_and_a_parent_bsuid_are_keys_as_written() {
        for bsuid in ["US.13491208655302741918", "US.ENT.11815799212886844830"] {
            let key = CustomerKey::parse(bsuid).expect("a BSUID");
            assert_eq!(key.as_str(), bsuid);
            assert!(key.is_user_id());
        }
        let long = format!("BR.{}", "a".repeat(MAX_BSUID_ID));
        assert!(CustomerKey::parse(&long).is_ok());
        for bad in [
            "us.1349",
            "USA.1349",
            "US.",
            "US..1",
            "US.13-49",
            &format!("BR.{}", "a".repeat(MAX_BSUID_ID + 1)),
        ] {
            assert!(CustomerKey::parse(bad).is_err(), "{bad} is not a key");
        }
        assert!(
            !CustomerKey::parse("15551234567")
                .expect("a phone")
                .is_user_id()
        );
    }

    #[test]
    fn a_provider_number_is_read_as_its_digits() {
        assert_eq!(
            CustomerKey::from_phone("+1 (555) 123-4567")
                .expect("digits")
                .as_str(),
            "15551234567"
        );
        for not_a_phone in [
            "",
            "US.13491208655302741918",
            "alice42",
            "1234567890123456",
            "+",
        ] {
            assert!(
                CustomerKey::from_phone(not_a_phone).is_none(),
                "{not_a_phone}"
            );
        }
        assert!(CustomerKey::from_user_id("16505551234").is_none());
    }

    #[test]
    fn a_send_goes_to_a_phone_or_a_bsuid_recipient() {
        let mut to_phone = json!({"type": "text"});
        address(&mut to_phone, "16505551234");
        assert_eq!(to_phone, json!({"type": "text", "to": "16505551234"}));
        let mut to_bsuid = json!({"type": "text"});
        address(&mut to_bsuid, "US.13491208655302741918");
        assert_eq!(
            to_bsuid,
            json!({"type": "text", "recipient": "US.13491208655302741918"})
        );
    }
}
