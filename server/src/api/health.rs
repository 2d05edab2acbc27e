//! Health: `HEAD` answers at once (the web client's 2-second connectivity probe); `GET` reports
//! whether the database answers.

use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::state::AppState;

pub async fn alive() -> HttpResponse {
    HttpResponse::Ok().finish()
}

pub async fn report(state: web::Data<AppState>) -> HttpResponse {
    let database = state.store.ping().await;
    let body = json!({
        "status": if database { "ok" } else { "degraded" },
        "database": if database { "reachable" } else { "unreachable" },
        "backend": format!("{:?}", state.store.backend()).to_lowercase(),
    });
    if database {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
}
