//! Live pushes over SSE (`/api/events/stream/…`); the WebSocket (`/api/ws`) is in `ws`. Both are
//! fronted by a `SessionActor`; these handlers only wire sockets to it.

use std::time::Duration;

use actix::Actor;
use actix_web::http::header::ContentEncoding;
use actix_web::{HttpRequest, HttpResponse, web};
use parley_actors::events::{NOTIFICATIONS, user_channel};
use parley_actors::hub::CloseChannel;
use parley_actors::queue;
use parley_actors::session::{Frame, SessionActor, SessionSetup, Transport};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult, required};
use crate::state::AppState;
use crate::store::now_ms;

/// A session for the caller and the queue its frames come out of.
pub(super) async fn setup(
    state: &AppState,
    auth: Auth,
    transport: Transport,
    mut channels: Vec<String>,
    resume_from: Option<i64>,
) -> (SessionSetup, queue::Receiver<Frame>) {
    // Mentions reach every session of the user that carries the business's notifications.
    if transport == Transport::WebSocket || channels.iter().any(|c| c == NOTIFICATIONS) {
        channels.push(user_channel(&auth.user_id));
    }
    // The name others see beside this session's presence; an account gone since the token was
    // issued shows none.
    let name = match state.store.user(&auth.business_id, &auth.user_id).await {
        Ok(user) => user.full_name(),
        Err(_) => String::new(),
    };
    let (out, frames) = queue::bounded(state.settings.realtime.session_queue_len.max(2));
    // A token is refused once the clock passes `exp`, i.e. from the next whole second.
    let expires_in_ms = (auth.expires_at as i64 + 1) * 1000 - now_ms();
    let setup = SessionSetup {
        business_id: auth.business_id,
        user_id: auth.user_id,
        name,
        bus: state.bus.clone(),
        transport,
        hub: state.hub.downgrade(),
        log: state.event_log.clone(),
        out,
        channels,
        expires_in: Duration::from_millis(expires_in_ms.max(0) as u64),
        resume_from,
    };
    (setup, frames)
}

/// An SSE response fed by a session's frames; a `Close` frame is the last one.
fn sse_response(frames: queue::Receiver<Frame>) -> HttpResponse {
    // `None` marks a stream that has sent its close event.
    let body = futures_util::stream::unfold(Some(frames), |frames| async move {
        let mut frames = frames?;
        let (chunk, rest) = match frames.recv().await? {
            Frame::Text(text) => (text.into(), Some(frames)),
            Frame::Ping => (web::Bytes::from_static(b": ping\n\n"), Some(frames)),
            Frame::Close(reason) => {
                let data = json!({ "reason": reason });
                (format!("event: close\ndata: {data}\n\n").into(), None)
            }
        };
        Some((Ok::<_, actix_web::Error>(chunk), rest))
    });
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        // Compression would hold events back in its buffer.
        .insert_header(ContentEncoding::Identity)
        .streaming(body)
}

fn last_event_id(req: &HttpRequest) -> Option<i64> {
    req.headers()
        .get("Last-Event-ID")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

async fn open_stream(
    state: &AppState,
    req: &HttpRequest,
    channel: String,
) -> ApiResult<HttpResponse> {
    let auth = Auth::from_header_or_query(req).await?;
    let (setup, frames) = setup(
        state,
        auth,
        Transport::Sse,
        vec![channel],
        last_event_id(req),
    )
    .await;
    SessionActor::new(setup).start();
    Ok(sse_response(frames))
}

/// `GET /api/events/stream/notifications/all?token=`.
#[utoipa::path(
    get,
    path = "/api/events/stream/notifications/all",
    tag = "events",
    params(("token" = Option<String>, Query, description = "An access token, for clients that cannot set headers")),
    responses((status = 200, description = "Server-sent events", body = crate::api::described::StreamEvent, content_type = "text/event-stream"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn notifications_stream(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> ApiResult<HttpResponse> {
    open_stream(&state, &req, NOTIFICATIONS.to_string()).await
}

/// `GET /api/events/stream/{channel}?token=`: one conversation's events.
#[utoipa::path(
    get,
    path = "/api/events/stream/{channel}",
    tag = "events",
    params(("channel" = String, Path, description = "A conversation id `{phoneNumberId}_{customerKey}`"), ("token" = Option<String>, Query, description = "An access token, for clients that cannot set headers")),
    responses((status = 200, description = "Server-sent events", body = crate::api::described::StreamEvent, content_type = "text/event-stream"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn channel_stream(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    open_stream(&state, &req, path.into_inner()).await
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct CloseRequest {
    channel: Option<String>,
}

/// `POST /api/events/close {channel}`: ends the caller's streams on that channel.
#[utoipa::path(
    post,
    path = "/api/events/close",
    tag = "events",
    responses((status = 200, description = "How many streams it ended", body = Closed), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn close_stream(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<CloseRequest>,
) -> ApiResult<HttpResponse> {
    let channel = required(&body.channel, "channel")?;
    let closed = state
        .hub
        .send(CloseChannel {
            business_id: auth.business_id,
            user_id: auth.user_id,
            channel,
        })
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("hub unavailable: {e}")))?;
    Ok(HttpResponse::Ok().json(Closed {
        status: "success",
        closed,
    }))
}

/// The streams a close ended.
#[derive(Serialize, ToSchema)]
pub struct Closed {
    /// Always `success`.
    status: &'static str,
    /// How many of the caller's streams followed the channel.
    closed: usize,
}
