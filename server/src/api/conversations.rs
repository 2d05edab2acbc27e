//! The conversation list, a conversation's history, and mark-as-read.

use actix_web::{HttpResponse, web};
use parley_actors::conversation::{ConversationKey, MarkRead};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::customer_path::customer;
use crate::api::team::status_filter;
use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::search_text::{Query, QueryError};
use crate::state::AppState;
use crate::store::{
    AssigneeFilter, ConversationJson, Error as StoreError, HistoryCursor, ListFilter, MessageJson,
    parse_time,
};

/// Most rows one page may ask for.
const MAX_PAGE: i64 = 100;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    page: Option<i64>,
    limit: Option<i64>,
    /// A number's digits, or words of a name (at most 12; more → 422).
    search_query: Option<String>,
    /// `me`, `unassigned` or `all` (default, also when empty).
    assignee: Option<String>,
    /// A status or `all`; default `open` (also when empty).
    status: Option<String>,
    /// Only conversations that carry this label (empty: all).
    label: Option<String>,
}

/// `GET /api/users`: the conversation list, newest activity first.
#[utoipa::path(
    get,
    path = "/api/users",
    tag = "conversations",
    params(crate::api::conversations::ListQuery),
    responses((status = 200, description = "A page of conversations", body = ConversationList), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_conversations(
    state: web::Data<AppState>,
    auth: Auth,
    query: web::Query<ListQuery>,
) -> ApiResult<HttpResponse> {
    let page = query.page.unwrap_or(1).max(1);
    let limit = query.limit.unwrap_or(20).clamp(1, MAX_PAGE);
    let search = query.search_query.as_deref().unwrap_or("").trim();
    if let Err(refusal @ QueryError::TooManyWords) = Query::parse(search) {
        return Err(ApiError::Unprocessable(format!("search_query {refusal}")));
    }
    // An empty filter is its default, as an empty `label` is.
    let assignee = query.assignee.as_deref().filter(|a| !a.is_empty());
    let filter = ListFilter {
        typed: search.to_string(),
        status: status_filter(query.status.as_deref())?,
        assignee: match assignee.unwrap_or("all") {
            "all" => AssigneeFilter::All,
            "unassigned" => AssigneeFilter::Unassigned,
            "me" => AssigneeFilter::User(auth.user_id.clone()),
            _ => {
                return Err(ApiError::Unprocessable(
                    "assignee must be me, unassigned or all".into(),
                ));
            }
        },
        label: query.label.clone().filter(|id| !id.is_empty()),
    };
    let found = state
        .store
        .contacts_page(&auth.business_id, &filter, page, limit)
        .await?;
    Ok(HttpResponse::Ok().json(ConversationList {
        data: ConversationPage {
            users: found
                .rows
                .iter()
                .map(|row| row.to_json(&found.phone_number_id))
                .collect(),
            has_more: found.has_more,
            page,
            total_unread: found.total_unread,
        },
    }))
}

/// `GET /api/users`'s answer.
#[derive(Serialize, ToSchema)]
pub struct ConversationList<'a> {
    data: ConversationPage<'a>,
}

/// A page of the conversation list.
#[derive(Serialize, ToSchema)]
pub struct ConversationPage<'a> {
    users: Vec<ConversationJson<'a>>,
    has_more: bool,
    page: i64,
    /// Unread messages over all the business's conversations.
    total_unread: i64,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    limit: Option<i64>,
    /// Messages older than this time; with `before_id`, also those of this very time ordered
    /// before that message.
    before_timestamp: Option<String>,
    /// The id of the oldest message the client holds (the one `before_timestamp` is the time
    /// of), so messages sharing its time are neither skipped nor repeated.
    before_id: Option<String>,
}

/// `GET /api/conversation/{phone}`: a page of messages, oldest first.
#[utoipa::path(
    get,
    path = "/api/conversation/{phone}",
    tag = "conversations",
    params(("phone" = String, Path), crate::api::conversations::HistoryQuery),
    responses((status = 200, description = "A page of messages, oldest first", body = History), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn conversation_history(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    query: web::Query<HistoryQuery>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let limit = query.limit.unwrap_or(30).clamp(1, MAX_PAGE);
    let before = match query.before_timestamp.as_deref().filter(|s| !s.is_empty()) {
        Some(raw) => parse_time(raw).ok_or_else(|| {
            ApiError::Unprocessable("before_timestamp must be an ISO 8601 time".into())
        })?,
        None => i64::MAX,
    };
    let business = state.store.business(&auth.business_id).await?;
    let conversation_id = parley_actors::events::conversation_channel(
        business.phone_number_id.as_deref().unwrap_or_default(),
        &phone,
    );
    let cursor = HistoryCursor {
        at: before,
        message_id: query.before_id.as_deref().unwrap_or_default(),
    };
    let (rows, has_more) = state
        .store
        .messages_page(&auth.business_id, &phone, &cursor, limit)
        .await?;
    // The newest page names the conversation's row, for a client that opens a conversation its
    // list does not hold (a search hit, a link).
    let row = match before {
        i64::MAX => match state.store.contact_row(&auth.business_id, &phone).await {
            Ok(row) => Some(row),
            Err(StoreError::NotFound(_)) => None,
            Err(other) => return Err(other.into()),
        },
        _ => None,
    };
    let pnid = business.phone_number_id.as_deref().unwrap_or_default();
    Ok(HttpResponse::Ok().json(History {
        messages: rows.iter().map(|m| m.to_json(&conversation_id)).collect(),
        has_more_older: has_more,
        conversation_id: &conversation_id,
        conversation: row.as_ref().map(|row| row.to_json(pnid)),
    }))
}

/// A page of a conversation's messages, oldest first.
#[derive(Serialize, ToSchema)]
pub struct History<'a> {
    messages: Vec<MessageJson<'a>>,
    has_more_older: bool,
    conversation_id: &'a str,
    /// On the newest page (no `before_timestamp`), the conversation's row as the list shows it;
    /// absent on older pages and for a customer with no contact.
    #[serde(skip_serializing_if = "Option::is_none")]
    conversation: Option<ConversationJson<'a>>,
}

/// `POST /api/conversation/{phone}/mark-as-read`.
#[utoipa::path(
    post,
    path = "/api/conversation/{phone}/mark-as-read",
    tag = "conversations",
    params(("phone" = String, Path)),
    responses((status = 200, description = "How many messages it marked", body = MarkedRead), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn mark_as_read(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let key = ConversationKey {
        business_id: auth.business_id,
        phone,
    };
    let modified = state
        .conversations
        .ask(&key, MarkRead)
        .await
        .and_then(|r| r)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("mark as read failed: {e}")))?;
    if modified > 0 {
        // Blue ticks on the customer's phone; best effort, the inbox state is already saved.
        let state = state.clone();
        actix_web::rt::spawn(async move {
            let Ok(Some(message_id)) = state
                .store
                .latest_incoming_id(&key.business_id, &key.phone)
                .await
            else {
                return;
            };
            let Ok(business) = state.store.business(&key.business_id).await else {
                return;
            };
            if let Ok(creds) = crate::provider::Credentials::of(&business)
                && let Err(err) = state.provider.mark_read(&creds, &message_id).await
            {
                tracing::warn!(error = %err, "provider mark-read failed");
            }
        });
    }
    Ok(HttpResponse::Ok().json(MarkedRead {
        status: "success",
        modified_count: modified,
    }))
}

/// `mark-as-read`'s answer: how many messages it marked.
#[derive(Serialize, ToSchema)]
pub struct MarkedRead {
    /// Always `success`.
    status: &'static str,
    modified_count: u64,
}
