//! Customer keys: any text parses or is refused without a panic, and what parses names a
//! customer the same way when read again. (Phone numbers' country rules are the phone module's;
//! these only hold the key's shape.)

use parley_server::customer::{CustomerKey, is_bsuid};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_a_key_or_refused(raw in any::<String>()) {
        if let Ok(key) = CustomerKey::parse(&raw) {
            let digits = key.as_str().len();
            prop_assert!(
                key.is_user_id() || ((6..=15).contains(&digits)
                    && key.as_str().chars().all(|c| c.is_ascii_digit())),
                "{:?} from {:?}", key, raw
            );
            prop_assert_eq!(CustomerKey::parse(key.as_str()).ok(), Some(key));
        }
    }

    #[test]
    fn a_provider_phone_keeps_at_most_fifteen_digits(raw in "[0-9+() .-]{0,24}|\\PC{0,24}") {
        if let Some(key) = CustomerKey::from_phone(&raw) {
            prop_assert!((1..=15).contains(&key.as_str().len()));
            prop_assert!(key.as_str().chars().all(|c| c.is_ascii_digit()));
        }
    }

    #[test]
    fn a_provider_user_id_is_a_bsuid(raw in "[A-Z]{2}\\.[0-9A-Za-z]{0,140}|\\PC{0,24}") {
        if let Some(key) = CustomerKey::from_user_id(&raw) {
            prop_assert!(is_bsuid(key.as_str()) && key.is_user_id());
        }
    }
}
