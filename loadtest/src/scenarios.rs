//! The five scenarios. Publishers run open loop: message `k` is scheduled at `start + k / rate`
//! and carries that time, so a server that falls behind shows the queueing in the latency
//! instead of slowing the generator down.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures_util::StreamExt;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use reqwest::multipart::{Form, Part};
use serde_json::Value;
use tokio::sync::{Semaphore, watch};
use tokio_tungstenite::tungstenite::Message;

use crate::cli::{Common, Peer};
use crate::client::{
    self, Api, Business, Inbound, Ws, customer_phone, marker, parse_marker, unix_nanos,
};
use crate::report::{Phase, Report, Step, histogram, percentiles};

/// Sessions opened at once while a scenario sets up its subscribers.
const SETUP_CONCURRENCY: usize = 256;

/// What every scenario shares: the target, the flags, a run id, the progress bar.
pub struct Run {
    pub api: Api,
    pub common: Common,
    /// Makes usernames, channels and message ids unique per run.
    pub run_id: String,
    pub bar: ProgressBar,
}

impl Run {
    pub fn new(api: Api, common: Common) -> Self {
        let bar = if common.quiet {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            // unwrap: constant template.
            #[allow(clippy::unwrap_used)]
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} [{bar:30}] {pos}/{len} {msg}")
                    .unwrap()
                    .progress_chars("=> "),
            );
            bar
        };
        let run_id = uuid::Uuid::new_v4().simple().to_string()[..12].to_string();
        Self {
            api,
            common,
            run_id,
            bar,
        }
    }

    fn report(&self, scenario: &str) -> Report {
        Report {
            scenario: scenario.into(),
            peer: format!("{:?}", self.common.peer).to_lowercase(),
            target: self.common.target.clone(),
            sessions: self.common.sessions,
            customers: self.common.customers,
            agents: self.common.agents,
            offered_rate: self.common.rate,
            duration_secs: self.common.duration,
            ..Report::default()
        }
    }

    fn stage(&self, msg: &str, len: u64) {
        self.bar.set_length(len);
        self.bar.set_position(0);
        self.bar.set_message(msg.to_string());
    }
}

/// Calls `publish(k, scheduled_unix_nanos)` for `k` in `0..count` at `rate` per second, with
/// at most `inflight` calls running; returns once every call has finished.
async fn open_loop<F, Fut>(
    rate: f64,
    count: u64,
    inflight: usize,
    bar: &ProgressBar,
    publish: F,
) -> Result<()>
where
    F: Fn(u64, u64) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let permits = Arc::new(Semaphore::new(inflight));
    let start = Instant::now();
    let wall = unix_nanos();
    let mut k = 0;
    while k < count {
        let due = ((start.elapsed().as_secs_f64() * rate) as u64 + 1).min(count);
        while k < due {
            let scheduled = wall + (k as f64 * 1e9 / rate) as u64;
            let permit = permits.clone().acquire_owned().await?;
            let call = publish(k, scheduled);
            tokio::spawn(async move {
                call.await;
                drop(permit);
            });
            k += 1;
        }
        bar.set_position(k);
        if k < count {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    let _all = permits.acquire_many(inflight as u32).await?;
    Ok(())
}

/// Reads a session's frames until `stop`, crediting each marked message once to its phase.
fn spawn_receiver(
    mut ws: Ws,
    phases: Arc<Vec<Phase>>,
    peer: Peer,
    mut stop: watch::Receiver<bool>,
    dropped: Arc<AtomicU64>,
) {
    tokio::spawn(async move {
        let mut seen = Seen::default();
        loop {
            tokio::select! {
                frame = ws.next() => match frame {
                    Some(Ok(Message::Text(text))) => {
                        let text = text.as_str();
                        if peer == Peer::Parley && !text.contains("\"new_message\"") {
                            continue;
                        }
                        let Some((step, index, scheduled)) = parse_marker(text) else { continue };
                        let Some(phase) = phases.get(step as usize) else { continue };
                        if seen.insert(step, index) {
                            phase.record(unix_nanos().saturating_sub(scheduled) / 1000);
                            phase.bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
                        } else {
                            phase.duplicates.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(_)) | None => {
                        if !*stop.borrow() {
                            dropped.fetch_add(1, Ordering::Relaxed);
                        }
                        return;
                    }
                },
                _ = stop.changed() => return,
            }
        }
    });
}

/// The messages a session has seen: a bit per message index, per step. All sessions see the
/// same messages, so a hash set per session would grow (and rehash) in all of them at the same
/// moment, a stall of the generator that the figures would charge to the server.
#[derive(Default)]
struct Seen(Vec<Vec<u64>>);

impl Seen {
    /// Marks a message; false when it was already seen.
    fn insert(&mut self, step: u32, index: u64) -> bool {
        let step = step as usize;
        if self.0.len() <= step {
            self.0.resize_with(step + 1, Vec::new);
        }
        let bits = &mut self.0[step];
        let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
        if bits.len() <= word {
            bits.resize(word + 1, 0);
        }
        let fresh = bits[word] & bit == 0;
        bits[word] |= bit;
        fresh
    }
}

/// Waits until a phase has every expected delivery, or `limit` passes.
async fn drain(phase: &Phase, limit: Duration) {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline
        && phase.delivered.load(Ordering::Relaxed) < phase.expected.load(Ordering::Relaxed)
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Opens `count` subscriber sessions, `SETUP_CONCURRENCY` at a time.
async fn open_subscribers(
    run: &Run,
    business: Option<&Business>,
    count: usize,
    channels: Arc<Vec<String>>,
) -> Result<Vec<Ws>> {
    run.stage("opening sessions", count as u64);
    let mut sessions = Vec::with_capacity(count);
    let opens = futures_util::stream::iter(0..count).map(|n| {
        let api = run.api.clone();
        let channels = channels.clone();
        let token = business.map(|b| b.token(n).to_string());
        async move {
            let source = Some(source_addr(n, 8));
            match token {
                Some(token) => client::parley_session(&api, &token, &channels, source).await,
                None => client::nchan_session(&api, &channels[0], source).await,
            }
        }
    });
    let mut opens = opens.buffer_unordered(SETUP_CONCURRENCY);
    while let Some(ws) = opens.next().await {
        sessions.push(ws.context("Failed to open a subscriber session")?);
        run.bar.inc(1);
    }
    Ok(sessions)
}

/// Loopback source address `127.0.0.(1 + n % k)`.
fn source_addr(n: usize, k: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1 + (n % k as usize) as u8))
}

/// `idle`: many sessions held open.
pub async fn idle(run: &Run, source_addrs: u8) -> Result<Report> {
    let c = &run.common;
    let business = match c.peer {
        Peer::Parley => Some(run.api.setup_business(&run.run_id, c.agents).await?),
        Peer::Nchan => None,
    };
    let phase = Arc::new(Phase::default());
    let connected = Arc::new(AtomicU64::new(0));
    let dropped = Arc::new(AtomicU64::new(0));
    let (stop_tx, stop_rx) = watch::channel(false);
    run.stage("connecting", c.sessions as u64);
    let channel = format!("idle{}", run.run_id);
    let open = |k: u64, _| {
        let n = k as usize;
        let api = run.api.clone();
        let token = business.as_ref().map(|b| b.token(n).to_string());
        let channel = channel.clone();
        let (phase, connected, dropped, stop) = (
            phase.clone(),
            connected.clone(),
            dropped.clone(),
            stop_rx.clone(),
        );
        async move {
            let t0 = Instant::now();
            let source = Some(source_addr(n, source_addrs));
            let ws = match token {
                Some(token) => {
                    let channels = ["notifications/all".to_string()];
                    client::parley_session(&api, &token, &channels, source).await
                }
                None => client::nchan_session(&api, &channel, source).await,
            };
            match ws {
                Ok(ws) => {
                    phase.record(t0.elapsed().as_micros() as u64);
                    connected.fetch_add(1, Ordering::Relaxed);
                    spawn_receiver(ws, Arc::new(Vec::new()), Peer::Nchan, stop, dropped);
                }
                Err(_) => {
                    phase.errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    };
    // Memory is measured across the sessions after the first tenth (at least 500, at most
    // half), opened 3 s after the setup: both get the server past its start (the setup's
    // password hashing frees tens of MB, which an allocator hands back only after a while).
    let sessions = c.sessions as u64;
    let first = (sessions / 10)
        .max(500.min(sessions / 2))
        .max(1)
        .min(sessions);
    tokio::time::sleep(Duration::from_secs(3)).await;
    let started = Instant::now();
    open_loop(c.rate, first, c.max_inflight, &run.bar, &open).await?;
    let mut connect_secs = started.elapsed().as_secs_f64();
    // Let the server settle its buffers before each reading of its memory.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_before = client::rss_bytes(&c.server_pid);
    let connected_before = connected.load(Ordering::Relaxed);
    let started = Instant::now();
    let rest = sessions - first;
    open_loop(c.rate, rest, c.max_inflight, &run.bar, |k, s| {
        open(first + k, s)
    })
    .await?;
    connect_secs += started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_after = client::rss_bytes(&c.server_pid);
    let hold = Duration::from_secs_f64(c.duration);
    run.stage("holding (seconds)", hold.as_secs());
    let hold_start = Instant::now();
    while hold_start.elapsed() < hold {
        tokio::time::sleep(Duration::from_millis(250)).await;
        run.bar.set_position(hold_start.elapsed().as_secs());
    }
    let _ = stop_tx.send(true);
    run.bar.finish_and_clear();

    let mut report = run.report("idle");
    let connected = connected.load(Ordering::Relaxed);
    let dropped = dropped.load(Ordering::Relaxed);
    report.set_latency(&phase.latency_snapshot());
    report.delivered = connected;
    report.expected = c.sessions as u64;
    report.delivered_per_sec = connected as f64 / connect_secs;
    report.errors = phase.errors.load(Ordering::Relaxed);
    report.lost = report.errors + dropped;
    report.connected = Some(connected);
    report.dropped = Some(dropped);
    report.rss_before_bytes = rss_before;
    report.rss_after_bytes = rss_after;
    if let (Some(before), Some(after)) = (rss_before, rss_after) {
        let measured = connected - connected_before;
        report.rss_per_session_bytes = after.saturating_sub(before).checked_div(measured);
    }
    // The sessions close as the tasks see `stop`; give them a moment to go.
    tokio::time::sleep(Duration::from_millis(500)).await;
    Ok(report)
}

/// Where nchan messages go, and the size each is padded to (0: the bare marker).
#[derive(Default)]
struct NchanChannel {
    name: String,
    frame_bytes: usize,
}

impl NchanChannel {
    /// The marker, then dots up to `frame_bytes`.
    fn body(&self, marker: String) -> String {
        let pad = self.frame_bytes.saturating_sub(marker.len() + 1);
        match pad {
            0 => marker,
            pad => format!("{marker} {}", ".".repeat(pad)),
        }
    }
}

/// Publishes message `index` (scheduled at `scheduled`) to a set of subscribers and credits the
/// phase with the deliveries it now expects.
#[allow(clippy::too_many_arguments)]
async fn publish_marked(
    api: Api,
    business: Option<Arc<Business>>,
    nchan: Arc<NchanChannel>,
    phase: Arc<Vec<Phase>>,
    step: u32,
    first_index: u64,
    customers: Vec<usize>,
    scheduled: u64,
    receivers: u64,
    wamid_prefix: Arc<String>,
) {
    let Some(ph) = phase.get(step as usize) else {
        return;
    };
    let n = customers.len() as u64;
    let status = match &business {
        Some(b) => {
            let messages: Vec<Inbound> = customers
                .iter()
                .enumerate()
                .map(|(i, &customer)| {
                    let index = first_index + i as u64;
                    Inbound {
                        customer,
                        wamid: format!("wamid.{wamid_prefix}.{step}.{index}"),
                        text: marker(step, index, scheduled),
                    }
                })
                .collect();
            let body = client::webhook_body(b, &messages);
            api.webhook(body, &b.app_secret).await
        }
        None => {
            let body = nchan.body(marker(step, first_index, scheduled));
            api.nchan_publish(&nchan.name, body).await
        }
    };
    match status {
        Ok(200..=202) => {
            ph.record_ack(unix_nanos().saturating_sub(scheduled) / 1000);
            ph.expected.fetch_add(n * receivers, Ordering::Relaxed);
        }
        _ => {
            ph.errors.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// `inbox`: customers' webhooks at an open-loop rate to agents following every conversation.
pub async fn inbox(run: &Run, batch: usize) -> Result<Report> {
    let c = &run.common;
    let business = Arc::new(run.api.setup_business(&run.run_id, c.agents).await?);
    let channels: Arc<Vec<String>> =
        Arc::new((0..c.customers).map(|n| business.channel(n)).collect());
    let agents = c.agents.max(1);
    let sessions = open_subscribers(run, Some(&business), agents, channels).await?;
    let phases = Arc::new(vec![Phase::default()]);
    let dropped = Arc::new(AtomicU64::new(0));
    let (stop_tx, stop_rx) = watch::channel(false);
    for ws in sessions {
        spawn_receiver(
            ws,
            phases.clone(),
            Peer::Parley,
            stop_rx.clone(),
            dropped.clone(),
        );
    }
    let messages = (c.rate * c.duration).ceil().max(1.0) as u64;
    let posts = messages.div_ceil(batch as u64);
    run.stage("webhooks", posts);
    let started = Instant::now();
    let prefix = Arc::new(run.run_id.clone());
    let none = Arc::new(NchanChannel::default());
    let customers = c.customers;
    open_loop(
        c.rate / batch as f64,
        posts,
        c.max_inflight,
        &run.bar,
        |k, scheduled| {
            let first = k * batch as u64;
            let last = (first + batch as u64).min(messages);
            let who = (first..last).map(|i| i as usize % customers).collect();
            publish_marked(
                run.api.clone(),
                Some(business.clone()),
                none.clone(),
                phases.clone(),
                0,
                first,
                who,
                scheduled,
                agents as u64,
                prefix.clone(),
            )
        },
    )
    .await?;
    let publish_secs = started.elapsed().as_secs_f64();
    run.stage("draining", 0);
    drain(&phases[0], Duration::from_secs_f64(c.drain)).await;
    let _ = stop_tx.send(true);
    run.bar.finish_and_clear();

    let phase = &phases[0];
    let mut report = run.report("inbox");
    report.sessions = agents;
    report.set_latency(&phase.latency_snapshot());
    let (ack50, _, ack99, _) = percentiles(&phase.ack_snapshot());
    report.ack_p50_ms = Some(ack50);
    report.ack_p99_ms = Some(ack99);
    report.delivered = phase.delivered.load(Ordering::Relaxed);
    report.expected = phase.expected.load(Ordering::Relaxed);
    report.lost = phase.lost();
    report.duplicates = phase.duplicates.load(Ordering::Relaxed);
    report.errors = phase.errors.load(Ordering::Relaxed);
    report.dropped = Some(dropped.load(Ordering::Relaxed));
    // Messages per second that reached every agent (deliveries / agents).
    report.delivered_per_sec = report.delivered as f64 / agents as f64 / publish_secs;
    Ok(report)
}

/// `fanout`: one conversation, many followers, a rising publish rate.
/// Steps over the bound in a row that end the climb: one alone may be a passing stall (a
/// checkpoint, a scheduler hiccup) below the rate that really is too much.
const FAILED_STEPS_TO_STOP: usize = 2;

pub async fn fanout(
    run: &Run,
    p99_bound_ms: f64,
    step_secs: f64,
    step_factor: f64,
    max_rate: f64,
    frame_bytes: usize,
) -> Result<Report> {
    let c = &run.common;
    let (business, channel) = match c.peer {
        Peer::Parley => {
            let b = run.api.setup_business(&run.run_id, c.agents).await?;
            let channel = b.channel(0);
            (Some(Arc::new(b)), channel)
        }
        Peer::Nchan => (None, format!("fanout{}", run.run_id)),
    };
    let sessions = open_subscribers(
        run,
        business.as_deref(),
        c.sessions,
        Arc::new(vec![channel.clone()]),
    )
    .await?;
    let max_steps =
        (((max_rate / c.rate).ln() / step_factor.ln()).floor() as usize + 1).clamp(1, 64);
    let phases: Arc<Vec<Phase>> = Arc::new((0..max_steps).map(|_| Phase::default()).collect());
    let dropped = Arc::new(AtomicU64::new(0));
    let (stop_tx, stop_rx) = watch::channel(false);
    for ws in sessions {
        spawn_receiver(ws, phases.clone(), c.peer, stop_rx.clone(), dropped.clone());
    }
    let receivers = c.sessions as u64;
    let started = Instant::now();
    let prefix = Arc::new(run.run_id.clone());
    let nchan = Arc::new(NchanChannel {
        name: channel,
        frame_bytes,
    });
    let mut steps = Vec::new();
    let mut rate = c.rate;
    let mut failed_in_a_row = 0;
    for step in 0..max_steps {
        if started.elapsed().as_secs_f64() + step_secs > c.duration && step > 0 {
            break;
        }
        let count = (rate * step_secs).ceil().max(1.0) as u64;
        run.stage(&format!("step {} at {rate:.0}/s", step + 1), count);
        let t0 = Instant::now();
        open_loop(rate, count, c.max_inflight, &run.bar, |k, scheduled| {
            publish_marked(
                run.api.clone(),
                business.clone(),
                nchan.clone(),
                phases.clone(),
                step as u32,
                k,
                vec![0],
                scheduled,
                receivers,
                prefix.clone(),
            )
        })
        .await?;
        let phase = &phases[step];
        drain(phase, Duration::from_secs_f64(c.drain.min(5.0))).await;
        let elapsed = t0.elapsed().as_secs_f64();
        let (p50, p90, p99, max) = percentiles(&phase.latency_snapshot());
        let s = Step {
            offered_rate: rate,
            published: count,
            delivered_per_sec: phase.delivered.load(Ordering::Relaxed) as f64 / elapsed,
            p50_ms: p50,
            p90_ms: p90,
            p99_ms: p99,
            max_ms: max,
            lost: phase.lost(),
            duplicates: phase.duplicates.load(Ordering::Relaxed),
            errors: phase.errors.load(Ordering::Relaxed),
        };
        let over = s.p99_ms > p99_bound_ms || s.lost > 0 || s.errors > 0;
        steps.push(s);
        rate *= step_factor;
        failed_in_a_row = if over { failed_in_a_row + 1 } else { 0 };
        if failed_in_a_row == FAILED_STEPS_TO_STOP || rate > max_rate {
            break;
        }
    }
    let _ = stop_tx.send(true);
    run.bar.finish_and_clear();

    let mut report = run.report("fanout");
    let within: Vec<&Step> = steps
        .iter()
        .filter(|s| s.p99_ms <= p99_bound_ms && s.lost == 0 && s.errors == 0)
        .collect();
    let best = within
        .iter()
        .copied()
        .max_by(|a, b| a.delivered_per_sec.total_cmp(&b.delivered_per_sec))
        .or(steps.first());
    if let Some(best) = best {
        report.offered_rate = best.offered_rate;
        report.p50_ms = best.p50_ms;
        report.p90_ms = best.p90_ms;
        report.p99_ms = best.p99_ms;
        report.max_ms = best.max_ms;
        report.delivered_per_sec = best.delivered_per_sec;
    }
    let mut bytes = 0;
    for (step, phase) in phases.iter().enumerate().take(steps.len()) {
        bytes += phase.bytes.load(Ordering::Relaxed);
        report.delivered += phase.delivered.load(Ordering::Relaxed);
        report.expected += phase.expected.load(Ordering::Relaxed);
        report.errors += phase.errors.load(Ordering::Relaxed);
        // Losses count only in steps within the bound: past it the server may shed slow
        // consumers by design.
        if within.iter().any(|s| std::ptr::eq(*s, &steps[step])) {
            report.lost += phase.lost();
        }
        report.duplicates += phase.duplicates.load(Ordering::Relaxed);
    }
    report.mean_frame_bytes = bytes.checked_div(report.delivered);
    report.dropped = Some(dropped.load(Ordering::Relaxed));
    report.duration_secs = started.elapsed().as_secs_f64();
    report.steps = steps;
    Ok(report)
}

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

#[cfg(test)]
mod tests {
    use super::{NchanChannel, Seen};
    use crate::client::{marker, parse_marker};

    #[test]
    fn nchan_bodies_are_padded_to_the_asked_size_and_keep_their_marker() {
        let padded = NchanChannel {
            name: "c".into(),
            frame_bytes: 600,
        };
        let body = padded.body(marker(2, 7, 123));
        assert_eq!(body.len(), 600);
        assert_eq!(parse_marker(&body), Some((2, 7, 123)));
        let bare = NchanChannel::default();
        assert_eq!(bare.body(marker(2, 7, 123)), "lt:2:7:123");
    }

    #[test]
    fn seen_reports_each_message_of_each_step_once() {
        let mut seen = Seen::default();
        assert!(seen.insert(0, 0));
        assert!(seen.insert(0, 64));
        assert!(seen.insert(3, 0));
        assert!(!seen.insert(0, 0));
        assert!(!seen.insert(0, 64));
        assert!(!seen.insert(3, 0));
        assert!(seen.insert(0, 1));
        assert!(seen.insert(1, 0));
    }
}
