//! Team workflow: a conversation's status and assignee, private notes, presence posted over
//! HTTP, and the list's tab counts.

use actix_web::{HttpResponse, web};
use parley_actors::conversation::ConversationKey;
use parley_actors::events::conversation_channel;
use parley_actors::presence::{PresenceState, presence_event};
use serde::Deserialize;

use crate::api::customer_path::customer;
use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::{ContactRow, parse_time};
use crate::team::Member;

/// The caller as the team rules see them.
pub fn member_of(auth: &Auth) -> Member {
    Member {
        business_id: auth.business_id.clone(),
        user_id: auth.user_id.clone(),
        is_owner: auth.is_owner(),
    }
}

/// A conversation's row as the list shows it.
pub async fn row_json(state: &AppState, auth: &Auth, row: &ContactRow) -> ApiResult<HttpResponse> {
    let business = state.store.business(&auth.business_id).await?;
    let pnid = business.phone_number_id.unwrap_or_default();
    Ok(HttpResponse::Ok().json(row.to_json(&pnid)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct StatusBody {
    /// Required; left out it is refused as any other value that is not a status (422).
    #[schema(pattern = "^(open|pending|resolved|snoozed)$")]
    status: Option<String>,
    /// RFC 3339; required with `snoozed`, in the future.
    #[schema(format = DateTime)]
    snoozed_until: Option<String>,
}

/// `PATCH /api/conversation/{key}/status`: open, pending, resolved or snoozed until a time.
#[utoipa::path(
    patch,
    path = "/api/conversation/{phone}/status",
    tag = "team",
    params(("phone" = String, Path)),
    responses((status = 200, description = "The conversation's row", body = crate::store::ConversationJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn set_status(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    body: web::Json<StatusBody>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let snoozed_until = match body.snoozed_until.as_deref() {
        Some(raw) => Some(parse_time(raw).ok_or_else(|| {
            ApiError::Unprocessable("snoozed_until must be an RFC 3339 time".into())
        })?),
        None => None,
    };
    let row = state
        .team
        .set_status(
            &member_of(&auth),
            &phone,
            body.status.as_deref().unwrap_or_default(),
            snoozed_until,
        )
        .await?;
    row_json(&state, &auth, &row).await
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct AssignmentBody {
    /// A user of the business, or null for nobody; required.
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = Option<String>)]
    assignee_id: Option<Option<String>>,
    #[serde(default)]
    claim: bool,
}

/// `PATCH /api/conversation/{key}/assignment`: assign, unassign, or claim.
#[utoipa::path(
    patch,
    path = "/api/conversation/{phone}/assignment",
    tag = "team",
    params(("phone" = String, Path)),
    responses((status = 200, description = "The conversation's row", body = crate::store::ConversationJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn set_assignment(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    body: web::Json<AssignmentBody>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let assignee = body.assignee_id.as_ref().ok_or_else(|| {
        ApiError::Unprocessable("assignee_id is required: a user's id, or null for nobody".into())
    })?;
    let row = state
        .team
        .assign(&member_of(&auth), &phone, assignee.as_deref(), body.claim)
        .await?;
    row_json(&state, &auth, &row).await
}

/// A field that is present, even as null: `Some(None)` for null, `None` (by `default`) when
/// the field is left out.
fn given<'de, D: serde::Deserializer<'de>>(field: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(field).map(Some)
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct NoteBody {
    text: Option<String>,
}

/// `POST /api/conversation/{key}/notes`: a private note; mentioned agents are told.
#[utoipa::path(
    post,
    path = "/api/conversation/{phone}/notes",
    tag = "team",
    params(("phone" = String, Path)),
    responses((status = 201, description = "The note", body = crate::store::MessageJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn add_note(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    body: web::Json<NoteBody>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let text = body.text.as_deref().unwrap_or_default();
    let member = member_of(&auth);
    let note = state.team.add_note(&member, &phone, text).await?;
    let key = ConversationKey {
        business_id: member.business_id,
        phone: phone.clone(),
    };
    for user in &note.mentioned {
        state
            .push
            .notify_mention(&key, &note.message, user, &note.by.name);
    }
    let business = state.store.business(&auth.business_id).await?;
    let conversation_id = conversation_channel(
        business.phone_number_id.as_deref().unwrap_or_default(),
        &phone,
    );
    Ok(HttpResponse::Created().json(note.message.to_json(&conversation_id)))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CountsQuery {
    status: Option<String>,
    /// Only conversations that carry this label.
    label: Option<String>,
}

/// `GET /api/users/counts`: how many conversations each tab holds for a status (and label).
#[utoipa::path(
    get,
    path = "/api/users/counts",
    tag = "team",
    params(crate::api::team::CountsQuery),
    responses((status = 200, description = "Counts per tab", body = crate::store::TabCounts), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn tab_counts(
    state: web::Data<AppState>,
    auth: Auth,
    query: web::Query<CountsQuery>,
) -> ApiResult<HttpResponse> {
    let status = status_filter(query.status.as_deref())?;
    let counts = state
        .store
        .tab_counts(
            &auth.business_id,
            &auth.user_id,
            status.as_deref(),
            query.label.as_deref().filter(|id| !id.is_empty()),
        )
        .await?;
    Ok(HttpResponse::Ok().json(counts))
}

/// A teammate as the note composer offers them for an `@mention`.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct MemberJson {
    id: String,
    /// What follows the `@` in a note.
    username: String,
    /// First and last name.
    name: String,
    /// `admin` for the owner, `agent` for the others.
    role: String,
}

/// `GET /api/team/members`: the owner and the agents, for every member (agents cannot read
/// `/identity/users/agents`, and they mention each other too).
#[utoipa::path(
    get,
    path = "/api/team/members",
    tag = "team",
    responses((status = 200, description = "The business's users, oldest first", body = Vec<MemberJson>), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_members(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let team = state.store.team(&auth.business_id).await?;
    let members: Vec<MemberJson> = team
        .into_iter()
        .map(|user| MemberJson {
            name: user.full_name(),
            id: user.id,
            username: user.username,
            role: user.role,
        })
        .collect();
    Ok(HttpResponse::Ok().json(members))
}

/// The list's `status` parameter: one status (default `open`, also for an empty value, as the
/// list's other filters take one), or `None` for `all`.
pub fn status_filter(raw: Option<&str>) -> ApiResult<Option<String>> {
    match raw.filter(|status| !status.is_empty()).unwrap_or("open") {
        "all" => Ok(None),
        status if crate::team::STATUSES.contains(&status) => Ok(Some(status.to_string())),
        _ => Err(ApiError::Unprocessable(
            "status must be open, pending, resolved, snoozed or all".into(),
        )),
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct PresenceBody {
    state: Option<String>,
}

/// `POST /api/conversation/{key}/presence`: presence for clients that cannot send WebSocket
/// frames (SSE); the others following the conversation get `agent_activity`.
#[utoipa::path(
    post,
    path = "/api/conversation/{phone}/presence",
    tag = "team",
    params(("phone" = String, Path)),
    responses((status = 204, description = "Told to the team"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn post_presence(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    body: web::Json<PresenceBody>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let presence = body
        .state
        .as_deref()
        .and_then(PresenceState::parse)
        .ok_or_else(|| ApiError::Unprocessable("state must be viewing, typing or idle".into()))?;
    // A conversation the business does not have (another business's included) is not found,
    // as on every route of a conversation.
    state.store.contact_row(&auth.business_id, &phone).await?;
    let user = auth.user(&state).await?;
    let business = state.store.business(&auth.business_id).await?;
    let conversation_id = conversation_channel(
        business.phone_number_id.as_deref().unwrap_or_default(),
        &phone,
    );
    state.bus.publish(vec![presence_event(
        &auth.business_id,
        &conversation_id,
        &user.id,
        &user.full_name(),
        presence,
    )]);
    Ok(HttpResponse::NoContent().finish())
}
