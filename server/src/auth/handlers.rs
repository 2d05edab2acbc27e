//! Sign-up, sign-in, refresh and sign-out.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};

use super::extract::Auth;
use super::password::{hash_password, verify_password};
use super::rules::{check_password, normalize_email, normalize_username};
use super::tokens::TokenPair;
use crate::error::{ApiError, ApiResult, SUCCESS, required};
use crate::names::required_name;
use crate::sandbox;
use crate::state::AppState;
use crate::store::{NewUser, ProviderCredentials};
use crate::visible::NAME_MAX;

/// The answer of every sign-in (password, refresh, Google): the tokens and the account's role.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedIn {
    /// A short-lived JWT for `Authorization: Bearer`.
    access_token: String,
    /// Exchanged for a new pair at `/identity/auth/refresh`; rotated on every use.
    refresh_token: String,
    /// `admin` (the business's owner) or `agent`.
    role: String,
}

impl SignedIn {
    pub fn new(pair: TokenPair, role: String) -> SignedIn {
        SignedIn {
            access_token: pair.access_token,
            refresh_token: pair.refresh_token,
            role,
        }
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterRequest {
    #[schema(required = true, nullable = false, min_length = 1)]
    first_name: Option<String>,
    #[schema(required = true, nullable = false, min_length = 1)]
    last_name: Option<String>,
    /// Stored lower-cased, without whitespace.
    #[schema(required = true, nullable = false, pattern = r"^[A-Za-z0-9._-]{3,32}$")]
    username: Option<String>,
    #[schema(required = true, nullable = false, format = Email)]
    email: Option<String>,
    /// At least 8 characters, not a common password, not the username or the email.
    #[schema(required = true, nullable = false, min_length = 8)]
    password: Option<String>,
}

/// Credentials a new business starts with: working sandbox ones when the sandbox is the provider.
pub fn starting_credentials(state: &AppState) -> ProviderCredentials {
    if state.settings.provider.kind == "sandbox" {
        sandbox::new_number()
    } else {
        ProviderCredentials::default()
    }
}

#[tracing::instrument(skip_all)]
#[utoipa::path(
    post,
    path = "/identity/auth/register",
    tag = "identity",
    responses((status = 201, description = "Signed in as the new business's owner", body = SignedIn), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<RegisterRequest>,
) -> ApiResult<HttpResponse> {
    let address = client_address(&req, &state.settings.auth.client_address_header);
    if let Some(retry_after) = state.throttle.registration_locked_for(&address).await? {
        return Err(ApiError::TooManyRequests { retry_after });
    }
    let first_name = required_name(&body.first_name, "firstName")?;
    let last_name = required_name(&body.last_name, "lastName")?;
    let username = normalize_username(&required(&body.username, "username")?)?;
    let email = normalize_email(&required(&body.email, "email")?)?;
    let password = body.password.clone().unwrap_or_default();
    if password.is_empty() {
        return Err(ApiError::Unprocessable("password is required".into()));
    }
    check_password(&password, &username, &email)?;
    // Every well-formed attempt counts, also one refused for a taken username or email, so an
    // address can neither make accounts in bulk nor probe which names are taken.
    state.throttle.record_registration(&address).await?;
    // The business is named after its owner, within the same limit as a name.
    let business_name = format!("{first_name} {last_name}")
        .chars()
        .take(NAME_MAX)
        .collect::<String>()
        .trim_end()
        .to_string();
    let new = NewUser {
        first_name,
        last_name,
        username,
        email,
        password_hash: Some(hash_password(password).await?),
        google_sub: None,
    };
    let user = state
        .store
        .register_owner(new, &business_name, starting_credentials(&state))
        .await?;
    tracing::info!(user_id = %user.id, business_id = %user.business_id, "registered");
    if let Some(sandbox) = state.sandbox.clone() {
        // The sandbox's customers write in, so a new inbox is alive at once.
        let business_id = user.business_id.clone();
        actix_web::rt::spawn(async move { sandbox.welcome(&business_id).await });
    }
    let pair = state.tokens.issue(&state.store, &user, None).await?;
    Ok(HttpResponse::Created().json(SignedIn::new(pair, user.role)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginRequest {
    email_or_username: Option<String>,
    password: Option<String>,
}

/// The client address login and registration throttling count against: the last entry of the
/// configured proxy header's last line (the one the trusted proxy added: some, like HAProxy, add
/// a line of their own after any the client sent), else the TCP peer.
pub fn client_address(req: &HttpRequest, header: &str) -> String {
    let forwarded = (!header.is_empty())
        .then(|| req.headers().get_all(header).last())
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .map(str::trim)
        .filter(|v| !v.is_empty());
    match forwarded {
        Some(address) => address.to_string(),
        None => req
            .peer_addr()
            .map(|a| a.ip().to_string())
            .unwrap_or_default(),
    }
}

#[tracing::instrument(skip_all)]
#[utoipa::path(
    post,
    path = "/identity/auth/login",
    tag = "identity",
    responses((status = 200, description = "Tokens", body = SignedIn), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<LoginRequest>,
) -> ApiResult<HttpResponse> {
    let identifier = required(&body.email_or_username, "emailOrUsername")?;
    let password = body.password.clone().unwrap_or_default();
    if password.is_empty() {
        return Err(ApiError::Unprocessable("password is required".into()));
    }
    let address = client_address(&req, &state.settings.auth.client_address_header);
    let user = state.store.user_by_login(&identifier).await?;
    // Failures count against the account, whichever of its names was typed; an unknown name
    // counts against itself.
    let account = user
        .as_ref()
        .map(|u| format!("user:{}", u.id))
        .unwrap_or_else(|| format!("name:{}", identifier.trim().to_lowercase()));
    if let Some(retry_after) = state.throttle.locked_for(&account, &address).await? {
        return Err(ApiError::TooManyRequests { retry_after });
    }
    let stored = user
        .as_ref()
        .and_then(|u| u.password_hash.clone())
        // An unknown account is checked against a dummy hash so both failures take as long.
        .unwrap_or_else(|| state.dummy_hash.clone());
    let matches = verify_password(password, stored).await?;
    let Some(user) = user.filter(|u| matches && u.password_hash.is_some()) else {
        state.throttle.record_failure(&account, &address).await?;
        return Err(ApiError::InvalidCredentials);
    };
    state.throttle.record_success(&account).await?;
    let pair = state.tokens.issue(&state.store, &user, None).await?;
    Ok(HttpResponse::Ok().json(SignedIn::new(pair, user.role)))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefreshRequest {
    refresh_token: Option<String>,
}

#[tracing::instrument(skip_all)]
#[utoipa::path(
    post,
    path = "/identity/auth/refresh",
    tag = "identity",
    responses((status = 200, description = "New tokens", body = SignedIn), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn refresh(
    state: web::Data<AppState>,
    body: web::Json<RefreshRequest>,
) -> ApiResult<HttpResponse> {
    let token = required(&body.refresh_token, "refreshToken")?;
    let (user, pair) = state.tokens.refresh(&state.store, &token).await?;
    Ok(HttpResponse::Ok().json(SignedIn::new(pair, user.role)))
}

#[tracing::instrument(skip_all)]
#[utoipa::path(
    post,
    path = "/identity/auth/logout",
    tag = "identity",
    responses((status = 200, description = "Signed out", body = crate::error::Success), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn logout(
    state: web::Data<AppState>,
    body: web::Json<RefreshRequest>,
) -> ApiResult<HttpResponse> {
    let token = required(&body.refresh_token, "refreshToken")?;
    state
        .store
        .revoke_refresh_token(&super::tokens::hash_refresh_token(&token))
        .await?;
    Ok(HttpResponse::Ok().json(SUCCESS))
}

/// `POST /identity/auth/logout-all`: ends every session of the caller, on every device.
#[tracing::instrument(skip_all)]
#[utoipa::path(
    post,
    path = "/identity/auth/logout-all",
    tag = "identity",
    responses((status = 200, description = "Every session ended", body = crate::error::Success), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn logout_all(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    state
        .revocations
        .end_sessions(&auth.business_id, &auth.user_id)
        .await?;
    Ok(HttpResponse::Ok().json(SUCCESS))
}

/// The web client's background session check.
#[utoipa::path(
    get,
    path = "/api/auth/protected-route",
    tag = "identity",
    responses((status = 200, description = "The caller's role", body = RoleJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn protected_route(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    // A deleted agent's unexpired token stops here.
    let user = auth.user(&state).await?;
    Ok(HttpResponse::Ok().json(RoleJson { role: &user.role }))
}

/// The same session check on the identity service's base, where the spec's other `auth/` calls
/// are (its table names no base for this one).
#[utoipa::path(
    get,
    path = "/identity/auth/protected-route",
    tag = "identity",
    responses((status = 200, description = "The caller's role", body = RoleJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn identity_protected_route(
    state: web::Data<AppState>,
    auth: Auth,
) -> ApiResult<HttpResponse> {
    protected_route(state, auth).await
}

/// The caller's role.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RoleJson<'a> {
    /// `admin` for the owner, `agent` for the staff.
    role: &'a str,
}
