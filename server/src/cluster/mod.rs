//! Events across nodes that share one Postgres (docs/decisions/0003-events-across-nodes.md,
//! 0023-cross-node-delivery.md).
//!
//! Each node publishes the events it commits to its own hub at once, as a single node does, and
//! then tells the other nodes with a `NOTIFY` sent after the commit, on a pooled connection and
//! never inside an insert transaction (a `NOTIFY` there would serialise commits). The notice
//! carries the events themselves when they fit its payload, else names the business and the
//! seqs; each node `LISTEN`s and hands another node's events to its hub (reading from the log
//! only those a notice could not carry), whose sequencer merges them with its own in seq order.
//! A revocation travels the same way: each node takes in the user's new token version and closes
//! the user's sessions.
//!
//! - `notice`: what a notice holds and how a commit's events fit payloads
//! - `receive`: reading other nodes' notices and handing them to the hub

use std::sync::Arc;
use std::time::Duration;

use actix::Addr;
use parley_actors::events::Event;
use parley_actors::hub::{EventBus, Hub, InProcessBus, Revocation};
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use crate::auth::token_versions::TokenVersions;
use crate::metrics::{self, NoticeDirection};
use crate::store::Store;
use notice::{Notified, Published, payloads, published};

mod notice;
mod receive;

/// The Postgres notification channel.
const CHANNEL: &str = "parley_events";
/// Notices sent in one round of the notifier.
const MAX_ROUND: usize = 1000;
/// Wait before listening again after the listener's connection failed.
const RETRY: Duration = Duration::from_secs(1);

/// The bus of a node that shares its database with others.
pub struct ClusterBus {
    local: InProcessBus,
    notices: mpsc::UnboundedSender<Vec<Notified>>,
}

impl EventBus for ClusterBus {
    fn publish(&self, events: Vec<Event>) {
        let notices = published(&events);
        self.local.publish(events);
        if !notices.is_empty() {
            // Only fails once the runtime stops.
            let _ = self.notices.send(notices);
        }
    }

    fn revoke(&self, revocation: Revocation) {
        let notice = Published::Revoked {
            user_id: revocation.user_id.clone(),
            version: revocation.version,
        };
        let business_id = revocation.business_id.clone();
        self.local.revoke(revocation);
        // Only fails once the runtime stops.
        let _ = self.notices.send(vec![(business_id, notice)]);
    }
}

/// Starts listening for other nodes' notices (before the hub reads where each business's log
/// stands, so no commit falls between the two); `join` then connects the hub.
pub async fn listen(database_url: &str) -> anyhow::Result<PgListener> {
    let mut listener = PgListener::connect(database_url).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// The node's bus, with its notifier and its listener running.
pub fn join(
    store: Store,
    hub: Addr<Hub>,
    versions: Arc<TokenVersions>,
    listener: PgListener,
    node: String,
) -> ClusterBus {
    let (notices, queue) = mpsc::unbounded_channel();
    actix_web::rt::spawn(notify(store.clone(), node.clone(), queue));
    let other_nodes = receive::OtherNodes {
        store,
        hub: hub.clone(),
        versions,
    };
    receive::start(other_nodes, listener, node);
    ClusterBus {
        local: InProcessBus(hub),
        notices,
    }
}

/// Sends the queued notices, as many as are waiting in each round.
async fn notify(store: Store, node: String, mut queue: mpsc::UnboundedReceiver<Vec<Notified>>) {
    let mut rounds = Vec::new();
    while queue.recv_many(&mut rounds, MAX_ROUND).await > 0 {
        let payloads = payloads(&node, rounds.drain(..).flatten().collect());
        match store.notify(CHANNEL, &payloads).await {
            Ok(()) => metrics::cluster_notices(NoticeDirection::Sent, payloads.len()),
            Err(err) => {
                metrics::cluster_notices(NoticeDirection::Failed, payloads.len());
                // The events are committed: other nodes' clients get them on their next resume.
                tracing::warn!(error = %err, notices = payloads.len(), "other nodes not told of events");
            }
        }
    }
}
