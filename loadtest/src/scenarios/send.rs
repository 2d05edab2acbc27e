//! `send`: agents' sends and the receipts that come back for them.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use super::open_loop::open_loop;
use super::run::Run;
use crate::client::{self, Inbound, customer_phone, marker, unix_nanos};
use crate::report::{Phase, Report, histogram, percentiles};

/// `send`: agents send text through `/api/send-message`; receipts come back from the sandbox.
pub async fn send(run: &Run) -> Result<Report> {
    let c = &run.common;
    let business = Arc::new(run.api.setup_business(&run.run_id, c.agents).await?);
    // A free-form send needs the customer to have written in the last 24 hours.
    run.stage("customers write first", c.customers as u64);
    for n in 0..c.customers {
        let body = client::webhook_body(
            &business,
            &[Inbound {
                customer: n,
                wamid: format!("wamid.{}.hello.{n}", run.run_id),
                text: "hello".into(),
            }],
        );
        let status = run.api.webhook(body, &business.app_secret).await?;
        if status != 200 {
            bail!("the first webhook of customer {n} answered {status}");
        }
        run.bar.inc(1);
    }
    // The owner watches every receipt on notifications/all.
    let channels = Arc::new(vec!["notifications/all".to_string()]);
    let mut observer =
        client::parley_session(&run.api, &business.owner_token, &channels, None).await?;
    type Receipts = Arc<Mutex<Vec<(String, String, u64)>>>;
    let receipts: Receipts = Arc::default();
    let (stop_tx, mut stop_rx) = watch::channel(false);
    let watcher = {
        let receipts = receipts.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    frame = observer.next() => match frame {
                        Some(Ok(Message::Text(text))) => {
                            if !text.as_str().contains("\"message_status_update\"") {
                                continue;
                            }
                            let now = unix_nanos();
                            let Ok(event) = serde_json::from_str::<Value>(text.as_str()) else {
                                continue;
                            };
                            let data = &event["data"];
                            if let (Some(id), Some(status)) =
                                (data["message_id"].as_str(), data["status"].as_str())
                                && let Ok(mut r) = receipts.lock()
                            {
                                r.push((id.to_string(), status.to_string(), now));
                            }
                        }
                        Some(Ok(_)) => {}
                        _ => return,
                    },
                    _ = stop_rx.changed() => return,
                }
            }
        })
    };

    type Sent = Arc<Mutex<Vec<(String, u64)>>>;
    let sent: Sent = Arc::default();
    let phase = Arc::new(Phase::default());
    let count = (c.rate * c.duration).ceil().max(1.0) as u64;
    run.stage("sends", count);
    let started = Instant::now();
    let customers = c.customers;
    open_loop(c.rate, count, c.max_inflight, &run.bar, |k, scheduled| {
        let api = run.api.clone();
        let business = business.clone();
        let (sent, phase) = (sent.clone(), phase.clone());
        let run_id = run.run_id.clone();
        async move {
            let phone = customer_phone(k as usize % customers);
            let form = reqwest::multipart::Form::new()
                .text("to", phone.clone())
                .text("message_id", format!("lt-{run_id}-{k}"))
                .text("phoneNumber", phone)
                .text("phoneNumberId", business.phone_number_id.clone())
                .text("message_type", "text")
                .text("text", marker(0, k, scheduled));
            let answer = api
                .http
                .post(api.url("/api/send-message"))
                .bearer_auth(business.token(k as usize))
                .multipart(form)
                .send()
                .await;
            let id = match answer {
                Ok(r) if r.status().as_u16() == 200 => r.json::<Value>().await.ok().and_then(|v| {
                    v["response"]["messages"][0]["id"]
                        .as_str()
                        .map(str::to_string)
                }),
                _ => None,
            };
            match id {
                Some(id) => {
                    phase.record(unix_nanos().saturating_sub(scheduled) / 1000);
                    if let Ok(mut s) = sent.lock() {
                        s.push((id, scheduled));
                    }
                }
                None => {
                    phase.errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    })
    .await?;
    let send_secs = started.elapsed().as_secs_f64();
    // Wait for every `read` receipt, or the drain limit.
    run.stage("waiting for receipts", 0);
    let sent = sent
        .lock()
        .map_err(|_| anyhow::anyhow!("poisoned"))?
        .clone();
    let deadline = Instant::now() + Duration::from_secs_f64(c.drain);
    loop {
        let reads = receipts
            .lock()
            .map(|r| r.iter().filter(|(_, s, _)| s == "read").count())
            .unwrap_or(0);
        if reads >= sent.len() || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = stop_tx.send(true);
    let _ = watcher.await;
    run.bar.finish_and_clear();

    let scheduled: HashMap<&str, u64> = sent.iter().map(|(id, t)| (id.as_str(), *t)).collect();
    let mut delivered = histogram();
    let mut read = histogram();
    let mut seen = HashSet::new();
    let mut duplicates = 0;
    let receipts = receipts.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
    for (id, status, at) in receipts.iter() {
        let Some(&t) = scheduled.get(id.as_str()) else {
            continue;
        };
        if !seen.insert((id.as_str(), status.as_str())) {
            duplicates += 1;
            continue;
        }
        let us = at.saturating_sub(t) / 1000;
        match status.as_str() {
            "delivered" => delivered.saturating_record(us.max(1)),
            "read" => read.saturating_record(us.max(1)),
            _ => {}
        }
    }
    let mut report = run.report("send");
    report.set_latency(&phase.latency_snapshot());
    let (d50, _, d99, _) = percentiles(&delivered);
    let (r50, _, r99, _) = percentiles(&read);
    report.delivered_p50_ms = Some(d50);
    report.delivered_p99_ms = Some(d99);
    report.read_p50_ms = Some(r50);
    report.read_p99_ms = Some(r99);
    report.delivered = read.len();
    report.expected = sent.len() as u64;
    report.lost = report.expected.saturating_sub(read.len());
    report.duplicates = duplicates;
    report.errors = phase.errors.load(Ordering::Relaxed);
    report.delivered_per_sec = sent.len() as f64 / send_secs;
    Ok(report)
}
