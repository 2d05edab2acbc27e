//! Reports for the business's owner.

use actix_web::http::header::CONTENT_DISPOSITION;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::reports::csv::{file_name, report_csv};
use crate::reports::overview::overview;
use crate::reports::range::{Range, RangeQuery};
use crate::state::AppState;
use crate::store::now_ms;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OverviewQuery {
    from: Option<String>,
    to: Option<String>,
    bucket: Option<String>,
    tz: Option<String>,
    /// `json` (the default) or `csv`.
    format: Option<String>,
}

/// `GET /api/reports/overview`: conversations, messages and response times per bucket and per
/// team member. Owner only.
#[tracing::instrument(skip_all, fields(business = %auth.business_id))]
#[utoipa::path(
    get,
    path = "/api/reports/overview",
    tag = "reports",
    params(crate::api::reports::OverviewQuery),
    responses((status = 200, description = "The report as JSON, or as a CSV file with `format=csv`", content((crate::reports::overview::Report = "application/json"), (String = "text/csv"))), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn get_overview(
    state: web::Data<AppState>,
    auth: Auth,
    query: web::Query<OverviewQuery>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let as_csv = match query.format.as_deref() {
        None | Some("") | Some("json") => false,
        Some("csv") => true,
        Some(_) => return Err(ApiError::Unprocessable("format must be json or csv".into())),
    };
    let range = Range::parse(
        &RangeQuery {
            from: query.from.as_deref(),
            to: query.to.as_deref(),
            bucket: query.bucket.as_deref(),
            tz: query.tz.as_deref(),
        },
        now_ms(),
    )?;
    let report = overview(&state.store, &auth.business_id, &range).await?;
    if !as_csv {
        return Ok(HttpResponse::Ok().json(report));
    }
    let body = report_csv(&report).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}\"", file_name(&range)),
        ))
        .body(body))
}
