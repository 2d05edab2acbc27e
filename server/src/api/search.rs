//! Full-history search: `GET /api/search`.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::customer_path::customer;
use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::search_text::{Query, snippet};
use crate::state::AppState;
use crate::store::{SearchScope, iso_time, parse_cursor, parse_time};

/// Results per page unless `limit` says otherwise.
const DEFAULT_LIMIT: i64 = 20;
/// Most results one page may hold; a larger `limit` is refused.
const MAX_LIMIT: i64 = 100;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// The words to find, at most 12 (more → 422); the last is a prefix.
    q: Option<String>,
    limit: Option<i64>,
    cursor: Option<String>,
    conversation: Option<String>,
    /// Only items at or after this time; after `to` → 422.
    from: Option<String>,
    /// Only items at or before this time.
    to: Option<String>,
}

/// A time bound: ISO 8601, or Unix seconds or milliseconds.
fn time_bound(raw: Option<&str>, field: &str, day_end: bool) -> ApiResult<Option<i64>> {
    raw.filter(|s| !s.trim().is_empty())
        .map(|raw| {
            parse_time(raw)
                .or_else(|| day_bound(raw, day_end))
                .ok_or_else(|| {
                    ApiError::Unprocessable(format!(
                        "{field} must be an ISO 8601 date or time, or Unix seconds or milliseconds"
                    ))
                })
        })
        .transpose()
}

/// A date alone (`2025-11-21`) as a bound: its first millisecond (UTC), or its last.
fn day_bound(raw: &str, day_end: bool) -> Option<i64> {
    let day = chrono::NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d").ok()?;
    let start = day.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis();
    Some(if day_end {
        start + 86_400_000 - 1
    } else {
        start
    })
}

/// `GET /api/search?q=&limit=&cursor=&conversation=&from=&to=` → `{results, next_cursor}`.
#[utoipa::path(
    get,
    path = "/api/search",
    tag = "search",
    params(crate::api::search::SearchQuery),
    responses((status = 200, description = "A page of results", body = SearchPage), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn search(
    state: web::Data<AppState>,
    auth: Auth,
    params: web::Query<SearchQuery>,
) -> ApiResult<HttpResponse> {
    let raw = params.q.as_deref().unwrap_or_default();
    if raw.trim().is_empty() {
        return Err(ApiError::Unprocessable("q is required".into()));
    }
    let query =
        Query::parse(raw).map_err(|refusal| ApiError::Unprocessable(format!("q {refusal}")))?;
    let limit = params.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::Unprocessable(format!(
            "limit must be between 1 and {MAX_LIMIT}"
        )));
    }
    let after =
        match params.cursor.as_deref().filter(|c| !c.is_empty()) {
            Some(raw) => Some(parse_cursor(raw).ok_or_else(|| {
                ApiError::Unprocessable("cursor is not one this search gave".into())
            })?),
            None => None,
        };
    let phone = match params.conversation.as_deref().filter(|c| !c.is_empty()) {
        Some(key) => Some(
            customer(&state, &auth.business_id, key)
                .await?
                .into_string(),
        ),
        None => None,
    };
    let from_ms = time_bound(params.from.as_deref(), "from", false)?;
    let to_ms = time_bound(params.to.as_deref(), "to", true)?;
    // Both bounds are included, so `from` may equal `to`, never follow it.
    if let (Some(from), Some(to)) = (from_ms, to_ms)
        && from > to
    {
        return Err(ApiError::Unprocessable("from must not be after to".into()));
    }
    let scope = SearchScope {
        phone,
        from_ms,
        to_ms,
        after,
    };
    let (hits, next_cursor) = state
        .store
        .search(&auth.business_id, &query, &scope, limit)
        .await?;
    let results = hits
        .iter()
        .map(|hit| SearchResult {
            conversation_id: &hit.conversation_id,
            phone_number: &hit.phone,
            name: &hit.name,
            message_id: hit.message_id.as_deref(),
            timestamp: iso_time(hit.at),
            snippet: snippet(&hit.body, &query),
        })
        .collect();
    Ok(HttpResponse::Ok().json(SearchPage {
        results,
        next_cursor,
    }))
}

/// A page of search results.
#[derive(Serialize, ToSchema)]
pub struct SearchPage<'a> {
    results: Vec<SearchResult<'a>>,
    /// Gives the next page as `cursor`; null on the last page.
    next_cursor: Option<String>,
}

/// One search result: a message, or a contact's name or number.
#[derive(Serialize, ToSchema)]
pub struct SearchResult<'a> {
    conversation_id: &'a str,
    /// The conversation's customer key.
    phone_number: &'a str,
    name: &'a str,
    /// The message; null for a contact's name or number.
    message_id: Option<&'a str>,
    /// ISO 8601.
    timestamp: String,
    /// The matching words in their context.
    snippet: String,
}
