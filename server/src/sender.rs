//! Templates: kept in step with the provider, shown in the inbox as they were sent, and sent to
//! one customer or to many in durable bulk jobs paced at the provider's rate.

use std::time::Duration;

use parley_actors::conversation::{ConversationKey, OutgoingMessage};
use parley_actors::events::{Event, NOTIFICATIONS, event_data};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::outbox::Delivery;
use crate::provider::Credentials;
use crate::state::AppState;
use crate::store::{JobRecipient, SendJob, TemplateRow, now_ms};

/// Event pushed while a bulk job runs.
pub const BULK_SEND_PROGRESS: &str = "bulk_send_progress";
/// Recipients read from the store at a time.
const BATCH: i64 = 200;
/// How long a node holds a bulk job it sends without renewing: above the provider call's 15 s
/// timeout, since a renewal waits for the send in progress.
const JOB_LEASE: Duration = Duration::from_secs(20);
/// How often a node looks for jobs whose lease ran out.
const TAKEOVER_CHECK: Duration = Duration::from_secs(5);

/// When a lease taken or renewed at `now` runs out.
fn lease_end(now: i64) -> i64 {
    now + JOB_LEASE.as_millis() as i64
}

/// Fetches the account's templates from the provider into the store; answers the stored list.
/// When the provider cannot be reached the last known list is answered.
pub async fn sync_templates(state: &AppState, business_id: &str) -> ApiResult<Vec<TemplateRow>> {
    let business = state.store.business(business_id).await?;
    if let Ok(creds) = Credentials::of(&business) {
        match state.provider.list_templates(&creds).await {
            Ok(list) => state.store.upsert_templates(business_id, &list).await?,
            Err(err) => {
                tracing::warn!(error = %err, "template sync failed; answering the cached list")
            }
        }
    }
    state.store.templates(business_id).await
}

/// Replaces `{{1}}` / `{{name}}` in `text` with the send's text parameters.
fn fill(text: &str, parameters: &[Value]) -> String {
    let mut out = text.to_string();
    for (i, p) in parameters.iter().enumerate() {
        let value = p.get("text").and_then(Value::as_str).unwrap_or_default();
        let name = p
            .get("parameter_name")
            .and_then(Value::as_str)
            .map(String::from)
            .unwrap_or_else(|| (i + 1).to_string());
        out = out.replace(&format!("{{{{{name}}}}}"), value);
    }
    out
}

/// What the inbox shows of a sent template: header, body, footer and buttons with the
/// variables filled in, plus the components as sent.
pub fn rendered(template: &TemplateRow, components: &Value) -> Value {
    let defined: Value = serde_json::from_str(&template.components).unwrap_or(json!([]));
    let params = |kind: &str| -> Vec<Value> {
        components
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| {
                c.get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.eq_ignore_ascii_case(kind))
            })
            .and_then(|c| c.get("parameters").and_then(Value::as_array).cloned())
            .unwrap_or_default()
    };
    let mut structure = json!({"name": template.name, "language": template.language});
    for component in defined.as_array().into_iter().flatten() {
        let kind = component
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_uppercase();
        let text = component
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match kind.as_str() {
            "HEADER" => {
                structure["header"] = json!({
                    "format": component.get("format"),
                    "text": fill(text, &params("header")),
                });
            }
            "BODY" => structure["body"] = json!(fill(text, &params("body"))),
            "FOOTER" => structure["footer"] = json!(text),
            "BUTTONS" => {
                structure["buttons"] = component.get("buttons").cloned().unwrap_or(json!([]))
            }
            _ => {}
        }
    }
    json!({
        "text": structure.get("body").cloned().unwrap_or(Value::Null),
        "template_structure": structure,
        "components": components,
    })
}

/// The provider body of a template message to `phone` (an upload reference stays inside).
pub fn template_payload(base: &Value, phone: &str) -> Value {
    let mut payload = base.clone();
    payload["to"] = json!(phone);
    payload
}

/// Sends one template message through the outbox (templates are allowed outside the window).
pub async fn send_template(
    state: &AppState,
    business_id: &str,
    phone: &str,
    client_id: String,
    base: &Value,
    content: Value,
    sender_name: &str,
) -> ApiResult<Delivery> {
    let key = ConversationKey {
        business_id: business_id.to_string(),
        phone: phone.to_string(),
    };
    let message = OutgoingMessage {
        client_id,
        kind: "template".into(),
        content,
        sender_name: sender_name.to_string(),
        payload: template_payload(base, phone),
    };
    state.outbox.send(key, message).await
}

/// Where one recipient ended: (status, provider id, error).
async fn settle(
    state: &AppState,
    job: &SendJob,
    client_id: &str,
    delivery: Delivery,
) -> ApiResult<(String, Option<String>, Option<String>)> {
    match delivery {
        Delivery::Accepted(id) => Ok(("success".into(), Some(id), None)),
        Delivery::Refused(err) => Ok(("error".into(), None, Some(err.to_string()))),
        Delivery::Queued { .. } => {
            // The outbox owns the retries; the job waits for their end so its result is final.
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                match state
                    .store
                    .outgoing_status(&job.business_id, client_id)
                    .await?
                {
                    Some((_, status, error)) if status == "failed" => {
                        return Ok(("error".into(), None, error));
                    }
                    Some((id, status, _)) if status != "sending" && status != "pending" => {
                        return Ok(("success".into(), Some(id), None));
                    }
                    Some(_) => continue,
                    None => return Ok(("error".into(), None, Some("the message vanished".into()))),
                }
            }
        }
    }
}

/// The job's progress (and, once done, its results) as the API and the events show it.
pub async fn job_report(state: &AppState, business_id: &str, job_id: &str) -> ApiResult<Value> {
    let job = state.store.send_job(business_id, job_id).await?;
    let recipients = state.store.job_recipients(business_id, job_id).await?;
    let mut results = serde_json::Map::new();
    let (mut success, mut errors) = (0, 0);
    for r in &recipients {
        match r.status.as_str() {
            "success" => {
                success += 1;
                results.insert(
                    r.phone.clone(),
                    json!({"status": "success", "id": r.message_id}),
                );
            }
            "error" => {
                errors += 1;
                results.insert(
                    r.phone.clone(),
                    json!({"status": "error", "error": r.error}),
                );
            }
            _ => {}
        }
    }
    Ok(json!({
        "job_id": job.id,
        "template_name": job.template_name,
        "language_code": job.language_code,
        "total": job.total,
        "done": success + errors,
        "success": success,
        "errors": errors,
        "finished": job.finished_at.is_some(),
        "results": results,
    }))
}

fn progress_event(job: &SendJob, done: i64, success: i64, errors: i64, finished: bool) -> Event {
    Event {
        business_id: job.business_id.clone(),
        seq: parley_actors::events::TRANSIENT,
        channels: vec![NOTIFICATIONS.into()],
        name: BULK_SEND_PROGRESS.into(),
        data: event_data(&json!({"job_id": job.id, "total": job.total, "done": done,
                                 "success": success, "errors": errors, "finished": finished})),
    }
}

/// Sends a bulk job's pending recipients in order, one at a time, at the outbox's per-number
/// pace. Results are stored in batches (at least every half second and before the next page of
/// recipients is read); a restart resumes from the stored ones, and a recipient whose result was
/// not stored yet is not sent twice: its client id (`job:position`) names the message already
/// recorded, which answers where it stands without calling the provider. Progress is counted as
/// results come (seeded from the stored counts when a job resumes), never by re-reading the
/// recipients.
pub async fn run_job(state: actix_web::web::Data<AppState>, job: SendJob) {
    let base: Value = serde_json::from_str(&job.payload).unwrap_or(Value::Null);
    let template = state
        .store
        .template_by_name(&job.business_id, &job.template_name, &job.language_code)
        .await
        .ok()
        .flatten();
    let components = base
        .pointer("/template/components")
        .cloned()
        .unwrap_or(json!([]));
    let content = template.map_or(Value::Null, |t| rendered(&t, &components));
    let (mut success, mut errors) = match state.store.job_counts(&job.business_id, &job.id).await {
        Ok(counts) => counts,
        Err(err) => {
            tracing::error!(error = %err, job = %job.id, "bulk job stalled");
            return;
        }
    };
    let mut last_push = std::time::Instant::now();
    let mut settled = Vec::new();
    loop {
        let pending = match state
            .store
            .pending_recipients(&job.business_id, &job.id, BATCH)
            .await
        {
            Ok(p) => p,
            Err(err) => {
                tracing::error!(error = %err, job = %job.id, "bulk job stalled");
                return;
            }
        };
        if pending.is_empty() {
            break;
        }
        for mut recipient in pending {
            let client_id = format!("{}:{}", job.id, recipient.position);
            let outcome = match send_template(
                &state,
                &job.business_id,
                &recipient.phone,
                client_id.clone(),
                &base,
                content.clone(),
                &job.sender_name,
            )
            .await
            {
                Ok(delivery) => settle(&state, &job, &client_id, delivery).await,
                Err(err) => Ok(("error".to_string(), None, Some(err.to_string()))),
            };
            (recipient.status, recipient.message_id, recipient.error) =
                outcome.unwrap_or_else(|e| ("error".into(), None, Some(e.to_string())));
            if recipient.status == "success" {
                success += 1;
            } else {
                errors += 1;
            }
            settled.push(recipient);
            if last_push.elapsed() >= Duration::from_millis(500) {
                if !checkpoint(&state, &job, &mut settled).await {
                    return;
                }
                last_push = std::time::Instant::now();
                push_progress(&state, &job, success, errors, false);
            }
        }
        if !checkpoint(&state, &job, &mut settled).await {
            return;
        }
    }
    if let Err(err) = state.store.finish_send_job(&job.business_id, &job.id).await {
        tracing::error!(error = %err, job = %job.id, "bulk job not closed");
        return;
    }
    push_progress(&state, &job, success, errors, true);
}

/// Stores the results settled since the last call and renews this node's lease on the job;
/// false (logged) when the store refused or another node holds the job, which stops it here (a
/// node takes it over once its lease runs out).
async fn checkpoint(state: &AppState, job: &SendJob, settled: &mut Vec<JobRecipient>) -> bool {
    if !settled.is_empty() {
        if let Err(err) = state
            .store
            .set_recipient_results(&job.business_id, &job.id, settled)
            .await
        {
            tracing::error!(error = %err, job = %job.id, "bulk results not stored");
            return false;
        }
        settled.clear();
    }
    match state
        .store
        .renew_send_job(&job.business_id, &job.id, &state.node, lease_end(now_ms()))
        .await
    {
        Ok(true) => true,
        Ok(false) => {
            tracing::warn!(job = %job.id, "bulk job held by another node; stopped here");
            false
        }
        Err(err) => {
            tracing::error!(error = %err, job = %job.id, "bulk job lease not renewed");
            false
        }
    }
}

fn push_progress(state: &AppState, job: &SendJob, success: i64, errors: i64, finished: bool) {
    let done = success + errors;
    let event = progress_event(job, done, success, errors, finished);
    state.bus.publish(vec![event]);
}

/// Starts a bulk job: recipients stored first, then sent in the background.
pub async fn start_job(
    state: actix_web::web::Data<AppState>,
    job: SendJob,
    recipients: Vec<String>,
) -> ApiResult<()> {
    if recipients.is_empty() {
        return Err(ApiError::Unprocessable(
            "recipients_json holds no valid phone number".into(),
        ));
    }
    state
        .store
        .create_send_job(&job, &recipients, &state.node, lease_end(now_ms()))
        .await?;
    actix_web::rt::spawn(run_job(state, job));
    Ok(())
}

/// Runs for good: resumes the unfinished jobs whose lease has run out (a restart interrupted
/// them, their node stopped, or they stalled), at start and then every `TAKEOVER_CHECK`.
pub async fn take_over_jobs(state: actix_web::web::Data<AppState>) {
    let mut tick = tokio::time::interval(TAKEOVER_CHECK);
    loop {
        tick.tick().await;
        let now = now_ms();
        match state
            .store
            .take_send_jobs(&state.node, now, lease_end(now))
            .await
        {
            Ok(jobs) => {
                for job in jobs {
                    tracing::info!(job = %job.id, "resuming bulk send");
                    actix_web::rt::spawn(run_job(state.clone(), job));
                }
            }
            Err(err) => tracing::error!(error = %err, "unfinished bulk jobs not read"),
        }
    }
}

/// A job id: time-ordered and unique.
pub fn new_job_id() -> String {
    format!(
        "job-{}-{}",
        now_ms(),
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    )
}

/// Submits a template that passed the form's rules: a media header's file is uploaded for its
/// handle (replacing the placeholder), the template goes to the provider for review, and the
/// store keeps it PENDING until the decision arrives by webhook.
pub async fn submit_template(
    state: &AppState,
    business_id: &str,
    mut template: Value,
    header_file: Option<(Vec<u8>, String)>,
) -> ApiResult<Value> {
    let business = state.store.business(business_id).await?;
    let creds = Credentials::of(&business).map_err(|e| ApiError::BadGateway(e.to_string()))?;
    if let Some((bytes, mime)) = header_file {
        let handle = state
            .provider
            .upload_handle(&creds, bytes, &mime)
            .await
            .map_err(|e| ApiError::BadGateway(e.to_string()))?;
        for component in template
            .get_mut("components")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if component
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.eq_ignore_ascii_case("HEADER"))
            {
                component["example"] = json!({"header_handle": [handle]});
            }
        }
    }
    let answer = state
        .provider
        .create_template(&creds, template.clone())
        .await
        .map_err(|e| match e {
            crate::provider::ProviderError::Rejected { .. }
            | crate::provider::ProviderError::InvalidRecipient { .. } => {
                ApiError::Unprocessable(e.to_string())
            }
            other => ApiError::BadGateway(other.to_string()),
        })?;
    let mut stored = template;
    stored["id"] = answer.get("id").cloned().unwrap_or(Value::Null);
    stored["status"] = answer.get("status").cloned().unwrap_or(json!("PENDING"));
    state
        .store
        .upsert_templates(business_id, std::slice::from_ref(&stored))
        .await?;
    Ok(answer)
}
