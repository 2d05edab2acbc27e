//! parley-loadtest: drives a running Parley (or an nchan peer) over loopback and measures it.
//!
//! Layout:
//! - `cli`: the command line, one subcommand per scenario, and the bounds every run obeys.
//! - `client`: talking to the target, one concern a file: `api` (HTTP calls, nchan publishes),
//!   `business` (setup through the public API), `webhook` (signed webhooks), `session`
//!   (WebSocket sessions bound to a loopback source address), `marker` (the latency marker
//!   carried in message text), `rss` (process memory).
//! - `scenarios`: one module per scenario (`idle`, `inbox`, `cluster`, `fanout`, `send`,
//!   `bulk`, `big_inbox`), and what
//!   they share: `run` (target, flags, run id, progress), `open_loop` (the publisher),
//!   `publish` (one marked message sent) and `subscribers` (the sessions that receive it).
//! - `report`: histograms, the report, its table and JSON.
//!
//! The binary parses arguments and calls [`run`]; the smoke tests call [`run`] too.
#![forbid(unsafe_code)]

pub mod cli;
pub mod client;
pub mod report;
pub mod scenarios;

use anyhow::Result;

use cli::{Cli, Scenario};
use report::Report;
use scenarios::Run;

/// Runs one scenario to completion and answers its report (also written to `--json`).
pub async fn run(cli: &Cli) -> Result<Report> {
    let target = cli.common.validate(&cli.scenario)?;
    let api = client::Api::new(target, cli.common.max_inflight)?;
    let run = Run::new(api, cli.common.clone());
    let report = match &cli.scenario {
        Scenario::Idle { source_addrs } => scenarios::idle(&run, *source_addrs).await?,
        Scenario::Inbox { batch } => scenarios::inbox(&run, *batch).await?,
        Scenario::Cluster {
            second_target,
            kill_second,
        } => {
            let second =
                client::Api::new(url::Url::parse(second_target)?, cli.common.max_inflight)?;
            scenarios::cluster(&run, second, *kill_second).await?
        }
        Scenario::Fanout {
            p99_bound_ms,
            step_secs,
            step_factor,
            max_rate,
            frame_bytes,
        } => {
            let (bound, secs, factor) = (*p99_bound_ms, *step_secs, *step_factor);
            scenarios::fanout(&run, bound, secs, factor, *max_rate, *frame_bytes).await?
        }
        Scenario::Send => scenarios::send(&run).await?,
        Scenario::Bulk {
            recipients,
            sandbox_log,
        } => scenarios::bulk(&run, *recipients, sandbox_log).await?,
        Scenario::BigInbox {
            conversations,
            messages,
            deep,
            batch,
            repeats,
            before_reads,
        } => {
            let size = scenarios::BigInbox {
                conversations: *conversations,
                messages: *messages,
                deep: *deep,
                batch: *batch,
                repeats: *repeats,
                before_reads: before_reads.clone(),
            };
            scenarios::big_inbox(&run, &size).await?
        }
    };
    if let Some(path) = &cli.common.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")?;
    }
    Ok(report)
}
