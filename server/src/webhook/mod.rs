//! The provider's webhook: the verification handshake, and POSTs of messages, receipts and
//! template decisions in the Cloud API's envelope. A POST is answered 200 only once everything in
//! it is persisted (the provider redelivers anything else, and redeliveries are deduplicated by
//! message id).
//!
//! - `routing`: the business each change is for, and the signature check with its app secret

mod routing;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

use crate::cloud::Envelope;
use crate::error::{ApiError, ApiResult};
use crate::inbound::Intake;
use crate::state::AppState;

/// Largest webhook body accepted (the provider batches up to 1000 updates).
pub const MAX_BODY: usize = 16 * 1024 * 1024;

#[derive(Deserialize)]
pub struct Handshake {
    #[serde(rename = "hub.mode")]
    mode: Option<String>,
    #[serde(rename = "hub.verify_token")]
    verify_token: Option<String>,
    #[serde(rename = "hub.challenge")]
    challenge: Option<String>,
}

/// `GET /webhook`: echoes the challenge when the verify token is one of a business's.
pub async fn verify(
    state: web::Data<AppState>,
    query: web::Query<Handshake>,
) -> ApiResult<HttpResponse> {
    let token = query.verify_token.as_deref().unwrap_or_default();
    if query.mode.as_deref() == Some("subscribe")
        && !token.is_empty()
        && state.store.verify_token_exists(token).await?
    {
        return Ok(HttpResponse::Ok()
            .content_type("text/plain")
            .body(query.challenge.clone().unwrap_or_default()));
    }
    Err(ApiError::Forbidden("Webhook verification failed".into()))
}

/// `POST /webhook`: checks the signature, reads the body and hands what it carries over.
pub async fn receive(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let signature = req
        .headers()
        .get("X-Hub-Signature-256")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::Unauthorized("Missing X-Hub-Signature-256 header".into()))?;
    let envelope = Envelope::read(&body)?;
    let batch = routing::batch(&state.store, envelope, &body, signature).await?;
    let intake = Intake {
        store: &state.store,
        bus: state.bus.as_ref(),
        conversations: &state.conversations,
        outbox: &state.outbox,
        push: &state.push,
    };
    intake.take(batch).await?;
    Ok(HttpResponse::Ok().json(json!({"status": "success"})))
}
