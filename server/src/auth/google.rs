//! Google sign-in: the browser OAuth code flow and the native ID-token exchange. Both verify the
//! ID token against the issuer's JWKS; endpoints are configurable so tests use a local issuer.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::cookie::{Cookie, SameSite};
use actix_web::{HttpRequest, HttpResponse, web};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use subtle::ConstantTimeEq;

use super::handlers::starting_credentials;
use crate::app::AppState;
use crate::config::GoogleSettings;
use crate::error::{ApiError, ApiResult, required};
use crate::store::{NewUser, User};

const STATE_COOKIE: &str = "parley_oauth_state";
/// How long fetched signing keys are trusted before a refetch.
const JWKS_TTL: Duration = Duration::from_secs(3600);
/// An unknown `kid` refetches the keys at most this often, so tokens with made-up key ids
/// cannot turn this server into a flood of requests to the issuer.
const JWKS_MIN_REFETCH: Duration = Duration::from_secs(60);
/// Tries at finding a free username for a new Google account.
const USERNAME_TRIES: usize = 5;

/// Fetches and caches the issuer's signing keys.
pub struct GoogleVerifier {
    settings: GoogleSettings,
    http: reqwest::Client,
    /// Last fetched key set and when.
    keys: Mutex<Option<(Instant, JwkSet)>>,
}

/// The claims Parley reads from a Google ID token.
#[derive(Deserialize)]
struct IdClaims {
    sub: String,
    email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    email_verified: bool,
    given_name: Option<String>,
    family_name: Option<String>,
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

    fn enabled(&self) -> ApiResult<()> {
        if self.settings.client_id.is_empty() {
            return Err(ApiError::NotImplemented(
                "Google sign-in is not configured on this server".into(),
            ));
        }
        Ok(())
    }

    /// The issuer's keys: cached for `JWKS_TTL`; `force` refetches unless the cache is younger
    /// than `JWKS_MIN_REFETCH`.
    async fn key_set(&self, force: bool) -> ApiResult<JwkSet> {
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
            .map_err(|e| ApiError::Unavailable(format!("Could not reach Google: {e}")))?
            .json()
            .await
            .map_err(|e| ApiError::Unavailable(format!("Bad key set from Google: {e}")))?;
        *self.keys.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), set.clone()));
        Ok(set)
    }

    /// Checks signature, audience, issuer and expiry of an ID token.
    async fn verify(&self, id_token: &str) -> ApiResult<IdClaims> {
        let invalid = || ApiError::Unauthorized("Invalid Google token".into());
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
            return Err(ApiError::Unauthorized(
                "Google account email is not verified".into(),
            ));
        }
        Ok(claims)
    }
}

/// Finds the account of a Google identity, or creates a business and its owner.
async fn account_for(state: &AppState, claims: IdClaims) -> ApiResult<User> {
    let email = claims.email.unwrap_or_default().to_lowercase();
    if let Some(user) = state.store.user_by_google(&claims.sub, &email).await? {
        return Ok(user);
    }
    let local = email.split('@').next().unwrap_or_default();
    let base: String = local
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .flat_map(char::to_lowercase)
        .take(24)
        .collect();
    let base = if base.is_empty() { "user".into() } else { base };
    let mut username = None;
    for _ in 0..USERNAME_TRIES {
        let suffix = rand::thread_rng().next_u32() % 10_000;
        let candidate = format!("{base}{suffix:04}");
        if state.store.user_by_login(&candidate).await?.is_none() {
            username = Some(candidate);
            break;
        }
    }
    let username =
        username.ok_or_else(|| ApiError::Conflict("Could not find a free username".into()))?;
    let first_name = claims.given_name.unwrap_or_else(|| base.clone());
    let last_name = claims.family_name.unwrap_or_default();
    let new = NewUser {
        first_name: first_name.clone(),
        last_name: last_name.clone(),
        username,
        email,
        password_hash: None,
        google_sub: Some(claims.sub),
    };
    let name = format!("{first_name} {last_name}").trim().to_string();
    state
        .store
        .register_owner(new, &name, starting_credentials(state))
        .await
}

fn callback_url(state: &AppState) -> String {
    format!(
        "{}/identity/auth/google/callback",
        state.settings.server.public_url.trim_end_matches('/')
    )
}

/// `GET /identity/auth/google`: redirects the browser to the consent page.
pub async fn start(state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    state.google.enabled()?;
    let mut raw = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut raw);
    let nonce = hex::encode(raw);
    let mut target = url::Url::parse(&state.settings.google.auth_url)
        .map_err(|_| ApiError::Unavailable("google.auth_url is not a URL".into()))?;
    target
        .query_pairs_mut()
        .append_pair("client_id", &state.settings.google.client_id)
        .append_pair("redirect_uri", &callback_url(&state))
        .append_pair("response_type", "code")
        .append_pair("scope", "openid email profile")
        .append_pair("state", &nonce);
    // The state is bound to this browser by a cookie, so a forged callback cannot log a victim in.
    let cookie = Cookie::build(STATE_COOKIE, nonce)
        .path("/identity/auth/google")
        .http_only(true)
        .secure(state.settings.server.public_url.starts_with("https://"))
        .same_site(SameSite::Lax)
        .max_age(actix_web::cookie::time::Duration::minutes(10))
        .finish();
    Ok(HttpResponse::Found()
        .insert_header(("Location", target.to_string()))
        .cookie(cookie)
        .finish())
}

/// The callback's `state` is the one this browser's cookie holds (compared in constant time).
fn state_matches(cookie: Option<&str>, query: Option<&str>) -> bool {
    match (cookie, query) {
        (Some(cookie), Some(query)) if !cookie.is_empty() => {
            cookie.as_bytes().ct_eq(query.as_bytes()).into()
        }
        _ => false,
    }
}

#[derive(Deserialize)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
}

#[derive(Deserialize)]
struct TokenAnswer {
    id_token: String,
}

/// `GET /identity/auth/google/callback`: exchanges the code, signs in, returns to the app with
/// the tokens in the query (the web app stores them and strips the query).
pub async fn callback(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<CallbackQuery>,
) -> ApiResult<HttpResponse> {
    state.google.enabled()?;
    let app = state
        .settings
        .server
        .public_url
        .trim_end_matches('/')
        .to_string();
    let cookie_state = req.cookie(STATE_COOKIE).map(|c| c.value().to_string());
    let outcome = async {
        let code = required(&query.code, "code")?;
        if !state_matches(cookie_state.as_deref(), query.state.as_deref()) {
            return Err(ApiError::Forbidden("OAuth state mismatch".into()));
        }
        let google = &state.settings.google;
        let answer: TokenAnswer = state
            .http
            .post(&google.token_url)
            .form(&[
                ("code", code.as_str()),
                ("client_id", google.client_id.as_str()),
                ("client_secret", google.client_secret.as_str()),
                ("redirect_uri", callback_url(&state).as_str()),
                ("grant_type", "authorization_code"),
            ])
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|e| ApiError::Unavailable(format!("Google token exchange failed: {e}")))?
            .json()
            .await
            .map_err(|e| ApiError::Unavailable(format!("Bad token answer from Google: {e}")))?;
        let claims = state.google.verify(&answer.id_token).await?;
        let user = account_for(&state, claims).await?;
        let pair = state.tokens.issue(&state.store, &user, None).await?;
        Ok::<_, ApiError>((user, pair))
    }
    .await;
    let location = match outcome {
        Ok((user, pair)) => {
            let mut target = url::Url::parse(&format!("{app}/whatsapp"))
                .map_err(|_| ApiError::Unavailable("server.public_url is not a URL".into()))?;
            target
                .query_pairs_mut()
                .append_pair("accessToken", &pair.access_token)
                .append_pair("refreshToken", &pair.refresh_token)
                .append_pair("role", &user.role);
            target.to_string()
        }
        Err(err) => {
            tracing::warn!(error = %err, "Google sign-in failed");
            format!("{app}/login?error=google_sign_in_failed")
        }
    };
    let mut expired = Cookie::build(STATE_COOKIE, "")
        .path("/identity/auth/google")
        .finish();
    expired.make_removal();
    Ok(HttpResponse::Found()
        .insert_header(("Location", location))
        .cookie(expired)
        .finish())
}

#[derive(Deserialize)]
pub struct MobileRequest {
    token: Option<String>,
}

/// `POST /identity/auth/google/mobile` {token}: a native app's Google ID token for our pair.
pub async fn mobile(
    state: web::Data<AppState>,
    body: web::Json<MobileRequest>,
) -> ApiResult<HttpResponse> {
    state.google.enabled()?;
    let token = required(&body.token, "token")?;
    let claims = state.google.verify(&token).await?;
    let user = account_for(&state, claims).await?;
    let pair = state.tokens.issue(&state.store, &user, None).await?;
    Ok(HttpResponse::Ok().json(json!({
        "accessToken": pair.access_token,
        "refreshToken": pair.refresh_token,
        "role": user.role,
    })))
}

/// `GET /identity/auth/google/config`: lets the sign-in page hide the button when disabled.
pub async fn config(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(json!({"enabled": !state.settings.google.client_id.is_empty()}))
}
