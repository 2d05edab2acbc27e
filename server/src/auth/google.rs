//! Google ID tokens, verified against the issuer's JWKS (endpoints are configurable so tests use
//! a local issuer).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use super::error::{AuthError, AuthResult};
use crate::config::GoogleSettings;

/// How long fetched signing keys are trusted before a refetch.
const JWKS_TTL: Duration = Duration::from_secs(3600);
/// An unknown `kid` refetches the keys at most this often, so tokens with made-up key ids
/// cannot turn this server into a flood of requests to the issuer.
const JWKS_MIN_REFETCH: Duration = Duration::from_secs(60);

/// Fetches and caches the issuer's signing keys.
pub struct GoogleVerifier {
    settings: GoogleSettings,
    http: reqwest::Client,
    /// Last fetched key set and when.
    keys: Mutex<Option<(Instant, JwkSet)>>,
}

/// The claims Parley reads from a Google ID token.
#[derive(Deserialize)]
pub struct IdClaims {
    pub sub: String,
    pub email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    pub email_verified: bool,
    pub given_name: Option<String>,
    pub family_name: Option<String>,
}

/// Google has sent `email_verified` both as `true` and as `"true"`.
fn bool_or_string<'de, D: serde::Deserializer<'de>>(de: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Bool(bool),
        Text(String),
    }
    Ok(match Flag::deserialize(de)? {
        Flag::Bool(flag) => flag,
        Flag::Text(text) => text.eq_ignore_ascii_case("true"),
    })
}

impl GoogleVerifier {
    pub fn new(settings: GoogleSettings, http: reqwest::Client) -> GoogleVerifier {
        GoogleVerifier {
            settings,
            http,
            keys: Mutex::new(None),
        }
    }

    pub fn enabled(&self) -> AuthResult<()> {
        if self.settings.client_id.is_empty() {
            return Err(AuthError::NotConfigured(
                "Google sign-in is not configured on this server".into(),
            ));
        }
        Ok(())
    }

    /// The issuer's keys: cached for `JWKS_TTL`; `force` refetches unless the cache is younger
    /// than `JWKS_MIN_REFETCH`.
    async fn key_set(&self, force: bool) -> AuthResult<JwkSet> {
        {
            let cached = self.keys.lock().unwrap_or_else(|p| p.into_inner());
            let fresh_for = if force { JWKS_MIN_REFETCH } else { JWKS_TTL };
            if let Some((at, set)) = cached.as_ref()
                && at.elapsed() < fresh_for
            {
                return Ok(set.clone());
            }
        }
        let set: JwkSet = self
            .http
            .get(&self.settings.jwks_url)
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|e| AuthError::Unreachable(format!("Could not reach Google: {e}")))?
            .json()
            .await
            .map_err(|e| AuthError::Unreachable(format!("Bad key set from Google: {e}")))?;
        *self.keys.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), set.clone()));
        Ok(set)
    }

    /// Checks signature, audience, issuer and expiry of an ID token.
    pub async fn verify(&self, id_token: &str) -> AuthResult<IdClaims> {
        let invalid = || AuthError::Refused("Invalid Google token".into());
        let header = jsonwebtoken::decode_header(id_token).map_err(|_| invalid())?;
        let kid = header.kid.ok_or_else(invalid)?;
        let mut set = self.key_set(false).await?;
        if set.find(&kid).is_none() {
            // Keys rotate: one refetch before giving up.
            set = self.key_set(true).await?;
        }
        let jwk = set.find(&kid).ok_or_else(invalid)?;
        let key = DecodingKey::from_jwk(jwk).map_err(|_| invalid())?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_audience(&[&self.settings.client_id]);
        validation.set_issuer(&self.settings.issuers);
        // jsonwebtoken only checks `aud` and `iss` when the token carries them: a token without
        // them must fail, not pass.
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let claims = jsonwebtoken::decode::<IdClaims>(id_token, &key, &validation)
            .map_err(|_| invalid())?
            .claims;
        if !claims.email_verified || claims.email.is_none() {
            return Err(AuthError::Refused(
                "Google account email is not verified".into(),
            ));
        }
        Ok(claims)
    }
}
