//! The one check of client text at the door of `/api` and `/identity`: a query string or JSON
//! body holding a control character is refused with 422 naming the field, before any handler
//! reads it. Multipart text parts are checked where forms are read (`multipart`).

use actix_http::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, web};
use futures_util::StreamExt;

use crate::error::ApiError;
use crate::plain_text;

/// Largest JSON body checked; a larger one is passed on for the JSON extractor to refuse
/// (actix-web's default JSON limit).
const MAX_JSON: usize = 2 * 1024 * 1024;

/// Middleware: refuses a query string or JSON body with a control character.
pub async fn refuse_control_characters(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    plain_text::check_query(req.query_string()).map_err(ApiError::from)?;
    if is_json(&req) {
        let body = read_body(&mut req).await?;
        // Malformed JSON is left to the extractor, which says why.
        if let Some(body) = body
            && let Ok(value) = serde_json::from_slice(&body)
        {
            plain_text::check_json(&value).map_err(ApiError::from)?;
        }
    }
    next.call(req).await
}

fn is_json(req: &ServiceRequest) -> bool {
    matches!(req.mime_type(), Ok(Some(mime))
        if mime.subtype() == mime::JSON || mime.suffix() == Some(mime::JSON))
}

/// Reads the body and puts it back for the handler; `None` when it is larger than `MAX_JSON`
/// (then what was read is put back ahead of the rest, unchecked).
async fn read_body(req: &mut ServiceRequest) -> Result<Option<web::Bytes>, actix_web::Error> {
    let mut payload = req.take_payload();
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        body.extend_from_slice(&chunk?);
        if body.len() > MAX_JSON {
            let head = futures_util::stream::once(async move { Ok(body.freeze()) });
            req.set_payload(actix_web::dev::Payload::from(
                Box::pin(head.chain(payload)) as actix_http::BoxedPayloadStream
            ));
            return Ok(None);
        }
    }
    let body = body.freeze();
    req.set_payload(actix_web::dev::Payload::from(body.clone()));
    Ok(Some(body))
}
