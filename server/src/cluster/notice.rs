//! What one node tells the others, and how it fits Postgres's notice payloads
//! (docs/decisions/0023-cross-node-delivery.md): a commit's logged events travel whole, as many a
//! payload as fit, so the other nodes hand them on without reading the log; an event too large
//! for a payload is announced by its seq and read from the log.

use std::collections::BTreeMap;

use parley_actors::events::{Event, TRANSIENT};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Longest payload Postgres takes is 8000 bytes; kept under it.
const MAX_PAYLOAD: usize = 7900;

/// What one node tells the others.
#[derive(Serialize, Deserialize, Debug)]
pub(super) struct Notice {
    /// The sending node, which skips its own notices.
    pub node: String,
    pub business_id: String,
    pub what: Published,
}

/// Externally tagged (`{"events": …}`): an internally tagged enum cannot hold raw JSON.
#[derive(Serialize, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
pub(super) enum Published {
    /// Logged events of the business, whole and in seq order: the other nodes need no read.
    Events(Vec<Carried>),
    /// Logged events `first..=last` too large to carry: the other nodes read them from the log.
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

/// A logged event inside a notice (its business is the notice's).
#[derive(Serialize, Deserialize, Debug)]
pub(super) struct Carried {
    seq: i64,
    channels: Vec<String>,
    name: String,
    data: Box<RawValue>,
}

impl Carried {
    fn of(event: &Event) -> Carried {
        Carried {
            seq: event.seq,
            channels: event.channels.clone(),
            name: event.name.clone(),
            data: event.data.clone(),
        }
    }

    pub(super) fn into_event(self, business_id: &str) -> Event {
        Event {
            business_id: business_id.to_string(),
            seq: self.seq,
            channels: self.channels,
            name: self.name,
            data: self.data,
        }
    }
}

/// What a publish tells the other nodes, per business: queued as is, serialized by the notifier
/// (off the publishing thread, the group-commit writer's).
pub(super) type Notified = (String, Published);

/// What a publish tells the other nodes: each business's logged events in seq order, each
/// transient event on its own.
pub(super) fn published(events: &[Event]) -> Vec<Notified> {
    let mut logged: BTreeMap<&str, Vec<Carried>> = BTreeMap::new();
    let mut notices = Vec::new();
    for event in events {
        if event.seq != TRANSIENT {
            logged
                .entry(&event.business_id)
                .or_default()
                .push(Carried::of(event));
            continue;
        }
        let transient = Published::Transient {
            channels: event.channels.clone(),
            name: event.name.clone(),
            data: event.data.clone(),
        };
        notices.push((event.business_id.clone(), transient));
    }
    for (business_id, mut events) in logged {
        events.sort_unstable_by_key(|event| event.seq);
        notices.push((business_id.to_string(), Published::Events(events)));
    }
    notices
}

/// The JSON payloads of notices from `node`, each under Postgres's limit: logged events in as few
/// payloads as hold them, one too large for a payload announced by its seq; a transient event
/// too large stays on its node.
pub(super) fn payloads(node: &str, notices: Vec<Notified>) -> Vec<String> {
    let mut payloads = Vec::new();
    for (business_id, what) in notices {
        let notice = |what| Notice {
            node: node.to_string(),
            business_id: business_id.clone(),
            what,
        };
        match what {
            Published::Events(events) => {
                for what in fitted(&notice(Published::Events(Vec::new())), events) {
                    payloads.extend(payload(&notice(what)));
                }
            }
            what => payloads.extend(payload(&notice(what))),
        }
    }
    payloads
}

/// A notice's payload, unless it is too large to send.
fn payload(notice: &Notice) -> Option<String> {
    let payload = serde_json::to_string(notice).ok()?;
    if payload.len() > MAX_PAYLOAD {
        tracing::debug!("transient event too large to share");
        return None;
    }
    Some(payload)
}

/// Splits a business's events into notices that fit a payload once wrapped like `empty`: runs of
/// events whole, and each event too large on its own as a `Logged` seq.
fn fitted(empty: &Notice, events: Vec<Carried>) -> Vec<Published> {
    let room = MAX_PAYLOAD.saturating_sub(serde_json::to_string(empty).map_or(0, |e| e.len()));
    let mut fitted = Vec::new();
    let (mut run, mut used) = (Vec::new(), 0);
    for event in events {
        // The event's JSON and the comma before it.
        let size = serde_json::to_string(&event).map_or(usize::MAX, |e| e.len() + 1);
        if used + size > room && !run.is_empty() {
            fitted.push(Published::Events(std::mem::take(&mut run)));
            used = 0;
        }
        if size > room {
            let seq = event.seq;
            fitted.push(Published::Logged {
                first: seq,
                last: seq,
            });
            continue;
        }
        used += size;
        run.push(event);
    }
    if !run.is_empty() {
        fitted.push(Published::Events(run));
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use parley_actors::events::event_data;
    use serde_json::json;

    fn event(business_id: &str, seq: i64, text: &str) -> Event {
        Event {
            business_id: business_id.into(),
            seq,
            channels: vec!["notifications/all".into()],
            name: "notification".into(),
            data: event_data(&json!({"text": text})),
        }
    }

    fn read(payload: &str) -> Notice {
        serde_json::from_str(payload).expect("a notice")
    }

    /// A payload's business and what it holds: the seqs carried, or a `Logged` range.
    type Contents = (String, Result<Vec<i64>, (i64, i64)>);

    fn contents(payloads: &[String]) -> Vec<Contents> {
        payloads
            .iter()
            .map(|payload| {
                assert!(payload.len() <= MAX_PAYLOAD, "{} bytes", payload.len());
                let notice = read(payload);
                assert_eq!(notice.node, "n1");
                let what = match notice.what {
                    Published::Events(events) => Ok(events.iter().map(|e| e.seq).collect()),
                    Published::Logged { first, last } => Err((first, last)),
                    other => panic!("not logged: {other:?}"),
                };
                (notice.business_id, what)
            })
            .collect()
    }

    #[test]
    fn a_publish_carries_each_business_s_events_in_seq_order_in_one_notice() {
        let events = [
            event("b", 8, "x"),
            event("a", 3, "x"),
            event("b", 7, "x"),
            event("a", 4, "x"),
            event("b", 10, "x"),
        ];
        let payloads = payloads("n1", published(&events));
        assert_eq!(
            contents(&payloads),
            vec![
                ("a".into(), Ok(vec![3, 4])),
                ("b".into(), Ok(vec![7, 8, 10])),
            ]
        );
        let Published::Events(carried) = read(&payloads[0]).what else {
            panic!("not carried");
        };
        let first = carried
            .into_iter()
            .next()
            .expect("an event")
            .into_event("a");
        assert_eq!(first.business_id, "a");
        assert_eq!(first.channels, vec!["notifications/all"]);
        assert_eq!(first.name, "notification");
        assert_eq!(first.data.get(), r#"{"text":"x"}"#);
    }

    #[test]
    fn events_too_many_for_one_payload_are_split_and_one_too_large_is_announced_by_its_seq() {
        let mut events: Vec<Event> = (1..=40)
            .map(|seq| event("a", seq, &"m".repeat(500)))
            .collect();
        events[19] = event("a", 20, &"é".repeat(4000));
        let contents = contents(&payloads("n1", published(&events)));
        assert!(contents.len() > 3, "{contents:?}");
        assert!(
            contents.contains(&("a".into(), Err((20, 20)))),
            "{contents:?}"
        );
        let carried: Vec<i64> = contents
            .into_iter()
            .flat_map(|(_, what)| what.unwrap_or_default())
            .collect();
        let expected: Vec<i64> = (1..=40).filter(|&seq| seq != 20).collect();
        assert_eq!(carried, expected);
    }

    #[test]
    fn a_transient_event_travels_whole() {
        let mut progress = event("a", TRANSIENT, "x");
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
        assert_eq!(data.get(), r#"{"text":"x"}"#);
    }
}
