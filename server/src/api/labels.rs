//! Labels: the business's list (any member), the owner's create, rename, recolour and delete,
//! and the labels a conversation carries (any member).

use crate::store::Label;
use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::customer_path::customer;
use crate::api::team::{member_of, row_json};
use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult, required};
use crate::state::AppState;

/// `GET /api/labels`: the business's labels, by name.
#[utoipa::path(
    get,
    path = "/api/labels",
    tag = "labels",
    responses((status = 200, description = "The business's labels, by name", body = LabelList), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_labels(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let labels = state.store.labels(&auth.business_id).await?;
    Ok(HttpResponse::Ok().json(LabelList { labels }))
}

/// The business's labels.
#[derive(Serialize, ToSchema)]
pub struct LabelList {
    labels: Vec<Label>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct LabelBody {
    /// Required to create; 1–50 characters.
    #[schema(nullable = false, min_length = 1, max_length = 50)]
    name: Option<String>,
    /// Required to create.
    #[schema(nullable = false, pattern = r"^#[0-9A-Fa-f]{6}$")]
    color: Option<String>,
}

/// `POST /api/labels` (owner): a new label → 201.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/labels",
    tag = "labels",
    responses((status = 201, description = "The label", body = crate::store::Label), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn create_label(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<LabelBody>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let name = required(&body.name, "name")?;
    let color = required(&body.color, "color")?;
    let label = state
        .team
        .create_label(&auth.business_id, &name, &color)
        .await?;
    Ok(HttpResponse::Created().json(label))
}

/// `PATCH /api/labels/{id}` (owner): a new name and/or colour.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    patch,
    path = "/api/labels/{id}",
    tag = "labels",
    params(("id" = String, Path, description = "The label")),
    responses((status = 200, description = "The label", body = crate::store::Label), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn update_label(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    body: web::Json<LabelBody>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let label = state
        .team
        .update_label(
            &auth.business_id,
            &path,
            body.name.as_deref(),
            body.color.as_deref(),
        )
        .await?;
    Ok(HttpResponse::Ok().json(label))
}

/// `DELETE /api/labels/{id}` (owner): the label leaves every conversation → 204.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    delete,
    path = "/api/labels/{id}",
    tag = "labels",
    params(("id" = String, Path, description = "The label")),
    responses((status = 204, description = "Deleted"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn delete_label(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    state.team.delete_label(&member_of(&auth), &path).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ConversationLabelsBody {
    labels: Option<Vec<String>>,
}

/// `PUT /api/conversation/{key}/labels`: the labels the conversation carries, all at once.
#[utoipa::path(
    put,
    path = "/api/conversation/{phone}/labels",
    tag = "labels",
    params(("phone" = String, Path)),
    responses((status = 200, description = "The conversation's row", body = crate::store::ConversationJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn set_conversation_labels(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    body: web::Json<ConversationLabelsBody>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let ids = body
        .labels
        .as_deref()
        .ok_or_else(|| ApiError::Unprocessable("labels is required".into()))?;
    let row = state
        .team
        .set_labels(&member_of(&auth), &phone, ids)
        .await?;
    row_json(&state, &auth, &row).await
}
