//! `cluster`: two Parley nodes on one Postgres. Customer `n`'s webhooks go to node `n % 2` and
//! the agents who follow that customer are connected to the other node, so every delivery
//! crosses from one node to the other, both ways at once.
//!
//! With a node's process id, that node gets SIGKILL halfway through the load: from then on its
//! customers' webhooks go to the surviving node (a webhook that failed is posted again there,
//! as the provider retries one not answered 200), and its agents reconnect to the surviving
//! node and resume after the last event they saw. Every webhook answered 200, whichever node
//! answered it, must reach each of its agents exactly once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use futures_util::StreamExt;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use super::open_loop::open_loop;
use super::run::Run;
use super::subscribers::{Seen, credit, drain, source_addr};
use crate::client::{self, Api, Business, Inbound, Ws, marker, unix_nanos};
use crate::report::{Phase, Report};

/// Times a webhook is posted before it counts as an error (the first node, then the other).
const ATTEMPTS: usize = 3;
/// Wait between two posts of one webhook.
const RETRY_WAIT: Duration = Duration::from_millis(100);
/// How long an agent whose connection dropped keeps trying the other node.
const RECONNECT_LIMIT: Duration = Duration::from_secs(30);

/// The two nodes, and whether the second was killed.
struct Nodes {
    apis: [Api; 2],
    second_down: AtomicBool,
}

impl Nodes {
    /// The node a webhook or an agent of side `side` uses now.
    fn live(&self, side: usize) -> usize {
        if side == 1 && self.second_down.load(Ordering::Relaxed) {
            0
        } else {
            side
        }
    }
}

/// `cluster`: webhooks to one node, their agents on the other; optionally the second node
/// (`kill`, its process id) killed halfway through the load.
pub async fn cluster(run: &Run, second: Api, kill: Option<u32>) -> Result<Report> {
    let c = &run.common;
    let nodes = Arc::new(Nodes {
        apis: [run.api.clone(), second],
        second_down: AtomicBool::new(false),
    });
    let business = Arc::new(run.api.setup_business(&run.run_id, c.agents).await?);
    let phase = Arc::new(Phase::default());
    let moved = Arc::new(AtomicU64::new(0));
    let dropped = Arc::new(AtomicU64::new(0));
    let (stop_tx, stop_rx) = watch::channel(false);
    run.stage("opening sessions", c.agents as u64);
    for n in 0..c.agents {
        let agent = Agent::connect(&nodes, &business, n, c.customers).await?;
        let tasks = (phase.clone(), moved.clone(), dropped.clone());
        tokio::spawn(agent.follow(nodes.clone(), tasks, stop_rx.clone()));
        run.bar.inc(1);
    }
    let receivers = (c.agents / 2) as u64;
    let messages = (c.rate * c.duration).ceil().max(1.0) as u64;
    if let Some(pid) = kill {
        let nodes = nodes.clone();
        let halfway = Duration::from_secs_f64(c.duration / 2.0);
        tokio::spawn(async move {
            tokio::time::sleep(halfway).await;
            nodes.second_down.store(true, Ordering::Relaxed);
            let killed = tokio::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status()
                .await;
            if !matches!(killed, Ok(status) if status.success()) {
                eprintln!("could not kill the second node ({pid})");
            }
        });
    }
    run.stage("webhooks", messages);
    let started = Instant::now();
    let customers = c.customers;
    open_loop(
        c.rate,
        messages,
        c.max_inflight,
        &run.bar,
        |k, scheduled| {
            let inbound = Inbound {
                customer: k as usize % customers,
                wamid: format!("wamid.{}.0.{k}", run.run_id),
                text: marker(0, k, scheduled),
            };
            post(
                nodes.clone(),
                business.clone(),
                phase.clone(),
                inbound,
                scheduled,
                receivers,
            )
        },
    )
    .await?;
    let publish_secs = started.elapsed().as_secs_f64();
    run.stage("draining", 0);
    drain(&phase, Duration::from_secs_f64(c.drain)).await;
    let _ = stop_tx.send(true);
    run.bar.finish_and_clear();

    let mut report = run.report("cluster");
    report.sessions = c.agents;
    report.set_phase(&phase);
    report.dropped = Some(dropped.load(Ordering::Relaxed));
    report.reconnected = Some(moved.load(Ordering::Relaxed));
    report.delivered_per_sec = report.delivered as f64 / receivers as f64 / publish_secs;
    Ok(report)
}

/// Posts one customer's message to the node of its side (the other one once that is down, or
/// after a failed post); credits the phase with its agents once a node answers 200.
async fn post(
    nodes: Arc<Nodes>,
    business: Arc<Business>,
    phase: Arc<Phase>,
    inbound: Inbound,
    scheduled: u64,
    receivers: u64,
) {
    let mut side = inbound.customer % 2;
    let body = client::webhook_body(&business, &[inbound]);
    for attempt in 0..ATTEMPTS {
        if attempt > 0 {
            tokio::time::sleep(RETRY_WAIT).await;
        }
        let api = &nodes.apis[nodes.live(side)];
        if let Ok(200..=202) = api.webhook(body.clone(), &business.app_secret).await {
            phase.record_ack(unix_nanos().saturating_sub(scheduled) / 1000);
            phase.expected.fetch_add(receivers, Ordering::Relaxed);
            return;
        }
        side = 1 - side;
    }
    phase.errors.fetch_add(1, Ordering::Relaxed);
}

/// An agent on one node following the customers whose webhooks go to the other.
struct Agent {
    ws: Ws,
    /// The node the agent is connected to.
    side: usize,
    token: String,
    channels: Vec<String>,
    source: std::net::IpAddr,
}

impl Agent {
    /// Agent `n`: on node `n % 2`, following the customers of the other node.
    async fn connect(
        nodes: &Nodes,
        business: &Business,
        n: usize,
        customers: usize,
    ) -> Result<Self> {
        let side = n % 2;
        let channels: Vec<String> = (0..customers)
            .filter(|customer| customer % 2 != side)
            .map(|customer| business.channel(customer))
            .collect();
        let token = business.token(n).to_string();
        let source = source_addr(n, 8);
        let api = &nodes.apis[side];
        let ws = client::parley_session(api, &token, &channels, Some(source)).await?;
        Ok(Self {
            ws,
            side,
            token,
            channels,
            source,
        })
    }

    /// Reads events until `stop`, crediting each marked message once; when the connection
    /// drops, reconnects to the node still up and resumes after the last event seen.
    async fn follow(
        mut self,
        nodes: Arc<Nodes>,
        (phase, moved, dropped): (Arc<Phase>, Arc<AtomicU64>, Arc<AtomicU64>),
        mut stop: watch::Receiver<bool>,
    ) {
        let phases = std::slice::from_ref(phase.as_ref());
        let mut seen = Seen::default();
        let mut last_seq = 0;
        loop {
            tokio::select! {
                frame = self.ws.next() => match frame {
                    Some(Ok(Message::Text(text))) => {
                        let text = text.as_str();
                        last_seq = event_seq(text).map_or(last_seq, |seq| seq.max(last_seq));
                        if text.contains("\"new_message\"") {
                            credit(text, phases, &mut seen);
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(_)) | None => {
                        if *stop.borrow() {
                            return;
                        }
                        dropped.fetch_add(1, Ordering::Relaxed);
                        if self.resume_elsewhere(&nodes, last_seq).await.is_err() {
                            return;
                        }
                        moved.fetch_add(1, Ordering::Relaxed);
                    }
                },
                _ = stop.changed() => return,
            }
        }
    }

    /// Reconnects to the node that is up (the other one when neither is known down), then
    /// subscribes and resumes after `last_seq`, retrying for `RECONNECT_LIMIT`.
    async fn resume_elsewhere(&mut self, nodes: &Nodes, last_seq: i64) -> Result<()> {
        let deadline = Instant::now() + RECONNECT_LIMIT;
        let mut side = nodes.live(1 - self.side);
        loop {
            let api = &nodes.apis[side];
            let source = Some(self.source);
            match client::parley_resume(api, &self.token, &self.channels, last_seq, source).await {
                Ok(ws) => {
                    self.ws = ws;
                    self.side = side;
                    return Ok(());
                }
                Err(err) if Instant::now() >= deadline => return Err(err),
                Err(_) => {
                    tokio::time::sleep(RETRY_WAIT).await;
                    side = nodes.live(1 - side);
                }
            }
        }
    }
}

/// The `seq` of an event frame (`{"event":…,"seq":N,…}`); none for control frames.
fn event_seq(frame: &str) -> Option<i64> {
    let start = frame.find("\"seq\":")? + 6;
    let digits = frame[start..].trim_start();
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    digits[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::event_seq;

    #[test]
    fn the_seq_of_an_event_frame_is_read_and_control_frames_have_none() {
        assert_eq!(
            event_seq(r#"{"event":"new_message","seq":42,"channel":"c","data":{}}"#),
            Some(42)
        );
        assert_eq!(event_seq(r#"{"event": "x", "seq": 7}"#), Some(7));
        assert_eq!(event_seq(r#"{"event":"subscribed","channel":"c"}"#), None);
    }
}
