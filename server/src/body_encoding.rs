//! Request bodies arrive as sent, never compressed: actix-web's body extractors would inflate a
//! gzip body chunk by chunk, and a few KB of gzip inflate to many MB before any size limit sees
//! them. No client of Parley compresses what it sends (the web app, the Cloud API's webhooks),
//! so a body with a `Content-Encoding` other than `identity` is refused at the door with 415.

use actix_http::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::CONTENT_ENCODING;
use actix_web::middleware::Next;

use crate::error::ApiError;

/// Middleware: refuses a compressed request body.
pub async fn refuse_encoded_bodies(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if let Some(encoding) = req.headers().get(CONTENT_ENCODING)
        && !encoding.as_bytes().eq_ignore_ascii_case(b"identity")
    {
        return Err(ApiError::Unsupported(
            "Compressed request bodies are not accepted: send it without Content-Encoding".into(),
        )
        .into());
    }
    next.call(req).await
}
