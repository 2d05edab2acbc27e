//! Templates and the template sender: `GET /api/templates`, `POST /api/send-template`,
//! `GET /api/send-template/jobs/{id}`.

use actix_multipart::form::{MultipartForm, tempfile::TempFile, text::Text};
use actix_web::{HttpResponse, web};
use serde_json::{Value, json};

use crate::api::messages::delivery_response;
use crate::auth::extract::Auth;
use crate::customer::CustomerKey;
use crate::error::{ApiError, ApiResult, non_blank};
use crate::media::{MediaKind, check_upload, store_file};
use crate::outbox::UPLOAD_KEY;
use crate::sender::{new_job_id, rendered, send_template, start_job, sync_templates};
use crate::state::AppState;
use crate::store::SendJob;

/// `GET /api/templates`: the business's templates, synced from the provider.
pub async fn list_templates(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let templates = sync_templates(&state, &auth.business_id).await?;
    Ok(HttpResponse::Ok().json(templates.iter().map(|t| t.to_json()).collect::<Vec<_>>()))
}

#[derive(MultipartForm)]
pub struct SendTemplateForm {
    media_file: Option<TempFile>,
    send_mode: Option<Text<String>>,
    template_name: Option<Text<String>>,
    language_code: Option<Text<String>>,
    components_json: Option<Text<String>>,
    phone_number_id: Option<Text<String>>,
    to: Option<Text<String>>,
    recipients_json: Option<Text<String>>,
}

fn field(value: &Option<Text<String>>) -> Option<String> {
    non_blank(&value.as_ref().map(|t| t.0.clone()))
}

/// Points the header's media parameter at an uploaded file, which the outbox sends to the
/// provider before the message; answers false when the template has no media header parameter.
fn attach_header_media(payload: &mut Value, media_id: &str, kind: MediaKind) -> bool {
    let name = kind.name();
    let Some(components) = payload
        .pointer_mut("/template/components")
        .and_then(Value::as_array_mut)
    else {
        return false;
    };
    let found = components.iter().enumerate().find_map(|(i, c)| {
        let header = c
            .get("type")
            .and_then(Value::as_str)?
            .eq_ignore_ascii_case("header");
        let j = c
            .get("parameters")?
            .as_array()?
            .iter()
            .position(|p| p.get("type").and_then(Value::as_str) == Some(name))?;
        header.then_some((i, j))
    });
    let Some((i, j)) = found else { return false };
    components[i]["parameters"][j][name] = json!({"id": ""});
    payload[UPLOAD_KEY] = json!({"media_id": media_id, "pointer": format!("/template/components/{i}/parameters/{j}/{name}/id")});
    true
}

/// `POST /api/send-template` (multipart): one recipient (`to`) or a bulk job (`recipients_json`).
pub async fn send_template_message(
    state: web::Data<AppState>,
    auth: Auth,
    form: MultipartForm<SendTemplateForm>,
) -> ApiResult<HttpResponse> {
    let form = form.into_inner();
    let name = field(&form.template_name)
        .ok_or_else(|| ApiError::Unprocessable("template_name is required".into()))?;
    let language = field(&form.language_code)
        .ok_or_else(|| ApiError::Unprocessable("language_code is required".into()))?;
    let business = state.store.business(&auth.business_id).await?;
    if let Some(pnid) = field(&form.phone_number_id)
        && business.phone_number_id.as_deref() != Some(pnid.as_str())
    {
        return Err(ApiError::Forbidden(
            "phone_number_id is not this business's number".into(),
        ));
    }
    let components: Value = match field(&form.components_json) {
        Some(raw) => serde_json::from_str(&raw)
            .map_err(|_| ApiError::Unprocessable("components_json is not a JSON array".into()))?,
        None => json!([]),
    };
    if !components.is_array() {
        return Err(ApiError::Unprocessable(
            "components_json is not a JSON array".into(),
        ));
    }
    let mut template = state
        .store
        .template_by_name(&auth.business_id, &name, &language)
        .await?;
    if template.as_ref().is_none_or(|t| t.status != "APPROVED") {
        sync_templates(&state, &auth.business_id).await?;
        template = state
            .store
            .template_by_name(&auth.business_id, &name, &language)
            .await?;
    }
    let template = match template {
        Some(t) if t.status == "APPROVED" => t,
        Some(t) => {
            return Err(ApiError::Unprocessable(format!(
                "Template {name} ({language}) is {}; only APPROVED templates can be sent",
                t.status
            )));
        }
        None => {
            return Err(ApiError::NotFound(format!(
                "No template {name} ({language})"
            )));
        }
    };
    let mut payload = json!({
        "messaging_product": "whatsapp", "recipient_type": "individual", "type": "template",
        "template": {"name": name, "language": {"code": language}, "components": components},
    });
    if let Some(file) = &form.media_file {
        let bytes = tokio::fs::read(file.file.path())
            .await
            .map_err(anyhow::Error::from)?;
        let (mime, kind) = check_upload(&bytes, None)?;
        let media_id = uuid::Uuid::new_v4().simple().to_string();
        let filename = file.file_name.clone().unwrap_or_default();
        store_file(
            &state.store,
            &state.settings.server.data_dir,
            &auth.business_id,
            &media_id,
            &bytes,
            mime,
            &filename,
        )
        .await?;
        if !attach_header_media(&mut payload, &media_id, kind) {
            return Err(ApiError::Unprocessable(format!(
                "The template's header takes no {} parameter for media_file",
                kind.name()
            )));
        }
    }
    let user = state.store.user(&auth.business_id, &auth.user_id).await?;
    let sender_name = format!("{} {}", user.first_name, user.last_name)
        .trim()
        .to_string();
    let bulk = field(&form.send_mode).as_deref() == Some("bulk");
    if !bulk {
        let to = CustomerKey::parse(
            &field(&form.to).ok_or_else(|| ApiError::Unprocessable("to is required".into()))?,
        )
        .map(CustomerKey::into_string)?;
        let content = rendered(&template, &components);
        let delivery = send_template(
            &state,
            &auth.business_id,
            &to,
            uuid::Uuid::new_v4().to_string(),
            &payload,
            content,
            &sender_name,
        )
        .await?;
        return Ok(delivery_response(delivery, &None));
    }
    let raw = field(&form.recipients_json).ok_or_else(|| {
        ApiError::Unprocessable("recipients_json is required for bulk sending".into())
    })?;
    let entries: Vec<Value> = serde_json::from_str(&raw)
        .map_err(|_| ApiError::Unprocessable("recipients_json is not a JSON array".into()))?;
    let mut recipients = Vec::with_capacity(entries.len());
    let mut seen = std::collections::HashSet::new();
    for entry in &entries {
        // Plain numbers, or objects with phone_number / phoneNumber / to.
        let raw = entry
            .as_str()
            .map(String::from)
            .or_else(|| entry.as_i64().map(|n| n.to_string()))
            .or_else(|| {
                ["phone_number", "phoneNumber", "to", "phone"]
                    .iter()
                    .find_map(|k| entry.get(*k)?.as_str().map(String::from))
            })
            .unwrap_or_default();
        let phone = CustomerKey::parse(&raw)
            .map(CustomerKey::into_string)
            .map_err(|e| ApiError::Unprocessable(format!("recipients_json: {e}")))?;
        if seen.insert(phone.clone()) {
            recipients.push(phone);
        }
    }
    let job = SendJob {
        business_id: auth.business_id.clone(),
        id: new_job_id(),
        template_name: name,
        language_code: language,
        payload: payload.to_string(),
        sender_name,
        total: recipients.len() as i64,
        finished_at: None,
    };
    let job_id = job.id.clone();
    let total = job.total;
    start_job(state, job, recipients).await?;
    Ok(HttpResponse::Accepted()
        .json(json!({"status": "accepted", "job_id": job_id, "total": total, "results": {}})))
}

/// `GET /api/send-template/jobs/{id}`: progress, and the results so far.
pub async fn get_job(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(crate::sender::job_report(&state, &auth.business_id, &path).await?))
}
