//! Sending (`POST /api/send-message`), the user's config, and media files.

use actix_files::NamedFile;
use actix_multipart::form::{MultipartForm, tempfile::TempFile, text::Text};
use actix_web::{HttpRequest, HttpResponse, web};
use parley_actors::conversation::{Amend, Amended, Amendment, ConversationKey, Side};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::ToSchema;

use crate::api::customer_path::customer;
use crate::api::media;
use crate::api::team::member_of;
use crate::auth::extract::Auth;
use crate::customer_file;
use crate::error::{ApiError, ApiResult, non_blank};
use crate::multipart::check_texts;
use crate::outbox::Delivery;
use crate::sending::{MessageRequest, Upload};
use crate::state::AppState;
use crate::store::now_ms;

#[derive(MultipartForm, utoipa::ToSchema)]
pub struct SendForm {
    #[schema(value_type = Option<String>)]
    to: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    message_id: Option<Text<String>>,
    #[multipart(rename = "phoneNumber")]
    #[schema(value_type = Option<String>, rename = "phoneNumber")]
    phone_number: Option<Text<String>>,
    #[multipart(rename = "phoneNumberId")]
    #[schema(value_type = Option<String>, rename = "phoneNumberId")]
    phone_number_id: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    message_type: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    text: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    caption: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    filename: Option<Text<String>>,
    #[schema(value_type = Option<Vec<u8>>, format = Binary)]
    file: Option<TempFile>,
    /// `true` lets an agent answer a conversation someone else holds, taking it over.
    #[schema(value_type = Option<String>)]
    take_over: Option<Text<String>>,
    /// The `message_id` of the conversation's message this one answers (a quoted reply).
    #[schema(value_type = Option<String>)]
    context_message_id: Option<Text<String>>,
}

fn text_of(field: &Option<Text<String>>) -> Option<String> {
    non_blank(&field.as_ref().map(|t| t.0.clone()))
}

/// A send's answer: accepted by the provider (`success`), or stored and queued (`queued`).
#[derive(Serialize, ToSchema)]
pub struct Sent<'a> {
    /// `success` or `queued`.
    status: &'static str,
    /// Why it is queued (only when queued).
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    response: ProviderAnswer<'a>,
    /// Where the sent file can be fetched, for media messages.
    media_url: &'a Option<String>,
}

/// The message's id in the Cloud API's own answer shape.
#[derive(Serialize, ToSchema)]
pub struct ProviderAnswer<'a> {
    /// Always `whatsapp`.
    messaging_product: &'static str,
    /// One entry: the message's id.
    messages: [MessageRef<'a>; 1],
}

/// A message by id.
#[derive(Serialize, ToSchema)]
pub struct MessageRef<'a> {
    id: &'a str,
}

impl<'a> Sent<'a> {
    fn new(status: &'static str, id: &'a str, media_url: &'a Option<String>) -> Self {
        Sent {
            status,
            detail: None,
            response: ProviderAnswer {
                messaging_product: "whatsapp",
                messages: [MessageRef { id }],
            },
            media_url,
        }
    }
}

fn accepted(id: &str, media_url: &Option<String>) -> HttpResponse {
    HttpResponse::Ok().json(Sent::new("success", id, media_url))
}

/// The longest client id of a message (`message_id`; clients send a UUID). It is the message's
/// key until the provider's id replaces it, and Postgres indexes keys of at most about 2.7 KB.
const CLIENT_ID_MAX: usize = 128;

/// The kinds of message `send-message` sends; another `message_type` is refused, not sent as
/// a text.
const MESSAGE_TYPES: [&str; 5] = ["text", "image", "video", "audio", "document"];

/// `POST /api/send-message` (multipart). Idempotent on `message_id`: a retry answers what the
/// first call did, and never sends twice.
#[utoipa::path(
    post,
    path = "/api/send-message",
    tag = "messages",
    request_body(content = crate::api::messages::SendForm, content_type = "multipart/form-data", description = "A text, or a file with its type and caption"),
    responses((status = 200, description = "Accepted by the provider", body = Sent), (status = 202, description = "Stored and queued", body = Sent), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn send_message(
    state: web::Data<AppState>,
    auth: Auth,
    form: MultipartForm<SendForm>,
) -> ApiResult<HttpResponse> {
    let form = form.into_inner();
    check_texts([
        ("to", &form.to),
        ("message_id", &form.message_id),
        ("phoneNumber", &form.phone_number),
        ("phoneNumberId", &form.phone_number_id),
        ("message_type", &form.message_type),
        ("text", &form.text),
        ("caption", &form.caption),
        ("filename", &form.filename),
        ("take_over", &form.take_over),
        ("context_message_id", &form.context_message_id),
    ])?;
    if text_of(&form.message_id).is_some_and(|id| id.chars().count() > CLIENT_ID_MAX) {
        return Err(ApiError::Unprocessable(format!(
            "message_id must be at most {CLIENT_ID_MAX} characters"
        )));
    }
    if let Some(kind) = text_of(&form.message_type)
        && !MESSAGE_TYPES.contains(&kind.as_str())
    {
        return Err(ApiError::Unprocessable(format!(
            "message_type must be one of {}, not {kind:?}",
            MESSAGE_TYPES.join(", ")
        )));
    }
    let to = text_of(&form.to)
        .or_else(|| text_of(&form.phone_number))
        .ok_or_else(|| ApiError::Unprocessable("to is required".into()))?;
    let file = match &form.file {
        Some(file) => Some(read_upload(file, text_of(&form.filename)).await?),
        None => None,
    };
    let to = customer(&state, &auth.business_id, &to).await?;
    let take_over = text_of(&form.take_over).as_deref() == Some("true");
    state
        .team
        .check_send(&member_of(&auth), to.as_str(), take_over)
        .await?;
    let request = MessageRequest {
        to,
        client_id: text_of(&form.message_id).unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
        phone_number_id: text_of(&form.phone_number_id),
        text: text_of(&form.text),
        caption: text_of(&form.caption),
        claimed_kind: text_of(&form.message_type),
        file,
        reply_to: text_of(&form.context_message_id),
    };
    let sent = state
        .sending
        .send_message(&auth.business_id, &auth.user_id, request)
        .await?;
    Ok(delivery_response(sent.delivery, &sent.media_url))
}

/// The body of `POST /api/conversation/{phone}/messages/{message_id}/reaction`.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ReactionBody {
    /// The emoji; empty takes the business's reaction off.
    emoji: String,
}

/// `POST /api/conversation/{phone}/messages/{message_id}/reaction`: the business's emoji on a
/// message, sent to the customer and then shown on the message (`message_updated`).
#[utoipa::path(
    post,
    path = "/api/conversation/{phone}/messages/{message_id}/reaction",
    tag = "messages",
    params(("phone" = String, Path), ("message_id" = String, Path, description = "The message reacted to")),
    responses((status = 200, description = "The reaction's id", body = Reacted), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn react_to_message(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<(String, String)>,
    body: web::Json<ReactionBody>,
) -> ApiResult<HttpResponse> {
    let (phone, message_id) = path.into_inner();
    let to = customer(&state, &auth.business_id, &phone).await?;
    state
        .team
        .check_send(&member_of(&auth), to.as_str(), false)
        .await?;
    let emoji = body.into_inner().emoji;
    let id = state
        .sending
        .send_reaction(&auth.business_id, &to, &message_id, &emoji)
        .await?;
    let amendment = Amendment {
        id: id.clone(),
        original_id: message_id,
        by: Side::Business,
        timestamp_ms: now_ms(),
        now: Amended::Reacted { emoji },
        profile: Default::default(),
    };
    let key = ConversationKey {
        business_id: auth.business_id.clone(),
        phone: to.into_string(),
    };
    state
        .conversations
        .ask(&key, Amend(Arc::new(amendment)))
        .await
        .and_then(|r| r)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("reaction not recorded: {e}")))?;
    Ok(HttpResponse::Ok().json(Reacted {
        status: "success",
        reaction_id: &id,
    }))
}

/// A reaction's answer: the id of the reaction message.
#[derive(Serialize, ToSchema)]
pub struct Reacted<'a> {
    /// Always `success`.
    status: &'static str,
    reaction_id: &'a str,
}

/// An uploaded file read from its temporary file; `filename` names it when the form did.
pub async fn read_upload(file: &TempFile, filename: Option<String>) -> ApiResult<Upload> {
    let bytes = tokio::fs::read(file.file.path())
        .await
        .map_err(anyhow::Error::from)?;
    Ok(Upload {
        bytes,
        filename: filename.or_else(|| file.file_name.clone()),
    })
}

/// The HTTP answer to a delivery: 200 with the provider's id, 202 queued, or the refusal.
pub fn delivery_response(delivery: Delivery, media_url: &Option<String>) -> HttpResponse {
    match delivery {
        Delivery::Accepted(id) => accepted(&id, media_url),
        Delivery::Queued { id, reason } => queued(&id, &reason, media_url),
        Delivery::Refused(err) => actix_web::ResponseError::error_response(&ApiError::from(err)),
    }
}

/// 202: stored and queued; the outbox keeps trying and status events follow.
fn queued(id: &str, reason: &str, media_url: &Option<String>) -> HttpResponse {
    HttpResponse::Accepted().json(Sent {
        detail: Some(format!(
            "Stored; the provider has not accepted it yet ({reason}). It will be retried."
        )),
        ..Sent::new("queued", id, media_url)
    })
}

/// `GET /api/config`.
#[utoipa::path(
    get,
    path = "/api/config",
    tag = "messages",
    responses((status = 200, description = "The business's number", body = UserConfig), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn get_config(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let business = state.store.business(&auth.business_id).await?;
    // The country of the business's own number: the sender's default for numbers typed
    // without a country code.
    let region = business.region().map(|r| r.as_ref().to_string());
    Ok(HttpResponse::Ok().json(UserConfig {
        phone_number_id: business.phone_number_id.unwrap_or_default(),
        default_region: region,
    }))
}

/// What the web app needs to know of the business's number.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserConfig {
    /// The business's WhatsApp number id (empty before it is set).
    phone_number_id: String,
    /// The country of that number (`DE`, `EG`, …), for numbers typed without a country code.
    default_region: Option<String>,
}

/// `GET /api/media/{id}`: a file of the caller's business (bearer or `?token=`, or a share
/// link's `exp` and `sig`), with range requests for audio and video. Inbound media not kept yet
/// is fetched from the provider first. Served as `customer_file` says: never as a page that
/// could run script in Parley's origin.
#[utoipa::path(
    method(get, head),
    path = "/api/media/{id}",
    tag = "media",
    params(("id" = String, Path, description = "The media file"), ("token" = Option<String>, Query, description = "An access token"), ("exp" = Option<String>, Query, description = "A share link's expiry"), ("sig" = Option<String>, Query, description = "A share link's signature")),
    responses((status = 200, description = "The file", body = Vec<u8>, content_type = "application/octet-stream"), (status = 206, description = "Part of the file", body = Vec<u8>, content_type = "application/octet-stream"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn get_media(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = path.into_inner();
    let business_id = match media::link_owner(&state, &req, &id).await? {
        Some(owner) => owner,
        None => Auth::from_header_or_query(&req).await?.business_id,
    };
    media::check_id(&id)?;
    let file = match state.store.media(&business_id, &id).await? {
        Some(file) => file,
        None => state.outbox.fetch_inbound_media(&business_id, &id).await?,
    };
    let named = NamedFile::open_async(state.settings.server.data_dir.join(&file.path))
        .await
        .map_err(|_| ApiError::NotFound("Media not found".into()))?
        .use_etag(true);
    let mut response = named.into_response(&req);
    customer_file::protect(&mut response, &file.mime_type, &file.filename);
    Ok(response)
}
