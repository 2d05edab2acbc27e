//! Templates and the template sender: `GET /api/templates`, `POST /api/send-template`,
//! `GET /api/send-template/jobs/{id}`.

use std::collections::BTreeMap;

use actix_multipart::form::{MultipartForm, tempfile::TempFile, text::Text};
use actix_web::{HttpResponse, web};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::api::messages::{Sent, delivery_response, read_upload};
use crate::api::team::member_of;
use crate::auth::extract::Auth;
use crate::customer::CustomerKey;
use crate::error::{ApiError, ApiResult, non_blank};
use crate::multipart::check_texts;
use crate::sending::{Recipients, TemplateRequest, TemplateSent};
use crate::state::AppState;
use crate::templates::catalog::sync_templates;

/// `GET /api/templates`: the business's templates, synced from the provider.
#[utoipa::path(
    get,
    path = "/api/templates",
    tag = "templates",
    responses((status = 200, description = "The business's templates", body = Vec<crate::store::TemplateJson>), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn list_templates(state: web::Data<AppState>, auth: Auth) -> ApiResult<HttpResponse> {
    let templates =
        sync_templates(&state.store, state.provider.as_ref(), &auth.business_id).await?;
    Ok(HttpResponse::Ok().json(templates.iter().map(|t| t.to_json()).collect::<Vec<_>>()))
}

#[derive(MultipartForm, utoipa::ToSchema)]
pub struct SendTemplateForm {
    #[schema(value_type = Option<Vec<u8>>, format = Binary)]
    media_file: Option<TempFile>,
    #[schema(value_type = Option<String>)]
    send_mode: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    template_name: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    language_code: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    components_json: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    phone_number_id: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    to: Option<Text<String>>,
    #[schema(value_type = Option<String>)]
    recipients_json: Option<Text<String>>,
    /// `true` lets an agent answer a conversation someone else holds, taking it over.
    #[schema(value_type = Option<String>)]
    take_over: Option<Text<String>>,
}

fn field(value: &Option<Text<String>>) -> Option<String> {
    non_blank(&value.as_ref().map(|t| t.0.clone()))
}

/// `POST /api/send-template` (multipart): one recipient (`to`) or a bulk job (`recipients_json`).
#[utoipa::path(
    post,
    path = "/api/send-template",
    tag = "templates",
    request_body(content = crate::api::sender::SendTemplateForm, content_type = "multipart/form-data", description = "One recipient (`to`) or a bulk job (`recipients_json`)"),
    responses((status = 200, description = "Sent to one recipient", body = Sent), (status = 202, description = "Queued, or a bulk job started", body = SendTemplateAccepted), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn send_template_message(
    state: web::Data<AppState>,
    auth: Auth,
    form: MultipartForm<SendTemplateForm>,
) -> ApiResult<HttpResponse> {
    let form = form.into_inner();
    check_texts([
        ("send_mode", &form.send_mode),
        ("template_name", &form.template_name),
        ("language_code", &form.language_code),
        ("components_json", &form.components_json),
        ("phone_number_id", &form.phone_number_id),
        ("to", &form.to),
        ("recipients_json", &form.recipients_json),
        ("take_over", &form.take_over),
    ])?;
    let bulk = match field(&form.send_mode).as_deref() {
        None | Some("single") => false,
        Some("bulk") => true,
        Some(_) => {
            return Err(ApiError::Unprocessable(
                "send_mode must be single or bulk".into(),
            ));
        }
    };
    let name = field(&form.template_name)
        .ok_or_else(|| ApiError::Unprocessable("template_name is required".into()))?;
    let language = field(&form.language_code)
        .ok_or_else(|| ApiError::Unprocessable("language_code is required".into()))?;
    let components: Value = match field(&form.components_json) {
        Some(raw) => serde_json::from_str(&raw)
            .map_err(|e| unreadable("components_json is not a JSON array", &e))?,
        None => json!([]),
    };
    if !components.is_array() {
        return Err(ApiError::Unprocessable(
            "components_json is not a JSON array".into(),
        ));
    }
    let recipients = if bulk {
        Recipients::Many(bulk_recipients(&form)?)
    } else {
        let to = field(&form.to).ok_or_else(|| ApiError::Unprocessable("to is required".into()))?;
        let region = state.store.business(&auth.business_id).await?.region();
        let to = CustomerKey::typed(&to, region)?;
        let to = state.store.customer_key(&auth.business_id, to).await?;
        let take_over = field(&form.take_over).as_deref() == Some("true");
        state
            .team
            .check_send(&member_of(&auth), to.as_str(), take_over)
            .await?;
        Recipients::One(to)
    };
    let header_file = match &form.media_file {
        Some(file) => Some(read_upload(file, None).await?),
        None => None,
    };
    let request = TemplateRequest {
        name,
        language,
        components,
        phone_number_id: field(&form.phone_number_id),
        header_file,
    };
    let sent = state
        .sending
        .send_template(&auth.business_id, &auth.user_id, request, recipients)
        .await?;
    Ok(match sent {
        TemplateSent::One(sent) => delivery_response(sent.delivery, &sent.media_url),
        TemplateSent::Job { id, total } => {
            HttpResponse::Accepted().json(SendTemplateAccepted::Job(JobStarted {
                status: "accepted",
                job_id: id,
                total,
                results: BTreeMap::new(),
            }))
        }
    })
}

/// A bulk job's start: its id and size; its results come from `GET /api/send-template/jobs/{id}`.
#[derive(Serialize, ToSchema)]
pub struct JobStarted {
    /// Always `accepted`.
    status: &'static str,
    job_id: String,
    total: i64,
    /// Always empty at the start.
    results: BTreeMap<String, String>,
}

/// `send-template`'s 202: one recipient's send stored and queued, or a bulk job started.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum SendTemplateAccepted<'a> {
    /// Answered by `delivery_response` with a `Sent` of status `queued`.
    Queued(Sent<'a>),
    Job(JobStarted),
}

/// The distinct phone numbers of `recipients_json`, in order: plain numbers, or objects with
/// phone_number / phoneNumber / to / phone and optionally `variables` (column name to value).
/// Numbers are keys as `/api/recipients/parse` answers them (digits with the country code).
fn bulk_recipients(form: &SendTemplateForm) -> ApiResult<Vec<(String, BTreeMap<String, String>)>> {
    let raw = field(&form.recipients_json).ok_or_else(|| {
        ApiError::Unprocessable("recipients_json is required for bulk sending".into())
    })?;
    let entries: Vec<Value> = serde_json::from_str(&raw)
        .map_err(|e| unreadable("recipients_json is not a JSON array", &e))?;
    let mut recipients = Vec::with_capacity(entries.len());
    let mut seen = std::collections::HashSet::new();
    for (position, entry) in entries.iter().enumerate() {
        let raw = number_text(entry)
            .or_else(|| {
                ["phone_number", "phoneNumber", "to", "phone"]
                    .iter()
                    .find_map(|k| number_text(entry.get(*k)?))
            })
            .ok_or_else(|| {
                ApiError::Unprocessable(format!(
                    "recipients_json: entry {} has no phone number",
                    position + 1
                ))
            })?;
        let phone = CustomerKey::parse(&raw)
            .map(CustomerKey::into_string)
            .map_err(|e| ApiError::Unprocessable(format!("recipients_json: {e}")))?;
        let values: BTreeMap<String, String> = match entry.get("variables") {
            None | Some(Value::Null) => BTreeMap::new(),
            Some(values) => serde_json::from_value(values.clone()).map_err(|_| {
                ApiError::Unprocessable(format!(
                    "recipients_json: the variables of {phone} are not an object of texts"
                ))
            })?,
        };
        if seen.insert(phone.clone()) {
            recipients.push((phone, values));
        }
    }
    Ok(recipients)
}

/// 422 for a JSON field that does not read as it should, the parser's words as its details.
fn unreadable(text: &str, err: &serde_json::Error) -> ApiError {
    ApiError::Detailed {
        error: Box::new(ApiError::Unprocessable(text.into())),
        details: err.to_string(),
    }
}

/// A recipient's number as written in `recipients_json`: a string, or a JSON number (a
/// spreadsheet's cell often becomes one).
fn number_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => number.as_u64().map(|n| n.to_string()),
        _ => None,
    }
}

/// `GET /api/send-template/jobs/{id}`: progress, and the results so far.
#[utoipa::path(
    get,
    path = "/api/send-template/jobs/{id}",
    tag = "templates",
    params(("id" = String, Path, description = "The bulk job")),
    responses((status = 200, description = "Progress and results so far", body = crate::sending::JobReport), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn get_job(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.sending.job_report(&auth.business_id, &path).await?))
}
