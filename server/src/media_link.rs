//! Signed share links to a stored media file: `/api/media/{id}?exp=<unix secs>&sig=<hex>`, which
//! open without a login until `exp`. The signature is HMAC-SHA256 over the business, the media id
//! and the expiry, under a key derived from the server's token secret, so every node that accepts
//! the same access tokens accepts the same links, and a link names no business in clear.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

type HmacSha256 = Hmac<Sha256>;

/// What the key derivation is for, so this key signs nothing else.
const KEY_PURPOSE: &[u8] = b"parley media share links v1";

/// Issues and checks share links.
#[derive(Clone)]
pub struct MediaLinks {
    /// The signing key; never logged.
    key: [u8; 32],
    /// How long an issued link opens the file.
    ttl_secs: u64,
}

impl std::fmt::Debug for MediaLinks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaLinks")
            .field("ttl_secs", &self.ttl_secs)
            .finish_non_exhaustive()
    }
}

/// A link's query: when it stops working and its signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedQuery {
    /// Unix seconds; the link works while `now < exp`.
    pub exp: i64,
    /// Lower-case hex of the HMAC.
    pub sig: String,
}

impl MediaLinks {
    /// Derives the link key from the server secret (the JWT key).
    pub fn new(server_secret: &[u8], ttl_secs: u64) -> MediaLinks {
        let mut mac = mac_with(server_secret);
        mac.update(KEY_PURPOSE);
        MediaLinks {
            key: mac.finalize().into_bytes().into(),
            ttl_secs,
        }
    }

    /// A link for `media_id` of `business_id` that works from `now` (Unix seconds) for the
    /// configured lifetime.
    pub fn issue(&self, business_id: &str, media_id: &str, now: i64) -> SignedQuery {
        let exp = now.saturating_add(i64::try_from(self.ttl_secs).unwrap_or(i64::MAX));
        SignedQuery {
            exp,
            sig: hex::encode(self.mac(business_id, media_id, exp)),
        }
    }

    /// True when `query` was issued for this business's `media_id` and has not expired at `now`.
    /// The signature is compared as issued (lower-case hex), so a link changed in any way fails.
    pub fn verify(&self, business_id: &str, media_id: &str, query: &SignedQuery, now: i64) -> bool {
        let expected = hex::encode(self.mac(business_id, media_id, query.exp));
        now < query.exp && bool::from(expected.as_bytes().ct_eq(query.sig.as_bytes()))
    }

    fn mac(&self, business_id: &str, media_id: &str, exp: i64) -> Vec<u8> {
        let mut mac = mac_with(&self.key);
        // Length-prefixed, so no two (business, id) pairs sign the same bytes.
        for part in [business_id.as_bytes(), media_id.as_bytes()] {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        mac.update(&exp.to_be_bytes());
        mac.finalize().into_bytes().to_vec()
    }
}

fn mac_with(key: &[u8]) -> HmacSha256 {
    // unwrap: HMAC takes a key of any length.
    HmacSha256::new_from_slice(key).expect("HMAC takes any key length")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_opens_only_its_own_file_until_it_expires() {
        let links = MediaLinks::new(b"secret", 60);
        let query = links.issue("b1", "m1", 1_000);
        assert_eq!(query.exp, 1_060);
        assert!(links.verify("b1", "m1", &query, 1_059));
        assert!(!links.verify("b1", "m1", &query, 1_060));
        assert!(!links.verify("b2", "m1", &query, 1_000));
        assert!(!links.verify("b1", "m2", &query, 1_000));
        let later = SignedQuery {
            exp: query.exp + 1,
            ..query.clone()
        };
        assert!(!links.verify("b1", "m1", &later, 1_000));
        let other_key = MediaLinks::new(b"other", 60);
        assert!(!other_key.verify("b1", "m1", &query, 1_000));
    }
}
