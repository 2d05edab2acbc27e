//! What Parley counts for Prometheus. Every metric's name is defined here once and recorded by
//! the named function below, called once where the thing happens; `/metrics` (`api::metrics`)
//! renders them with the exporter. The recorder is the process's global one, installed once:
//! several servers in one process (the tests) share it.
//!
//! The actors crate records the connected sessions itself, through the same facade
//! (`parley_actors::session::SESSIONS_CONNECTED`).

use std::net::IpAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use ::metrics::{
    Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram,
};
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use ipnet::IpNet;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use parley_actors::session::SESSIONS_CONNECTED;

const HTTP_REQUESTS: &str = "parley_http_requests_total";
const HTTP_DURATION: &str = "parley_http_request_duration_seconds";
const MESSAGES_INGESTED: &str = "parley_webhook_messages_ingested_total";
const BATCH_SIZE: &str = "parley_group_commit_batch_size";
const BATCH_DURATION: &str = "parley_group_commit_duration_seconds";
const OUTBOX_DEPTH: &str = "parley_outbox_depth";
const OUTBOX_RETRIES: &str = "parley_outbox_retries_total";
const BULK_JOBS: &str = "parley_bulk_jobs_total";
const PUSH_QUEUE: &str = "parley_push_queue_length";
const PUSH_FAILURES: &str = "parley_push_failures_total";
const CLUSTER_NOTICES: &str = "parley_cluster_notices_total";

/// Request latency buckets, in seconds: from a cached read to a slow provider call.
const LATENCY_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];
/// Group-commit batch sizes: one write up to the writer's cap of 512.
const BATCH_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];
/// How often histograms' recent samples are folded in when nobody scrapes.
const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);

/// Path label of a request that matched no route: never the raw path, which may hold ids.
const UNMATCHED: &str = "unmatched";

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use, with its upkeep thread.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(HTTP_DURATION.into()), &LATENCY_BUCKETS)
            .and_then(|b| {
                b.set_buckets_for_metric(Matcher::Full(BATCH_SIZE.into()), &BATCH_BUCKETS)
            })
            .and_then(|b| {
                b.set_buckets_for_metric(Matcher::Full(BATCH_DURATION.into()), &LATENCY_BUCKETS)
            })
            // Only an empty bucket list is refused, and these are constant and full.
            .unwrap_or_else(|_| PrometheusBuilder::new())
            .build_recorder();
        let handle = recorder.handle();
        if ::metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder was installed first: /metrics stays empty");
        }
        describe();
        let upkeep = handle.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(UPKEEP_INTERVAL);
                upkeep.run_upkeep();
            }
        });
        handle
    })
}

fn describe() {
    describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by route pattern and status"
    );
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "HTTP request latency by route pattern"
    );
    describe_counter!(
        MESSAGES_INGESTED,
        "Customer messages from the webhook stored for the first time"
    );
    describe_histogram!(
        BATCH_SIZE,
        Unit::Count,
        "Writes per group-commit transaction"
    );
    describe_histogram!(
        BATCH_DURATION,
        Unit::Seconds,
        "Time from taking a group-commit batch to its commit"
    );
    describe_gauge!(
        OUTBOX_DEPTH,
        Unit::Count,
        "Outgoing messages waiting for the provider"
    );
    describe_counter!(
        OUTBOX_RETRIES,
        "Sends rescheduled after a failure worth retrying"
    );
    describe_counter!(
        BULK_JOBS,
        "Bulk send jobs by outcome (started, finished, failed)"
    );
    describe_gauge!(
        SESSIONS_CONNECTED,
        Unit::Count,
        "Connected WebSocket and SSE sessions"
    );
    describe_gauge!(
        PUSH_QUEUE,
        Unit::Count,
        "Web Push notifications waiting for the sender"
    );
    describe_counter!(
        PUSH_FAILURES,
        "Web Push notifications dropped or not delivered"
    );
    describe_counter!(CLUSTER_NOTICES, "Event notices between nodes, by direction");
}

/// Middleware: counts each answer by method, route pattern and status, and times it.
pub async fn track_requests(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let response = next.call(req).await?;
    let route = response
        .request()
        .match_pattern()
        .unwrap_or_else(|| UNMATCHED.into());
    let method = method_label(response.request().method().as_str());
    let status = response.status().as_u16().to_string();
    histogram!(HTTP_DURATION, "method" => method, "route" => route.clone())
        .record(started.elapsed());
    counter!(HTTP_REQUESTS, "method" => method, "route" => route, "status" => status).increment(1);
    Ok(response)
}

/// HTTP's own methods; any other is counted as `other`.
const METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
];

/// A method as a label: a client may send any token as a method, and each new label value is
/// a new series kept for the life of the process.
fn method_label(method: &str) -> &'static str {
    METHODS
        .into_iter()
        .find(|known| *known == method)
        .unwrap_or("other")
}

/// New customer messages a webhook delivery stored.
pub fn messages_ingested(count: usize) {
    counter!(MESSAGES_INGESTED).increment(count as u64);
}

/// One group-commit transaction of `size` writes, committed `took` after the batch was taken.
pub fn batch_committed(size: usize, took: Duration) {
    histogram!(BATCH_SIZE).record(size as f64);
    histogram!(BATCH_DURATION).record(took.as_secs_f64());
}

/// Outgoing messages waiting, read when `/metrics` is scraped.
pub fn outbox_depth(waiting: i64) {
    gauge!(OUTBOX_DEPTH).set(waiting as f64);
}

/// A send rescheduled for another attempt.
pub fn outbox_retry() {
    counter!(OUTBOX_RETRIES).increment(1);
}

/// Where a bulk job stands.
#[derive(Clone, Copy)]
pub enum BulkJob {
    Started,
    Finished,
    /// Stopped by a store failure; another node or a restart resumes it.
    Failed,
}

pub fn bulk_job(outcome: BulkJob) {
    let outcome = match outcome {
        BulkJob::Started => "started",
        BulkJob::Finished => "finished",
        BulkJob::Failed => "failed",
    };
    counter!(BULK_JOBS, "outcome" => outcome).increment(1);
}

/// Notifications waiting for the push sender, read when `/metrics` is scraped.
pub fn push_queue(waiting: usize) {
    gauge!(PUSH_QUEUE).set(waiting as f64);
}

/// Why a push did not reach a browser.
#[derive(Clone, Copy)]
pub enum PushFailure {
    /// The queue was full: dropped before sending.
    Dropped,
    /// The push service refused it or could not be reached.
    NotDelivered,
}

pub fn push_failed(why: PushFailure) {
    let reason = match why {
        PushFailure::Dropped => "dropped",
        PushFailure::NotDelivered => "not_delivered",
    };
    counter!(PUSH_FAILURES, "reason" => reason).increment(1);
}

/// Notices told to, or heard from, the other nodes.
pub fn cluster_notices(direction: NoticeDirection, count: usize) {
    let direction = match direction {
        NoticeDirection::Sent => "sent",
        NoticeDirection::Received => "received",
        NoticeDirection::Failed => "failed",
    };
    counter!(CLUSTER_NOTICES, "direction" => direction).increment(count as u64);
}

#[derive(Clone, Copy)]
pub enum NoticeDirection {
    Sent,
    Received,
    /// Not sent: the other nodes learn of the events when they next read the log.
    Failed,
}

/// Whether `client` may read `/metrics`: loopback always, else only inside an allowed network.
pub fn may_scrape(client: IpAddr, allow: &[IpNet]) -> bool {
    let client = match client {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(client, IpAddr::V4),
        v4 => v4,
    };
    client.is_loopback() || allow.iter().any(|net| net.contains(&client))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().expect("a network")).collect()
    }

    #[test]
    fn loopback_may_always_scrape() {
        for client in ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"] {
            assert!(
                may_scrape(client.parse().expect("an address"), &[]),
                "{client}"
            );
        }
    }

    #[test]
    fn other_addresses_only_inside_an_allowed_network() {
        let allow = nets(&["10.1.0.0/16", "2001:db8::/32"]);
        for client in ["10.1.2.3", "2001:db8::7", "::ffff:10.1.0.9"] {
            assert!(
                may_scrape(client.parse().expect("an address"), &allow),
                "{client}"
            );
        }
        for client in ["10.2.0.1", "192.168.1.1", "2001:db9::1", "0.0.0.0"] {
            assert!(
                !may_scrape(client.parse().expect("an address"), &allow),
                "{client}"
            );
            assert!(
                !may_scrape(client.parse().expect("an address"), &[]),
                "{client}"
            );
        }
    }
}
