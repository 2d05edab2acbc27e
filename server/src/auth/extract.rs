//! Who is calling: the bearer token of a request, checked into `Auth`.

use std::future::{Ready, ready};

use actix_web::http::header::HeaderMap;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};

use super::tokens::{self, Claims, TokenIssuer};
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

    fn from_claims(claims: Claims) -> Auth {
        Auth {
            user_id: claims.sub,
            business_id: claims.bid,
            role: claims.role,
            expires_at: claims.exp,
        }
    }

    /// Checks the `Authorization: Bearer` header.
    pub fn from_header(req: &HttpRequest) -> ApiResult<Auth> {
        Self::verify(&app_state(req)?.tokens, bearer(req.headers())?)
    }

    /// Stream endpoints (WebSocket, SSE) cannot set headers from a browser: they take `?token=`.
    pub fn from_header_or_query(req: &HttpRequest) -> ApiResult<Auth> {
        Self::for_stream(req.headers(), req.query_string(), &app_state(req)?.tokens)
    }

    /// As `from_header_or_query`, from a request's parts (the WebSocket upgrade has no
    /// `HttpRequest`).
    pub fn for_stream(headers: &HeaderMap, query: &str, tokens: &TokenIssuer) -> ApiResult<Auth> {
        if headers.contains_key("Authorization") {
            return Self::verify(tokens, bearer(headers)?);
        }
        let query = web::Query::<std::collections::HashMap<String, String>>::from_query(query)
            .map_err(|_| ApiError::Unauthorized("Missing token".into()))?;
        let token = query
            .get("token")
            .ok_or_else(|| ApiError::Unauthorized("Missing token".into()))?;
        Self::verify(tokens, token)
    }

    fn verify(tokens: &TokenIssuer, token: &str) -> ApiResult<Auth> {
        tokens.verify(token).map(Auth::from_claims)
    }
}

fn app_state(req: &HttpRequest) -> ApiResult<&web::Data<AppState>> {
    req.app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("app state missing")))
}

/// The token of an `Authorization: Bearer` header.
fn bearer(headers: &HeaderMap) -> ApiResult<&str> {
    tokens::bearer(headers.get("Authorization").and_then(|v| v.to_str().ok()))
}

impl FromRequest for Auth {
    type Error = ApiError;
    type Future = Ready<Result<Auth, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Auth::from_header(req))
    }
}
