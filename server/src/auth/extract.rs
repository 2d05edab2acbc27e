//! Who is calling: the bearer token of a request, checked into `Auth`.

use actix_web::http::header::HeaderMap;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};

use futures_util::future::LocalBoxFuture;

use super::tokens::{self, Claims};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::{ROLE_OWNER, User};

/// An authenticated caller; handlers scope every store call with `business_id`.
#[derive(Clone, Debug)]
pub struct Auth {
    pub user_id: String,
    pub business_id: String,
    pub role: String,
    /// Unix seconds when the access token expires; live streams end then.
    pub expires_at: u64,
}

impl Auth {
    pub fn is_owner(&self) -> bool {
        self.role == ROLE_OWNER
    }

    /// 403 unless the caller owns the business.
    pub fn require_owner(&self) -> ApiResult<()> {
        if self.is_owner() {
            Ok(())
        } else {
            Err(ApiError::Forbidden(
                "Only the account owner can do this".into(),
            ))
        }
    }

    /// The caller's account as it is now: a token outlives a deleted account, which gets 401.
    pub async fn user(&self, state: &AppState) -> ApiResult<User> {
        match state.store.user(&self.business_id, &self.user_id).await {
            Err(crate::store::Error::NotFound(_)) => {
                Err(ApiError::Unauthorized("Account no longer exists".into()))
            }
            other => Ok(other?),
        }
    }

    /// Checks the `Authorization: Bearer` header, then that the token is not revoked.
    pub async fn from_header(req: &HttpRequest) -> ApiResult<Auth> {
        let state = app_state(req)?;
        let claims = state.tokens.verify(bearer(req.headers())?)?;
        Self::current(state, claims).await
    }

    /// Stream endpoints (WebSocket, SSE) cannot set headers from a browser: they take `?token=`.
    pub async fn from_header_or_query(req: &HttpRequest) -> ApiResult<Auth> {
        Self::for_stream(req.headers(), req.query_string(), app_state(req)?).await
    }

    /// As `from_header_or_query`, from a request's parts (the WebSocket upgrade has no
    /// `HttpRequest`).
    pub async fn for_stream(headers: &HeaderMap, query: &str, state: &AppState) -> ApiResult<Auth> {
        let claims = state.tokens.verify(&stream_token(headers, query)?)?;
        Self::current(state, claims).await
    }

    /// The caller of a signed token, unless their access was revoked since it was issued.
    async fn current(state: &AppState, claims: Claims) -> ApiResult<Auth> {
        state
            .token_versions
            .check(&state.store, &claims.sub, claims.ver)
            .await?;
        Ok(Auth {
            user_id: claims.sub,
            business_id: claims.bid,
            role: claims.role,
            expires_at: claims.exp,
        })
    }
}

/// The bearer token, else the `token` query parameter.
fn stream_token(headers: &HeaderMap, query: &str) -> ApiResult<String> {
    if headers.contains_key("Authorization") {
        return bearer(headers).map(str::to_string);
    }
    let missing = || ApiError::Unauthorized("Missing token".into());
    let mut query = web::Query::<std::collections::HashMap<String, String>>::from_query(query)
        .map_err(|_| missing())?;
    query.remove("token").ok_or_else(missing)
}

fn app_state(req: &HttpRequest) -> ApiResult<&web::Data<AppState>> {
    req.app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("app state missing")))
}

/// The token of an `Authorization: Bearer` header.
fn bearer(headers: &HeaderMap) -> ApiResult<&str> {
    Ok(tokens::bearer(
        headers.get("Authorization").and_then(|v| v.to_str().ok()),
    )?)
}

impl FromRequest for Auth {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Auth, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Auth::from_header(&req).await })
    }
}
