//! Access tokens (HS256 JWTs) and refresh tokens (random, stored hashed, rotated).

use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, errors::ErrorKind};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::error::{AuthError, AuthResult};
use crate::store::{RefreshOutcome, Store, User, now_ms};

/// What an access token says about its bearer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Claims {
    /// User id.
    pub sub: String,
    /// Business id: every query the bearer makes is scoped to it.
    pub bid: String,
    pub role: String,
    /// The user's token version when issued (absent in tokens from before versions: 0).
    #[serde(default)]
    pub ver: i64,
    pub iat: u64,
    pub exp: u64,
}

/// The pair handed out at sign-in and on refresh.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenPair {
    pub access_token: String,
    pub refresh_token: String,
}

/// Signs and checks tokens.
#[derive(Clone)]
pub struct TokenIssuer {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    access_ttl_secs: u64,
    refresh_ttl_secs: u64,
    /// How long a spent refresh token may be presented again without ending its family.
    refresh_reuse_grace_ms: i64,
}

impl TokenIssuer {
    pub fn new(
        secret: &[u8],
        access_ttl_secs: u64,
        refresh_ttl_secs: u64,
        refresh_reuse_grace_secs: u64,
    ) -> TokenIssuer {
        let mut validation = Validation::new(Algorithm::HS256);
        // Expiry is exact: the client refreshes on the 403 and expects no grace period.
        validation.leeway = 0;
        TokenIssuer {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            access_ttl_secs,
            refresh_ttl_secs,
            refresh_reuse_grace_ms: i64::try_from(refresh_reuse_grace_secs)
                .unwrap_or(i64::MAX)
                .saturating_mul(1000),
        }
    }

    /// Signs an access token for this user valid for `ttl_secs` from `now_secs`.
    pub fn sign(&self, user: &User, now_secs: u64, ttl_secs: u64) -> AuthResult<String> {
        let claims = Claims {
            sub: user.id.clone(),
            bid: user.business_id.clone(),
            role: user.role.clone(),
            ver: user.token_version,
            iat: now_secs,
            exp: now_secs + ttl_secs,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AuthError::Internal(anyhow::Error::new(e).context("Failed to sign token")))
    }

    /// Checks an access token: expired → the spec's exact 403, anything else wrong → 401.
    pub fn verify(&self, token: &str) -> AuthResult<Claims> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => AuthError::Expired,
                _ => AuthError::Refused("Invalid token".into()),
            })
    }

    /// A new access token and a new refresh token in `family_id` (a new family when `None`).
    pub async fn issue(
        &self,
        store: &Store,
        user: &User,
        family_id: Option<String>,
    ) -> AuthResult<TokenPair> {
        let now = (now_ms() / 1000) as u64;
        let access_token = self.sign(user, now, self.access_ttl_secs)?;
        let mut raw = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut raw);
        let refresh_token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw);
        let family = family_id.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let expires_at = now_ms() + (self.refresh_ttl_secs as i64) * 1000;
        store
            .insert_refresh_token(
                &hash_refresh_token(&refresh_token),
                &family,
                &user.id,
                expires_at,
            )
            .await?;
        Ok(TokenPair {
            access_token,
            refresh_token,
        })
    }

    /// Rotates a refresh token into a new pair of its family. A spent one presented again
    /// inside the reuse grace gets another pair; after it, the reuse revokes the family.
    pub async fn refresh(
        &self,
        store: &Store,
        refresh_token: &str,
    ) -> AuthResult<(User, TokenPair)> {
        match store
            .spend_refresh_token(
                &hash_refresh_token(refresh_token),
                self.refresh_reuse_grace_ms,
            )
            .await?
        {
            RefreshOutcome::Rotated { user_id, family_id } => {
                let user = store.user_by_id(&user_id).await.map_err(|err| match err {
                    crate::store::Error::NotFound(text) => AuthError::Refused(text),
                    other => other.into(),
                })?;
                let pair = self.issue(store, &user, Some(family_id)).await?;
                Ok((user, pair))
            }
            RefreshOutcome::Reused => Err(AuthError::Refused(
                "Refresh token was already used; please sign in again".into(),
            )),
            RefreshOutcome::Invalid => Err(AuthError::Refused(
                "Invalid or expired refresh token".into(),
            )),
        }
    }
}

/// Refresh tokens are kept as SHA-256 digests: a copy of the database grants nothing.
pub fn hash_refresh_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The token of an `Authorization: Bearer …` header value, else 401.
pub fn bearer(authorization: Option<&str>) -> AuthResult<&str> {
    authorization
        .and_then(|v| v.split_once(' '))
        // The scheme is case-insensitive (RFC 9110 §11.1).
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty())
        .ok_or_else(|| AuthError::Refused("Missing bearer token".into()))
}
