//! The sandbox: a fake WhatsApp Cloud API served under `/sandbox`, reached over real HTTP by the
//! same client code as the real one. It answers sends with `wamid.…` ids and Cloud-API-shaped
//! errors, enforces the 24-hour window and the per-number rate, posts signed `sent`,
//! `delivered` and `read` webhooks back to `/webhook` with realistic delays, keeps uploaded
//! media, and plays customers who write in and sometimes answer.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use actix_multipart::form::{MultipartForm, tempfile::TempFile, text::Text};
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::auth::extract::Auth;
use crate::config::SandboxSettings;
use crate::error::{ApiError, ApiResult, required};
use crate::rate::TokenBuckets;
use crate::state::AppState;
use crate::store::{Business, now_ms};

/// Accepted sends remembered per number, for the inspection endpoint.
const SENT_LOG_LEN: usize = 10_000;
/// How long the customer-service window stays open after the customer writes.
const WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

const CUSTOMER_NAMES: [&str; 5] = [
    "Sheena Nelson",
    "Omar Haddad",
    "Lucía Gómez",
    "Wei Chen",
    "Amara Okafor",
];
const CUSTOMER_LINES: [&str; 6] = [
    "Hi! Is my order on its way?",
    "Thanks, that helps a lot.",
    "Can I change the delivery address?",
    "What are your opening hours?",
    "Perfect 👍",
    "مرحبا، هل المنتج متوفر؟",
];

/// A stored sandbox upload's description, kept next to its bytes.
#[derive(Serialize, Deserialize)]
struct MediaInfo {
    mime_type: String,
    sha256: String,
    file_size: String,
    phone_number_id: String,
}

pub struct Sandbox {
    settings: SandboxSettings,
    http: reqwest::Client,
    /// `http://host:port` of this server: statuses are posted to its `/webhook`.
    self_url: String,
    media_dir: PathBuf,
    /// The per-number throughput limit, as the Cloud API enforces it.
    buckets: TokenBuckets,
    /// Accepted message bodies per phone number id, newest last.
    sent: Mutex<HashMap<String, VecDeque<Value>>>,
    /// Submitted templates per WhatsApp Business Account, kept in `sandbox-templates.json`.
    templates: Mutex<HashMap<String, Vec<Value>>>,
}

/// The accepted messages of earlier runs, newest last (at most `SENT_LOG_LEN` per number).
fn read_sent_log(path: &std::path::Path) -> HashMap<String, VecDeque<Value>> {
    let mut sent: HashMap<String, VecDeque<Value>> = HashMap::new();
    let Ok(raw) = std::fs::read_to_string(path) else {
        return sent;
    };
    for line in raw
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        let number = line["phone_number_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        push_bounded(sent.entry(number).or_default(), line["message"].clone());
    }
    sent
}

fn push_bounded(log: &mut VecDeque<Value>, message: Value) {
    if log.len() == SENT_LOG_LEN {
        log.pop_front();
    }
    log.push_back(message);
}

fn graph_error(status: u16, code: i64, message: &str, details: &str) -> HttpResponse {
    let mut raw = [0u8; 9];
    rand::thread_rng().fill(&mut raw);
    let body = json!({"error": {
        "message": message,
        "type": "OAuthException",
        "code": code,
        "error_data": {"messaging_product": "whatsapp", "details": details},
        "fbtrace_id": base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw),
    }});
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap_or_default())
        .json(body)
}

fn wamid() -> String {
    let mut raw = [0u8; 24];
    rand::thread_rng().fill(&mut raw);
    format!(
        "wamid.{}",
        base64::engine::general_purpose::STANDARD.encode(raw)
    )
}

fn sign(secret: &str, body: &[u8]) -> String {
    // A key of any length is valid for HMAC.
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap_or_else(|_| unreachable!());
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// The Cloud API envelope around one change value.
fn envelope(business: &Business, value: Value) -> Value {
    let mut value = value;
    value["messaging_product"] = json!("whatsapp");
    value["metadata"] = json!({
        "display_phone_number": business.phone_number,
        "phone_number_id": business.phone_number_id,
    });
    json!({"object": "whatsapp_business_account", "entry": [{
        "id": business.waba_id,
        "changes": [{"field": "messages", "value": value}],
    }]})
}

impl Sandbox {
    pub fn new(
        settings: SandboxSettings,
        http: reqwest::Client,
        self_url: String,
        data_dir: &std::path::Path,
    ) -> Sandbox {
        Sandbox {
            buckets: TokenBuckets::new(settings.rate_per_second),
            settings,
            http,
            self_url,
            media_dir: data_dir.join("sandbox-media"),
            sent: Mutex::new(read_sent_log(&data_dir.join("sandbox-sent.jsonl"))),
            templates: Mutex::new(
                std::fs::read(data_dir.join("sandbox-templates.json"))
                    .ok()
                    .and_then(|raw| serde_json::from_slice(&raw).ok())
                    .unwrap_or_default(),
            ),
        }
    }

    fn save_templates(&self, templates: &HashMap<String, Vec<Value>>) {
        let path = self.media_dir.with_file_name("sandbox-templates.json");
        if let Ok(raw) = serde_json::to_vec(templates)
            && let Err(err) = std::fs::write(&path, raw)
        {
            tracing::warn!(error = %err, "sandbox templates not saved");
        }
    }

    /// The status of a template of the account, if it was submitted.
    fn template_status(&self, waba_id: &str, name: &str, language: &str) -> Option<String> {
        let templates = self.templates.lock().unwrap_or_else(|p| p.into_inner());
        templates.get(waba_id)?.iter().find_map(|t| {
            (t["name"] == name && t["language"] == language)
                .then(|| t["status"].as_str().unwrap_or_default().to_string())
        })
    }

    /// Reviews a template after a while: approved, or rejected when its name starts with
    /// `reject_`; the decision reaches the app as a `message_template_status_update` webhook.
    async fn review(&self, state: &AppState, business_id: &str, template_id: &str) {
        tokio::time::sleep(self.pause(self.settings.template_review_ms)).await;
        let Ok(business) = state.store.business(business_id).await else {
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

    /// Keeps an accepted message, in memory and appended to `sandbox-sent.jsonl`, so what the
    /// "provider" received can be counted across restarts of the server.
    fn remember(&self, phone_number_id: &str, body: Value) {
        let line = json!({"phone_number_id": phone_number_id, "message": body});
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.media_dir.with_file_name("sandbox-sent.jsonl"))
            .and_then(|mut file| {
                std::io::Write::write_all(&mut file, format!("{line}\n").as_bytes())
            });
        if let Err(err) = appended {
            tracing::warn!(error = %err, "sandbox sent log not written");
        }
        let mut sent = self.sent.lock().unwrap_or_else(|p| p.into_inner());
        push_bounded(sent.entry(phone_number_id.to_string()).or_default(), body);
    }

    /// Posts a signed webhook for `business` to this server, as the provider would.
    pub async fn post_webhook(&self, business: &Business, value: Value) -> Result<u16, String> {
        self.post_signed(business, envelope(business, value)).await
    }

    async fn post_signed(&self, business: &Business, body: Value) -> Result<u16, String> {
        let body = body.to_string();
        let response = self
            .http
            .post(format!("{}/webhook", self.self_url))
            .header("Content-Type", "application/json")
            .header(
                "X-Hub-Signature-256",
                sign(&business.app_secret, body.as_bytes()),
            )
            .body(body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        Ok(response.status().as_u16())
    }

    /// A customer's message as the webhook carries it.
    fn customer_message(from: &str, name: &str, message: Value) -> Value {
        let mut message = message;
        message["from"] = json!(from);
        message["id"] = json!(wamid());
        message["timestamp"] = json!((now_ms() / 1000).to_string());
        json!({
            "contacts": [{"profile": {"name": name}, "wa_id": from}],
            "messages": [message],
        })
    }

    fn pause(&self, base_ms: u64) -> Duration {
        // ±50 % jitter, like a real network.
        let jitter = rand::thread_rng().gen_range(0.5..1.5);
        Duration::from_millis((base_ms as f64 * jitter) as u64)
    }

    /// `sent`, `delivered` and `read` for an accepted message, then maybe an answer.
    async fn play_receipts(&self, state: &AppState, business_id: &str, id: &str, to: &str) {
        let steps = [
            ("sent", self.settings.sent_delay_ms),
            ("delivered", self.settings.delivered_delay_ms),
            ("read", self.settings.read_delay_ms),
        ];
        for (status, delay) in steps {
            tokio::time::sleep(self.pause(delay)).await;
            let Ok(business) = state.store.business(business_id).await else {
                return;
            };
            let receipt = json!({"statuses": [{
                "id": id,
                "status": status,
                "timestamp": (now_ms() / 1000).to_string(),
                "recipient_id": to,
                "conversation": {"id": format!("sandbox-{to}"), "origin": {"type": "service"}},
                "pricing": {"billable": true, "pricing_model": "PMP", "category": "service"},
            }]});
            if let Err(err) = self.post_webhook(&business, receipt).await {
                tracing::warn!(error = %err, "sandbox receipt not delivered");
            }
        }
        if rand::thread_rng().gen_bool(self.settings.reply_probability.clamp(0.0, 1.0)) {
            tokio::time::sleep(self.pause(self.settings.read_delay_ms)).await;
            if let Ok(business) = state.store.business(business_id).await {
                let line = CUSTOMER_LINES[rand::thread_rng().gen_range(0..CUSTOMER_LINES.len())];
                let name = state
                    .store
                    .contact_name(business_id, to)
                    .await
                    .unwrap_or_default();
                let message = Self::customer_message(
                    to,
                    &name,
                    json!({"type": "text", "text": {"body": line}}),
                );
                let _ = self.post_webhook(&business, message).await;
            }
        }
    }

    /// A new business's first customers writing in, so the inbox is alive at once.
    pub async fn welcome(&self, state: &AppState, business_id: &str) {
        for i in 0..self.settings.simulated_customers {
            tokio::time::sleep(self.pause(1500)).await;
            let Ok(business) = state.store.business(business_id).await else {
                return;
            };
            let from = format!("1555010{:04}", i);
            let name = CUSTOMER_NAMES[i % CUSTOMER_NAMES.len()];
            let line = CUSTOMER_LINES[i % CUSTOMER_LINES.len()];
            let message = Self::customer_message(
                &from,
                name,
                json!({"type": "text", "text": {"body": line}}),
            );
            if let Err(err) = self.post_webhook(&business, message).await {
                tracing::warn!(error = %err, "sandbox customer could not write in");
            }
        }
    }
}

/// The business a sandbox call is for, when its bearer token is that number's access token.
async fn authorized(
    state: &AppState,
    req: &HttpRequest,
    phone_number_id: &str,
) -> Result<Business, HttpResponse> {
    authorized_for(state, req, |b| {
        b.phone_number_id.as_deref() == Some(phone_number_id)
    })
    .await
}

fn sandbox(state: &AppState) -> ApiResult<&Sandbox> {
    state
        .sandbox
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("The sandbox provider is not enabled".into()))
}

/// `POST /sandbox/{version}/{phone_number_id}/messages`: send, or mark an inbound message read.
pub async fn messages(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Json<Value>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    let (_, phone_number_id) = path.into_inner();
    let business = match authorized(&state, &req, &phone_number_id).await {
        Ok(b) => b,
        Err(response) => return Ok(response),
    };
    let body = body.into_inner();
    if body.get("status").and_then(Value::as_str) == Some("read") {
        return Ok(HttpResponse::Ok().json(json!({"success": true})));
    }
    let to: String = body
        .get("to")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let kind = body.get("type").and_then(Value::as_str).unwrap_or("text");
    if body.get("messaging_product").and_then(Value::as_str) != Some("whatsapp") || to.len() < 6 {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "messaging_product must be whatsapp and to a phone number",
        ));
    }
    if body.get(kind).is_none() {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            &format!("the {kind} object is missing"),
        ));
    }
    if kind == "template" {
        let name = body
            .pointer("/template/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let language = body
            .pointer("/template/language/code")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if sandbox
            .template_status(&business.waba_id, name, language)
            .as_deref()
            != Some("APPROVED")
        {
            return Ok(graph_error(
                404,
                132001,
                "(#132001) Template name does not exist in the translation",
                &format!("template name ({name}) does not exist in {language} or is not approved"),
            ));
        }
    } else {
        let last = state.store.last_incoming_at(&business.id, &to).await?;
        if last.is_none_or(|at| now_ms() - at > WINDOW_MS) {
            return Ok(graph_error(
                400,
                crate::provider::WINDOW_CLOSED,
                "Re-engagement message",
                "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
            ));
        }
    }
    if sandbox.buckets.try_take(&phone_number_id).is_err() {
        return Ok(graph_error(
            429,
            crate::provider::RATE_LIMIT,
            "(#130429) Rate limit hit",
            "Cloud API message throughput has been reached.",
        ));
    }
    let id = wamid();
    sandbox.remember(&phone_number_id, json!({"id": id, "body": body}));
    let state_for_receipts = state.clone();
    let (business_id, message_id, recipient) = (business.id.clone(), id.clone(), to.clone());
    actix_web::rt::spawn(async move {
        if let Some(sandbox) = state_for_receipts.sandbox.as_ref() {
            sandbox
                .play_receipts(&state_for_receipts, &business_id, &message_id, &recipient)
                .await;
        }
    });
    Ok(HttpResponse::Ok().json(json!({
        "messaging_product": "whatsapp",
        "contacts": [{"input": body.get("to"), "wa_id": to}],
        "messages": [{"id": id}],
    })))
}

#[derive(MultipartForm)]
pub struct Upload {
    file: TempFile,
    #[multipart(rename = "type")]
    kind: Option<Text<String>>,
    messaging_product: Option<Text<String>>,
}

/// `POST /sandbox/{version}/{phone_number_id}/media`.
pub async fn upload(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    form: MultipartForm<Upload>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    let (_, phone_number_id) = path.into_inner();
    if let Err(response) = authorized(&state, &req, &phone_number_id).await {
        return Ok(response);
    }
    let form = form.into_inner();
    if form.messaging_product.as_ref().map(|t| t.as_str()) != Some("whatsapp") {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "messaging_product must be whatsapp",
        ));
    }
    let bytes = tokio::fs::read(form.file.file.path())
        .await
        .map_err(anyhow::Error::from)?;
    let mime_type = form
        .kind
        .map(|t| t.into_inner())
        .or_else(|| form.file.content_type.map(|m| m.to_string()))
        .unwrap_or_else(|| "application/octet-stream".into());
    let id = rand::thread_rng()
        .gen_range(100_000_000_000_000u64..999_999_999_999_999)
        .to_string();
    let info = MediaInfo {
        mime_type,
        sha256: hex::encode(Sha256::digest(&bytes)),
        file_size: bytes.len().to_string(),
        phone_number_id,
    };
    tokio::fs::create_dir_all(&sandbox.media_dir)
        .await
        .map_err(anyhow::Error::from)?;
    tokio::fs::write(sandbox.media_dir.join(&id), &bytes)
        .await
        .map_err(anyhow::Error::from)?;
    let sidecar = serde_json::to_vec(&info).map_err(anyhow::Error::from)?;
    tokio::fs::write(sandbox.media_dir.join(format!("{id}.json")), sidecar)
        .await
        .map_err(anyhow::Error::from)?;
    Ok(HttpResponse::Ok().json(json!({ "id": id })))
}

async fn media_info(sandbox: &Sandbox, media_id: &str) -> Option<MediaInfo> {
    if !media_id.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let raw = tokio::fs::read(sandbox.media_dir.join(format!("{media_id}.json")))
        .await
        .ok()?;
    serde_json::from_slice(&raw).ok()
}

/// A stored upload, when the bearer token is its number's access token.
async fn owned_media(
    state: &AppState,
    sandbox: &Sandbox,
    req: &HttpRequest,
    media_id: &str,
) -> Result<MediaInfo, HttpResponse> {
    let Some(info) = media_info(sandbox, media_id).await else {
        return Err(graph_error(
            404,
            100,
            "(#100) Invalid parameter",
            "Unknown media id",
        ));
    };
    authorized(state, req, &info.phone_number_id).await?;
    Ok(info)
}

/// `GET /sandbox/{version}/{media_id}`: the media's short-lived download URL.
pub async fn lookup_media(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    let (_, media_id) = path.into_inner();
    let info = match owned_media(&state, sandbox, &req, &media_id).await {
        Ok(info) => info,
        Err(response) => return Ok(response),
    };
    Ok(HttpResponse::Ok().json(json!({
        "messaging_product": "whatsapp",
        "url": format!("{}/sandbox/files/{media_id}", sandbox.self_url),
        "mime_type": info.mime_type,
        "sha256": info.sha256,
        "file_size": info.file_size,
        "id": media_id,
    })))
}

/// `GET /sandbox/files/{media_id}`: the bytes, with the same bearer token.
pub async fn download(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    let media_id = path.into_inner();
    let info = match owned_media(&state, sandbox, &req, &media_id).await {
        Ok(info) => info,
        Err(response) => return Ok(response),
    };
    let bytes = tokio::fs::read(sandbox.media_dir.join(&media_id))
        .await
        .map_err(anyhow::Error::from)?;
    Ok(HttpResponse::Ok().content_type(info.mime_type).body(bytes))
}

#[derive(Deserialize)]
pub struct InjectRequest {
    phone_number_id: Option<String>,
    from: Option<String>,
    name: Option<String>,
    text: Option<String>,
    /// A whole Cloud API message object (`type` and its body) instead of `text`.
    message: Option<Value>,
}

/// `POST /sandbox/customers/inject`: a simulated customer writes in (for demos and tests). The
/// caller must be signed in to the business that owns the number.
pub async fn inject(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<InjectRequest>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    let business = state.store.business(&auth.business_id).await?;
    let phone_number_id = body
        .phone_number_id
        .clone()
        .or(business.phone_number_id.clone())
        .unwrap_or_default();
    if business.phone_number_id.as_deref() != Some(phone_number_id.as_str()) {
        return Err(ApiError::Forbidden(
            "That phone number belongs to another business".into(),
        ));
    }
    let from = crate::customer::CustomerKey::parse(&required(&body.from, "from")?)?.into_string();
    let message = match (&body.message, &body.text) {
        (Some(message), _) => message.clone(),
        (None, Some(text)) => json!({"type": "text", "text": {"body": text}}),
        (None, None) => {
            return Err(ApiError::Unprocessable(
                "text or message is required".into(),
            ));
        }
    };
    let value = Sandbox::customer_message(&from, body.name.as_deref().unwrap_or_default(), message);
    let id = value.pointer("/messages/0/id").cloned().unwrap_or_default();
    let status = sandbox
        .post_webhook(&business, value)
        .await
        .map_err(|e| ApiError::Unavailable(format!("webhook not delivered: {e}")))?;
    Ok(HttpResponse::Ok().json(json!({"id": id, "webhook_status": status})))
}

#[derive(Deserialize)]
pub struct SentQuery {
    phone_number_id: String,
}

/// `GET /sandbox/sent?phone_number_id=`: what the sandbox accepted for a number (bearer: the
/// number's access token), so tests and demos can see exactly what reached the "provider".
pub async fn sent(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<SentQuery>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    if let Err(response) = authorized(&state, &req, &query.phone_number_id).await {
        return Ok(response);
    }
    let sent = sandbox.sent.lock().unwrap_or_else(|p| p.into_inner());
    let messages: Vec<Value> = sent
        .get(&query.phone_number_id)
        .map(|log| log.iter().cloned().collect())
        .unwrap_or_default();
    Ok(HttpResponse::Ok().json(json!({ "messages": messages })))
}

/// The business whose token this is, when it owns the account or app named in the path.
async fn authorized_for(
    state: &AppState,
    req: &HttpRequest,
    owner: impl Fn(&Business) -> bool,
) -> Result<Business, HttpResponse> {
    let token = req
        .headers()
        .get("Authorization")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim_start_matches("Bearer ").trim_start_matches("OAuth "))
        .unwrap_or_default();
    match state.store.business_by_access_token(token).await {
        Ok(Some(business)) if !token.is_empty() && owner(&business) => Ok(business),
        Ok(_) => Err(graph_error(
            401,
            190,
            "Invalid OAuth access token.",
            "The access token does not own this object.",
        )),
        Err(_) => Err(graph_error(
            500,
            1,
            "An unknown error occurred",
            "storage unavailable",
        )),
    }
}

/// `POST /sandbox/{version}/{waba_id}/message_templates`: submitted, PENDING until reviewed.
pub async fn create_template(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Json<Value>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    let (_, waba_id) = path.into_inner();
    let business = match authorized_for(&state, &req, |b| b.waba_id == waba_id).await {
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
    let id = rand::thread_rng()
        .gen_range(100_000_000_000_000u64..999_999_999_999_999)
        .to_string();
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
    let (review_state, business_id, template_id) = (state.clone(), business.id.clone(), id.clone());
    actix_web::rt::spawn(async move {
        if let Some(sandbox) = review_state.sandbox.as_ref() {
            sandbox
                .review(&review_state, &business_id, &template_id)
                .await;
        }
    });
    Ok(HttpResponse::Ok().json(json!({"id": id, "status": "PENDING", "category": category})))
}

/// `GET /sandbox/{version}/{waba_id}/message_templates`.
pub async fn list_templates(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let sandbox = sandbox(&state)?;
    let (_, waba_id) = path.into_inner();
    if let Err(response) = authorized_for(&state, &req, |b| b.waba_id == waba_id).await {
        return Ok(response);
    }
    let templates = sandbox.templates.lock().unwrap_or_else(|p| p.into_inner());
    let data = templates.get(&waba_id).cloned().unwrap_or_default();
    Ok(HttpResponse::Ok().json(json!({"data": data, "paging": {}})))
}

/// `POST /sandbox/{version}/{app_id}/uploads`: opens a resumable upload session.
pub async fn start_upload(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    sandbox(&state)?;
    let (_, app_id) = path.into_inner();
    if let Err(response) = authorized_for(&state, &req, |b| b.app_id == app_id).await {
        return Ok(response);
    }
    let mut raw = [0u8; 12];
    rand::thread_rng().fill(&mut raw);
    Ok(HttpResponse::Ok().json(json!({"id": format!("upload:{}", hex::encode(raw))})))
}

/// `POST /sandbox/{version}/upload:{session}`: takes the bytes, answers the header handle.
pub async fn finish_upload(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    sandbox(&state)?;
    let (_, session) = path.into_inner();
    if let Err(response) = authorized_for(&state, &req, |_| true).await {
        return Ok(response);
    }
    if !session.starts_with("upload:") || body.is_empty() {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "not an upload session, or no bytes",
        ));
    }
    Ok(HttpResponse::Ok().json(json!({"h": format!("4::{}", hex::encode(Sha256::digest(&body)))})))
}

/// Routes under `/sandbox`.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/customers/inject", web::post().to(inject))
        .route("/sent", web::get().to(sent))
        .route("/files/{media_id}", web::get().to(download))
        .route(
            "/{version}/{phone_number_id}/messages",
            web::post().to(messages),
        )
        .route("/{version}/{phone_number_id}/media", web::post().to(upload))
        .route(
            "/{version}/{waba_id}/message_templates",
            web::post().to(create_template),
        )
        .route(
            "/{version}/{waba_id}/message_templates",
            web::get().to(list_templates),
        )
        .route("/{version}/{app_id}/uploads", web::post().to(start_upload))
        .route("/{version}/{session}", web::post().to(finish_upload))
        .route("/{version}/{media_id}", web::get().to(lookup_media));
}
