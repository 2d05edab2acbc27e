//! The publishing side: one marked message (or a batch) posted as a signed webhook to Parley or
//! as a raw body to nchan, with the deliveries it makes the phase expect.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::client::{self, Api, Business, Inbound, marker, unix_nanos};
use crate::report::Phase;

/// Where nchan messages go, and the size each is padded to (0: the bare marker).
#[derive(Default)]
pub(super) struct NchanChannel {
    pub(super) name: String,
    pub(super) frame_bytes: usize,
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
pub(super) async fn publish_marked(
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

#[cfg(test)]
mod tests {
    use super::NchanChannel;
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
}
