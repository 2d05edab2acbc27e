//! Canned replies: every member of the business lists them; the owner creates, edits and
//! deletes them. A create or an edit is JSON, or a multipart form when it carries a file.

use actix_multipart::Multipart;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::canned::{self, CannedInput};
use crate::error::{ApiError, ApiResult};
use crate::multipart::Form;
use crate::state::AppState;
use crate::store::{CannedReply, iso_time};

/// The largest file read (a document); smaller kinds are held to their own limits.
const MAX_FILE: usize = 100 * 1024 * 1024;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Keeps the replies whose shortcut starts with this, ignoring case.
    q: Option<String>,
}

/// The JSON body of a create or an edit; on edit a field left out keeps its value.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct CannedForm {
    /// Required to create: one word of at most 32 characters.
    #[schema(nullable = false, pattern = r"^\S{1,32}$")]
    shortcut: Option<String>,
    #[schema(nullable = false)]
    text: Option<String>,
    #[serde(default)]
    remove_media: bool,
}

/// A create or an edit as sent: JSON, or a multipart form with the same fields and `file`.
enum CannedBody {
    Json(CannedForm),
    Form(Form),
}

impl CannedBody {
    async fn read(req: &HttpRequest, payload: web::Payload) -> actix_web::Result<CannedBody> {
        let multipart = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("multipart/"));
        if multipart {
            let form = Form::read(Multipart::new(req.headers(), payload), MAX_FILE)
                .await
                .map_err(ApiError::from)?;
            return Ok(CannedBody::Form(form));
        }
        let json = web::Json::<CannedForm>::from_request(req, &mut payload.into_inner()).await?;
        Ok(CannedBody::Json(json.into_inner()))
    }

    /// Its fields; `remove_media` is `true` or `false` in a form.
    fn input(&self) -> ApiResult<CannedInput<'_>> {
        Ok(match self {
            CannedBody::Json(body) => CannedInput {
                shortcut: body.shortcut.as_deref(),
                text: body.text.as_deref(),
                file: None,
                remove_media: body.remove_media,
            },
            CannedBody::Form(form) => CannedInput {
                shortcut: form
                    .part("shortcut")
                    .and_then(|p| std::str::from_utf8(&p.bytes).ok()),
                text: form
                    .part("text")
                    .and_then(|p| std::str::from_utf8(&p.bytes).ok()),
                file: form.chosen_file("file"),
                remove_media: match form.text("remove_media").as_deref() {
                    None | Some("false") => false,
                    Some("true") => true,
                    Some(_) => {
                        return Err(ApiError::Unprocessable(
                            "remove_media must be true or false".into(),
                        ));
                    }
                },
            },
        })
    }
}

/// `GET /api/canned-replies?q=`
#[utoipa::path(
    get,
    path = "/api/canned-replies",
    tag = "canned",
    params(crate::api::canned::ListQuery),
    responses((status = 200, description = "The canned replies", body = CannedList), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_canned_replies(
    auth: Auth,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let replies = state.store.canned_replies(&auth.business_id).await?;
    let replies = canned::starting_with(replies, query.q.as_deref());
    Ok(HttpResponse::Ok().json(CannedList {
        canned_replies: replies.iter().map(canned_json).collect(),
    }))
}

/// The canned replies, by shortcut.
#[derive(Serialize, ToSchema)]
pub struct CannedList<'a> {
    canned_replies: Vec<CannedJson<'a>>,
}

/// `POST /api/canned-replies` → 201 with the reply.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/canned-replies",
    tag = "canned",
    request_body(content((crate::api::canned::CannedForm = "application/json"), (crate::api::described::CannedUpload = "multipart/form-data"))),
    responses((status = 201, description = "The canned reply", body = CannedJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn create_canned_reply(
    auth: Auth,
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> actix_web::Result<HttpResponse> {
    auth.require_owner()?;
    let body = CannedBody::read(&req, payload).await?;
    let data_dir = &state.settings.server.data_dir;
    let saved = canned::create(&state.store, data_dir, &auth.business_id, body.input()?)
        .await
        .map_err(ApiError::from)?;
    Ok(HttpResponse::Created().json(canned_json(&saved)))
}

/// `PATCH /api/canned-replies/{id}`
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    patch,
    path = "/api/canned-replies/{id}",
    tag = "canned",
    params(("id" = String, Path, description = "The canned reply")),
    request_body(content((crate::api::canned::CannedForm = "application/json"), (crate::api::described::CannedUpload = "multipart/form-data"))),
    responses((status = 200, description = "The canned reply", body = CannedJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn update_canned_reply(
    auth: Auth,
    state: web::Data<AppState>,
    path: web::Path<String>,
    req: HttpRequest,
    payload: web::Payload,
) -> actix_web::Result<HttpResponse> {
    auth.require_owner()?;
    let body = CannedBody::read(&req, payload).await?;
    let data_dir = &state.settings.server.data_dir;
    let id = path.into_inner();
    let saved = canned::update(
        &state.store,
        data_dir,
        &auth.business_id,
        &id,
        body.input()?,
    )
    .await
    .map_err(ApiError::from)?;
    Ok(HttpResponse::Ok().json(canned_json(&saved)))
}

/// `DELETE /api/canned-replies/{id}` → 204.
#[utoipa::path(
    delete,
    path = "/api/canned-replies/{id}",
    tag = "canned",
    params(("id" = String, Path, description = "The canned reply")),
    responses((status = 204, description = "Deleted"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
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
fn canned_json(reply: &CannedReply) -> CannedJson<'_> {
    CannedJson {
        id: &reply.id,
        shortcut: &reply.shortcut,
        text: &reply.text,
        media: reply.media.as_ref().map(|file| CannedFile {
            id: &file.id,
            mime_type: &file.mime_type,
            filename: &file.filename,
            size: file.size,
        }),
        updated_at: iso_time(reply.updated_at),
    }
}

/// A canned reply.
#[derive(Serialize, ToSchema)]
pub struct CannedJson<'a> {
    id: &'a str,
    shortcut: &'a str,
    text: &'a str,
    media: Option<CannedFile<'a>>,
    /// ISO 8601.
    updated_at: String,
}

/// A canned reply's file, served by `GET /api/media/{id}`.
#[derive(Serialize, ToSchema)]
pub struct CannedFile<'a> {
    id: &'a str,
    mime_type: &'a str,
    filename: &'a str,
    size: i64,
}
