//! The answer where no route of `/api` or `/identity` takes a request: 405 with `Allow` for a
//! path that is served with other methods, else 404; and HEAD answered wherever GET is
//! (RFC 9110), as GET without its body. The routes are read from the OpenAPI document, which
//! lists every one of them (a test holds it to the route table).

use std::sync::OnceLock;

use actix_http::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{ResourceDef, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{HttpRequest, HttpResponse, Route, web};

use crate::api::openapi::document;
use crate::error::{ApiError, ApiResult, no_route};

/// Method names as the document keys them, in the order `Allow` lists them.
const METHODS: [&str; 8] = [
    "get", "head", "post", "put", "patch", "delete", "options", "trace",
];

/// Each documented path pattern with the methods it is served with.
fn routes() -> &'static [(ResourceDef, Vec<&'static str>)] {
    static ROUTES: OnceLock<Vec<(ResourceDef, Vec<&'static str>)>> = OnceLock::new();
    ROUTES.get_or_init(|| {
        let document: serde_json::Value = serde_json::from_str(document()).unwrap_or_default();
        let paths = document["paths"].as_object().cloned().unwrap_or_default();
        paths
            .iter()
            .map(|(path, item)| {
                let methods = METHODS.into_iter().filter(|m| item.get(m).is_some());
                (ResourceDef::new(path.as_str()), methods.collect())
            })
            .collect()
    })
}

/// Whether `path` has a route of `method` (lower-case, as the document keys it).
fn routed(path: &str, method: &str) -> bool {
    routes()
        .iter()
        .any(|(pattern, methods)| methods.contains(&method) && pattern.is_match(path))
}

/// The methods `path` is served with, upper-case (HEAD wherever GET is); empty for an unknown
/// path.
fn allowed(path: &str) -> Vec<String> {
    METHODS
        .into_iter()
        .filter(|method| routed(path, method) || (*method == "head" && routed(path, "get")))
        .map(str::to_ascii_uppercase)
        .collect()
}

/// Middleware of `/api` and `/identity`: a HEAD on a path served with GET and without a HEAD
/// route of its own is answered by the GET route. The connection leaves the body out of a HEAD
/// answer (actix-http sends only the head, with the length GET's body would have); a stream
/// (an event stream never ends) is dropped, so the answer ends with its head.
pub async fn answer_head_as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let head = req.method() == Method::HEAD;
    if head && !routed(req.path(), "head") && routed(req.path(), "get") {
        req.head_mut().method = Method::GET;
    }
    let response = next.call(req).await?;
    Ok(response.map_body(|_, body| match body.size() {
        BodySize::Stream if head => BoxBody::new(()),
        _ => body.boxed(),
    }))
}

/// The default service of `/api` and `/identity`.
pub async fn unrouted(req: HttpRequest) -> ApiResult<HttpResponse> {
    let allow = allowed(req.path());
    if allow.is_empty() {
        return Err(no_route(req.method(), req.path()));
    }
    Err(ApiError::MethodNotAllowed {
        method: req.method().to_string(),
        allow: allow.join(", "),
    })
}

/// The default service of a resource outside the document that is served with `allow` only.
pub fn served_with(allow: &'static str) -> Route {
    web::to(move |req: HttpRequest| async move {
        Err::<HttpResponse, _>(ApiError::MethodNotAllowed {
            method: req.method().to_string(),
            allow: allow.to_string(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_served_path_names_its_methods_and_an_unknown_one_none() {
        assert_eq!(allowed("/api/health"), ["GET", "HEAD"]);
        assert_eq!(allowed("/api/labels/abc"), ["PATCH", "DELETE"]);
        assert_eq!(allowed("/api/templates"), ["GET", "HEAD"]);
        assert_eq!(allowed("/identity/auth/login"), ["POST"]);
        assert!(allowed("/api/nothing-here").is_empty());
        assert!(allowed("/api/labels/abc/more").is_empty());
    }
}
