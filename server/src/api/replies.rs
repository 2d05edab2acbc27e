//! Automated replies: list, create, edit, delete, and a reply's flow steps.

use std::collections::HashSet;

use actix_multipart::Multipart;
use actix_web::{HttpResponse, web};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::multipart::Form;
use crate::replies::form::{MediaChoice, Plan, StepPlan, Upload, plan};
use crate::state::AppState;
use crate::store::{
    FlowStep, MediaFile, QuickReplyButton, Reply, ReplyMedia, iso_time, trigger_key,
};

/// The largest file a reply sends (a document); smaller types are checked by the form rules.
const MAX_FILE: usize = 100 * 1024 * 1024;

/// `GET /api/automated-replies/`
#[utoipa::path(
    get,
    path = "/api/automated-replies",
    tag = "replies",
    responses((status = 200, description = "The automated replies", body = Vec<ReplyJson>), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_replies(auth: Auth, state: web::Data<AppState>) -> ApiResult<HttpResponse> {
    let replies = state.store.replies(&auth.business_id).await?;
    Ok(HttpResponse::Ok().json(replies.iter().map(reply_json).collect::<Vec<_>>()))
}

/// `POST /api/automated-replies/` (multipart) → 201 with the reply.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/automated-replies",
    tag = "replies",
    request_body(content = serde_json::Value, content_type = "multipart/form-data", description = "The reply's fields, media files as parts"),
    responses((status = 201, description = "The reply", body = ReplyJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn create_reply(
    auth: Auth,
    state: web::Data<AppState>,
    payload: Multipart,
) -> ApiResult<HttpResponse> {
    let form = Form::read(payload, MAX_FILE).await?;
    let others = trigger_keys(&state, &auth.business_id, None).await?;
    let plan = plan(&form, None, &others)?;
    let id = uuid::Uuid::new_v4().to_string();
    let saved = save(&state, &auth.business_id, &id, plan, true).await?;
    Ok(HttpResponse::Created().json(reply_json(&saved)))
}

/// `PATCH /api/automated-replies/{id}` (multipart): fields left out keep their values.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    patch,
    path = "/api/automated-replies/{id}",
    tag = "replies",
    params(("id" = String, Path, description = "The automated reply")),
    request_body(content = serde_json::Value, content_type = "multipart/form-data", description = "Fields left out keep their values"),
    responses((status = 200, description = "The reply", body = ReplyJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn update_reply(
    auth: Auth,
    state: web::Data<AppState>,
    path: web::Path<String>,
    payload: Multipart,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let current = state.store.reply(&auth.business_id, &id).await?;
    let steps = state.store.flow_steps(&auth.business_id, &id).await?;
    let form = Form::read(payload, MAX_FILE).await?;
    let others = trigger_keys(&state, &auth.business_id, Some(&id)).await?;
    let plan = plan(&form, Some((&current, &steps)), &others)?;
    let saved = save(&state, &auth.business_id, &id, plan, false).await?;
    Ok(HttpResponse::Ok().json(reply_json(&saved)))
}

/// `DELETE /api/automated-replies/{id}`
#[utoipa::path(
    delete,
    path = "/api/automated-replies/{id}",
    tag = "replies",
    params(("id" = String, Path, description = "The automated reply")),
    responses((status = 200, description = "Deleted", body = ReplyDeleted), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn delete_reply(
    auth: Auth,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    state
        .store
        .delete_reply(&auth.business_id, &path.into_inner())
        .await?;
    Ok(HttpResponse::Ok().json(ReplyDeleted {
        message: "Automated reply deleted",
    }))
}

/// A deleted automated reply.
#[derive(Serialize, ToSchema)]
pub struct ReplyDeleted {
    /// Always `Automated reply deleted`.
    message: &'static str,
}

/// `GET /api/automated-replies/{id}/flows`
#[utoipa::path(
    get,
    path = "/api/automated-replies/{id}/flows",
    tag = "replies",
    params(("id" = String, Path, description = "The automated reply")),
    responses((status = 200, description = "The flow steps", body = Vec<StepJson>), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_flow_steps(
    auth: Auth,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    state.store.reply(&auth.business_id, &id).await?;
    let steps = state.store.flow_steps(&auth.business_id, &id).await?;
    Ok(HttpResponse::Ok().json(steps.iter().map(step_json).collect::<Vec<_>>()))
}

/// Trigger keys of the business's replies other than `except`.
async fn trigger_keys(
    state: &AppState,
    business_id: &str,
    except: Option<&str>,
) -> ApiResult<HashSet<String>> {
    let replies = state.store.replies(business_id).await?;
    Ok(replies
        .iter()
        .filter(|r| Some(r.id.as_str()) != except)
        .map(|r| trigger_key(&r.trigger))
        .collect())
}

/// Writes the plan's uploads under the data dir, then stores the reply with them.
async fn save(
    state: &AppState,
    business_id: &str,
    id: &str,
    plan: Plan<'_>,
    create: bool,
) -> ApiResult<Reply> {
    let mut files = Vec::new();
    let media = materialise(state, business_id, plan.media, &mut files).await?;
    let steps = match plan.steps {
        Some(planned) => {
            let mut steps = Vec::with_capacity(planned.len());
            for StepPlan {
                trigger,
                response_text,
                caption,
                buttons,
                media,
            } in planned
            {
                let media = materialise(state, business_id, media, &mut files).await?;
                steps.push(FlowStep {
                    reply_id: id.to_string(),
                    trigger,
                    response_text,
                    caption,
                    quick_reply_buttons: buttons,
                    media,
                });
            }
            Some(steps)
        }
        None => None,
    };
    let reply = Reply {
        id: id.to_string(),
        trigger: plan.trigger,
        kind: plan.kind,
        response_text: plan.response_text,
        caption: plan.caption,
        is_active: plan.is_active,
        is_default: plan.is_default,
        cooldown_hours: plan.cooldown_hours,
        match_mode: plan.match_mode,
        quick_reply_buttons: plan.buttons,
        media,
        interactive: plan.interactive,
        flow_step_count: 0,
        updated_at: 0,
    };
    let saved = state
        .store
        .save_reply(business_id, &reply, steps.as_deref(), &files, create)
        .await;
    if saved.is_err() {
        // Nothing refers to the files written for a save that failed.
        for file in &files {
            let _ = tokio::fs::remove_file(state.settings.server.data_dir.join(&file.path)).await;
        }
    }
    Ok(saved?)
}

/// A new upload is written to `<data_dir>/media/<business_id>/<uuid>` and noted in `files`.
async fn materialise(
    state: &AppState,
    business_id: &str,
    choice: MediaChoice<'_>,
    files: &mut Vec<MediaFile>,
) -> ApiResult<Option<ReplyMedia>> {
    let Upload {
        part,
        mime_type,
        media_type,
    } = match choice {
        MediaChoice::Keep(kept) => return Ok(kept),
        MediaChoice::New(upload) => upload,
    };
    let id = uuid::Uuid::new_v4().to_string();
    let relative = format!("media/{business_id}/{id}");
    let path = state.settings.server.data_dir.join(&relative);
    if let Some(dir) = path.parent() {
        tokio::fs::create_dir_all(dir).await.map_err(|e| {
            ApiError::Internal(anyhow::Error::new(e).context("Failed to create the media dir"))
        })?;
    }
    tokio::fs::write(&path, &part.bytes).await.map_err(|e| {
        ApiError::Internal(anyhow::Error::new(e).context("Failed to write a media file"))
    })?;
    files.push(MediaFile {
        id: id.clone(),
        mime_type: mime_type.to_string(),
        size: part.size() as i64,
        filename: part.filename.clone().unwrap_or_default(),
        path: relative,
    });
    Ok(Some(ReplyMedia {
        id,
        media_type: media_type.to_string(),
    }))
}

/// Whole hours as an integer, so `2` reads back as `2`, not `2.0`.
fn hours_json(hours: f64) -> Value {
    if hours.fract() == 0.0 && hours.abs() < 1e15 {
        json!(hours as i64)
    } else {
        json!(hours)
    }
}

/// A reply as the API shows it.
fn reply_json(reply: &Reply) -> ReplyJson<'_> {
    ReplyJson {
        id: &reply.id,
        trigger: &reply.trigger,
        kind: &reply.kind,
        response_text: &reply.response_text,
        caption: &reply.caption,
        is_active: reply.is_active,
        is_default: reply.is_default,
        cooldown_hours: hours_json(reply.cooldown_hours),
        match_mode: reply.match_mode.as_str(),
        quick_reply_buttons: &reply.quick_reply_buttons,
        media_url: reply.media.as_ref().map(ReplyMedia::url),
        media_type: reply.media.as_ref().map(|m| m.media_type.as_str()),
        interactive: reply.interactive.as_ref(),
        flow_step_count: reply.flow_step_count,
        updated_at: iso_time(reply.updated_at),
    }
}

/// An automated reply.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplyJson<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    trigger: &'a str,
    /// `text`, `image`, `video`, `document`, `audio`, `interactive`, …
    #[serde(rename = "type")]
    kind: &'a str,
    response_text: &'a str,
    caption: &'a str,
    is_active: bool,
    is_default: bool,
    /// Hours before the same customer gets it again (a whole number reads back as one).
    #[schema(value_type = f64)]
    cooldown_hours: Value,
    /// `exact`, `contains` or `starts_with`.
    match_mode: &'a str,
    quick_reply_buttons: &'a [QuickReplyButton],
    /// `GET /api/media/{id}` of its file.
    media_url: Option<String>,
    media_type: Option<&'a str>,
    /// The interactive message as the provider takes it: free-form on purpose.
    #[schema(value_type = Option<Object>)]
    interactive: Option<&'a Value>,
    flow_step_count: i64,
    /// ISO 8601.
    updated_at: String,
}

fn step_json(step: &FlowStep) -> StepJson<'_> {
    StepJson {
        trigger: &step.trigger,
        response_text: &step.response_text,
        caption: &step.caption,
        quick_reply_buttons: &step.quick_reply_buttons,
        media_url: step.media.as_ref().map(ReplyMedia::url),
        media_type: step.media.as_ref().map(|m| m.media_type.as_str()),
    }
}

/// A step of a reply's flow: what a button's press answers.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepJson<'a> {
    trigger: &'a str,
    response_text: &'a str,
    caption: &'a str,
    quick_reply_buttons: &'a [QuickReplyButton],
    /// `GET /api/media/{id}` of its file.
    media_url: Option<String>,
    media_type: Option<&'a str>,
}
