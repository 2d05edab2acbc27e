//! `bulk`: one template job to many recipients, its pace compared with the configured rate.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::StreamExt;
use reqwest::multipart::{Form, Part};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use super::run::Run;
use crate::client::{self, customer_phone, unix_nanos};
use crate::report::Report;

/// The template a bulk run sends: no variables, so every recipient gets the same text.
fn bulk_template(name: &str) -> Value {
    serde_json::json!({"name": name, "language": "en_US", "category": "UTILITY",
        "components": [{"type": "BODY", "text": "Parley bulk load test."}]})
}

/// Submits the bulk template and waits for the sandbox's approval.
async fn approved_template(run: &Run, token: &str, name: &str) -> Result<()> {
    let form = Form::new().text("template", bulk_template(name).to_string());
    let (status, body) = run.api.form("/api/create-template", token, form).await?;
    if status != 200 {
        bail!("create-template answered {status}: {body}");
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, list) = run.api.get("/api/templates", token).await?;
        let approved = list
            .as_array()
            .into_iter()
            .flatten()
            .any(|t| t["name"] == name && t["status"] == "APPROVED");
        if approved {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("template {name} was not approved within 60 s: {list}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Deviation in % of `done` recipients in `nanos` from `rate` per second.
fn deviation_pct(done: i64, nanos: u64, rate: f64) -> f64 {
    let achieved = done as f64 / (nanos as f64 / 1e9);
    ((achieved / rate - 1.0) * 100.0 * 100.0).round() / 100.0
}

/// The largest deviation (by size, with its sign) over windows from each progress sample to
/// the first one at least `window_secs` later; None when the job was shorter than a window.
fn worst_window(samples: &[(u64, i64)], window_secs: f64, rate: f64) -> Option<f64> {
    let window = (window_secs * 1e9) as u64;
    let mut worst: Option<f64> = None;
    for (i, &(t0, done0)) in samples.iter().enumerate() {
        let Some(&(t1, done1)) = samples[i..].iter().find(|(t, _)| t - t0 >= window) else {
            break;
        };
        let d = deviation_pct(done1 - done0, t1 - t0, rate);
        if worst.is_none_or(|w| d.abs() > w.abs()) {
            worst = Some(d);
        }
    }
    worst
}

/// Recipients the sandbox accepted for `phone_number_id`, with how many times each.
fn sandbox_sends(log: &Path, phone_number_id: &str) -> Result<HashMap<String, u64>> {
    let raw = std::fs::read_to_string(log)
        .with_context(|| format!("Failed to read {}", log.display()))?;
    let mut sends = HashMap::new();
    for line in raw.lines() {
        let Ok(line) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if line["phone_number_id"] != phone_number_id {
            continue;
        }
        if let Some(to) = line["message"]["body"]["to"].as_str() {
            *sends.entry(to.to_string()).or_insert(0) += 1;
        }
    }
    Ok(sends)
}

/// `bulk`: one template job to `recipients` numbers, set up as the web app's sender does
/// (recipient csv parsed by the server, then `send_mode=bulk`), followed through its
/// `bulk_send_progress` events; its pace is compared with the configured `--rate`.
pub async fn bulk(run: &Run, recipients: usize, sandbox_log: &Path) -> Result<Report> {
    let c = &run.common;
    let business = run.api.setup_business(&run.run_id, 0).await?;
    let token = business.owner_token.as_str();
    run.stage("template review", 0);
    let name = format!("lt_bulk_{}", run.run_id);
    approved_template(run, token, &name).await?;

    let csv = std::iter::once("PhoneNumber".to_string())
        .chain((0..recipients).map(customer_phone))
        .collect::<Vec<_>>()
        .join("\n");
    let file = Part::bytes(csv.into_bytes())
        .file_name("recipients.csv")
        .mime_str("text/csv")?;
    let (status, parsed) = run
        .api
        .form(
            "/api/recipients/parse",
            token,
            Form::new().part("file", file),
        )
        .await?;
    let numbers = &parsed["numbers"];
    let parsed_count = numbers.as_array().map_or(0, Vec::len);
    if status != 200 || parsed_count != recipients {
        bail!("recipients/parse answered {status} with {parsed_count} of {recipients} numbers");
    }

    // Progress reaches the owner's sessions on notifications/all.
    let channels = ["notifications/all".to_string()];
    let mut observer = client::parley_session(&run.api, token, &channels, None).await?;
    let form = Form::new()
        .text("send_mode", "bulk")
        .text("template_name", name)
        .text("language_code", "en_US")
        .text("components_json", "[]")
        .text("phone_number_id", business.phone_number_id.clone())
        .text("recipients_json", numbers.to_string());
    let (status, accepted) = run.api.form("/api/send-template", token, form).await?;
    let started = unix_nanos();
    let job_id = match accepted["job_id"].as_str() {
        Some(id) if status == 202 => id.to_string(),
        _ => bail!("send-template answered {status}: {accepted}"),
    };

    run.stage("sending", recipients as u64);
    // (arrival unix nanos, recipients done) of each progress event, from the job's start.
    let mut samples = vec![(started, 0i64)];
    let mut errors = 0;
    let mut finished = false;
    // A server that cannot keep the rate still gets three times the planned time: the report
    // then shows how far it came (job_finished false, the rest lost).
    let limit = Duration::from_secs_f64(recipients as f64 / c.rate * 3.0 + c.drain);
    let deadline = tokio::time::Instant::now() + limit;
    while !finished {
        let frame = match tokio::time::timeout_at(deadline, observer.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => text,
            Ok(Some(Ok(_))) => continue,
            _ => break,
        };
        if !frame.as_str().contains(crate::client::BULK_SEND_PROGRESS) {
            continue;
        }
        let at = unix_nanos();
        let Ok(event) = serde_json::from_str::<Value>(frame.as_str()) else {
            continue;
        };
        let data = &event["data"];
        if data["job_id"] != job_id.as_str() {
            continue;
        }
        let done = data["done"].as_i64().unwrap_or_default();
        samples.push((at, done));
        run.bar.set_position(done as u64);
        errors = data["errors"].as_u64().unwrap_or_default();
        finished = data["finished"].as_bool().unwrap_or_default();
    }
    run.bar.finish_and_clear();

    let sends = sandbox_sends(sandbox_log, &business.phone_number_id)?;
    let expected: HashSet<String> = (0..recipients).map(customer_phone).collect();
    let sent_once = sends.keys().filter(|to| expected.contains(*to)).count() as u64;
    let (&(last_at, done), _) = samples.split_last().context("no progress")?;
    let wall = last_at - started;
    let mut report = run.report("bulk");
    report.sessions = 1;
    report.customers = recipients;
    report.agents = 0;
    report.duration_secs = wall as f64 / 1e9;
    report.delivered = sent_once;
    report.expected = recipients as u64;
    report.lost = report.expected - sent_once;
    report.duplicates = sends.values().map(|n| n - 1).sum();
    report.errors = errors;
    report.job_finished = Some(finished);
    report.delivered_per_sec = done as f64 / report.duration_secs;
    report.rate_deviation_pct = Some(deviation_pct(done, wall, c.rate));
    report.worst_1s_deviation_pct = worst_window(&samples, 1.0, c.rate);
    report.worst_10s_deviation_pct = worst_window(&samples, 10.0, c.rate);
    Ok(report)
}
