//! The receiving side: subscriber sessions opened from spread source addresses, each crediting
//! the marked messages it reads to their phase.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use futures_util::StreamExt;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use super::run::Run;
use crate::cli::Peer;
use crate::client::{self, Business, Ws, parse_marker, unix_nanos};
use crate::report::Phase;

/// Sessions opened at once while a scenario sets up its subscribers.
const SETUP_CONCURRENCY: usize = 256;

/// Reads a session's frames until `stop`, crediting each marked message once to its phase.
pub(super) fn spawn_receiver(
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
                        credit(text, &phases, &mut seen);
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

/// Credits the marked message a frame carries to its phase: a delivery the first time the
/// session sees it, a duplicate after that.
pub(super) fn credit(text: &str, phases: &[Phase], seen: &mut Seen) {
    let Some((step, index, scheduled)) = parse_marker(text) else {
        return;
    };
    let Some(phase) = phases.get(step as usize) else {
        return;
    };
    if seen.insert(step, index) {
        phase.record(unix_nanos().saturating_sub(scheduled) / 1000);
        phase.bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
    } else {
        phase.duplicates.fetch_add(1, Ordering::Relaxed);
    }
}

/// The messages a session has seen: a bit per message index, per step. All sessions see the
/// same messages, so a hash set per session would grow (and rehash) in all of them at the same
/// moment, a stall of the generator that the figures would charge to the server.
#[derive(Default)]
pub(super) struct Seen(Vec<Vec<u64>>);

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
pub(super) async fn drain(phase: &Phase, limit: Duration) {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline
        && phase.delivered.load(Ordering::Relaxed) < phase.expected.load(Ordering::Relaxed)
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Opens `count` subscriber sessions, `SETUP_CONCURRENCY` at a time.
pub(super) async fn open_subscribers(
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
pub(super) fn source_addr(n: usize, k: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1 + (n % k as usize) as u8))
}

#[cfg(test)]
mod tests {
    use super::Seen;

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
