//! Media share links: `POST /api/media/{id}/share` issues one, and `GET /api/media/{id}` with
//! its `exp` and `sig` opens the file without a login (docs/API.md, "Media share links").

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::media_link::SignedQuery;
use crate::state::AppState;
use crate::store::{iso_time, now_ms};

/// The one answer to a link that does not open its file, whatever is wrong with it.
const LINK_REFUSED: &str = "This media link is invalid or has expired";

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
    // The same checks and lookup `GET /api/media/{id}` does: only a file the business can open
    // is shared.
    check_id(&id)?;
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

/// Refuses a media id no file can have (404, as for an unknown file): letters, digits, `-` and
/// `_`, at most 128 characters. Checked before any lookup, so that no other path reaches the
/// provider.
pub fn check_id(id: &str) -> ApiResult<()> {
    let known_shape = !id.is_empty()
        && id.len() <= 128
        && (id.chars()).all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    match known_shape {
        true => Ok(()),
        false => Err(ApiError::NotFound("Media not found".into())),
    }
}

/// The business a share link in `req`'s query opens media `id` of; `None` when the query has
/// neither `exp` nor `sig` (the caller signs in instead). A link that is expired, altered, for
/// another file, or that names either of them more than once or not at all is refused with 403.
pub async fn link_owner(
    state: &AppState,
    req: &HttpRequest,
    id: &str,
) -> ApiResult<Option<String>> {
    let (mut exps, mut sigs) = (Vec::new(), Vec::new());
    for (key, value) in url::form_urlencoded::parse(req.query_string().as_bytes()) {
        match key.as_ref() {
            "exp" => exps.push(value.into_owned()),
            "sig" => sigs.push(value.into_owned()),
            _ => {}
        }
    }
    if exps.is_empty() && sigs.is_empty() {
        return Ok(None);
    }
    let refused = || ApiError::Forbidden(LINK_REFUSED.into());
    let ([exp], [sig]) = (exps.as_slice(), sigs.as_slice()) else {
        return Err(refused());
    };
    let exp = exp.parse::<i64>().map_err(|_| refused())?;
    let signed = SignedQuery {
        exp,
        sig: sig.clone(),
    };
    let now = now_ms() / 1000;
    let owners = state.store.media_owners(id).await?;
    owners
        .into_iter()
        .find(|owner| state.media_links.verify(owner, id, &signed, now))
        .map(Some)
        .ok_or_else(refused)
}
