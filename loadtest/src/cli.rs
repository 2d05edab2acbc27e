//! Command line: one subcommand per scenario, common flags, and the bounds every run obeys.

use std::net::IpAddr;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use url::{Host, Url};

/// Most WebSocket sessions one run opens (one process may hold 20,000 open files here).
pub const MAX_SESSIONS: usize = 19_500;
/// Highest offered rate, messages (or connections) per second.
pub const MAX_RATE: f64 = 100_000.0;
/// Longest a run (or one phase of it) may last, in seconds.
pub const MAX_DURATION_SECS: f64 = 900.0;
/// Most simulated customers and agents.
pub const MAX_CUSTOMERS: usize = 10_000;
pub const MAX_AGENTS: usize = 500;
/// Most recipients of one bulk job.
pub const MAX_RECIPIENTS: usize = 200_000;
/// Most conversations and messages `big-inbox` seeds.
pub const MAX_BIG_CONVERSATIONS: usize = 200_000;
pub const MAX_BIG_MESSAGES: u64 = 2_000_000;
/// Largest padded nchan message.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

#[derive(Parser, Debug, Clone)]
#[command(
    name = "parley-loadtest",
    version,
    about = "Load generator for Parley (and for an nchan peer on the same box)",
    long_about = "Load generator for Parley: drives the public API, signed Cloud API webhooks and \
the WebSocket push over loopback only, and reports latency percentiles, delivered/s, losses and \
duplicates as a table (and as JSON with --json).\n\n\
Scenarios:\n\
* idle: open --sessions authenticated WebSockets at --rate per second from several 127.0.0.x \
source addresses, hold them --duration seconds; reports connect latency, connect errors, drops \
and (with --server-pid) server RSS per session, measured across the sessions after the first \
tenth (at least 500, at most half; opened first, so the reading starts from a server past its \
start-up).\n\
* inbox: --customers post signed webhooks (mixed message types) at an open-loop --rate for \
--duration seconds while --agents are subscribed to every customer's conversation; latency runs \
from each message's scheduled send time to its arrival at each agent. Image and document \
messages carry one image and one PDF uploaded to the sandbox at setup, so Parley fetches each \
file once and finds it stored after that.\n\
* cluster: two Parley nodes on one Postgres (--target and --second-target); customer n posts \
to node n % 2 while the agents (an even --agents) following that customer sit on the other \
node, so every delivery crosses nodes; latency as for inbox. With --kill-second PID the second \
node gets SIGKILL halfway through the load: its webhooks then go to the first node (a failed \
post is retried there) and its agents reconnect there and resume after the last event they \
saw; every webhook answered 200 must reach each of its agents once.\n\
* fanout: --sessions follow one conversation; the publish rate starts at --rate and grows by \
--step-factor every --step-secs until two steps in a row pass --p99-bound-ms or lose a delivery \
(or --max-rate / --duration); reports deliveries/s of the best step within the bound and every \
step.\n\
* send: --agents send text messages through /api/send-message at --rate for --duration; \
reports send latency and time to the sandbox's delivered and read receipts.\n* bulk: uploads a generated csv of --recipients numbers to /api/recipients/parse, creates and waits for an approved template, starts one bulk job through /api/send-template and follows its bulk_send_progress events; --rate must equal the server's [outbox] rate_per_second (and the sandbox's rate_per_second must be higher). Reports the achieved rate and its deviation from --rate overall and in the worst 1 s and 10 s windows, the job's wall time, and from --sandbox-log (the server's data_dir/sandbox-sent.jsonl) recipients never sent (lost) and sent more than once (duplicates); a job not finished within three times its planned time is reported as it stands (job_finished false).\n* big-inbox: seeds one business with --conversations and --messages \
(text in English and Arabic, customer 0 holding --deep of them) as signed webhooks of --batch \
messages, --max-inflight at a time, puts a label on every 200th conversation, runs --before-reads \
if given, then runs each read 100 times untimed and times it --repeats times one after another: the chat list's first page, a later page, a filtered page, a \
contact search by phone and by name, full-history search for a rare word, a common word, an \
Arabic word and a common two-letter prefix, and the deep conversation's last 30 messages. \
Reports seeding time and rate, the server's RSS after seeding (--server-pid) and each read's \
percentiles.\n\n\
In the report, delivered_per_sec is connects/s (idle), messages/s that reached every agent \
(inbox), deliveries/s to followers (fanout), completed sends/s (send) or recipients sent per second (bulk); lost counts expected \
deliveries that never arrived (idle: sessions that failed or dropped), duplicates repeated ones.\n\n\
Every run is bounded in count and time, refuses a non-loopback --target, and sets itself up \
through the public API (registers a business, agents, an app secret; inbox also uploads its two \
files to the sandbox). Access tokens last 15 min \
by default: for longer runs start the server with PARLEY_AUTH__ACCESS_TOKEN_TTL_SECS raised.\n\
With --peer nchan, idle and fanout drive an nginx + nchan server instead (subscribers on \
/sub/<channel>, publishers POST /pub/<channel>)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub scenario: Scenario,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Subcommand, Debug, Clone)]
pub enum Scenario {
    /// Hold many idle authenticated WebSocket sessions; connect latency and RSS per session.
    Idle {
        /// Client source addresses 127.0.0.1..=127.0.0.K to spread sockets over.
        #[arg(long, default_value_t = 8)]
        source_addrs: u8,
    },
    /// Signed webhooks at an open-loop rate to subscribed agents; webhook-to-agent latency.
    Inbox {
        /// Messages per webhook POST (the Cloud API batches up to 1000).
        #[arg(long, default_value_t = 1)]
        batch: usize,
    },
    /// Two nodes on one Postgres: webhooks to one node, their agents on the other, both ways.
    Cluster {
        /// Base URL of the second node (--target is the first); loopback only.
        #[arg(long)]
        second_target: String,
        /// Process id of the second node: killed with SIGKILL halfway through the load.
        #[arg(long)]
        kill_second: Option<u32>,
    },
    /// One conversation followed by many sessions; raise the rate until p99 passes a bound.
    Fanout {
        /// Stop raising the rate once a step's p99 exceeds this many milliseconds.
        #[arg(long, default_value_t = 50.0)]
        p99_bound_ms: f64,
        /// Seconds each rate step lasts.
        #[arg(long, default_value_t = 3.0)]
        step_secs: f64,
        /// Factor the publish rate grows by between steps.
        #[arg(long, default_value_t = 1.5)]
        step_factor: f64,
        /// Highest publish rate tried, messages per second.
        #[arg(long, default_value_t = 5_000.0)]
        max_rate: f64,
        /// nchan only: pad each published message to this many bytes, e.g. the mean frame size
        /// a Parley run reports (`mean_frame_bytes`), so both servers carry the same bytes.
        #[arg(long, default_value_t = 0)]
        frame_bytes: usize,
    },
    /// Agents send through /api/send-message; send latency and receipt times.
    Send,
    /// One bulk template job; how closely it keeps the configured rate (--rate).
    Bulk {
        /// Recipients in the generated csv.
        #[arg(long, default_value_t = 1_000)]
        recipients: usize,
        /// The server's data_dir/sandbox-sent.jsonl: what the sandbox accepted.
        #[arg(long)]
        sandbox_log: PathBuf,
    },
    /// One business with a long history seeded through batched webhooks; times the reads.
    BigInbox {
        /// Conversations (customers) in the history.
        #[arg(long, default_value_t = 100_000)]
        conversations: usize,
        /// Messages in the history.
        #[arg(long, default_value_t = 1_000_000)]
        messages: u64,
        /// Messages of the one deep conversation (customer 0).
        #[arg(long, default_value_t = 10_000)]
        deep: u64,
        /// Messages per seeding webhook (the Cloud API batches up to 1000).
        #[arg(long, default_value_t = 1000)]
        batch: usize,
        /// Timed repetitions of each read.
        #[arg(long, default_value_t = 300)]
        repeats: u64,
        /// A shell command run after seeding, before the reads (the suite's Postgres run passes
        /// a `VACUUM ANALYZE`, the pass autovacuum makes over a long-lived history).
        #[arg(long)]
        before_reads: Option<String>,
    },
}

/// Which server the run drives.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    Parley,
    /// nginx + nchan: /sub/<channel> WebSockets and POST /pub/<channel> (idle and fanout only).
    Nchan,
}

#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Base URL of the server; loopback addresses only.
    #[arg(long, global = true, default_value = "http://127.0.0.1:8080")]
    pub target: String,
    /// Server kind behind --target.
    #[arg(long, global = true, value_enum, default_value_t = Peer::Parley)]
    pub peer: Peer,
    /// Simulated customers (distinct phone numbers, hence conversations).
    #[arg(long, global = true, default_value_t = 10)]
    pub customers: usize,
    /// Agent accounts created under the business (0: the owner alone).
    #[arg(long, global = true, default_value_t = 2)]
    pub agents: usize,
    /// WebSocket sessions (idle, fanout).
    #[arg(long, global = true, default_value_t = 100)]
    pub sessions: usize,
    /// Offered rate per second: messages (inbox, fanout start, send), connections (idle), or
    /// the server's configured send rate (bulk).
    #[arg(long, global = true, default_value_t = 100.0)]
    pub rate: f64,
    /// Seconds of load (inbox, send), of holding (idle), or the cap on all steps (fanout).
    #[arg(long, global = true, default_value_t = 10.0)]
    pub duration: f64,
    /// Seconds to wait after the load for deliveries still in flight.
    #[arg(long, global = true, default_value_t = 5.0)]
    pub drain: f64,
    /// Requests in flight at most; a send that waits still counts from its scheduled time.
    #[arg(long, global = true, default_value_t = 512)]
    pub max_inflight: usize,
    /// Server process id(s), comma separated, whose VmRSS is summed (idle).
    #[arg(long, global = true, value_delimiter = ',')]
    pub server_pid: Vec<u32>,
    /// Write the report as JSON to this file.
    #[arg(long, global = true)]
    pub json: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, global = true)]
    pub quiet: bool,
}

impl Common {
    /// The target URL, after checking it is loopback and every figure is within bounds.
    pub fn validate(&self, scenario: &Scenario) -> Result<Url> {
        let url = loopback_url(&self.target, "--target")?;
        let rate_ok = self.rate.is_finite() && self.rate > 0.0 && self.rate <= MAX_RATE;
        if !rate_ok {
            bail!("--rate must be in (0, {MAX_RATE}]");
        }
        if !(self.duration > 0.0 && self.duration <= MAX_DURATION_SECS) {
            bail!("--duration must be in (0, {MAX_DURATION_SECS}]");
        }
        if !(self.drain >= 0.0 && self.drain <= 120.0) {
            bail!("--drain must be in [0, 120]");
        }
        if self.sessions == 0 || self.sessions > MAX_SESSIONS {
            bail!("--sessions must be in 1..={MAX_SESSIONS}");
        }
        if self.customers == 0 || self.customers > MAX_CUSTOMERS {
            bail!("--customers must be in 1..={MAX_CUSTOMERS}");
        }
        if self.agents > MAX_AGENTS {
            bail!("--agents must be at most {MAX_AGENTS}");
        }
        if self.max_inflight == 0 || self.max_inflight > 4096 {
            bail!("--max-inflight must be in 1..=4096");
        }
        match scenario {
            Scenario::Idle { source_addrs } if *source_addrs == 0 => {
                bail!("--source-addrs must be at least 1")
            }
            Scenario::Inbox { batch } if *batch == 0 || *batch > 1000 => {
                bail!("--batch must be in 1..=1000")
            }
            Scenario::Cluster { second_target, .. } => {
                loopback_url(second_target, "--second-target")?;
                if self.customers < 2 || self.agents < 2 || !self.agents.is_multiple_of(2) {
                    bail!(
                        "cluster needs --customers of at least 2 and an even --agents of at least 2"
                    );
                }
            }
            Scenario::Fanout {
                step_secs,
                step_factor,
                max_rate,
                frame_bytes,
                ..
            } => {
                if *frame_bytes > MAX_FRAME_BYTES {
                    bail!("--frame-bytes must be at most {MAX_FRAME_BYTES}");
                }
                if *frame_bytes > 0 && self.peer != Peer::Nchan {
                    bail!("--frame-bytes applies to --peer nchan only");
                }
                if !(*step_secs > 0.0 && *step_secs <= 60.0) {
                    bail!("--step-secs must be in (0, 60]");
                }
                if step_factor.partial_cmp(&1.0) != Some(std::cmp::Ordering::Greater) {
                    bail!("--step-factor must be above 1");
                }
                if !(*max_rate > 0.0 && *max_rate <= MAX_RATE) {
                    bail!("--max-rate must be in (0, {MAX_RATE}]");
                }
            }
            Scenario::Bulk { recipients, .. } => {
                if *recipients == 0 || *recipients > MAX_RECIPIENTS {
                    bail!("--recipients must be in 1..={MAX_RECIPIENTS}");
                }
                if *recipients as f64 / self.rate > MAX_DURATION_SECS {
                    bail!("--recipients / --rate must be at most {MAX_DURATION_SECS} seconds");
                }
            }
            Scenario::BigInbox {
                conversations,
                messages,
                deep,
                batch,
                repeats,
                ..
            } => {
                if *conversations < 2 || *conversations > MAX_BIG_CONVERSATIONS {
                    bail!("--conversations must be in 2..={MAX_BIG_CONVERSATIONS}");
                }
                if *messages == 0 || *messages > MAX_BIG_MESSAGES {
                    bail!("--messages must be in 1..={MAX_BIG_MESSAGES}");
                }
                if *deep == 0 || *deep > *messages {
                    bail!("--deep must be in 1..=--messages");
                }
                if *batch == 0 || *batch > 1000 {
                    bail!("--batch must be in 1..=1000");
                }
                if *repeats == 0 || *repeats > 100_000 {
                    bail!("--repeats must be in 1..=100000");
                }
            }
            _ => {}
        }
        let parley_only = matches!(
            scenario,
            Scenario::Inbox { .. }
                | Scenario::Cluster { .. }
                | Scenario::Send
                | Scenario::Bulk { .. }
                | Scenario::BigInbox { .. }
        );
        if self.peer == Peer::Nchan && parley_only {
            bail!("--peer nchan supports the idle and fanout scenarios only");
        }
        Ok(url)
    }
}

/// `target` parsed, after checking it is an http:// URL on a loopback address.
fn loopback_url(target: &str, flag: &str) -> Result<Url> {
    let url = Url::parse(target)?;
    if !matches!(url.scheme(), "http") {
        bail!("{flag} must be an http:// URL");
    }
    let loopback = match url.host() {
        Some(Host::Domain(d)) => d == "localhost",
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    };
    if !loopback {
        bail!("{flag} must be a loopback address (127.0.0.0/8, ::1 or localhost)");
    }
    Ok(url)
}
