//! The owner's profile with the provider credentials, the user's own language, and agents.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::Value;

use super::extract::Auth;
use super::password::hash_password;
use super::profile_json::{LanguageJson, Profile, UserJson, UserProfile};
use super::rules::{check_password, normalize_email, normalize_username};
use crate::error::{ApiError, ApiResult, SUCCESS, non_blank, required};
use crate::names::{optional_name, required_name};
use crate::state::AppState;
use crate::store::{NewUser, ProviderCredentials, UserChanges};
use crate::team::SettingsChange;

/// `GET /identity/users/profile`: the caller and, for the owner, the provider credentials.
#[utoipa::path(
    get,
    path = "/identity/users/profile",
    tag = "identity",
    responses((status = 200, description = "The caller's profile", body = Profile), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn get_profile(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let user = auth.user(&state).await?;
    let business = state.store.business(&auth.business_id).await?;
    let settings = state.store.team_settings(&auth.business_id).await?;
    Ok(HttpResponse::Ok().json(Profile::new(&user, &business, settings, auth.is_owner())))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileUpdate {
    first_name: Option<String>,
    last_name: Option<String>,
    language: Option<String>,
    phone_number_id: Option<String>,
    access_token: Option<String>,
    verify_token: Option<String>,
    phone_number: Option<String>,
    #[serde(rename = "whatsappBusinessAccountID")]
    waba_id: Option<String>,
    app_id: Option<String>,
    app_secret: Option<String>,
    /// Team settings (owner only): `manual` or `round_robin`.
    #[serde(rename = "assignment_mode")]
    assignment_mode: Option<String>,
    /// Team settings (owner only): whole minutes, 0–10080.
    #[serde(rename = "claim_timeout_minutes")]
    claim_timeout_minutes: Option<Value>,
}

/// The longest phone number id or WABA id: Meta's are about 16 digits, and each is indexed, where
/// Postgres refuses an entry over about 2.7 KB.
const PROVIDER_ID_MAX: usize = 64;

impl ProfileUpdate {
    /// Refuses a provider id longer than `PROVIDER_ID_MAX`, naming its field.
    fn check_provider_ids(&self) -> ApiResult<()> {
        let ids = [
            ("phoneNumberId", &self.phone_number_id),
            ("whatsappBusinessAccountID", &self.waba_id),
        ];
        match ids.into_iter().find(|(_, id)| {
            id.as_deref()
                .is_some_and(|id| id.trim().chars().count() > PROVIDER_ID_MAX)
        }) {
            Some((field, _)) => Err(ApiError::Unprocessable(format!(
                "{field} must be at most {PROVIDER_ID_MAX} characters"
            ))),
            None => Ok(()),
        }
    }

    fn credentials(&self) -> Option<ProviderCredentials> {
        let trimmed = |v: &Option<String>| v.as_deref().map(|s| s.trim().to_string());
        let creds = ProviderCredentials {
            phone_number_id: trimmed(&self.phone_number_id),
            phone_number: trimmed(&self.phone_number).map(|p| p.replace('+', "")),
            access_token: trimmed(&self.access_token),
            verify_token: trimmed(&self.verify_token),
            waba_id: trimmed(&self.waba_id),
            app_id: trimmed(&self.app_id),
            // An empty secret in a form means "leave it", never "erase it".
            app_secret: trimmed(&self.app_secret).filter(|s| !s.is_empty()),
        };
        let any = creds.phone_number_id.is_some()
            || creds.phone_number.is_some()
            || creds.access_token.is_some()
            || creds.verify_token.is_some()
            || creds.waba_id.is_some()
            || creds.app_id.is_some()
            || creds.app_secret.is_some();
        any.then_some(creds)
    }
}

/// `en` or `ar`, else a 422; `None` keeps the current language.
pub(super) fn check_language(language: &Option<String>) -> ApiResult<Option<String>> {
    match language.as_deref() {
        None => Ok(None),
        Some(lang @ ("en" | "ar")) => Ok(Some(lang.to_string())),
        Some(_) => Err(ApiError::Unprocessable("language must be en or ar".into())),
    }
}

/// `PATCH /identity/users/profile`: names and language for anyone, credentials for the owner.
#[utoipa::path(
    patch,
    path = "/identity/users/profile",
    tag = "identity",
    responses((status = 200, description = "The updated profile", body = Profile), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn update_profile(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<ProfileUpdate>,
) -> ApiResult<HttpResponse> {
    let language = check_language(&body.language)?;
    let settings = SettingsChange::check(
        body.assignment_mode.as_deref(),
        body.claim_timeout_minutes.as_ref(),
    )?;
    // Every field is checked before anything is stored: a refusal changes nothing.
    let changes = UserChanges {
        first_name: optional_name(&body.first_name, "firstName")?,
        last_name: optional_name(&body.last_name, "lastName")?,
        language,
        ..UserChanges::default()
    };
    body.check_provider_ids()?;
    let credentials = body.credentials();
    auth.user(&state).await?;
    if !settings.is_empty() || credentials.is_some() {
        auth.require_owner()?;
    }
    // The credentials first: they are the change another business can refuse (409).
    if let Some(creds) = credentials {
        state
            .store
            .update_credentials(&auth.business_id, creds)
            .await?;
    }
    if !settings.is_empty() {
        state
            .store
            .update_team_settings(
                &auth.business_id,
                settings.assignment_mode.as_deref(),
                settings.claim_timeout_minutes,
            )
            .await?;
    }
    state
        .store
        .update_user(&auth.business_id, &auth.user_id, changes)
        .await?;
    get_profile(state, auth).await
}

/// `GET /api/users/profile`.
#[utoipa::path(
    get,
    path = "/api/users/profile",
    tag = "identity",
    responses((status = 200, description = "The caller and the team settings", body = UserProfile), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn get_user(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let user = auth.user(&state).await?;
    // Every member reads the team settings.
    let settings = state.store.team_settings(&auth.business_id).await?;
    Ok(HttpResponse::Ok().json(UserProfile {
        user: (&user).into(),
        settings,
    }))
}

/// `PATCH /api/users/profile`: the same as `PATCH /identity/users/profile`, answering the user
/// and the team settings.
#[utoipa::path(
    patch,
    path = "/api/users/profile",
    tag = "identity",
    responses((status = 200, description = "The caller and the team settings", body = UserProfile), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn update_user(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<ProfileUpdate>,
) -> ApiResult<HttpResponse> {
    update_profile(state.clone(), auth.clone(), body).await?;
    get_user(state, auth).await
}

/// `PATCH /api/users/toggle-language`: en ↔ ar; answers the new value.
#[utoipa::path(
    patch,
    path = "/api/users/toggle-language",
    tag = "identity",
    responses((status = 200, description = "The new language", body = LanguageJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn toggle_language(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let user = auth.user(&state).await?;
    let language = if user.language == "ar" { "en" } else { "ar" };
    let changes = UserChanges {
        language: Some(language.to_string()),
        ..UserChanges::default()
    };
    state
        .store
        .update_user(&auth.business_id, &auth.user_id, changes)
        .await?;
    Ok(HttpResponse::Ok().json(LanguageJson { language }))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentForm {
    #[schema(nullable = false, min_length = 1)]
    first_name: Option<String>,
    #[schema(nullable = false, min_length = 1)]
    last_name: Option<String>,
    /// Required to create; stored lower-cased, without whitespace.
    #[schema(nullable = false, pattern = r"^[A-Za-z0-9._-]{3,32}$")]
    username: Option<String>,
    /// Required to create.
    #[schema(nullable = false, format = Email)]
    email: Option<String>,
    /// Required to create: 8 characters or more, not common, not the username or email.
    #[schema(nullable = false, min_length = 8)]
    password: Option<String>,
}

#[utoipa::path(
    get,
    path = "/identity/users/agents",
    tag = "identity",
    responses((status = 200, description = "The agents", body = Vec<UserJson>), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_agents(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let agents = state.store.agents(&auth.business_id).await?;
    Ok(HttpResponse::Ok().json(agents.iter().map(UserJson::from).collect::<Vec<_>>()))
}

/// A password as typed, spaces included (sign-in compares it so); `None` when absent or blank.
fn typed_password(value: &Option<String>) -> Option<String> {
    value.clone().filter(|password| !password.trim().is_empty())
}

#[utoipa::path(
    post,
    path = "/identity/users/agents",
    tag = "identity",
    responses((status = 201, description = "The agent", body = UserJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn create_agent(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<AgentForm>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let first_name = required_name(&body.first_name, "firstName")?;
    let last_name = required_name(&body.last_name, "lastName")?;
    let username = normalize_username(&required(&body.username, "username")?)?;
    let email = normalize_email(&required(&body.email, "email")?)?;
    let password = typed_password(&body.password)
        .ok_or_else(|| ApiError::Unprocessable("password is required".into()))?;
    check_password(&password, &username, &email)?;
    let agent = state
        .store
        .insert_agent(
            &auth.business_id,
            NewUser {
                first_name,
                last_name,
                username,
                email,
                password_hash: Some(hash_password(password).await?),
                google_sub: None,
            },
        )
        .await?;
    Ok(HttpResponse::Created().json(UserJson::from(&agent)))
}

#[utoipa::path(
    patch,
    path = "/identity/users/agents/{id}",
    tag = "identity",
    params(("id" = String, Path, description = "The agent")),
    responses((status = 200, description = "The agent", body = UserJson), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn update_agent(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
    body: web::Json<AgentForm>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let agent_id = path.into_inner();
    // Another business's user, or the owner, is not an agent of this one: the same 404.
    let current = match state.store.user(&auth.business_id, &agent_id).await {
        Ok(agent) if agent.role == crate::store::ROLE_AGENT => agent,
        Ok(_) | Err(crate::store::Error::NotFound(_)) => {
            return Err(ApiError::NotFound("Agent not found".into()));
        }
        Err(other) => return Err(other.into()),
    };
    let username = non_blank(&body.username)
        .map(|u| normalize_username(&u))
        .transpose()?;
    let email = non_blank(&body.email)
        .map(|e| normalize_email(&e))
        .transpose()?;
    // An empty password keeps the old one; a new one is checked against the names the agent
    // will have.
    let password_hash = match typed_password(&body.password) {
        Some(password) => {
            check_password(
                &password,
                username.as_deref().unwrap_or(&current.username),
                email.as_deref().unwrap_or(&current.email),
            )?;
            Some(hash_password(password).await?)
        }
        None => None,
    };
    let changes = UserChanges {
        first_name: optional_name(&body.first_name, "firstName")?,
        last_name: optional_name(&body.last_name, "lastName")?,
        username,
        email,
        password_hash,
        language: None,
    };
    let password_changed = changes.password_hash.is_some();
    let agent = state
        .store
        .update_user(&auth.business_id, &agent_id, changes)
        .await?;
    if password_changed {
        // A new password ends the agent's existing sessions, everywhere.
        state
            .revocations
            .end_sessions(&auth.business_id, &agent.id)
            .await?;
    }
    Ok(HttpResponse::Ok().json(UserJson::from(&agent)))
}

#[utoipa::path(
    delete,
    path = "/identity/users/agents/{id}",
    tag = "identity",
    params(("id" = String, Path, description = "The agent")),
    responses((status = 200, description = "Deleted", body = crate::error::Success), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn delete_agent(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    auth.require_owner()?;
    let agent_id = path.into_inner();
    state
        .store
        .delete_agent(&auth.business_id, &agent_id)
        .await?;
    state
        .revocations
        .announce(&auth.business_id, &agent_id, None);
    state
        .team
        .agent_removed(&auth.business_id, &agent_id)
        .await?;
    Ok(HttpResponse::Ok().json(SUCCESS))
}
