//! The number as Graph describes it: `GET /{phone-number-id}` (the phone number object, or a
//! media id's download URL: both are Graph objects read by id), and the business profile shown
//! to customers (`GET`/`POST /{phone-number-id}/whatsapp_business_profile`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::graph::graph_error;
use super::{Sandbox, media};
use crate::error::ApiResult;

/// Profile fields a business may set, with the longest text Meta accepts for each.
const PROFILE_TEXT_LIMITS: [(&str, usize); 4] = [
    ("about", 139),
    ("address", 256),
    ("description", 512),
    ("email", 128),
];
/// Industries Meta lets a profile name (`vertical`).
const VERTICALS: [&str; 19] = [
    "UNDEFINED",
    "OTHER",
    "AUTO",
    "BEAUTY",
    "APPAREL",
    "EDU",
    "ENTERTAIN",
    "EVENT_PLAN",
    "FINANCE",
    "GROCERY",
    "GOVT",
    "HOTEL",
    "HEALTH",
    "NONPROFIT",
    "PROF_SERVICES",
    "RETAIL",
    "TRAVEL",
    "RESTAURANT",
    "NOT_A_BIZ",
];
/// Most websites a profile lists.
const MAX_WEBSITES: usize = 2;

#[derive(Deserialize)]
pub struct Fields {
    /// Comma-separated fields to answer, as Graph's `?fields=`; all when absent.
    fields: Option<String>,
}

/// Keeps `id` and the asked-for fields of a Graph object.
fn only_fields(object: Value, fields: Option<&str>) -> Value {
    let (Some(fields), Value::Object(all)) = (fields, &object) else {
        return object;
    };
    let wanted: Vec<&str> = fields.split(',').map(str::trim).collect();
    let kept: Map<String, Value> = all
        .iter()
        .filter(|(name, _)| *name == "id" || wanted.contains(&name.as_str()))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    Value::Object(kept)
}

/// `+1 555-010-1234` for a North American number, else `+` and the digits.
fn display_number(digits: &str) -> String {
    match (digits.len(), digits.strip_prefix('1')) {
        (11, Some(rest)) => format!("+1 {}-{}-{}", &rest[..3], &rest[3..6], &rest[6..]),
        _ => format!("+{digits}"),
    }
}

/// `GET /sandbox/{version}/{object-id}`: the token's own phone number, or a media upload.
pub async fn get_object(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    query: web::Query<Fields>,
) -> ApiResult<HttpResponse> {
    let (_, id) = path.into_inner();
    let business = match sandbox.authorized_for(&req, |_| true).await {
        Ok(business) => business,
        Err(response) => return Ok(response),
    };
    if business.phone_number_id.as_deref() != Some(id.as_str()) {
        return Ok(media::media_object(&sandbox, &req, &id).await);
    }
    let number = json!({
        "id": id,
        "display_phone_number": display_number(&business.phone_number),
        "verified_name": business.name,
        "quality_rating": "GREEN",
        "code_verification_status": "VERIFIED",
        "name_status": "APPROVED",
        "platform_type": "CLOUD_API",
        "status": "CONNECTED",
        "account_mode": "LIVE",
        "throughput": {"level": "STANDARD"},
        "messaging_limit_tier": "TIER_1K",
        "is_official_business_account": false,
        "webhook_configuration": {"application": format!("{}/webhook", sandbox.self_url)},
    });
    Ok(HttpResponse::Ok().json(only_fields(number, query.fields.as_deref())))
}

impl Sandbox {
    /// The number's business profile: what was set, over a new profile's defaults.
    fn profile(&self, phone_number_id: &str) -> Value {
        let profiles = self.profiles.lock().unwrap_or_else(|p| p.into_inner());
        let mut profile = json!({
            "about": "Hey there! I am using WhatsApp.",
            "vertical": "UNDEFINED",
            "websites": [],
            "messaging_product": "whatsapp",
        });
        if let Some(Value::Object(set)) = profiles.get(phone_number_id) {
            for (name, value) in set {
                profile[name] = value.clone();
            }
        }
        profile
    }
}

/// `GET /sandbox/{version}/{phone-number-id}/whatsapp_business_profile`.
pub async fn get_profile(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    query: web::Query<Fields>,
) -> ApiResult<HttpResponse> {
    let (_, phone_number_id) = path.into_inner();
    if let Err(response) = sandbox.authorized(&req, &phone_number_id).await {
        return Ok(response);
    }
    let mut profile = only_fields(sandbox.profile(&phone_number_id), query.fields.as_deref());
    profile["messaging_product"] = json!("whatsapp");
    Ok(HttpResponse::Ok().json(json!({"data": [profile]})))
}

/// What a profile update sets, or why Graph refuses it.
fn profile_update(body: &Value) -> Result<Map<String, Value>, String> {
    if body.get("messaging_product").and_then(Value::as_str) != Some("whatsapp") {
        return Err("messaging_product must be whatsapp".into());
    }
    let mut set = Map::new();
    for (field, limit) in PROFILE_TEXT_LIMITS {
        match body.get(field) {
            None => {}
            Some(Value::String(text)) if text.chars().count() <= limit => {
                set.insert(field.into(), json!(text));
            }
            Some(_) => {
                return Err(format!(
                    "Param {field} must be at most {limit} characters long."
                ));
            }
        }
    }
    if let Some(vertical) = body.get("vertical") {
        if !vertical.as_str().is_some_and(|v| VERTICALS.contains(&v)) {
            return Err(format!(
                "Param vertical must be one of {{{}}}.",
                VERTICALS.join(", ")
            ));
        }
        set.insert("vertical".into(), vertical.clone());
    }
    if let Some(websites) = body.get("websites") {
        let valid = websites.as_array().is_some_and(|list| {
            list.len() <= MAX_WEBSITES
                && list
                    .iter()
                    .all(|w| w.as_str().is_some_and(|w| w.len() <= 256))
        });
        if !valid {
            return Err(format!(
                "Param websites must be an array of at most {MAX_WEBSITES} URLs."
            ));
        }
        set.insert("websites".into(), websites.clone());
    }
    if let Some(handle) = body.get("profile_picture_handle").and_then(Value::as_str) {
        set.insert(
            "profile_picture_url".into(),
            json!(format!("https://pps.whatsapp.net/sandbox/{handle}")),
        );
    }
    Ok(set)
}

/// `POST /sandbox/{version}/{phone-number-id}/whatsapp_business_profile`: updates what it names.
pub async fn update_profile(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Json<Value>,
) -> ApiResult<HttpResponse> {
    let (_, phone_number_id) = path.into_inner();
    if let Err(response) = sandbox.authorized(&req, &phone_number_id).await {
        return Ok(response);
    }
    let set = match profile_update(&body) {
        Ok(set) => set,
        Err(details) => {
            return Ok(graph_error(
                400,
                100,
                &format!("(#100) {details}"),
                &details,
            ));
        }
    };
    let mut profiles = sandbox.profiles.lock().unwrap_or_else(|p| p.into_inner());
    let profile = profiles.entry(phone_number_id).or_insert_with(|| json!({}));
    for (name, value) in set {
        profile[name] = value;
    }
    Ok(HttpResponse::Ok().json(json!({"success": true})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_north_american_number_is_shown_as_meta_shows_it() {
        assert_eq!(display_number("15550101234"), "+1 555-010-1234");
        assert_eq!(display_number("447700900123"), "+447700900123");
    }

    #[test]
    fn fields_keep_the_id_and_what_was_asked() {
        let object = json!({"id": "1", "a": 1, "b": 2});
        assert_eq!(
            only_fields(object.clone(), Some("b")),
            json!({"id": "1", "b": 2})
        );
        assert_eq!(only_fields(object.clone(), None), object);
    }
}
