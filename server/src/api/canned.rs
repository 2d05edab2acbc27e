//! Canned replies: every member of the business lists them; the owner creates, edits and
//! deletes them.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::extract::Auth;
use crate::canned::{self, CannedError};
use crate::error::ApiResult;
use crate::state::AppState;
use crate::store::{CannedReply, iso_time};

#[derive(Deserialize)]
pub struct ListQuery {
    /// Keeps the replies whose shortcut starts with this, ignoring case.
    q: Option<String>,
}

/// The body of a create or an edit; on edit a field left out keeps its value.
#[derive(Deserialize)]
pub struct CannedForm {
    shortcut: Option<String>,
    text: Option<String>,
}

/// `GET /api/canned-replies?q=`
pub async fn list_canned_replies(
    auth: Auth,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let replies = state.store.canned_replies(&auth.business_id).await?;
    let replies = canned::starting_with(replies, query.q.as_deref());
    let replies: Vec<Value> = replies.iter().map(canned_json).collect();
    Ok(HttpResponse::Ok().json(json!({ "canned_replies": replies })))
}

/// `POST /api/canned-replies` → 201 with the reply.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
pub async fn create_canned_reply(
    auth: Auth,
    state: web::Data<AppState>,
    body: web::Json<CannedForm>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let shortcut = canned::shortcut(body.shortcut.as_deref().unwrap_or_default())?;
    let text = canned::text(body.text.as_deref().unwrap_or_default())?;
    let saved = state
        .store
        .add_canned_reply(&auth.business_id, &shortcut, &text)
        .await
        .map_err(CannedError::from)?;
    Ok(HttpResponse::Created().json(canned_json(&saved)))
}

/// `PATCH /api/canned-replies/{id}`
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
pub async fn update_canned_reply(
    auth: Auth,
    state: web::Data<AppState>,
    path: web::Path<String>,
    body: web::Json<CannedForm>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let id = path.into_inner();
    let current = state.store.canned_reply(&auth.business_id, &id).await?;
    let shortcut = canned::shortcut(body.shortcut.as_deref().unwrap_or(&current.shortcut))?;
    let text = canned::text(body.text.as_deref().unwrap_or(&current.text))?;
    let saved = state
        .store
        .update_canned_reply(&auth.business_id, &id, &shortcut, &text)
        .await
        .map_err(CannedError::from)?;
    Ok(HttpResponse::Ok().json(canned_json(&saved)))
}

/// `DELETE /api/canned-replies/{id}` → 204.
pub async fn delete_canned_reply(
    auth: Auth,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    state
        .store
        .delete_canned_reply(&auth.business_id, &path.into_inner())
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A canned reply as the API shows it.
fn canned_json(reply: &CannedReply) -> Value {
    json!({
        "id": reply.id,
        "shortcut": reply.shortcut,
        "text": reply.text,
        "updated_at": iso_time(reply.updated_at),
    })
}
