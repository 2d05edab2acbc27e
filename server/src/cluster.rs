//! Events across nodes that share one Postgres (docs/decisions/0003-events-across-nodes.md).
//!
//! Each node publishes the events it commits to its own hub at once, as a single node does, and
//! then tells the other nodes with a `NOTIFY` sent after the commit, on a pooled connection and
//! never inside an insert transaction (a `NOTIFY` there would serialise commits). The notice
//! names the business and the seqs (one commit's events of a business are consecutive); each
//! node `LISTEN`s, reads another node's events from the log and hands them to its hub, whose
//! sequencer merges them with its own in seq order. Transient events (bulk progress) are not
//! logged, so their notice carries them whole. A revocation travels the same way: each node takes
//! in the user's new token version and closes the user's sessions.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use actix::Addr;
use parley_actors::events::{Event, TRANSIENT};
use parley_actors::hub::{CatchUp, EventBus, Hub, InProcessBus, Publish, Revocation};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use crate::auth::token_versions::TokenVersions;
use crate::metrics::{self, NoticeDirection};
use crate::store::Store;

/// The Postgres notification channel.
const CHANNEL: &str = "parley_events";
/// Longest payload Postgres takes (8000 bytes); a larger transient event stays on its node.
const MAX_PAYLOAD: usize = 7900;
/// Notices sent in one round of the notifier.
const MAX_ROUND: usize = 1000;
/// Wait before listening again after the listener's connection failed.
const RETRY: Duration = Duration::from_secs(1);

/// What one node tells the others.
#[derive(Serialize, Deserialize, Debug)]
struct Notice {
    /// The sending node, which skips its own notices.
    node: String,
    business_id: String,
    what: Published,
}

/// Externally tagged (`{"logged": …}`): an internally tagged enum cannot hold raw JSON.
#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
enum Published {
    /// Logged events `first..=last` of the business.
    Logged { first: i64, last: i64 },
    /// A transient event, whole.
    Transient {
        channels: Vec<String>,
        name: String,
        data: Box<RawValue>,
    },
    /// A user's access was revoked: their new token version (`None`: the account is gone).
    Revoked {
        user_id: String,
        version: Option<i64>,
    },
}

/// What a publish tells the other nodes, per business: queued as is, serialized by the notifier
/// (off the publishing thread, the group-commit writer's).
type Notified = (String, Published);

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

/// What a publish tells the other nodes: one notice per run of consecutive seqs of a business,
/// one per transient event.
fn published(events: &[Event]) -> Vec<Notified> {
    let mut seqs: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
    let mut notices = Vec::new();
    for event in events {
        if event.seq != TRANSIENT {
            seqs.entry(&event.business_id).or_default().push(event.seq);
            continue;
        }
        let transient = Published::Transient {
            channels: event.channels.clone(),
            name: event.name.clone(),
            data: event.data.clone(),
        };
        notices.push((event.business_id.clone(), transient));
    }
    for (business_id, mut seqs) in seqs {
        seqs.sort_unstable();
        for run in seqs.chunk_by(|a, b| b - a == 1) {
            let logged = Published::Logged {
                first: run[0],
                last: run[run.len() - 1],
            };
            notices.push((business_id.to_string(), logged));
        }
    }
    notices
}

/// The JSON payloads of notices from `node`; a transient event too large for a payload stays on
/// its node.
fn payloads(node: &str, notices: Vec<Notified>) -> Vec<String> {
    notices
        .into_iter()
        .filter_map(|(business_id, what)| {
            let notice = Notice {
                node: node.to_string(),
                business_id,
                what,
            };
            let payload = serde_json::to_string(&notice).ok()?;
            if payload.len() > MAX_PAYLOAD {
                tracing::debug!("transient event too large to share");
                return None;
            }
            Some(payload)
        })
        .collect()
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
    // On the runtime itself, not actix's local task set: the listener's drop spawns a task to
    // release its connection, which needs the runtime still there when the set is dropped.
    let other_nodes = OtherNodes {
        store,
        hub: hub.clone(),
        versions,
    };
    tokio::spawn(receive(other_nodes, listener, node));
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

/// What other nodes' notices reach on this node.
struct OtherNodes {
    store: Store,
    hub: Addr<Hub>,
    versions: Arc<TokenVersions>,
}

/// Hands other nodes' events to this node's hub, in the order of their notices.
async fn receive(nodes: OtherNodes, mut listener: PgListener, node: String) {
    let OtherNodes {
        store,
        hub,
        versions,
    } = nodes;
    loop {
        let notification = match listener.try_recv().await {
            Ok(Some(notification)) => notification,
            Ok(None) => {
                tracing::warn!("event listener reconnecting");
                versions.forget_all();
                catch_up_later(&hub);
                continue;
            }
            Err(err) => {
                tracing::warn!(error = %err, "event listener failed");
                tokio::time::sleep(RETRY).await;
                versions.forget_all();
                catch_up_later(&hub);
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
        if notice.node == node {
            continue;
        }
        metrics::cluster_notices(NoticeDirection::Received, 1);
        let events = match notice.what {
            Published::Logged { first, last } => {
                match store.events_between(&notice.business_id, first, last).await {
                    Ok(events) => events,
                    Err(err) => {
                        tracing::warn!(error = %err, "another node's events not read");
                        continue;
                    }
                }
            }
            Published::Transient {
                channels,
                name,
                data,
            } => vec![Event {
                business_id: notice.business_id,
                seq: TRANSIENT,
                channels,
                name,
                data,
            }],
            Published::Revoked { user_id, version } => {
                let revocation = Revocation {
                    business_id: notice.business_id,
                    user_id,
                    version,
                };
                versions.revoked(&revocation);
                hub.do_send(revocation);
                continue;
            }
        };
        hub.do_send(Publish(events));
    }
}

/// Notices sent while the listener was not connected are lost: once it listens again (it
/// reconnects on its next read, within `RETRY` unless Postgres is down), the hub reads the log
/// past what it routed for the businesses with sessions here. Events those notices announced
/// and that are followed by others are read anyway, when the hub finds the gap.
fn catch_up_later(hub: &Addr<Hub>) {
    let hub = hub.clone();
    tokio::spawn(async move {
        tokio::time::sleep(RETRY).await;
        hub.do_send(CatchUp);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use parley_actors::events::event_data;
    use serde_json::json;

    fn event(business_id: &str, seq: i64) -> Event {
        Event {
            business_id: business_id.into(),
            seq,
            channels: vec!["notifications/all".into()],
            name: "notification".into(),
            data: event_data(&json!({"seq": seq})),
        }
    }

    fn read(payload: &str) -> Notice {
        serde_json::from_str(payload).expect("a notice")
    }

    #[test]
    fn a_publish_becomes_one_notice_per_run_of_seqs_of_each_business() {
        let events = [
            event("b", 7),
            event("a", 3),
            event("b", 8),
            event("a", 4),
            event("b", 10),
        ];
        let read: Vec<(String, String, i64, i64)> = payloads("n1", published(&events))
            .iter()
            .map(|payload| match read(payload) {
                Notice {
                    node,
                    business_id,
                    what: Published::Logged { first, last },
                } => (node, business_id, first, last),
                other => panic!("not logged: {other:?}"),
            })
            .collect();
        let logged = |business: &str, first, last| ("n1".into(), business.into(), first, last);
        assert_eq!(
            read,
            vec![logged("a", 3, 4), logged("b", 7, 8), logged("b", 10, 10)]
        );
    }

    #[test]
    fn a_transient_event_travels_whole() {
        let mut progress = event("a", TRANSIENT);
        progress.name = "bulk_send_progress".into();
        let payloads = payloads("n1", published(&[progress]));
        assert_eq!(payloads.len(), 1);
        let notice = read(&payloads[0]);
        assert_eq!(notice.business_id, "a");
        let Published::Transient {
            channels,
            name,
            data,
        } = notice.what
        else {
            panic!("not transient: {:?}", notice.what);
        };
        assert_eq!(channels, vec!["notifications/all"]);
        assert_eq!(name, "bulk_send_progress");
        assert_eq!(data.get(), r#"{"seq":0}"#);
    }
}
