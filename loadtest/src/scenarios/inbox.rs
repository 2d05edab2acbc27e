//! `inbox`: customers' webhooks to agents who follow every conversation.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use tokio::sync::watch;

use super::open_loop::open_loop;
use super::publish::{NchanChannel, publish_marked};
use super::run::Run;
use super::subscribers::{drain, open_subscribers, spawn_receiver};
use crate::cli::Peer;
use crate::report::{Phase, Report};

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
    report.set_phase(phase);
    report.dropped = Some(dropped.load(Ordering::Relaxed));
    // Messages per second that reached every agent (deliveries / agents).
    report.delivered_per_sec = report.delivered as f64 / agents as f64 / publish_secs;
    Ok(report)
}
