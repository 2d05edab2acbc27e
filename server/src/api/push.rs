//! Push registration: the application server key, and subscribing and unsubscribing the
//! caller's browsers and native app devices (docs/API.md, "Push notifications").

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult, required};
use crate::push::{
    NATIVE_PLATFORMS, REFRESH_AFTER_MS, WEB, endpoint_of, parse_device_token, parse_subscription,
};
use crate::state::AppState;
use crate::store::iso_time;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct SubscribeForm {
    /// The browser's `PushSubscription` (object or JSON string), or a device's FCM token.
    #[serde(default)]
    token: Value,
    platform: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct UnsubscribeForm {
    /// The `PushSubscription`, or its endpoint URL.
    #[serde(default)]
    token: Value,
}

/// `GET /api/push/public-key`: the VAPID key for `PushManager.subscribe`.
#[utoipa::path(
    get,
    path = "/api/push/public-key",
    tag = "push",
    responses((status = 200, description = "The VAPID public key", body = PublicKey), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn get_public_key(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(PublicKey {
        public_key: state.push.public_key(),
    })
}

/// The VAPID public key.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicKey<'a> {
    /// Base64url, for `applicationServerKey`.
    public_key: &'a str,
}

/// `POST /api/subscribe-to-notifications` {token, platform: "web" | "android" | "ios"}:
/// registers or refreshes the caller's browser or device.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/subscribe-to-notifications",
    tag = "push",
    responses((status = 200, description = "Subscribed", body = Subscribed), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn subscribe_to_notifications(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<SubscribeForm>,
) -> ApiResult<HttpResponse> {
    let platform = required(&body.platform, "platform")?;
    let subscription = if platform == WEB {
        parse_subscription(&body.token, state.settings.push.allow_http_endpoints)?
    } else if NATIVE_PLATFORMS.contains(&platform.as_str()) {
        if !state.push.native_enabled() {
            return Err(ApiError::Unprocessable(format!(
                "platform \"{platform}\" needs FCM, which this server is not configured for: \
                 set push.fcm.project_id and push.fcm.service_account_file \
                 (PARLEY_PUSH__FCM__PROJECT_ID, PARLEY_PUSH__FCM__SERVICE_ACCOUNT_FILE)"
            )));
        }
        parse_device_token(&body.token, &platform)?
    } else {
        return Err(ApiError::BadRequest(format!(
            "platform \"{platform}\" is not supported: \"web\", \"android\" or \"ios\""
        )));
    };
    auth.user(&state).await?;
    let refreshed = state
        .store
        .upsert_push_subscription(&auth.business_id, &auth.user_id, &subscription)
        .await?;
    Ok(HttpResponse::Ok().json(Subscribed {
        status: "success",
        refresh_after: iso_time(refreshed + REFRESH_AFTER_MS),
    }))
}

/// A registered subscription.
#[derive(Serialize, ToSchema)]
pub struct Subscribed {
    /// Always `success`.
    status: &'static str,
    /// ISO 8601: when the client should register again to keep it.
    refresh_after: String,
}

/// `POST /api/unsubscribe-from-notifications` {token}: forgets one of the caller's browsers or
/// devices.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/unsubscribe-from-notifications",
    tag = "push",
    responses((status = 200, description = "Whether a subscription was removed", body = Unsubscribed), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn unsubscribe_from_notifications(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<UnsubscribeForm>,
) -> ApiResult<HttpResponse> {
    let endpoint = endpoint_of(&body.token)?;
    let removed = state
        .store
        .delete_push_subscription(&auth.business_id, &auth.user_id, &endpoint)
        .await?;
    Ok(HttpResponse::Ok().json(Unsubscribed {
        status: "success",
        removed,
    }))
}

/// A forgotten subscription.
#[derive(Serialize, ToSchema)]
pub struct Unsubscribed {
    /// Always `success`.
    status: &'static str,
    /// How many of the caller's subscriptions it removed (0 or 1).
    removed: u64,
}
