//! `GET /api/ws?token=`: subscribe, unsubscribe and resume over one WebSocket.
//!
//! Upgrades leave actix-http at the handshake: its HTTP/1 dispatcher keeps two 8 KiB buffers for
//! as long as a connection lives, which would be most of an idle session's memory. Here the bare
//! socket goes to tungstenite with a small read buffer, and one task per connection moves frames
//! between it and the session's `SessionActor` (the same actor SSE streams use).

use std::io;
use std::time::Instant;

use actix::{Actor, WeakAddr};
use actix_codec::Framed;
use actix_http::body::{self, BodySize};
use actix_http::h1::{Codec, Message as H1};
use actix_http::ws::{handshake_response, verify_handshake};
use actix_http::{ConnectionType, Request};
use actix_web::rt::net::TcpStream;
use actix_web::{HttpResponse, ResponseError, web};
use futures_util::{SinkExt, StreamExt};
use parley_actors::session::{ClientOp, Frame, SessionActor, Transport};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Bytes, Message};

use super::events::setup;
use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult, no_route};
use crate::state::AppState;
use crate::telemetry;

const PATH: &str = "/api/ws";
/// Client operations are a few hundred bytes; anything past this closes the socket.
const MAX_MESSAGE: usize = 64 * 1024;
/// Client operations are a few dozen bytes; a larger frame grows it while it is read. Held by
/// every idle session.
const READ_BUFFER: usize = 128;
/// Frames waiting in the session's queue go out together, in writes of about this size (one
/// system call for many frames when a busy conversation outpaces the socket): room for what the
/// hub merges into one hand-over while the node is busy (~20 events of ~550 bytes).
const WRITE_BUFFER: usize = 16 * 1024;

/// Serves one upgrade request, from the handshake to the close.
pub async fn serve(
    state: web::Data<AppState>,
    req: Request,
    mut framed: Framed<TcpStream, Codec>,
) -> Result<(), actix_web::Error> {
    let (span, request_id) = telemetry::request(req.method(), req.path());
    let started = Instant::now();
    let auth = match accept(&state, &req).await {
        Ok(auth) => auth,
        Err(error) => {
            telemetry::answered(&span, error.status_code().as_u16(), started);
            return Ok(refuse(framed, error, &request_id).await?);
        }
    };
    let mut accepted = handshake_response(req.head()).finish().drop_body();
    telemetry::tag(accepted.headers_mut(), &request_id);
    drop(req);
    framed.send(H1::Item((accepted, BodySize::None))).await?;
    telemetry::answered(&span, 101, started);
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    // The block drops the HTTP codec's buffers; bytes already read past the handshake go on.
    let socket = {
        let parts = framed.into_parts();
        let leftover = parts.read_buf.to_vec();
        WebSocketStream::from_partially_read(parts.io, leftover, Role::Server, Some(config)).await
    };
    // The session runs in a task of its own, holding only its own state: the HTTP connection's
    // task (with actix-http's dispatcher and the handshake's request id) ends here.
    drop((span, request_id));
    actix_web::rt::spawn(async move { run(&state, auth, socket).await });
    Ok(())
}

/// The path, the caller's token and the handshake headers, checked in that order.
async fn accept(state: &AppState, req: &Request) -> ApiResult<Auth> {
    if req.path() != PATH {
        return Err(no_route(req.method(), req.path()));
    }
    let auth =
        Auth::for_stream(&req.head().headers, req.uri().query().unwrap_or(""), state).await?;
    verify_handshake(req.head())
        .map_err(|e| ApiError::BadRequest(format!("Not a WebSocket handshake: {e}")))?;
    Ok(auth)
}

/// Answers with the error's JSON body and closes the connection.
async fn refuse(
    mut framed: Framed<TcpStream, Codec>,
    error: ApiError,
    request_id: &str,
) -> io::Result<()> {
    let (mut head, content) = actix_http::Response::from(error.error_response()).into_parts();
    head.head_mut().set_connection_type(ConnectionType::Close);
    telemetry::tag(head.headers_mut(), request_id);
    let content = body::to_bytes(content)
        .await
        .map_err(|e| io::Error::other(e.to_string()))?;
    framed
        .send(H1::Item((head, BodySize::Sized(content.len() as u64))))
        .await?;
    framed.send(H1::Chunk(Some(content))).await?;
    framed.send(H1::Chunk(None)).await
}

/// Moves frames both ways until either side ends the session.
async fn run(state: &AppState, auth: Auth, mut socket: WebSocketStream<TcpStream>) {
    let (setup, mut frames) = setup(state, auth, Transport::WebSocket, Vec::new(), None).await;
    // Weak: the hub's address keeps the actor alive, and a strong one costs an allocation.
    let actor = SessionActor::new(setup).start().downgrade();
    loop {
        tokio::select! {
            frame = frames.recv() => {
                // This frame and any that queued behind it, then one flush.
                let mut next = frame;
                let open = loop {
                    let fed = match next {
                        Some(Frame::Text(text)) => socket.feed(Message::Text(text)).await,
                        Some(Frame::Ping) => socket.feed(Message::Ping(Bytes::new())).await,
                        Some(Frame::Close(reason)) => {
                            let close = CloseFrame { code: CloseCode::Policy, reason: reason.into() };
                            let _ = socket.close(Some(close)).await;
                            break false;
                        }
                        None => {
                            let _ = socket.close(None).await;
                            break false;
                        }
                    };
                    if fed.is_err() {
                        break false;
                    }
                    match frames.try_recv() {
                        Some(frame) => next = Some(frame),
                        None => break socket.flush().await.is_ok(),
                    }
                };
                if !open {
                    break;
                }
            }
            incoming = socket.next() => match incoming {
                Some(Ok(Message::Text(text))) => tell(&actor, ClientOp::parse(&text)),
                // Pings are answered by tungstenite; any frame shows the client is there.
                Some(Ok(Message::Close(_))) => {
                    // Sends tungstenite's queued answer, completing the closing handshake.
                    let _ = socket.flush().await;
                    break;
                }
                Some(Err(_)) | None => break,
                Some(Ok(_)) => tell(&actor, ClientOp::Heard),
            },
        }
    }
    tell(&actor, ClientOp::Gone);
}

/// Hands the session actor what the client did, unless it has stopped already.
fn tell(actor: &WeakAddr<SessionActor>, op: ClientOp) {
    if let Some(actor) = actor.upgrade() {
        actor.do_send(op);
    }
}

/// `/api/ws` without an `Upgrade: websocket` header.
#[utoipa::path(
    get,
    path = "/api/ws",
    tag = "events",
    params(("token" = String, Query, description = "An access token")),
    responses((status = 101, description = "Upgraded to a WebSocket"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn not_upgraded() -> ApiResult<HttpResponse> {
    Err(ApiError::BadRequest(
        "This endpoint takes WebSocket upgrades only".into(),
    ))
}
