//! Media share links: `POST /api/media/{id}/share` issues one, and `GET /api/media/{id}` with
//! its `exp` and `sig` opens the file without a login (docs/API.md, "Media share links").

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::media_link::SignedQuery;
use crate::state::AppState;
use crate::store::{iso_time, now_ms};

/// The one answer to a link that does not open its file, whatever is wrong with it.
const LINK_REFUSED: &str = "This media link is invalid or has expired";

#[derive(Deserialize)]
struct LinkQuery {
    exp: Option<String>,
    sig: Option<String>,
}

/// `POST /api/media/{id}/share` → {url, expires_at}: a link to a file of the caller's business
/// that works without a login until it expires.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/media/{id}/share",
    tag = "media",
    params(("id" = String, Path, description = "The media file")),
    responses((status = 200, description = "A share link", body = ShareLink), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn share_media(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    // The same lookup `GET /api/media/{id}` does: only a file the business can open is shared.
    let file = state
        .outbox
        .fetch_inbound_media(&auth.business_id, &id)
        .await?;
    let link = state
        .media_links
        .issue(&auth.business_id, &file.id, now_ms() / 1000);
    Ok(HttpResponse::Ok().json(ShareLink {
        url: format!("/api/media/{}?exp={}&sig={}", file.id, link.exp, link.sig),
        expires_at: iso_time(link.exp.saturating_mul(1000)),
    }))
}

/// A link that opens one file without a token until it expires.
#[derive(Serialize, ToSchema)]
pub struct ShareLink {
    /// Relative to the server.
    url: String,
    /// ISO 8601.
    expires_at: String,
}

/// The business a share link in `req`'s query opens media `id` of; `None` when the query has
/// no `sig` (the caller signs in instead). A link that is expired, altered or for another file
/// is refused with 403.
pub async fn link_owner(
    state: &AppState,
    req: &HttpRequest,
    id: &str,
) -> ApiResult<Option<String>> {
    let query = web::Query::<LinkQuery>::from_query(req.query_string())
        .map(web::Query::into_inner)
        .unwrap_or(LinkQuery {
            exp: None,
            sig: None,
        });
    let Some(sig) = query.sig else {
        return Ok(None);
    };
    let refused = || ApiError::Forbidden(LINK_REFUSED.into());
    let exp = query
        .exp
        .and_then(|exp| exp.parse::<i64>().ok())
        .ok_or_else(refused)?;
    let signed = SignedQuery { exp, sig };
    let now = now_ms() / 1000;
    let owners = state.store.media_owners(id).await?;
    owners
        .into_iter()
        .find(|owner| state.media_links.verify(owner, id, &signed, now))
        .map(Some)
        .ok_or_else(refused)
}
