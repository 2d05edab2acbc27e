//! Reading the `PushSubscription` a browser sends: its shape, keys and endpoint.

use base64::Engine;
use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::Value;

use super::address;
use crate::store::PushSubscription;

/// Longest accepted endpoint URL.
const MAX_ENDPOINT_LEN: usize = 2048;
/// Longest accepted FCM registration token (they are about 160 characters today). A token is
/// kept as its subscription's endpoint, which Postgres indexes: an entry over about 2.7 KB fails.
const MAX_DEVICE_TOKEN_LEN: usize = 2048;

/// The browser platform (Web Push).
pub const WEB: &str = "web";
/// The native apps' platforms; their devices are reached through FCM.
pub const NATIVE_PLATFORMS: [&str; 2] = ["android", "ios"];

/// base64url, with or without padding (browsers omit it, some libraries add it).
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A push subscription the browser sent that cannot be kept.
#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    /// Not the shape of a `PushSubscription`.
    #[error("{0}")]
    Malformed(String),
    /// The shape is right but a value is missing or refused.
    #[error("{0}")]
    Invalid(String),
}

/// Reads the `token` of a subscribe call: a `PushSubscription` as JSON (an object, or that
/// object as a string), checked so that every stored subscription can be encrypted to.
pub fn parse_subscription(
    token: &Value,
    allow_http: bool,
) -> Result<PushSubscription, SubscriptionError> {
    const SHAPE: &str = "token must be a PushSubscription: {\"endpoint\": \"https://…\", \
                         \"keys\": {\"p256dh\": \"…\", \"auth\": \"…\"}}";
    let parsed;
    let object = match given(token)? {
        Value::Object(_) => token,
        Value::String(raw) => {
            parsed = serde_json::from_str::<Value>(raw)
                .map_err(|_| SubscriptionError::Malformed(SHAPE.into()))?;
            &parsed
        }
        _ => return Err(SubscriptionError::Malformed(SHAPE.into())),
    };
    let field = |pointer: &str| object.pointer(pointer).and_then(Value::as_str);
    let (Some(endpoint), Some(p256dh), Some(auth)) = (
        field("/endpoint"),
        field("/keys/p256dh"),
        field("/keys/auth"),
    ) else {
        return Err(SubscriptionError::Malformed(SHAPE.into()));
    };
    Ok(PushSubscription {
        platform: WEB.into(),
        endpoint: check_endpoint(endpoint, allow_http)?,
        p256dh: check_key(
            p256dh,
            "keys.p256dh",
            "an uncompressed P-256 public key (65 bytes)",
            |raw| raw.len() == 65 && raw[0] == 4 && p256::PublicKey::from_sec1_bytes(raw).is_ok(),
        )?,
        auth: check_key(auth, "keys.auth", "16 bytes", |raw| raw.len() == 16)?,
    })
}

/// The token, unless it is missing or a blank string (422 `token is required`).
fn given(token: &Value) -> Result<&Value, SubscriptionError> {
    let missing = token.is_null() || token.as_str().is_some_and(|text| text.trim().is_empty());
    match missing {
        true => Err(SubscriptionError::Invalid("token is required".into())),
        false => Ok(token),
    }
}

/// Reads the `token` of a native app's subscribe call: the device's FCM registration token.
pub fn parse_device_token(
    token: &Value,
    platform: &str,
) -> Result<PushSubscription, SubscriptionError> {
    let token = match given(token)? {
        Value::String(token) => token.trim(),
        _ => {
            return Err(SubscriptionError::Malformed(
                "token must be the device's FCM registration token (a string)".into(),
            ));
        }
    };
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-' | '.');
    if token.is_empty() || token.len() > MAX_DEVICE_TOKEN_LEN || !token.chars().all(allowed) {
        return Err(SubscriptionError::Malformed(format!(
            "token must be an FCM registration token: up to {MAX_DEVICE_TOKEN_LEN} letters, \
             digits and : _ - ."
        )));
    }
    Ok(PushSubscription {
        platform: platform.into(),
        endpoint: token.into(),
        p256dh: String::new(),
        auth: String::new(),
    })
}

/// The endpoint of an unsubscribe call's `token`: a subscription (object or string) or the bare
/// endpoint URL.
pub fn endpoint_of(token: &Value) -> Result<String, SubscriptionError> {
    let endpoint_in = |object: &Value| {
        object
            .get("endpoint")
            .and_then(Value::as_str)
            .map(String::from)
    };
    let endpoint = match token {
        Value::Object(_) => endpoint_in(token),
        Value::String(raw) => match serde_json::from_str::<Value>(raw) {
            Ok(parsed @ Value::Object(_)) => endpoint_in(&parsed),
            _ => Some(raw.clone()),
        },
        _ => None,
    };
    endpoint
        .map(|e| e.trim().to_string())
        .filter(|e| !e.is_empty())
        .ok_or_else(|| {
            SubscriptionError::Invalid(
                "token is required: the PushSubscription, or its endpoint URL".into(),
            )
        })
}

fn check_endpoint(endpoint: &str, allow_http: bool) -> Result<String, SubscriptionError> {
    let endpoint = endpoint.trim();
    let parsed = url::Url::parse(endpoint)
        .map_err(|_| SubscriptionError::Malformed("token.endpoint is not a URL".into()))?;
    let scheme_ok = parsed.scheme() == "https" || (allow_http && parsed.scheme() == "http");
    let Some(host) = parsed.host().filter(|_| scheme_ok) else {
        return Err(SubscriptionError::Malformed(
            "token.endpoint must be an https URL of a push service".into(),
        ));
    };
    // The test-only opt-in (a local push service over http) is the one way to a local host.
    if let Some(why) = address::refusal(&host).filter(|_| !allow_http) {
        return Err(SubscriptionError::Invalid(format!(
            "token.endpoint must be a push service on the internet: {host} {why}"
        )));
    }
    if endpoint.len() > MAX_ENDPOINT_LEN {
        return Err(SubscriptionError::Malformed(format!(
            "token.endpoint is longer than {MAX_ENDPOINT_LEN} characters"
        )));
    }
    Ok(endpoint.to_string())
}

/// A base64url key (`what` it must hold) that `valid` accepts, normalised to no padding.
fn check_key(
    raw: &str,
    field: &str,
    what: &str,
    valid: fn(&[u8]) -> bool,
) -> Result<String, SubscriptionError> {
    match BASE64URL.decode(raw.trim()) {
        Ok(bytes) if valid(&bytes) => Ok(URL_SAFE_NO_PAD.encode(bytes)),
        _ => Err(SubscriptionError::Malformed(format!(
            "token.{field} must be base64url of {what}"
        ))),
    }
}
