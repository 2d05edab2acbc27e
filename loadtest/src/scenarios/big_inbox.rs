//! `big-inbox`: one business with a long history, seeded through signed webhooks in batches (the
//! write path agents' inboxes fill by), then the reads an agent makes timed one after another.

use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use futures_util::{StreamExt, stream};
use serde_json::{Value, json};

use super::corpus::{
    ARABIC_WORD, COMMON_PREFIX, COMMON_WORD, RARE_WORD, customer_of, message_text, text_webhook,
};
use super::run::Run;
use crate::client::{Business, customer_phone, rss_bytes, unix_nanos};
use crate::report::{QueryTiming, Report, histogram, percentiles};

/// Requests of each read before its timing starts. The server's pool hands its connections out in
/// turn, and each connection keeps its own prepared statements (and, on SQLite, its own page
/// cache); Postgres plans a prepared statement for its values on its first five runs before it
/// settles on a generic plan. 100 runs take every connection of the default pool (16) past that,
/// so the timed reads see the server as it is after a while in use, not just after a restart.
const WARM_UP: u64 = 100;
/// Every this-many-th conversation carries the label the filtered page asks for.
const LABEL_EVERY: usize = 200;
/// The page the "later page" request reads.
const LATER_PAGE: usize = 50;

/// The size of the history `big-inbox` seeds and how often it measures each read.
pub struct BigInbox {
    pub conversations: usize,
    pub messages: u64,
    /// Messages of the one deep conversation (customer 0).
    pub deep: u64,
    /// Messages per webhook.
    pub batch: usize,
    pub repeats: u64,
    /// A shell command run between seeding and the reads.
    pub before_reads: Option<String>,
}

/// `big-inbox`: seeds the history, labels some conversations, times each read `repeats` times.
pub async fn big_inbox(run: &Run, size: &BigInbox) -> Result<Report> {
    let c = &run.common;
    let business = run.api.setup_business(&run.run_id, 0).await?;
    // The history's messages are one a second up to the second before this one.
    let history_end = unix_nanos() / 1_000_000_000;
    let started = Instant::now();
    let (seeded, failed) = seed(run, &business, size, history_end).await?;
    let seed_secs = started.elapsed().as_secs_f64();
    let rss_after_seed = rss_bytes(&c.server_pid);
    let label = label_some(run, &business, size.conversations).await?;
    if let Some(command) = &size.before_reads {
        run.stage("before reads", 0);
        let status = tokio::process::Command::new("sh")
            .args(["-c", command])
            .status()
            .await?;
        if !status.success() {
            bail!("--before-reads failed ({status}): {command}");
        }
    }

    let token = business.owner_token.clone();
    let deep = customer_phone(0);
    let search = |q: &str| {
        let q: String = url::form_urlencoded::byte_serialize(q.as_bytes()).collect();
        format!("/api/search?q={q}")
    };
    let reads = [
        ("list first page", "/api/users?page=1".to_string()),
        ("list later page", format!("/api/users?page={LATER_PAGE}")),
        (
            "list filtered",
            format!("/api/users?page=1&status=open&assignee=unassigned&label={label}"),
        ),
        (
            "contact by phone",
            "/api/users?page=1&search_query=19990042".to_string(),
        ),
        (
            "contact by name",
            "/api/users?page=1&search_query=sara%20khan".to_string(),
        ),
        // A common first name: one customer in twenty is a Sara.
        (
            "contact by first name",
            "/api/users?page=1&search_query=sara".to_string(),
        ),
        ("search rare word", search(RARE_WORD)),
        ("search common word", search(COMMON_WORD)),
        ("search arabic word", search(ARABIC_WORD)),
        ("search common prefix", search(COMMON_PREFIX)),
        (
            "open deep conversation",
            format!("/api/conversation/{deep}?limit=30"),
        ),
        // The overview report of the history's last hour: it walks every conversation active in
        // it (about 3,600 at one message a second).
        ("report last hour", last_hour_report(history_end as i64)),
    ];
    run.stage("reads", reads.len() as u64);
    let mut queries = Vec::with_capacity(reads.len());
    for (name, path) in reads {
        queries.push(time_reads(run, &token, name, &path, size.repeats).await?);
        run.bar.inc(1);
    }
    run.bar.finish_and_clear();

    let mut report = run.report("big-inbox");
    report.customers = size.conversations;
    report.agents = 0;
    report.duration_secs = (seed_secs * 10.0).round() / 10.0;
    report.delivered = seeded;
    report.expected = size.messages;
    report.lost = size.messages - seeded;
    report.delivered_per_sec = (seeded as f64 / seed_secs).round();
    report.errors = failed + queries.iter().map(|q| q.errors).sum::<u64>();
    report.rss_after_bytes = rss_after_seed;
    report.queries = queries;
    Ok(report)
}

/// Posts the history as signed webhooks of `batch` messages, `--max-inflight` at a time, one
/// second apart from `messages` seconds before `end` (Unix seconds); answers messages accepted
/// and webhooks refused.
async fn seed(run: &Run, business: &Business, size: &BigInbox, end: u64) -> Result<(u64, u64)> {
    if size.conversations < 2 || size.deep == 0 || size.deep > size.messages {
        bail!("big-inbox needs two conversations and 1..=messages deep messages");
    }
    let stride = size.messages / size.deep;
    let others = size.conversations as u64 - 1;
    let first_second = end - size.messages;
    let batches = size.messages.div_ceil(size.batch as u64);
    run.stage("seeding", batches);
    let results: Vec<Result<u64>> = stream::iter(0..batches)
        .map(|k| async move {
            let first = k * size.batch as u64;
            let last = (first + size.batch as u64).min(size.messages);
            let messages: Vec<_> = (first..last)
                .map(|i| {
                    let wamid = format!("wamid.big{}.{i}", run.run_id);
                    let at = first_second + i;
                    (customer_of(i, stride, others), wamid, message_text(i), at)
                })
                .collect();
            let body = text_webhook(business, &messages);
            // A keep-alive connection the server closed as the post went out fails it unread;
            // the provider delivers again, and so does the seed (a redelivery is stored once).
            let status = match run.api.webhook(body.clone(), &business.app_secret).await {
                Ok(status) => status,
                Err(_) => run.api.webhook(body, &business.app_secret).await?,
            };
            run.bar.inc(1);
            if status != 200 {
                bail!("a webhook of {} messages answered {status}", messages.len());
            }
            Ok(messages.len() as u64)
        })
        .buffer_unordered(run.common.max_inflight)
        .collect()
        .await;
    let seeded = results.iter().flatten().sum();
    let failed = results.iter().filter(|r| r.is_err()).count() as u64;
    if let Some(Err(e)) = results.iter().find(|r| r.is_err()) {
        eprintln!("seeding: {failed} webhooks failed, the first: {e:#}");
    }
    Ok((seeded, failed))
}

/// Creates a label and puts it on every `LABEL_EVERY`-th conversation; answers its id.
async fn label_some(run: &Run, business: &Business, conversations: usize) -> Result<String> {
    let token = business.owner_token.as_str();
    let (status, body) = run
        .api
        .call(
            reqwest::Method::POST,
            "/api/labels",
            json!({"name": format!("VIP {}", run.run_id), "color": "#D93F0B"}),
            Some(token),
        )
        .await?;
    let id = body["id"]
        .as_str()
        .filter(|_| status == 201)
        .ok_or_else(|| anyhow!("creating a label answered {status}: {body}"))?
        .to_string();
    let labelled: Vec<Result<()>> = stream::iter((1..conversations).step_by(LABEL_EVERY))
        .map(|n| {
            let path = format!("/api/conversation/{}/labels", customer_phone(n));
            let labels = json!({"labels": [id]});
            async move {
                let (status, body) = run
                    .api
                    .call(reqwest::Method::PUT, &path, labels, Some(token))
                    .await?;
                if status != 200 {
                    bail!("labelling {path} answered {status}: {body}");
                }
                Ok(())
            }
        })
        .buffer_unordered(16)
        .collect()
        .await;
    labelled.into_iter().collect::<Result<Vec<()>>>()?;
    Ok(id)
}

/// GETs `path` `repeats` times one after another (after a warm-up) and times each answer.
async fn time_reads(
    run: &Run,
    token: &str,
    name: &str,
    path: &str,
    repeats: u64,
) -> Result<QueryTiming> {
    let mut latency = histogram();
    let mut errors = 0;
    let mut results = 0;
    for n in 0..WARM_UP + repeats {
        let sent = Instant::now();
        let (status, body) = run.api.get(path, token).await?;
        let took = sent.elapsed();
        if n < WARM_UP {
            results = items(&body);
            continue;
        }
        if status == 200 {
            latency.saturating_record(took.max(Duration::from_micros(1)).as_micros() as u64);
        } else {
            errors += 1;
        }
    }
    let (p50_ms, p90_ms, p99_ms, max_ms) = percentiles(&latency);
    Ok(QueryTiming {
        name: name.to_string(),
        path: path.to_string(),
        warm_up: WARM_UP,
        requests: repeats,
        results,
        p50_ms,
        p90_ms,
        p99_ms,
        max_ms,
        errors,
    })
}

/// The overview report's path for the hour before `end` (Unix seconds), by the hour.
fn last_hour_report(end: i64) -> String {
    let at = |secs: i64| {
        let time = chrono::DateTime::from_timestamp(secs, 0)
            .unwrap_or_default()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        url::form_urlencoded::byte_serialize(time.as_bytes()).collect::<String>()
    };
    format!(
        "/api/reports/overview?bucket=hour&from={}&to={}",
        at(end - 3600),
        at(end)
    )
}

/// How many items an answer holds: conversations, search results, messages or a report's
/// buckets.
fn items(body: &Value) -> usize {
    [
        &body["data"]["users"],
        &body["results"],
        &body["messages"],
        &body["buckets"],
    ]
    .into_iter()
    .find_map(Value::as_array)
    .map_or(0, Vec::len)
}
