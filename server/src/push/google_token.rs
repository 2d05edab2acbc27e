//! OAuth 2.0 access tokens for a Google service account (the two-legged "JWT bearer" flow): a
//! JWT signed with the account's RS256 key is exchanged at its `token_uri` for a short-lived
//! access token, which is kept until shortly before it expires.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

/// What the token may do: send FCM messages.
pub const FCM_SCOPE: &str = "https://www.googleapis.com/auth/firebase.messaging";
const GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// Lifetime of the signed assertion (Google accepts at most one hour).
const ASSERTION_SECS: i64 = 3600;
/// A token is renewed this long before Google says it expires, so none is sent stale.
const RENEW_BEFORE: Duration = Duration::from_secs(120);

/// The parts of a service-account key file (JSON, from the Google Cloud console) used here.
#[derive(Deserialize)]
struct KeyFile {
    client_email: String,
    private_key: String,
    #[serde(default)]
    private_key_id: String,
    token_uri: String,
}

#[derive(Serialize)]
struct Assertion<'a> {
    iss: &'a str,
    scope: &'a str,
    aud: &'a str,
    iat: i64,
    exp: i64,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    expires_in: u64,
}

/// A cached access token and when to stop using it.
struct Cached {
    token: String,
    renew_at: Instant,
}

/// Access tokens of one service account.
pub struct GoogleToken {
    client_email: String,
    token_uri: String,
    /// The header names the key (`kid`) when the file does.
    header: Header,
    /// The RS256 key; never logged.
    key: EncodingKey,
    http: reqwest::Client,
    /// Held while a token is fetched, so concurrent sends wait for one exchange.
    cached: Mutex<Option<Cached>>,
}

impl GoogleToken {
    /// Reads the service-account key file.
    pub fn from_file(path: &Path, http: reqwest::Client) -> anyhow::Result<GoogleToken> {
        let text = std::fs::read_to_string(path).with_context(|| {
            format!(
                "Failed to read the FCM service account file {}",
                path.display()
            )
        })?;
        let file: KeyFile = serde_json::from_str(&text).context(
            "The FCM service account file is not a Google service account key (JSON with \
             client_email, private_key and token_uri)",
        )?;
        let key = EncodingKey::from_rsa_pem(file.private_key.as_bytes())
            .context("The FCM service account's private_key is not an RSA key in PEM")?;
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(file.private_key_id).filter(|id| !id.is_empty());
        Ok(GoogleToken {
            client_email: file.client_email,
            token_uri: file.token_uri,
            header,
            key,
            http,
            cached: Mutex::new(None),
        })
    }

    /// A valid access token: the cached one, or a new one from the token endpoint.
    pub async fn access_token(&self) -> anyhow::Result<String> {
        let mut cached = self.cached.lock().await;
        if let Some(token) = cached.as_ref().filter(|c| Instant::now() < c.renew_at) {
            return Ok(token.token.clone());
        }
        let fresh = self.exchange().await?;
        let token = fresh.token.clone();
        *cached = Some(fresh);
        Ok(token)
    }

    /// Forgets the cached token (the API refused it).
    pub async fn forget(&self) {
        *self.cached.lock().await = None;
    }

    async fn exchange(&self) -> anyhow::Result<Cached> {
        let iat = chrono::Utc::now().timestamp();
        let assertion = jsonwebtoken::encode(
            &self.header,
            &Assertion {
                iss: &self.client_email,
                scope: FCM_SCOPE,
                aud: &self.token_uri,
                iat,
                exp: iat + ASSERTION_SECS,
            },
            &self.key,
        )
        .context("Failed to sign the service account assertion")?;
        let asked = Instant::now();
        let response = self
            .http
            .post(&self.token_uri)
            .form(&[("grant_type", GRANT_TYPE), ("assertion", &assertion)])
            .send()
            .await
            .context("Google's token endpoint is unreachable")?;
        let status = response.status();
        anyhow::ensure!(
            status.is_success(),
            "Google's token endpoint refused the service account ({status})"
        );
        let answer: TokenAnswer = response
            .json()
            .await
            .context("Google's token endpoint answered without an access token")?;
        let lifetime = Duration::from_secs(answer.expires_in).saturating_sub(RENEW_BEFORE);
        Ok(Cached {
            token: answer.access_token,
            renew_at: asked + lifetime,
        })
    }
}
