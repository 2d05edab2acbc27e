//! Figures: latency histograms shared by the receiving tasks, the report, its table and JSON.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use hdrhistogram::Histogram;
use serde::Serialize;

/// Latencies are kept in microseconds from 1 µs to 10 minutes.
const HIGHEST_US: u64 = 600_000_000;

pub fn histogram() -> Histogram<u64> {
    // unwrap: constant, valid bounds.
    #[allow(clippy::unwrap_used)]
    Histogram::new_with_bounds(1, HIGHEST_US, 3).unwrap()
}

/// Counts and latencies of one measured phase (a fanout step, or a whole inbox run).
pub struct Phase {
    pub latency: Mutex<Histogram<u64>>,
    /// Messages the server accepted (HTTP 200), times the sessions that should see each.
    pub expected: AtomicU64,
    /// First arrivals of a message at a session.
    pub delivered: AtomicU64,
    /// The frames of those arrivals, in bytes.
    pub bytes: AtomicU64,
    /// Repeated arrivals of a message at the same session.
    pub duplicates: AtomicU64,
    /// Publish requests that failed or answered other than 200.
    pub errors: AtomicU64,
    /// Publish request round trips.
    pub ack: Mutex<Histogram<u64>>,
}

impl Default for Phase {
    fn default() -> Self {
        Self {
            latency: Mutex::new(histogram()),
            expected: AtomicU64::new(0),
            delivered: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            duplicates: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            ack: Mutex::new(histogram()),
        }
    }
}

impl Phase {
    pub fn record(&self, latency_us: u64) {
        self.delivered.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut h) = self.latency.lock() {
            h.saturating_record(latency_us.max(1));
        }
    }

    pub fn record_ack(&self, latency_us: u64) {
        if let Ok(mut h) = self.ack.lock() {
            h.saturating_record(latency_us.max(1));
        }
    }

    pub fn latency_snapshot(&self) -> Histogram<u64> {
        self.latency
            .lock()
            .map(|h| h.clone())
            .unwrap_or_else(|_| histogram())
    }

    pub fn ack_snapshot(&self) -> Histogram<u64> {
        self.ack
            .lock()
            .map(|h| h.clone())
            .unwrap_or_else(|_| histogram())
    }

    pub fn lost(&self) -> u64 {
        self.expected
            .load(Ordering::Relaxed)
            .saturating_sub(self.delivered.load(Ordering::Relaxed))
    }
}

/// Percentiles of a histogram in milliseconds: (p50, p90, p99, max).
pub fn percentiles(h: &Histogram<u64>) -> (f64, f64, f64, f64) {
    if h.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let ms = |us: u64| (us as f64 / 1000.0 * 1000.0).round() / 1000.0;
    (
        ms(h.value_at_quantile(0.50)),
        ms(h.value_at_quantile(0.90)),
        ms(h.value_at_quantile(0.99)),
        ms(h.max()),
    )
}

/// The order of the table's rows.
const TABLE_ORDER: &[&str] = &[
    "scenario",
    "peer",
    "target",
    "sessions",
    "customers",
    "agents",
    "offered_rate",
    "duration_secs",
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "max_ms",
    "delivered_per_sec",
    "delivered",
    "expected",
    "lost",
    "duplicates",
    "errors",
    "ack_p50_ms",
    "ack_p99_ms",
    "connected",
    "dropped",
    "reconnected",
    "rss_before_bytes",
    "rss_after_bytes",
    "rss_per_session_bytes",
    "mean_frame_bytes",
    "delivered_p50_ms",
    "delivered_p99_ms",
    "read_p50_ms",
    "read_p99_ms",
    "job_finished",
    "rate_deviation_pct",
    "worst_1s_deviation_pct",
    "worst_10s_deviation_pct",
];

/// One rate step of `fanout`.
#[derive(Serialize, Debug, Clone)]
pub struct Step {
    pub offered_rate: f64,
    pub published: u64,
    pub delivered_per_sec: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub lost: u64,
    pub duplicates: u64,
    pub errors: u64,
}

/// One measured request of `big-inbox`: the same GET repeated, its latency percentiles.
#[derive(Serialize, Debug, Clone)]
pub struct QueryTiming {
    pub name: String,
    pub path: String,
    /// Untimed requests before the timed ones.
    pub warm_up: u64,
    pub requests: u64,
    /// Items in the answer (conversations, search results or messages).
    pub results: usize,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub errors: u64,
}

/// What a run reports; the table and `--json` show the same fields.
#[derive(Serialize, Debug, Clone, Default)]
pub struct Report {
    pub scenario: String,
    pub peer: String,
    pub target: String,
    pub sessions: usize,
    pub customers: usize,
    pub agents: usize,
    pub offered_rate: f64,
    pub duration_secs: f64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub delivered_per_sec: f64,
    pub delivered: u64,
    pub expected: u64,
    pub lost: u64,
    pub duplicates: u64,
    pub errors: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_p50_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_p99_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connected: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<u64>,
    /// Cluster: dropped sessions that reconnected to the other node and resumed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconnected: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rss_before_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rss_after_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rss_per_session_bytes: Option<u64>,
    /// Fanout: the mean size of the frames that carried messages to the sessions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_frame_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivered_p50_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivered_p99_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_p50_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_p99_ms: Option<f64>,
    /// Bulk: whether the job reported itself finished within three times its planned time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job_finished: Option<bool>,
    /// Bulk: achieved rate against the configured one, in %, over the whole job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_deviation_pct: Option<f64>,
    /// Bulk: the largest deviation of any window of at least 1 s between progress events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst_1s_deviation_pct: Option<f64>,
    /// Bulk: the same over windows of at least 10 s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst_10s_deviation_pct: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<QueryTiming>,
}

impl Report {
    pub fn set_latency(&mut self, h: &Histogram<u64>) {
        (self.p50_ms, self.p90_ms, self.p99_ms, self.max_ms) = percentiles(h);
    }

    /// The figures of a run measured as one phase: latency, acks and the delivery counts.
    pub fn set_phase(&mut self, phase: &Phase) {
        self.set_latency(&phase.latency_snapshot());
        let (ack50, _, ack99, _) = percentiles(&phase.ack_snapshot());
        self.ack_p50_ms = Some(ack50);
        self.ack_p99_ms = Some(ack99);
        self.delivered = phase.delivered.load(Ordering::Relaxed);
        self.expected = phase.expected.load(Ordering::Relaxed);
        self.lost = phase.lost();
        self.duplicates = phase.duplicates.load(Ordering::Relaxed);
        self.errors = phase.errors.load(Ordering::Relaxed);
    }

    /// A two-column table of every figure, then the fanout steps.
    pub fn table(&self) -> String {
        let mut out = String::new();
        if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(self) {
            // Field order, not the map's alphabetical one.
            let order: Vec<&str> = TABLE_ORDER
                .iter()
                .copied()
                .filter(|k| map.contains_key(*k))
                .collect();
            for (key, value) in order.iter().filter_map(|k| map.get_key_value(*k)) {
                let value = match value {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                out.push_str(&format!("{key:<24} {value}\n"));
            }
        }
        if !self.steps.is_empty() {
            out.push_str(&format!(
                "\n{:>10} {:>10} {:>14} {:>9} {:>9} {:>9} {:>9} {:>6} {:>5}\n",
                "rate/s",
                "published",
                "delivered/s",
                "p50 ms",
                "p90 ms",
                "p99 ms",
                "max ms",
                "lost",
                "dup"
            ));
            for s in &self.steps {
                out.push_str(&format!(
                    "{:>10.0} {:>10} {:>14.0} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>6} {:>5}\n",
                    s.offered_rate,
                    s.published,
                    s.delivered_per_sec,
                    s.p50_ms,
                    s.p90_ms,
                    s.p99_ms,
                    s.max_ms,
                    s.lost,
                    s.duplicates
                ));
            }
        }
        if !self.queries.is_empty() {
            out.push_str(&format!(
                "\n{:<22} {:>8} {:>7} {:>9} {:>9} {:>9} {:>9} {:>6}\n",
                "request", "requests", "results", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors"
            ));
            for q in &self.queries {
                out.push_str(&format!(
                    "{:<22} {:>8} {:>7} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>6}\n",
                    q.name, q.requests, q.results, q.p50_ms, q.p90_ms, q.p99_ms, q.max_ms, q.errors
                ));
            }
        }
        out
    }
}
