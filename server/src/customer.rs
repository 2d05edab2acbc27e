//! Who a customer is to Parley: the one place that decides what a customer key is. The key names
//! the customer in conversation ids (`{phoneNumberId}_{key}`), channels and the store: today the
//! digits of their phone number with its country code.

use std::fmt;

/// A customer's key: their phone number's digits, country code first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CustomerKey(String);

/// Text that names no customer.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not a phone number: use digits with the country code")]
pub struct InvalidCustomerKey(String);

impl CustomerKey {
    /// A key from what a person typed or a path holds: digits with a country code (a leading
    /// `+` is dropped).
    pub fn parse(raw: &str) -> Result<CustomerKey, InvalidCustomerKey> {
        let phone = raw.trim().trim_start_matches('+');
        if phone.len() < 6 || phone.len() > 15 || !phone.chars().all(|c| c.is_ascii_digit()) {
            return Err(InvalidCustomerKey(raw.to_string()));
        }
        Ok(CustomerKey(phone.to_string()))
    }

    /// A key from what the provider sent (`from`, `wa_id`, a status's `recipient_id`): its
    /// digits, whatever punctuation came with them.
    pub fn from_provider(raw: &str) -> CustomerKey {
        CustomerKey(raw.chars().filter(char::is_ascii_digit).collect())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
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
    fn a_provider_number_is_read_as_its_digits() {
        assert_eq!(
            CustomerKey::from_provider("+1 (555) 123-4567").as_str(),
            "15551234567"
        );
    }
}
