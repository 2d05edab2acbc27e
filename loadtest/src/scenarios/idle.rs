//! `idle`: many sessions held open, to measure what each costs the server in memory.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use tokio::sync::watch;

use super::open_loop::open_loop;
use super::run::Run;
use super::subscribers::{source_addr, spawn_receiver};
use crate::cli::Peer;
use crate::client;
use crate::report::{Phase, Report};

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
