//! Fresh sandbox numbers: the credentials a new business starts with when the sandbox is the
//! provider, so its inbox works at once.

use rand::Rng;

use crate::store::ProviderCredentials;

fn digits(len: usize) -> String {
    let mut rng = rand::thread_rng();
    (0..len)
        .map(|i| {
            let low = if i == 0 { 1 } else { 0 };
            char::from(b'0' + rng.gen_range(low..10u8))
        })
        .collect()
}

fn secret() -> String {
    let mut raw = [0u8; 24];
    rand::thread_rng().fill(&mut raw);
    hex::encode(raw)
}

/// The credentials of a new sandbox number (its ids, tokens and app secret).
pub fn new_number() -> ProviderCredentials {
    ProviderCredentials {
        phone_number_id: Some(digits(15)),
        phone_number: Some(format!("1555{}", digits(7))),
        access_token: Some(format!("sandbox-{}", secret())),
        verify_token: Some(secret()),
        waba_id: Some(digits(15)),
        app_id: Some(digits(15)),
        app_secret: Some(secret()),
    }
}
