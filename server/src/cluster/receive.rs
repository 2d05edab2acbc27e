//! Other nodes' notices on this node: one task reads them off the listening connection, another
//! hands each burst of them to the hub at once, reading from the log only the events a notice
//! could not carry (once per business and burst).

use std::collections::BTreeMap;
use std::sync::Arc;

use actix::Addr;
use parley_actors::events::{Event, TRANSIENT};
use parley_actors::hub::{CatchUp, Hub, Publish, Revocation};
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use super::RETRY;
use super::notice::{Notice, Published};
use crate::auth::token_versions::TokenVersions;
use crate::metrics::{self, NoticeDirection};
use crate::store::Store;

/// Most notices handed to the hub together.
const MAX_BURST: usize = 1000;

/// What other nodes' notices reach on this node.
pub(super) struct OtherNodes {
    pub store: Store,
    pub hub: Addr<Hub>,
    pub versions: Arc<TokenVersions>,
}

/// Starts the reading and the handing on of other nodes' notices.
pub(super) fn start(nodes: OtherNodes, listener: PgListener, node: String) {
    let (notices, burst) = mpsc::unbounded_channel();
    let reader = Reader {
        hub: nodes.hub.clone(),
        versions: nodes.versions.clone(),
        node,
        notices,
    };
    // On the runtime itself, not actix's local task set: the listener's drop spawns a task to
    // release its connection, which needs the runtime still there when the set is dropped.
    tokio::spawn(reader.run(listener));
    tokio::spawn(hand_on(nodes, burst));
}

/// Reads the listening connection.
struct Reader {
    hub: Addr<Hub>,
    versions: Arc<TokenVersions>,
    /// This node: its own notices are skipped.
    node: String,
    notices: mpsc::UnboundedSender<Notice>,
}

impl Reader {
    /// Queues other nodes' notices in the order they came, until the node stops.
    async fn run(self, mut listener: PgListener) {
        loop {
            let notification = match listener.try_recv().await {
                Ok(Some(notification)) => notification,
                Ok(None) => {
                    tracing::warn!("event listener reconnecting");
                    self.catch_up_later();
                    continue;
                }
                Err(err) => {
                    tracing::warn!(error = %err, "event listener failed");
                    tokio::time::sleep(RETRY).await;
                    self.catch_up_later();
                    continue;
                }
            };
            let notice: Notice = match serde_json::from_str(notification.payload()) {
                Ok(notice) => notice,
                Err(err) => {
                    tracing::warn!(error = %err, "unreadable event notice ignored");
                    continue;
                }
            };
            if notice.node != self.node && self.notices.send(notice).is_err() {
                return;
            }
        }
    }

    /// Notices sent while the listener was not connected are lost: once it listens again (it
    /// reconnects on its next read, within `RETRY` unless Postgres is down), the hub reads the
    /// log past what it routed for the businesses with sessions here, and token versions are
    /// read afresh. Events those notices announced and that are followed by others are read
    /// anyway, when the hub finds the gap.
    fn catch_up_later(&self) {
        self.versions.forget_all();
        let hub = self.hub.clone();
        tokio::spawn(async move {
            tokio::time::sleep(RETRY).await;
            hub.do_send(CatchUp);
        });
    }
}

/// Hands each burst of notices to the hub: the events they carry, those they only announce (read
/// from the log, one read per business), and revocations.
async fn hand_on(nodes: OtherNodes, mut queued: mpsc::UnboundedReceiver<Notice>) {
    let mut burst = Vec::new();
    while queued.recv_many(&mut burst, MAX_BURST).await > 0 {
        metrics::cluster_notices(NoticeDirection::Received, burst.len());
        let mut events = Vec::new();
        let mut announced: BTreeMap<String, Vec<(i64, i64)>> = BTreeMap::new();
        for Notice {
            business_id, what, ..
        } in burst.drain(..)
        {
            match what {
                Published::Events(carried) => {
                    events.extend(carried.into_iter().map(|e| e.into_event(&business_id)));
                }
                Published::Logged { first, last } => {
                    announced
                        .entry(business_id)
                        .or_default()
                        .push((first, last));
                }
                Published::Transient {
                    channels,
                    name,
                    data,
                } => events.push(Event {
                    business_id,
                    seq: TRANSIENT,
                    channels,
                    name,
                    data,
                }),
                Published::Revoked { user_id, version } => {
                    let revocation = Revocation {
                        business_id,
                        user_id,
                        version,
                    };
                    nodes.versions.revoked(&revocation);
                    nodes.hub.do_send(revocation);
                }
            }
        }
        for (business_id, ranges) in announced {
            match read_announced(&nodes.store, &business_id, &ranges).await {
                Ok(read) => events.extend(read),
                // The hub reads them when it finds the gap before the business's next event.
                Err(err) => tracing::warn!(error = %err, "another node's events not read"),
            }
        }
        if !events.is_empty() {
            nodes.hub.do_send(Publish(events));
        }
    }
}

/// A business's logged events in the announced seq ranges, in one read of the log.
async fn read_announced(
    store: &Store,
    business_id: &str,
    ranges: &[(i64, i64)],
) -> Result<Vec<Event>, sqlx::Error> {
    let first = ranges.iter().map(|&(first, _)| first).min().unwrap_or(0);
    let last = ranges.iter().map(|&(_, last)| last).max().unwrap_or(-1);
    let mut events = store.events_between(business_id, first, last).await?;
    // Only the announced: the others between them came (or come) in notices of their own.
    events.retain(|e| {
        ranges
            .iter()
            .any(|&(first, last)| (first..=last).contains(&e.seq))
    });
    Ok(events)
}
