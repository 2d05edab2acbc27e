//! Google sign-in over HTTP: the browser OAuth code flow and the native ID-token exchange,
//! both checked by `google::GoogleVerifier`.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::{HttpRequest, HttpResponse, web};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use super::google::IdClaims;
use super::handlers::{SignedIn, starting_credentials};
use super::profile::check_language;
use crate::error::{ApiError, ApiResult, required};
use crate::state::AppState;
use crate::store::{NewUser, User, UserChanges};

const STATE_COOKIE: &str = "parley_oauth_state";
/// The language of the page the browser flow started on, kept until the callback.
const LANGUAGE_COOKIE: &str = "parley_oauth_language";
/// Where the flow's cookies are sent: its start and its callback.
const COOKIE_PATH: &str = "/identity/auth/google";
/// Tries at finding a free username for a new Google account.
const USERNAME_TRIES: usize = 5;

/// Finds the account of a Google identity, or creates a business and its owner; a new account
/// takes `language` (the sign-up page's), an existing one keeps its own.
async fn account_for(
    state: &AppState,
    claims: IdClaims,
    language: Option<String>,
) -> ApiResult<User> {
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
    let user = state
        .store
        .register_owner(new, &name, starting_credentials(state))
        .await?;
    let Some(language) = language else {
        return Ok(user);
    };
    let changes = UserChanges {
        language: Some(language),
        ..UserChanges::default()
    };
    Ok(state
        .store
        .update_user(&user.business_id, &user.id, changes)
        .await?)
}

/// A cookie of the browser flow, for its start and callback only.
fn flow_cookie(state: &AppState, name: &'static str, value: String) -> Cookie<'static> {
    Cookie::build(name, value)
        .path(COOKIE_PATH)
        .http_only(true)
        .secure(state.settings.server.public_url.starts_with("https://"))
        .same_site(SameSite::Lax)
        .max_age(actix_web::cookie::time::Duration::minutes(10))
        .finish()
}

/// A flow cookie's removal.
fn spent_cookie(name: &'static str) -> Cookie<'static> {
    let mut spent = Cookie::build(name, "").path(COOKIE_PATH).finish();
    spent.make_removal();
    spent
}

fn callback_url(state: &AppState) -> String {
    format!(
        "{}/identity/auth/google/callback",
        state.settings.server.public_url.trim_end_matches('/')
    )
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StartQuery {
    /// The page's language, `en` or `ar`: an account made by this sign-in takes it.
    language: Option<String>,
}

/// `GET /identity/auth/google`: redirects the browser to the consent page.
#[utoipa::path(
    get,
    path = "/identity/auth/google",
    tag = "identity",
    params(crate::auth::google_sign_in::StartQuery),
    responses((status = 302, description = "To Google's consent page"), (status = 501, description = "Google sign-in is not configured on this server", body = crate::error::ErrorBody), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn start(
    state: web::Data<AppState>,
    query: web::Query<StartQuery>,
) -> ApiResult<HttpResponse> {
    state.google.enabled()?;
    let language = check_language(&query.language)?;
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
    let mut response = HttpResponse::Found();
    response.insert_header(("Location", target.to_string()));
    // The state is bound to this browser by a cookie, so a forged callback cannot log a victim in.
    response.cookie(flow_cookie(&state, STATE_COOKIE, nonce));
    match language {
        Some(language) => response.cookie(flow_cookie(&state, LANGUAGE_COOKIE, language)),
        None => response.cookie(spent_cookie(LANGUAGE_COOKIE)),
    };
    Ok(response.finish())
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

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
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
#[utoipa::path(
    get,
    path = "/identity/auth/google/callback",
    tag = "identity",
    params(crate::auth::google_sign_in::CallbackQuery),
    responses((status = 302, description = "Back to the app, signed in"), (status = 501, description = "Google sign-in is not configured on this server", body = crate::error::ErrorBody), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
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
    // Only a language `start` could have set; anything else is no language.
    let language = req
        .cookie(LANGUAGE_COOKIE)
        .and_then(|c| check_language(&Some(c.value().to_string())).ok().flatten());
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
        let user = account_for(&state, claims, language).await?;
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
    Ok(HttpResponse::Found()
        .insert_header(("Location", location))
        .cookie(spent_cookie(STATE_COOKIE))
        .cookie(spent_cookie(LANGUAGE_COOKIE))
        .finish())
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct MobileRequest {
    token: Option<String>,
    /// The app's language, `en` or `ar`: an account made by this sign-in takes it.
    language: Option<String>,
}

/// `POST /identity/auth/google/mobile` {token, language?}: a native app's Google ID token for our
/// pair.
#[utoipa::path(
    post,
    path = "/identity/auth/google/mobile",
    tag = "identity",
    responses((status = 200, description = "Tokens", body = SignedIn), (status = 501, description = "Google sign-in is not configured on this server", body = crate::error::ErrorBody), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn mobile(
    state: web::Data<AppState>,
    body: web::Json<MobileRequest>,
) -> ApiResult<HttpResponse> {
    state.google.enabled()?;
    let token = required(&body.token, "token")?;
    let language = check_language(&body.language)?;
    let claims = state.google.verify(&token).await?;
    let user = account_for(&state, claims, language).await?;
    let pair = state.tokens.issue(&state.store, &user, None).await?;
    Ok(HttpResponse::Ok().json(SignedIn::new(pair, user.role)))
}

/// `GET /identity/auth/google/config`: lets the sign-in page hide the button when disabled.
#[utoipa::path(
    get,
    path = "/identity/auth/google/config",
    tag = "identity",
    responses((status = 200, description = "Whether Google sign-in is on", body = GoogleConfig), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn config(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(GoogleConfig {
        enabled: !state.settings.google.client_id.is_empty(),
    })
}

/// Whether Google sign-in is configured.
#[derive(Serialize, utoipa::ToSchema)]
pub struct GoogleConfig {
    enabled: bool,
}
