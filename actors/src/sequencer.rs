//! Puts each business's events back in `seq` order before the hub routes them. Conversation
//! actors commit in seq order but may reach the hub in another (and other nodes' notices may be
//! lost), while a client that resumes after seq N must have seen all before N. An event that
//! arrives early waits for the ones before it; after `GAP_WAIT` the hub reads the missing ones
//! from the event log, and gives up on any the log does not have either.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::events::{Event, SharedEvent, TRANSIENT};

/// How long an out-of-order event waits for the ones before it before they are read from the
/// log (and, if the log has none of them either, it goes out anyway). A later seq is only
/// committed after the earlier ones are (each business's counter row is locked until commit), so
/// the log already has them: the wait only spares a read when their publish or another node's
/// notice is on its way (docs/decisions/0041-a-shorter-gap-wait.md).
pub(crate) const GAP_WAIT: Duration = Duration::from_millis(100);

/// A read of the log that fills one business's gap.
pub(crate) struct GapRead {
    /// Whose log to read.
    pub business: String,
    /// The last seq released in order: the read starts after it.
    pub after: i64,
    /// The last seq waiting: the read stops there, and gives up on the rest of the gap.
    pub last: i64,
}

/// Every business's order on this node.
#[derive(Default)]
pub(crate) struct Sequencers(HashMap<String, Sequencer>);

impl Sequencers {
    /// Continues each business's log after the given last seqs (a business not named starts at
    /// seq 1).
    pub fn resuming(last_seqs: HashMap<String, i64>) -> Sequencers {
        Sequencers(
            last_seqs
                .into_iter()
                .map(|(business, seq)| (business, Sequencer::after(seq)))
                .collect(),
        )
    }

    /// Events ready to go out, in order, now that `event` came.
    pub fn accept(&mut self, event: Event) -> Vec<Arc<SharedEvent>> {
        self.0
            .entry(event.business_id.clone())
            .or_insert_with(|| Sequencer::after(0))
            .accept(Arc::new(SharedEvent::new(event)))
    }

    /// The gaps that have waited `GAP_WAIT`, with no read under way; each counts as being read
    /// from now on.
    pub fn stale_gaps(&mut self) -> Vec<GapRead> {
        self.0
            .iter_mut()
            .filter(|(_, sequencer)| sequencer.stale())
            .filter_map(|(business, sequencer)| {
                let (&last, _) = sequencer.waiting.iter().next_back()?;
                sequencer.filling = true;
                Some(GapRead {
                    business: business.clone(),
                    after: sequencer.next - 1,
                    last,
                })
            })
            .collect()
    }

    /// The last seq a business released in order (a catch-up reads the log after it).
    pub fn released(&self, business: &str) -> Option<i64> {
        Some(self.0.get(business)?.next - 1)
    }

    /// Takes the events a read of the log found for `business`: those not released yet (and up
    /// to `last`, for a gap read, which then gives up on the rest of its gap). Answers the events
    /// ready to go out, in order.
    pub fn logged(
        &mut self,
        business: &str,
        events: Vec<Event>,
        last: Option<i64>,
    ) -> Vec<Arc<SharedEvent>> {
        let Some(sequencer) = self.0.get_mut(business) else {
            return Vec::new();
        };
        let mut ready = Vec::new();
        for event in events {
            // `next` moves on as events are taken: one already routed is skipped.
            if event.seq >= sequencer.next && last.is_none_or(|last| event.seq <= last) {
                ready.extend(sequencer.accept(Arc::new(SharedEvent::new(event))));
            }
        }
        if last.is_some() {
            sequencer.filling = false;
            ready.extend(sequencer.give_up());
        }
        ready
    }
}

/// One business's order.
struct Sequencer {
    /// The seq due next. Known from the start (the log's counter when the hub started, else 1),
    /// so even the first events after a start wait for the ones before them.
    next: i64,
    /// Events that came before their turn, by seq.
    waiting: BTreeMap<i64, Arc<SharedEvent>>,
    /// Since when events wait (none: nothing waits); after `GAP_WAIT` the gap is read.
    waiting_since: Option<Instant>,
    /// The missing events are being read from the log.
    filling: bool,
}

impl Sequencer {
    /// For a business whose last logged event is `seq` (0: none yet).
    fn after(seq: i64) -> Sequencer {
        Sequencer {
            next: seq + 1,
            waiting: BTreeMap::new(),
            waiting_since: None,
            filling: false,
        }
    }

    /// Events ready to go out, in order.
    fn accept(&mut self, event: Arc<SharedEvent>) -> Vec<Arc<SharedEvent>> {
        let seq = event.event.seq;
        if seq == TRANSIENT {
            return vec![event];
        }
        if seq > self.next {
            self.waiting.insert(seq, event);
            self.waiting_since.get_or_insert_with(Instant::now);
            return Vec::new();
        }
        if seq < self.next {
            // A straggler, given up on earlier: late rather than never.
            return vec![event];
        }
        self.next = seq + 1;
        let mut ready = vec![event];
        self.drain_consecutive(&mut ready);
        ready
    }

    fn drain_consecutive(&mut self, ready: &mut Vec<Arc<SharedEvent>>) {
        while let Some(event) = self.waiting.remove(&self.next) {
            self.next += 1;
            ready.push(event);
        }
        if self.waiting.is_empty() {
            self.waiting_since = None;
        }
    }

    /// Whether events have waited `GAP_WAIT` for a missing one, with no read of it under way.
    fn stale(&self) -> bool {
        !self.filling
            && self
                .waiting_since
                .is_some_and(|since| since.elapsed() >= GAP_WAIT)
    }

    /// Gives up on the missing events: releases what waits, from the first on.
    fn give_up(&mut self) -> Vec<Arc<SharedEvent>> {
        let mut ready = Vec::new();
        if let Some((&first, _)) = self.waiting.iter().next() {
            self.next = first;
            self.drain_consecutive(&mut ready);
            self.waiting_since = (!self.waiting.is_empty()).then(Instant::now);
        }
        ready
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(seq: i64) -> Arc<SharedEvent> {
        Arc::new(SharedEvent::new(Event {
            business_id: "b".into(),
            seq,
            channels: vec!["c".into()],
            name: "n".into(),
            data: crate::events::event_data(&json!({})),
        }))
    }

    #[test]
    fn sequencer_holds_an_early_event_until_the_gap_fills() {
        let mut seq = Sequencer::after(0);
        assert_eq!(seq.accept(event(1)).len(), 1);
        assert!(seq.accept(event(3)).is_empty());
        let out: Vec<i64> = seq.accept(event(2)).iter().map(|e| e.event.seq).collect();
        assert_eq!(out, vec![2, 3]);
    }

    #[test]
    fn sequencer_counts_a_gap_stale_after_the_wait_and_gives_it_up() {
        let mut seq = Sequencer::after(0);
        seq.accept(event(1));
        assert!(seq.accept(event(3)).is_empty());
        assert!(!seq.stale());
        seq.waiting_since = Some(Instant::now() - GAP_WAIT);
        assert!(seq.stale());
        let out: Vec<i64> = seq.give_up().iter().map(|e| e.event.seq).collect();
        assert_eq!(out, vec![3]);
        assert!(!seq.stale());
        assert_eq!(seq.accept(event(4)).len(), 1);
    }

    #[test]
    fn sequencer_holds_even_the_first_events_after_a_start_until_the_earlier_ones_arrive() {
        let mut seq = Sequencer::after(5);
        assert!(seq.accept(event(7)).is_empty());
        let out: Vec<i64> = seq.accept(event(6)).iter().map(|e| e.event.seq).collect();
        assert_eq!(out, vec![6, 7]);
    }
}
