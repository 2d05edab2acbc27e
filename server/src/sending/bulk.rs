//! Durable bulk template jobs: recipients stored first, sent one at a time at the outbox's
//! per-number pace, results checkpointed, the job leased to the node that sends it and taken
//! over by another when that lease runs out.

use std::collections::BTreeMap;
use std::time::Duration;

use parley_actors::events::{Event, NOTIFICATIONS, event_data};
use serde::Serialize;
use serde_json::{Value, json};

use super::SendError;
use super::template::rendered;
use super::{Sender, Sending};
use crate::metrics::{self, BulkJob};
use crate::outbox::Delivery;
use crate::store::{JobRecipient, SendJob, now_ms};
use crate::templates::variables::personalised;

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

/// A job id: time-ordered and unique.
pub fn new_job_id() -> String {
    format!(
        "job-{}-{}",
        now_ms(),
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    )
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

impl Sending {
    /// Starts a bulk job: recipients stored first, then sent in the background.
    pub(super) async fn start_job(
        &self,
        job: SendJob,
        recipients: Vec<(String, BTreeMap<String, String>)>,
    ) -> Result<(), SendError> {
        if recipients.is_empty() {
            return Err(SendError::Invalid(
                "recipients_json holds no valid phone number".into(),
            ));
        }
        let recipients: Vec<(String, Option<String>)> = recipients
            .into_iter()
            .map(|(phone, values)| {
                let values = (!values.is_empty()).then(|| json!(values).to_string());
                (phone, values)
            })
            .collect();
        self.store
            .create_send_job(&job, &recipients, &self.node, lease_end(now_ms()))
            .await?;
        metrics::bulk_job(BulkJob::Started);
        actix_web::rt::spawn(self.clone().run_job(job));
        Ok(())
    }

    /// Sends a bulk job's pending recipients in order, one at a time, at the outbox's per-number
    /// pace. Results are stored in batches (at least every half second and before the next page of
    /// recipients is read); a restart resumes from the stored ones, and a recipient whose result was
    /// not stored yet is not sent twice: its client id (`job:position`) names the message already
    /// recorded, which answers where it stands without calling the provider. Progress is counted as
    /// results come (seeded from the stored counts when a job resumes), never by re-reading the
    /// recipients.
    async fn send_job(&self, job: &SendJob) -> bool {
        let base: Value = serde_json::from_str(&job.payload).unwrap_or(Value::Null);
        let template = self
            .store
            .template_by_name(&job.business_id, &job.template_name, &job.language_code)
            .await
            .ok()
            .flatten();
        let components = base
            .pointer("/template/components")
            .cloned()
            .unwrap_or(json!([]));
        let content = |components: &Value| {
            template
                .as_ref()
                .map_or(Value::Null, |t| rendered(t, components))
        };
        let shared_content = content(&components);
        let (mut success, mut errors) = match self.store.job_counts(&job.business_id, &job.id).await
        {
            Ok(counts) => counts,
            Err(err) => {
                tracing::error!(error = %err, job = %job.id, "bulk job stalled");
                return false;
            }
        };
        let mut last_push = std::time::Instant::now();
        let mut settled = Vec::new();
        // A bulk send is a broadcast, not a reply: reports do not count it as anyone's.
        let sender = Sender {
            name: job.sender_name.clone(),
            user_id: None,
        };
        loop {
            let pending = match self
                .store
                .pending_recipients(&job.business_id, &job.id, BATCH)
                .await
            {
                Ok(p) => p,
                Err(err) => {
                    tracing::error!(error = %err, job = %job.id, "bulk job stalled");
                    return false;
                }
            };
            if pending.is_empty() {
                break;
            }
            for mut recipient in pending {
                let client_id = format!("{}:{}", job.id, recipient.position);
                let values: Option<BTreeMap<String, String>> = recipient
                    .variables
                    .as_deref()
                    .and_then(|v| serde_json::from_str(v).ok());
                let (payload, content) = match values {
                    Some(values) => {
                        let own = personalised(&components, &values);
                        let mut payload = base.clone();
                        payload["template"]["components"] = own.clone();
                        (payload, content(&own))
                    }
                    None => (base.clone(), shared_content.clone()),
                };
                let outcome = match self
                    .send_template_to(
                        &job.business_id,
                        &recipient.phone,
                        client_id.clone(),
                        &payload,
                        content,
                        &sender,
                    )
                    .await
                {
                    Ok(delivery) => self.settle(job, &client_id, delivery).await,
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
                    if !self.checkpoint(job, &mut settled).await {
                        return false;
                    }
                    last_push = std::time::Instant::now();
                    self.push_progress(job, success, errors, false);
                }
            }
            if !self.checkpoint(job, &mut settled).await {
                return false;
            }
        }
        if let Err(err) = self.store.finish_send_job(&job.business_id, &job.id).await {
            tracing::error!(error = %err, job = %job.id, "bulk job not closed");
            return false;
        }
        self.push_progress(job, success, errors, true);
        true
    }

    /// Runs a job to its end and counts how it ended.
    async fn run_job(self, job: SendJob) {
        let outcome = if self.send_job(&job).await {
            BulkJob::Finished
        } else {
            BulkJob::Failed
        };
        metrics::bulk_job(outcome);
    }

    /// Where one recipient ended: (status, provider id, error).
    async fn settle(
        &self,
        job: &SendJob,
        client_id: &str,
        delivery: Delivery,
    ) -> Result<(String, Option<String>, Option<String>), SendError> {
        match delivery {
            Delivery::Accepted(id) => Ok(("success".into(), Some(id), None)),
            Delivery::Refused(err) => Ok(("error".into(), None, Some(err.in_full()))),
            Delivery::Queued { .. } => {
                // The outbox owns the retries; the job waits for their end so its result is final.
                loop {
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    match self
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
                        None => {
                            return Ok(("error".into(), None, Some("the message vanished".into())));
                        }
                    }
                }
            }
        }
    }

    /// Stores the results settled since the last call and renews this node's lease on the job;
    /// false (logged) when the store refused or another node holds the job, which stops it here (a
    /// node takes it over once its lease runs out).
    async fn checkpoint(&self, job: &SendJob, settled: &mut Vec<JobRecipient>) -> bool {
        if !settled.is_empty() {
            if let Err(err) = self
                .store
                .set_recipient_results(&job.business_id, &job.id, settled)
                .await
            {
                tracing::error!(error = %err, job = %job.id, "bulk results not stored");
                return false;
            }
            settled.clear();
        }
        match self
            .store
            .renew_send_job(&job.business_id, &job.id, &self.node, lease_end(now_ms()))
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

    fn push_progress(&self, job: &SendJob, success: i64, errors: i64, finished: bool) {
        let done = success + errors;
        let event = progress_event(job, done, success, errors, finished);
        self.bus.publish(vec![event]);
    }

    /// The job's progress (and, once done, its results) as the API and the events show it.
    pub async fn job_report(
        &self,
        business_id: &str,
        job_id: &str,
    ) -> Result<JobReport, SendError> {
        let job = self.store.send_job(business_id, job_id).await?;
        let recipients = self.store.job_recipients(business_id, job_id).await?;
        let mut results = BTreeMap::new();
        let (mut success, mut errors) = (0, 0);
        for r in recipients {
            let result = match r.status.as_str() {
                "success" => {
                    success += 1;
                    JobResult::Success { id: r.message_id }
                }
                "error" => {
                    errors += 1;
                    JobResult::Error { error: r.error }
                }
                _ => continue,
            };
            results.insert(r.phone, result);
        }
        Ok(JobReport {
            job_id: job.id,
            template_name: job.template_name,
            language_code: job.language_code,
            total: job.total,
            done: success + errors,
            success,
            errors,
            finished: job.finished_at.is_some(),
            results,
        })
    }

    /// Runs for good: resumes the unfinished jobs whose lease has run out (a restart interrupted
    /// them, their node stopped, or they stalled), at start and then every `TAKEOVER_CHECK`.
    pub async fn take_over_jobs(self) {
        let mut tick = tokio::time::interval(TAKEOVER_CHECK);
        loop {
            tick.tick().await;
            let now = now_ms();
            match self
                .store
                .take_send_jobs(&self.node, now, lease_end(now))
                .await
            {
                Ok(jobs) => {
                    for job in jobs {
                        tracing::info!(job = %job.id, "resuming bulk send");
                        actix_web::rt::spawn(self.clone().run_job(job));
                    }
                }
                Err(err) => tracing::error!(error = %err, "unfinished bulk jobs not read"),
            }
        }
    }
}

/// A bulk job's progress, and the results so far.
#[derive(Serialize, utoipa::ToSchema)]
pub struct JobReport {
    job_id: String,
    template_name: String,
    language_code: String,
    total: i64,
    /// Recipients answered so far: `success + errors`.
    done: i64,
    success: i64,
    errors: i64,
    finished: bool,
    /// Each answered recipient's outcome, by customer key.
    results: BTreeMap<String, JobResult>,
}

/// One recipient's outcome.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum JobResult {
    /// The provider's message id.
    Success { id: Option<String> },
    /// Why the provider refused it.
    Error { error: Option<String> },
}
