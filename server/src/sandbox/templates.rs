//! Message templates as the Cloud API reviews them: submitted PENDING, approved (or rejected
//! when named `reject_…`) after `template_review_ms`, the decision posted as a
//! `message_template_status_update` webhook; deleted by name; and the resumable upload of
//! header examples.

use std::collections::HashMap;

use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::graph::{graph_error, unsupported_request};
use super::{Sandbox, graph_id};
use crate::error::ApiResult;
use crate::store::now_ms;

/// Templates per page when a listing names no `limit`, as Graph.
const DEFAULT_PAGE: usize = 25;
/// Most templates one page holds.
const MAX_PAGE: usize = 1000;
/// Most templates an account may have, as the summary reports it.
const TEMPLATE_LIMIT: usize = 250;

/// The templates submitted in earlier runs, per WhatsApp Business Account.
pub(super) fn read_templates(path: &std::path::Path) -> HashMap<String, Vec<Value>> {
    std::fs::read(path)
        .ok()
        .and_then(|raw| serde_json::from_slice(&raw).ok())
        .unwrap_or_default()
}

impl Sandbox {
    fn save_templates(&self, templates: &HashMap<String, Vec<Value>>) {
        let path = self.media_dir.with_file_name("sandbox-templates.json");
        if let Ok(raw) = serde_json::to_vec(templates)
            && let Err(err) = std::fs::write(&path, raw)
        {
            tracing::warn!(error = %err, "sandbox templates not saved");
        }
    }

    /// A template of the account as submitted (with its current `status`), if it was.
    pub(super) fn template(&self, waba_id: &str, name: &str, language: &str) -> Option<Value> {
        let templates = self.templates.lock().unwrap_or_else(|p| p.into_inner());
        templates
            .get(waba_id)?
            .iter()
            .find(|t| t["name"] == name && t["language"] == language)
            .cloned()
    }

    /// Reviews a template after a while: approved, or rejected when its name starts with
    /// `reject_`; the decision reaches the app as a `message_template_status_update` webhook.
    async fn review(&self, business_id: &str, template_id: &str) {
        tokio::time::sleep(self.pause(self.settings.template_review_ms)).await;
        let Ok(business) = self.store.business(business_id).await else {
            return;
        };
        let decided = {
            let mut templates = self.templates.lock().unwrap_or_else(|p| p.into_inner());
            let decided = templates.get_mut(&business.waba_id).and_then(|list| {
                let template = list.iter_mut().find(|t| t["id"] == template_id)?;
                let name = template["name"].as_str().unwrap_or_default().to_string();
                let (status, reason) = if name.starts_with("reject_") {
                    ("REJECTED", "INVALID_FORMAT")
                } else {
                    ("APPROVED", "NONE")
                };
                template["status"] = json!(status);
                Some(json!({
                    "event": status,
                    "message_template_id": template_id.parse::<i64>().unwrap_or_default(),
                    "message_template_name": name,
                    "message_template_language": template["language"],
                    "message_template_category": template["category"],
                    "reason": reason,
                }))
            });
            self.save_templates(&templates);
            decided
        };
        let Some(value) = decided else { return };
        let body = json!({"object": "whatsapp_business_account", "entry": [{
            "id": business.waba_id,
            "time": now_ms() / 1000,
            "changes": [{"field": "message_template_status_update", "value": value}],
        }]});
        if let Err(err) = self.post_signed(&business, body).await {
            tracing::warn!(error = %err, "sandbox template decision not delivered");
        }
    }
}

/// `POST /sandbox/{version}/{waba_id}/message_templates`: submitted, PENDING until reviewed.
pub async fn create_template(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Json<Value>,
) -> ApiResult<HttpResponse> {
    let (_, waba_id) = path.into_inner();
    let business = match sandbox.authorized_for(&req, |b| b.waba_id == waba_id).await {
        Ok(b) => b,
        Err(response) => return Ok(response),
    };
    let body = body.into_inner();
    let (Some(name), Some(language), Some(category)) = (
        body.get("name").and_then(Value::as_str),
        body.get("language").and_then(Value::as_str),
        body.get("category").and_then(Value::as_str),
    ) else {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "name, language and category are required",
        ));
    };
    let id = graph_id();
    {
        let mut templates = sandbox.templates.lock().unwrap_or_else(|p| p.into_inner());
        let list = templates.entry(waba_id.clone()).or_default();
        if list
            .iter()
            .any(|t| t["name"] == name && t["language"] == language)
        {
            return Ok(graph_error(
                400,
                2388023,
                "Message template already exists",
                &format!("There is already {language} content for this template ({name})."),
            ));
        }
        list.push(json!({
            "id": id, "name": name, "language": language, "category": category,
            "status": "PENDING", "components": body.get("components").cloned().unwrap_or(json!([])),
            "parameter_format": body.get("parameter_format").cloned().unwrap_or(json!("POSITIONAL")),
        }));
        sandbox.save_templates(&templates);
    }
    let (reviewer, business_id, template_id) = (sandbox.clone(), business.id, id.clone());
    actix_web::rt::spawn(async move {
        reviewer.review(&business_id, &template_id).await;
    });
    Ok(HttpResponse::Ok().json(json!({"id": id, "status": "PENDING", "category": category})))
}

#[derive(Deserialize)]
pub struct Named {
    /// The template whose every language goes.
    name: Option<String>,
}

/// `DELETE /sandbox/{version}/{waba_id}/message_templates?name=`: every language of the named
/// template → `{success: true}`; an unknown name → 400 code 100, as Graph answers it.
pub async fn delete_template(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    query: web::Query<Named>,
) -> ApiResult<HttpResponse> {
    let (_, waba_id) = path.into_inner();
    if let Err(response) = sandbox.authorized_for(&req, |b| b.waba_id == waba_id).await {
        return Ok(response);
    }
    let name = query.name.clone().unwrap_or_default();
    let mut templates = sandbox.templates.lock().unwrap_or_else(|p| p.into_inner());
    let list = templates.entry(waba_id).or_default();
    let before = list.len();
    list.retain(|t| t["name"] != name.as_str());
    if list.len() == before {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            &format!("Message template \"{name}\" not found"),
        ));
    }
    sandbox.save_templates(&templates);
    Ok(HttpResponse::Ok().json(json!({"success": true})))
}

#[derive(Deserialize)]
pub struct Page {
    /// Templates per page (Graph's default 25).
    limit: Option<usize>,
    /// The cursor after which the page starts.
    after: Option<String>,
}

/// A page cursor: the template id it points at, opaque as Graph's.
fn cursor(template: &Value) -> String {
    URL_SAFE_NO_PAD.encode(template["id"].as_str().unwrap_or_default())
}

/// `GET /sandbox/{version}/{waba_id}/message_templates?limit=&after=`: one page, a summary,
/// and cursors (`paging.next` while more follow).
pub async fn list_templates(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    page: web::Query<Page>,
) -> ApiResult<HttpResponse> {
    let (version, waba_id) = path.into_inner();
    if let Err(response) = sandbox.authorized_for(&req, |b| b.waba_id == waba_id).await {
        return Ok(response);
    }
    let all = {
        let templates = sandbox.templates.lock().unwrap_or_else(|p| p.into_inner());
        templates.get(&waba_id).cloned().unwrap_or_default()
    };
    let start = match &page.after {
        None => 0,
        Some(after) => match all.iter().position(|t| cursor(t) == *after) {
            Some(at) => at + 1,
            None => {
                return Ok(graph_error(
                    400,
                    100,
                    "(#100) Invalid parameter",
                    "after is not a cursor of this list",
                ));
            }
        },
    };
    let limit = page.limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
    let data: Vec<Value> = all.iter().skip(start).take(limit).cloned().collect();
    let mut answer = json!({
        "data": data,
        "summary": {
            "total_count": all.len(),
            "message_template_count": all.len(),
            "message_template_limit": TEMPLATE_LIMIT,
            "are_translations_complete": true,
        },
    });
    if let (Some(first), Some(last)) = (data.first(), data.last()) {
        answer["paging"] = json!({"cursors": {"before": cursor(first), "after": cursor(last)}});
        if start + data.len() < all.len() {
            answer["paging"]["next"] = json!(format!(
                "{}/sandbox/{version}/{waba_id}/message_templates?limit={limit}&after={}",
                sandbox.self_url,
                cursor(last)
            ));
        }
    }
    Ok(HttpResponse::Ok().json(answer))
}

/// `POST /sandbox/{version}/{app_id}/uploads`: opens a resumable upload session.
pub async fn start_upload(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (_, app_id) = path.into_inner();
    if let Err(response) = sandbox.authorized_for(&req, |b| b.app_id == app_id).await {
        return Ok(response);
    }
    let mut raw = [0u8; 12];
    rand::thread_rng().fill(&mut raw);
    Ok(HttpResponse::Ok().json(json!({"id": format!("upload:{}", hex::encode(raw))})))
}

/// `POST /sandbox/{version}/upload:{session}`: takes the bytes, answers the header handle.
pub async fn finish_upload(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let (_, session) = path.into_inner();
    if let Err(response) = sandbox.authorized_for(&req, |_| true).await {
        return Ok(response);
    }
    if !session.starts_with("upload:") {
        return Ok(unsupported_request(req.method().as_str(), &session));
    }
    if body.is_empty() {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "no bytes",
        ));
    }
    Ok(HttpResponse::Ok().json(json!({"h": format!("4::{}", hex::encode(Sha256::digest(&body)))})))
}
