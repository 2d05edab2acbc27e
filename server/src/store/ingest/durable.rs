//! What a committed batch waits for before anyone hears of it: its WAL flush. The writer commits
//! a batch without waiting for the flush (on Postgres) and hands it here at once, so the next
//! batch is read and written while this one's flush runs. One durable marker covers every batch
//! committed before it (the WAL is flushed in order), so the batches that wait together are
//! flushed together; then their events are published in commit order and their writes answered
//! (docs/decisions/0057-the-flush-off-the-writers-path.md).

use std::sync::Arc;

use parley_actors::conversation::{Amended, ConversationKey};
use parley_actors::events::Event;
use parley_actors::hub::EventBus;
use sqlx::pool::PoolConnection;
use tokio::sync::{mpsc, oneshot};

use super::{Committed, Media, Write};
use crate::store::Store;

/// Where each of a batch's writes sends its events, and where its answer goes.
pub(super) type Outlet = (
    Arc<dyn EventBus>,
    oneshot::Sender<Result<bool, sqlx::Error>>,
);

/// A committed batch, not yet known to be durable: its writes, their outlets, and what each
/// wrote (its events, and whether it was new).
pub(super) struct Unflushed {
    pub(super) items: Vec<(ConversationKey, Write)>,
    pub(super) outlets: Vec<Outlet>,
    pub(super) written: Vec<(Vec<Event>, bool)>,
}

/// Where the committed batches' follow-ups go once durable: the team's new customer messages,
/// and the files to keep.
pub(super) struct FollowUps {
    pub(super) wrote: mpsc::UnboundedSender<Committed>,
    pub(super) files: mpsc::UnboundedSender<Media>,
}

/// Waits for each run of committed batches to be durable, then publishes and answers them in
/// order; until the writer's queue closes.
pub(super) async fn answer_when_durable(
    store: Store,
    mut committed: mpsc::UnboundedReceiver<Unflushed>,
    follow_ups: FollowUps,
) {
    let mut conn: Option<PoolConnection<sqlx::Any>> = None;
    let mut ready = Vec::new();
    while committed.recv_many(&mut ready, usize::MAX).await > 0 {
        match store.flushed(&mut conn).await {
            Ok(()) => {
                for batch in ready.drain(..) {
                    follow_ups.announce(batch);
                }
            }
            // Committed but maybe not durable: nothing is published, and each write is answered
            // with the error, so the provider sends it again (a stored message is then no more
            // than a redelivery).
            Err(err) => {
                tracing::warn!(error = %err, "committed writes not known to be durable");
                let answers = ready.drain(..).flat_map(|batch| batch.outlets);
                for (_, answer) in answers {
                    let _ = answer.send(Err(sqlx::Error::Protocol(err.to_string())));
                }
            }
        }
    }
}

impl FollowUps {
    /// Publishes a durable batch's events in item order, hands its new customer messages and
    /// files on, and answers each write whether it was new.
    fn announce(&self, batch: Unflushed) {
        let Unflushed {
            items,
            outlets,
            written,
        } = batch;
        let (buses, answers): (Vec<_>, Vec<_>) = outlets.into_iter().unzip();
        let (events, changed): (Vec<_>, Vec<bool>) = written.into_iter().unzip();
        publish_together(buses.into_iter().zip(events));
        let new = items.iter().zip(&changed).filter(|(_, changed)| **changed);
        self.follow_up(new.map(|(item, _)| item));
        self.hand_over_media(&items);
        for (answer, changed) in answers.into_iter().zip(changed) {
            let _ = answer.send(Ok(changed));
        }
    }

    /// Hands the conversations of the new customer messages among `written` to the team's
    /// follow-up (nothing when there are none, or when nobody follows up). A notice about the
    /// customer is nothing they wrote: it reopens and assigns nothing.
    fn follow_up<'a>(&self, written: impl IntoIterator<Item = &'a (ConversationKey, Write)>) {
        let keys: Vec<ConversationKey> = written
            .into_iter()
            .filter(|(_, write)| matches!(write, Write::Inbound(message) if !message.is_notice()))
            .map(|(key, _)| key.clone())
            .collect();
        if !keys.is_empty() {
            let _ = self.wrote.send((keys, crate::store::now_ms()));
        }
    }

    /// Hands the files that the messages, echoes and edits among `written` carry to the task
    /// that keeps them (nothing when there are none): a file an edit puts in a message is kept as
    /// the message's own was.
    fn hand_over_media(&self, written: &[(ConversationKey, Write)]) {
        let media: Media = written
            .iter()
            .filter_map(|(key, write)| {
                let (kind, content) = match write {
                    Write::Inbound(message) | Write::Echo(message) => {
                        (&message.kind, &message.content)
                    }
                    Write::Amend(change) => match &change.now {
                        Amended::Edited { kind, content } => (kind, content),
                        Amended::Revoked { .. } | Amended::Reacted { .. } => return None,
                    },
                    Write::Status(_) => return None,
                };
                // The stored shape of a file message: `{<kind>: {media_id, …}, …}`.
                let media = content.get(kind)?.get("media_id")?.as_str();
                let id = media.filter(|id| !id.is_empty())?;
                Some((key.business_id.clone(), id.to_string()))
            })
            .collect();
        if !media.is_empty() {
            let _ = self.files.send(media);
        }
    }
}

/// Publishes a batch's events in item order, handing each bus the events of consecutive items
/// at once (all of them, in practice: one commit's events reach each session in one message).
fn publish_together(items: impl IntoIterator<Item = (Arc<dyn EventBus>, Vec<Event>)>) {
    let mut run: Option<(Arc<dyn EventBus>, Vec<Event>)> = None;
    for (bus, events) in items {
        match &mut run {
            Some((current, pending)) if Arc::ptr_eq(current, &bus) => pending.extend(events),
            _ => {
                if let Some((done, pending)) = run.replace((bus, events)) {
                    done.publish(pending);
                }
            }
        }
    }
    if let Some((bus, events)) = run {
        bus.publish(events);
    }
}
