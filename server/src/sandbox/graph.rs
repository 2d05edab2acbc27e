//! Graph's error answers, in the shape every Cloud API client library parses: for refusals, and
//! for every route under `/sandbox/{version}/` the sandbox does not have.

use actix_web::{HttpRequest, HttpResponse};
use base64::Engine;
use rand::Rng;
use serde_json::json;

use crate::error::ApiError;

/// A Graph error answer: `{"error": {message, type, code, error_subcode?, error_data?,
/// fbtrace_id}}`.
fn graph_failure(
    status: u16,
    kind: &str,
    code: i64,
    subcode: Option<i64>,
    message: &str,
    details: Option<&str>,
) -> HttpResponse {
    let mut raw = [0u8; 9];
    rand::thread_rng().fill(&mut raw);
    let mut error = json!({
        "message": message,
        "type": kind,
        "code": code,
        "fbtrace_id": base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw),
    });
    if let Some(subcode) = subcode {
        error["error_subcode"] = json!(subcode);
    }
    if let Some(details) = details {
        error["error_data"] = json!({"messaging_product": "whatsapp", "details": details});
    }
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap_or_default())
        .json(json!({ "error": error }))
}

/// A Cloud API refusal, as Meta answers a call it understood but will not do.
pub(super) fn graph_error(status: u16, code: i64, message: &str, details: &str) -> HttpResponse {
    graph_failure(status, "OAuthException", code, None, message, Some(details))
}

/// An object the token cannot reach with this method (or that does not exist), as Graph says it.
pub(super) fn unsupported_request(method: &str, id: &str) -> HttpResponse {
    let message = format!(
        "Unsupported {} request. Object with ID '{id}' does not exist, cannot be loaded due to \
         missing permissions, or does not support this operation. Please read the Graph API \
         documentation at https://developers.facebook.com/docs/graph-api",
        method.to_ascii_lowercase()
    );
    graph_failure(400, "GraphMethodException", 100, Some(33), &message, None)
}

/// Whether a path segment names a Graph version (`v21.0`).
fn is_version(segment: &str) -> bool {
    segment.strip_prefix('v').is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .split('.')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
    })
}

/// Every `/sandbox` route the sandbox does not have: under a Graph version, Graph's own error;
/// elsewhere, Parley's.
pub async fn unknown_route(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let path = req.path().trim_start_matches("/sandbox").trim_matches('/');
    let mut segments = path.split('/');
    if !segments.next().is_some_and(is_version) {
        return Err(ApiError::NotFound("No such sandbox route".into()));
    }
    let rest: Vec<&str> = segments.filter(|s| !s.is_empty()).collect();
    Ok(match rest.as_slice() {
        [id] | [id, _] => unsupported_request(req.method().as_str(), id),
        _ => graph_failure(
            400,
            "OAuthException",
            2500,
            None,
            &format!("Unknown path components: /{}", rest.join("/")),
            None,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_versions_are_told_from_other_segments() {
        assert!(is_version("v21.0"));
        assert!(is_version("v23"));
        assert!(!is_version("v"));
        assert!(!is_version("v21."));
        assert!(!is_version("sent"));
        assert!(!is_version("customers"));
    }
}
