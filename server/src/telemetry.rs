//! Logging: `tracing` with one span per request carrying a request id. Only the path is logged,
//! never the query string (stream URLs carry the access token there) nor any header.

use std::io::IsTerminal;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber; `RUST_LOG` overrides the default level. Colour codes only
/// when the log goes to a terminal, so files and log collectors get plain text.
pub fn init() {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,actix_server=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal())
        .try_init();
}

/// A request's span, with a fresh id (also echoed in `X-Request-Id`).
pub fn request(method: &actix_web::http::Method, path: &str) -> (tracing::Span, String) {
    let request_id = uuid::Uuid::new_v4().to_string();
    let span = tracing::info_span!("request", id = %request_id, method = %method, path = %path);
    (span, request_id)
}

/// Echoes the request id in the answer's `X-Request-Id`.
pub fn tag(headers: &mut HeaderMap, request_id: &str) {
    if let Ok(value) = HeaderValue::from_str(request_id) {
        headers.insert(HeaderName::from_static("x-request-id"), value);
    }
}

/// Logs how a request was answered, in its span.
pub fn answered(span: &tracing::Span, status: u16, started: Instant) {
    span.in_scope(|| {
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        if status >= 500 {
            tracing::error!(status, elapsed_ms, "answered");
        } else {
            tracing::info!(status, elapsed_ms, "answered");
        }
    });
}

/// Middleware: a span per request with a fresh id, echoed in `X-Request-Id`. (WebSocket
/// upgrades never reach the middleware: `api::ws` does the same for them.)
pub async fn request_span(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let (span, request_id) = request(req.method(), req.path());
    let started = Instant::now();
    let mut response = next.call(req).instrument(span.clone()).await?;
    answered(&span, response.status().as_u16(), started);
    tag(response.headers_mut(), &request_id);
    Ok(response)
}
