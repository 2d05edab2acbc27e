//! Health: `HEAD` answers at once (the web client's 2-second connectivity probe); `GET` reports
//! whether the database answers.

use actix_web::{HttpResponse, web};
use serde::Serialize;

use crate::state::AppState;

#[utoipa::path(
    head,
    path = "/api/health",
    tag = "health",
    responses((status = 200, description = "The process is up"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn alive() -> HttpResponse {
    HttpResponse::Ok().finish()
}

#[utoipa::path(
    get,
    path = "/api/health",
    tag = "health",
    responses((status = 200, description = "The database answers", body = Health), (status = 503, description = "The database does not answer", body = Health), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn report(state: web::Data<AppState>) -> HttpResponse {
    let database = state.store.ping().await;
    let body = Health {
        status: if database { "ok" } else { "degraded" },
        database: if database { "reachable" } else { "unreachable" },
        backend: format!("{:?}", state.store.backend()).to_lowercase(),
    };
    if database {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}

/// Whether the database answers.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    /// `ok` or `degraded`.
    status: &'static str,
    /// `reachable` or `unreachable`.
    database: &'static str,
    /// `sqlite` or `postgres`.
    backend: String,
}
