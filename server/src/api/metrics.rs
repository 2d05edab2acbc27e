//! `GET /metrics`: the process's metrics in Prometheus's text format, for loopback clients and
//! the networks in `[metrics] allow`. Gauges of what waits (the outbox, the push queue) are read
//! at scrape time.

use std::net::IpAddr;

use actix_web::{HttpRequest, HttpResponse, web};

use crate::auth::handlers::client_address;
use crate::error::{ApiError, ApiResult};
use crate::metrics;
use crate::state::AppState;

/// Prometheus's text exposition format.
const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

pub async fn render(state: web::Data<AppState>, req: HttpRequest) -> ApiResult<HttpResponse> {
    let client = client_address(&req, &state.settings.auth.client_address_header);
    let allowed = client
        .parse::<IpAddr>()
        .is_ok_and(|client| metrics::may_scrape(client, &state.settings.metrics.allow));
    if !allowed {
        return Err(ApiError::Forbidden(
            "Metrics are served to loopback and the networks in [metrics] allow only".into(),
        ));
    }
    metrics::outbox_depth(state.store.outbox_depth().await?);
    metrics::push_queue(state.push.queued());
    Ok(HttpResponse::Ok()
        .content_type(CONTENT_TYPE)
        .body(metrics::handle().render()))
}
