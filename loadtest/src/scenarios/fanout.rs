//! `fanout`: one conversation, many followers, a publish rate that rises until the p99
//! latency passes its bound.

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
use crate::report::{Phase, Report, Step, percentiles};

/// Steps over the bound in a row that end the climb: one alone may be a passing stall (a
/// checkpoint, a scheduler hiccup) below the rate that really is too much.
const FAILED_STEPS_TO_STOP: usize = 2;

/// `fanout`: one conversation, many followers, a rising publish rate.
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
