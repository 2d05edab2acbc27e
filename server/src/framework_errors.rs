//! actix's own refusals in Parley's shape. Extractors (JSON, query, body bytes, multipart forms)
//! and the framework answer with their own errors and plain-text bodies; this middleware turns
//! each into the `ApiError` it means, so every refusal is `{"detail", "message", "code"}` with a
//! stable code.
//! It also refuses overlong URLs before any route reads them.

use actix_multipart::MultipartError;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::{JsonPayloadError, PayloadError, QueryPayloadError, UrlencodedError};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, ResponseError};

use crate::error::ApiError;
use crate::multipart::FormError;

/// Longest request target (path and query) served. Longer ones get 414; heads over 128 KB never
/// reach the app (actix answers 431 with no body).
pub const MAX_URI: usize = 8 * 1024;

/// The body limit of a route that reads raw bytes (set beside its `PayloadConfig`), named in
/// its 413.
#[derive(Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Middleware: overlong URLs get 414; an error answer that is not an `ApiError` is answered as
/// the `ApiError` it means.
pub async fn json_refusals(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if target > MAX_URI {
        let refusal = ApiError::UriTooLong(format!(
            "The URL is {target} bytes long; at most {MAX_URI} are accepted"
        ));
        return Ok(req.into_response(refusal.error_response()));
    }
    let response = next.call(req).await?;
    // Read after routing: the limit is set on the route's resource or scope.
    let limit = response.request().app_data::<BodyLimit>().copied();
    let refusal = match response.response().error() {
        Some(err) if err.as_error::<ApiError>().is_none() => meaning(err, limit),
        _ => None,
    };
    Ok(match refusal {
        Some(refusal) => {
            let (req, _) = response.into_parts();
            ServiceResponse::new(req, HttpResponse::from_error(refusal))
        }
        None => response.map_into_boxed_body(),
    })
}

/// The `ApiError` an actix error means; `None` keeps actix's answer (a status Parley has no
/// code for).
fn meaning(err: &actix_web::Error, limit: Option<BodyLimit>) -> Option<ApiError> {
    if let Some(err) = err.as_error::<JsonPayloadError>() {
        return Some(json_refusal(err));
    }
    if let Some(err) = err.as_error::<PayloadError>() {
        return Some(payload_refusal(err, limit));
    }
    if let Some(err) = err.as_error::<MultipartError>() {
        return Some(FormError::from(err).into());
    }
    if let Some(err) = err.as_error::<QueryPayloadError>() {
        return Some(ApiError::BadRequest(format!("Invalid query: {err}")));
    }
    if let Some(UrlencodedError::ContentType) = err.as_error::<UrlencodedError>() {
        return Some(ApiError::Unsupported(
            "Content-Type must be application/x-www-form-urlencoded".into(),
        ));
    }
    let text = err.to_string();
    match err.as_response_error().status_code().as_u16() {
        400 => Some(ApiError::BadRequest(text)),
        404 => Some(ApiError::NotFound(text)),
        413 => Some(ApiError::PayloadTooLarge(text)),
        415 => Some(ApiError::Unsupported(text)),
        500..=599 => Some(ApiError::Internal(anyhow::anyhow!("{text}"))),
        _ => None,
    }
}

fn json_refusal(err: &JsonPayloadError) -> ApiError {
    match err {
        JsonPayloadError::OverflowKnownLength { limit, .. }
        | JsonPayloadError::Overflow { limit } => ApiError::PayloadTooLarge(format!(
            "The JSON body is too large (at most {} KB)",
            limit / 1024
        )),
        JsonPayloadError::ContentType => {
            ApiError::Unsupported("Content-Type must be application/json".into())
        }
        JsonPayloadError::Payload(PayloadError::Overflow) => {
            ApiError::PayloadTooLarge("The JSON body is too large".into())
        }
        other => ApiError::BadRequest(format!("Invalid JSON body: {other}")),
    }
}

fn payload_refusal(err: &PayloadError, limit: Option<BodyLimit>) -> ApiError {
    match (err, limit) {
        (PayloadError::Overflow, Some(BodyLimit(limit))) => ApiError::PayloadTooLarge(format!(
            "The body is too large (at most {} MB)",
            limit / (1024 * 1024)
        )),
        (PayloadError::Overflow, None) => ApiError::PayloadTooLarge("The body is too large".into()),
        (other, _) => ApiError::BadRequest(format!("Invalid body: {other}")),
    }
}
