//! The headers every answer carries: a strict Content Security Policy for the web app (its own
//! scripts only, nothing may frame it), no referrer beyond the origin, the microphone for voice
//! notes and no other device, and HSTS when Parley is reached over https. An answer that sets
//! its own header keeps it (a customer's file sets a stricter policy, see `customer_file`).

use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;

/// HSTS lifetime: one year, the usual value for a site that is https only.
const HSTS: &str = "max-age=31536000";

/// The web app's needs, and nothing more: its own scripts and workers (the service worker,
/// pdf.js); pictures and sound it holds as `blob:` (media fetched with the session) or `data:`,
/// and the provider's https pictures of ad referrals; its own API and WebSocket, and reading back
/// its own `blob:` files (thumbnails of files being sent); OpenStreetMap's
/// embedded map for locations. Inline styles serve the static privacy and terms pages.
fn app_policy(public_url: &str) -> String {
    let socket = websocket_origin(public_url)
        .map(|origin| format!(" {origin}"))
        .unwrap_or_default();
    [
        "default-src 'self'".to_string(),
        "script-src 'self'".to_string(),
        "style-src 'self' 'unsafe-inline'".to_string(),
        "img-src 'self' blob: data: https:".to_string(),
        "media-src 'self' blob:".to_string(),
        format!("connect-src 'self' blob:{socket}"),
        "worker-src 'self'".to_string(),
        "frame-src https://www.openstreetmap.org".to_string(),
        "object-src 'none'".to_string(),
        "base-uri 'none'".to_string(),
        "form-action 'self'".to_string(),
        "frame-ancestors 'none'".to_string(),
    ]
    .join("; ")
}

/// `ws://host` for `http://host`, `wss://host` for `https://host`: older browsers do not count
/// the WebSocket scheme as `'self'`.
fn websocket_origin(public_url: &str) -> Option<String> {
    let url = url::Url::parse(public_url).ok()?;
    let scheme = match url.scheme() {
        "https" => "wss",
        "http" => "ws",
        _ => return None,
    };
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

/// The middleware. HSTS is sent when `server.public_url` is https: that is the address browsers
/// use, whether Parley terminates TLS itself or sits behind a proxy that does.
pub fn security_headers(public_url: &str) -> DefaultHeaders {
    let headers = DefaultHeaders::new()
        .add((header::CONTENT_SECURITY_POLICY, app_policy(public_url)))
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::REFERRER_POLICY, "strict-origin-when-cross-origin"))
        .add((
            header::HeaderName::from_static("permissions-policy"),
            "microphone=(self), camera=(), geolocation=()",
        ))
        .add((header::X_FRAME_OPTIONS, "DENY"));
    if public_url.starts_with("https://") {
        headers.add((header::STRICT_TRANSPORT_SECURITY, HSTS))
    } else {
        headers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_websocket_origin_follows_the_public_url() {
        assert_eq!(
            websocket_origin("https://inbox.example.com/").as_deref(),
            Some("wss://inbox.example.com")
        );
        assert_eq!(
            websocket_origin("http://127.0.0.1:8080").as_deref(),
            Some("ws://127.0.0.1:8080")
        );
        assert_eq!(websocket_origin("not a url"), None);
    }
}
