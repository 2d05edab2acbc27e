//! Who may call the sandbox: Graph calls carry a number's provider access token, as with Meta;
//! the inject endpoint is called by a user signed in to Parley, with the app's bearer token.

use std::sync::Arc;

use actix_web::{FromRequest, HttpRequest, HttpResponse, dev::Payload, web};
use futures_util::future::LocalBoxFuture;

use super::Sandbox;
use super::graph::graph_error;
use crate::auth::token_versions::TokenVersions;
use crate::auth::tokens::{TokenIssuer, bearer};
use crate::error::{ApiError, ApiResult};
use crate::store::{Business, Store};

impl Sandbox {
    /// The business a Graph call is for, when its bearer token is that number's access token.
    pub(super) async fn authorized(
        &self,
        req: &HttpRequest,
        phone_number_id: &str,
    ) -> Result<Business, HttpResponse> {
        self.authorized_for(req, |b| {
            b.phone_number_id.as_deref() == Some(phone_number_id)
        })
        .await
    }

    /// The business whose token this is, when it owns the account or app named in the path.
    pub(super) async fn authorized_for(
        &self,
        req: &HttpRequest,
        owner: impl Fn(&Business) -> bool,
    ) -> Result<Business, HttpResponse> {
        let token = req
            .headers()
            .get("Authorization")
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim_start_matches("Bearer ").trim_start_matches("OAuth "))
            .unwrap_or_default();
        match self.store.business_by_access_token(token).await {
            Ok(Some(business)) if !token.is_empty() && owner(&business) => Ok(business),
            Ok(_) => Err(graph_error(
                401,
                190,
                "Invalid OAuth access token.",
                "The access token does not own this object.",
            )),
            Err(_) => Err(graph_error(
                500,
                1,
                "An unknown error occurred",
                "storage unavailable",
            )),
        }
    }
}

/// What checks a signed-in user's bearer token: its signature and expiry, and that it was not
/// revoked since.
pub struct SignedInCheck {
    tokens: TokenIssuer,
    versions: Arc<TokenVersions>,
    store: Store,
}

impl SignedInCheck {
    pub fn new(tokens: TokenIssuer, versions: Arc<TokenVersions>, store: Store) -> SignedInCheck {
        SignedInCheck {
            tokens,
            versions,
            store,
        }
    }
}

/// A user signed in to Parley: the business their access token is for.
pub struct SignedIn {
    pub(super) business_id: String,
}

impl SignedIn {
    async fn from_header(req: HttpRequest) -> ApiResult<SignedIn> {
        let check = req
            .app_data::<web::Data<SignedInCheck>>()
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("sandbox token check missing")))?;
        let authorization = req
            .headers()
            .get("Authorization")
            .and_then(|v| v.to_str().ok());
        let claims = check.tokens.verify(bearer(authorization)?)?;
        check
            .versions
            .check(&check.store, &claims.sub, claims.ver)
            .await?;
        Ok(SignedIn {
            business_id: claims.bid,
        })
    }
}

// An extractor, as the main API's `Auth`, so a bad token is refused before the body is read.
impl FromRequest for SignedIn {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<SignedIn, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        Box::pin(SignedIn::from_header(req.clone()))
    }
}
