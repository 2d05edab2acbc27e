//! Sending (`POST /api/send-message`), the user's config, and media files.

use actix_files::NamedFile;
use actix_multipart::form::{MultipartForm, tempfile::TempFile, text::Text};
use actix_web::{HttpRequest, HttpResponse, web};
use parley_actors::conversation::{ConversationKey, OutgoingMessage};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::auth::extract::Auth;
use crate::customer::CustomerKey;
use crate::error::{ApiError, ApiResult, non_blank};
use crate::media::{check_upload, store_file};
use crate::outbox::{Delivery, UPLOAD_KEY};
use crate::state::AppState;
use crate::store::now_ms;

/// The Cloud API's longest text message.
const MAX_TEXT: usize = 4096;
/// The Cloud API's longest media caption.
const MAX_CAPTION: usize = 1024;
/// How long after the customer's last message free-form messages may be sent.
const WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

#[derive(MultipartForm)]
pub struct SendForm {
    to: Option<Text<String>>,
    message_id: Option<Text<String>>,
    #[multipart(rename = "phoneNumber")]
    phone_number: Option<Text<String>>,
    #[multipart(rename = "phoneNumberId")]
    phone_number_id: Option<Text<String>>,
    message_type: Option<Text<String>>,
    text: Option<Text<String>>,
    caption: Option<Text<String>>,
    filename: Option<Text<String>>,
    file: Option<TempFile>,
}

fn text_of(field: &Option<Text<String>>) -> Option<String> {
    non_blank(&field.as_ref().map(|t| t.0.clone()))
}

fn accepted(id: &str, media_url: &Option<String>) -> HttpResponse {
    HttpResponse::Ok().json(json!({
        "status": "success",
        "response": {"messaging_product": "whatsapp", "messages": [{"id": id}]},
        "media_url": media_url,
    }))
}

/// `POST /api/send-message` (multipart). Idempotent on `message_id`: a retry answers what the
/// first call did, and never sends twice.
pub async fn send_message(
    state: web::Data<AppState>,
    auth: Auth,
    form: MultipartForm<SendForm>,
) -> ApiResult<HttpResponse> {
    let form = form.into_inner();
    let to = text_of(&form.to)
        .or_else(|| text_of(&form.phone_number))
        .ok_or_else(|| ApiError::Unprocessable("to is required".into()))?;
    let phone = CustomerKey::parse(&to).map(CustomerKey::into_string)?;
    let business = state.store.business(&auth.business_id).await?;
    if let Some(pnid) = text_of(&form.phone_number_id)
        && business.phone_number_id.as_deref() != Some(pnid.as_str())
    {
        return Err(ApiError::Forbidden(
            "phoneNumberId is not this business's number".into(),
        ));
    }
    let client_id = text_of(&form.message_id).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let last_incoming = state
        .store
        .last_incoming_at(&auth.business_id, &phone)
        .await?;
    if last_incoming.is_none_or(|at| now_ms() - at > WINDOW_MS) {
        return Err(ApiError::Unprocessable(
            "The 24-hour reply window with this customer is closed: they have not written in the \
             last 24 hours. Send an approved template instead."
                .into(),
        ));
    }
    let user = state.store.user(&auth.business_id, &auth.user_id).await?;
    let sender_name = format!("{} {}", user.first_name, user.last_name)
        .trim()
        .to_string();
    let text = text_of(&form.text);
    let caption = text_of(&form.caption).or_else(|| text.clone().filter(|_| form.file.is_some()));
    let mut media_url = None;
    let (kind, content, payload) = match &form.file {
        Some(file) => {
            let bytes = tokio::fs::read(file.file.path())
                .await
                .map_err(anyhow::Error::from)?;
            let claimed = text_of(&form.message_type);
            let (mime, media_kind) = check_upload(&bytes, claimed.as_deref())?;
            if caption
                .as_ref()
                .is_some_and(|c| c.chars().count() > MAX_CAPTION)
            {
                return Err(ApiError::Unprocessable(format!(
                    "caption is longer than {MAX_CAPTION} characters"
                )));
            }
            let filename = text_of(&form.filename)
                .or_else(|| file.file_name.clone())
                .unwrap_or_else(|| {
                    format!(
                        "{}.{}",
                        media_kind.name(),
                        mime.rsplit('/').next().unwrap_or("bin")
                    )
                });
            // Named after the client id, so a retried upload overwrites instead of piling up.
            let media_id = hex::encode(Sha256::digest(format!("{}:{client_id}", auth.business_id)))
                [..32]
                .to_string();
            store_file(
                &state.store,
                &state.settings.server.data_dir,
                &auth.business_id,
                &media_id,
                &bytes,
                mime,
                &filename,
            )
            .await?;
            let url = format!("/api/media/{media_id}");
            media_url = Some(url.clone());
            let name = media_kind.name();
            // The id is filled in by the outbox once the file is uploaded to the provider.
            let mut body = json!({"id": ""});
            let mut shown = json!({"media_url": url, "mime_type": mime, "filename": filename});
            if name == "document" {
                body["filename"] = json!(filename);
            }
            if name != "audio"
                && let Some(caption) = &caption
            {
                body["caption"] = json!(caption);
            }
            if name == "audio" {
                shown["voice"] = json!(mime == "audio/ogg");
            }
            let mut content = json!({ name: shown });
            if let Some(caption) = &caption {
                content["caption"] = json!(caption);
            }
            let payload = json!({
                "messaging_product": "whatsapp", "recipient_type": "individual", "to": phone,
                "type": name, name: body,
                UPLOAD_KEY: {"media_id": media_id, "pointer": format!("/{name}/id")},
            });
            (name.to_string(), content, payload)
        }
        None => {
            let text =
                text.ok_or_else(|| ApiError::Unprocessable("text or file is required".into()))?;
            if text.chars().count() > MAX_TEXT {
                return Err(ApiError::Unprocessable(format!(
                    "text is longer than {MAX_TEXT} characters"
                )));
            }
            let payload = json!({
                "messaging_product": "whatsapp", "recipient_type": "individual", "to": phone,
                "type": "text", "text": {"preview_url": true, "body": text},
            });
            ("text".to_string(), json!({"text": text}), payload)
        }
    };
    let key = ConversationKey {
        business_id: auth.business_id.clone(),
        phone,
    };
    let message = OutgoingMessage {
        client_id: client_id.clone(),
        kind,
        content,
        sender_name,
        payload,
    };
    Ok(delivery_response(
        state.outbox.send(key, message).await?,
        &media_url,
    ))
}

/// The HTTP answer to a delivery: 200 with the provider's id, 202 queued, or the refusal.
pub fn delivery_response(delivery: Delivery, media_url: &Option<String>) -> HttpResponse {
    match delivery {
        Delivery::Accepted(id) => accepted(&id, media_url),
        Delivery::Queued { id, reason } => queued(&id, &reason, media_url),
        Delivery::Refused(err) => actix_web::ResponseError::error_response(&err),
    }
}

/// 202: stored and queued; the outbox keeps trying and status events follow.
fn queued(id: &str, reason: &str, media_url: &Option<String>) -> HttpResponse {
    HttpResponse::Accepted().json(json!({
        "status": "queued",
        "detail": format!("Stored; the provider has not accepted it yet ({reason}). It will be retried."),
        "response": {"messaging_product": "whatsapp", "messages": [{"id": id}]},
        "media_url": media_url,
    }))
}

/// `GET /api/config`.
pub async fn get_config(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let business = state.store.business(&auth.business_id).await?;
    Ok(HttpResponse::Ok()
        .json(json!({"phoneNumberId": business.phone_number_id.unwrap_or_default()})))
}

/// `GET /api/media/{id}`: a file of the caller's business (bearer or `?token=`), with range
/// requests for audio and video. Inbound media not kept yet is fetched from the provider first.
pub async fn get_media(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let auth = Auth::from_header_or_query(&req)?;
    let id = path.into_inner();
    if id.is_empty()
        || id.len() > 128
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::NotFound("Media not found".into()));
    }
    let file = match state.store.media(&auth.business_id, &id).await? {
        Some(file) => file,
        None => {
            state
                .outbox
                .fetch_inbound_media(&auth.business_id, &id)
                .await?
        }
    };
    let named = NamedFile::open_async(state.settings.server.data_dir.join(&file.path))
        .await
        .map_err(|_| ApiError::NotFound("Media not found".into()))?
        .set_content_type(
            file.mime_type
                .parse()
                .unwrap_or(mime::APPLICATION_OCTET_STREAM),
        )
        .use_etag(true);
    Ok(named.into_response(&req))
}
