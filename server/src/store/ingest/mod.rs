//! Group commit of inbound messages, their edits and deletions, echoes of messages the business
//! sent from the WhatsApp Business app, and receipts (docs/decisions/0002-group-commit.md).
//! Conversation actors hand these writes to one writer task; it takes everything waiting, writes
//! it in one transaction and, only after the commit, publishes the batch's events in seq order
//! and answers each write. While one commit (and its fsync) runs, the next batch gathers, so there
//! is no timer and no added wait. Being the one publisher of these events keeps them in order on
//! their way to the hub, however busy the threads of the actors that queued them.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures_util::FutureExt;
use parley_actors::conversation::{Amendment, ConversationKey, InboundMessage, StatusUpdate};
use parley_actors::events::Event;
use parley_actors::hub::EventBus;
use tokio::sync::{mpsc, oneshot};

use sqlx::AssertSqlSafe;
use sqlx::pool::PoolConnection;

use super::Store;
use crate::metrics;

mod batch;
mod contacts;
mod durable;
mod threads;

use durable::{FollowUps, Outlet, Unflushed};

/// Most writes in one transaction: bounds how long one commit holds the write lock.
const MAX_BATCH: usize = 512;

/// A write the conversation actors hand to the writer.
pub(super) enum Write {
    /// A customer's message (nothing when it was seen before).
    Inbound(Arc<InboundMessage>),
    /// A receipt for one of our messages (nothing unless it moves the status forward).
    Status(StatusUpdate),
    /// An edit, deletion or reaction of an earlier message (nothing when it changes nothing).
    Amend(Arc<Amendment>),
    /// A message the business sent from the WhatsApp Business app (nothing when seen before).
    Echo(Arc<InboundMessage>),
}

/// One write waiting for the writer, where its events go, and where its answer (whether it
/// changed anything) goes.
struct Pending {
    key: ConversationKey,
    write: Write,
    bus: Arc<dyn EventBus>,
    answer: oneshot::Sender<Result<bool, sqlx::Error>>,
}

/// The writer's queue. Cheap to clone.
#[derive(Clone)]
pub(super) struct Ingest(mpsc::UnboundedSender<Pending>);

/// The conversations of a committed batch's new customer messages, in item order, and when the
/// batch was committed (Unix ms): what the team follows up (one read per batch, not one per
/// webhook).
pub type Committed = (Vec<ConversationKey>, i64);

/// Where the writer hands over each `Committed` batch.
pub type NewInbound = mpsc::UnboundedReceiver<Committed>;

/// The files (business id, media id) that a committed batch's customer messages and echoes
/// carry, new or redelivered: what is kept while the provider still has it.
pub type Media = Vec<(String, String)>;

/// Where the writer hands over each batch's `Media`.
pub type NewMedia = mpsc::UnboundedReceiver<Media>;

/// What the writer hands over, until the task that follows each part up takes it (once, when the
/// server starts).
pub(super) struct HandOvers {
    inbound: Option<NewInbound>,
    media: Option<NewMedia>,
}

impl Ingest {
    /// The queue, the writer that drains it (to spawn once the store exists), and what it hands
    /// over after each commit.
    pub(super) fn new() -> (Ingest, Writer, Arc<Mutex<HandOvers>>) {
        let (queue, waiting) = mpsc::unbounded_channel();
        let (wrote, inbound) = mpsc::unbounded_channel();
        let (files, media) = mpsc::unbounded_channel();
        let hand_overs = HandOvers {
            inbound: Some(inbound),
            media: Some(media),
        };
        let writer = Writer {
            waiting,
            wrote,
            files,
        };
        (Ingest(queue), writer, Arc::new(Mutex::new(hand_overs)))
    }

    /// Queues one write for the next batch now; the future answers once it is committed and its
    /// events are published: whether the write was new (false for a redelivered message, or a
    /// write that changed nothing).
    pub(super) fn submit(
        &self,
        key: ConversationKey,
        write: Write,
        bus: Arc<dyn EventBus>,
    ) -> impl Future<Output = Result<bool, sqlx::Error>> + use<> {
        let (answer, answered) = oneshot::channel();
        let queued = self.0.send(Pending {
            key,
            write,
            bus,
            answer,
        });
        async move {
            let writer_gone = || sqlx::Error::PoolClosed;
            queued.map_err(|_| writer_gone())?;
            answered.await.map_err(|_| writer_gone())?
        }
    }
}

impl Store {
    /// The conversations of each committed batch of new customer messages, for the one task that
    /// follows them up (the team's); `None` once taken.
    pub fn take_new_inbound(&self) -> Option<NewInbound> {
        self.hand_overs.lock().ok()?.inbound.take()
    }

    /// The files each committed batch's messages carry, for the one task that keeps them;
    /// `None` once taken.
    pub fn take_new_media(&self) -> Option<NewMedia> {
        self.hand_overs.lock().ok()?.media.take()
    }
}

/// The receiving end of the queue, where committed new messages' conversations go, and where
/// the files of committed messages go.
pub(super) struct Writer {
    waiting: mpsc::UnboundedReceiver<Pending>,
    wrote: mpsc::UnboundedSender<Committed>,
    files: mpsc::UnboundedSender<Media>,
}

/// Commits batches until the runtime stops (the store it holds keeps the queue open); each
/// committed batch goes on to wait for its flush (`durable`) while the next one is written.
pub(super) async fn run(store: Store, writer: Writer) {
    let Writer {
        mut waiting,
        wrote,
        files,
    } = writer;
    let (durable, committed) = mpsc::unbounded_channel();
    let follow_ups = FollowUps { wrote, files };
    tokio::spawn(durable::answer_when_durable(
        store.clone(),
        committed,
        follow_ups,
    ));
    let mut conn = Connection::default();
    let mut batch = Vec::new();
    while waiting.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let (items, outlets): (Vec<_>, Vec<Outlet>) = batch
            .drain(..)
            .map(|p: Pending| ((p.key, p.write), (p.bus, p.answer)))
            .unzip();
        let taken = Instant::now();
        match conn.write(&store, &items).await {
            Ok(written) => {
                metrics::batch_committed(items.len(), taken.elapsed());
                let _ = durable.send(Unflushed {
                    items,
                    outlets,
                    written,
                });
            }
            // One bad write must not fail the others: each is retried in its own transaction.
            Err(err) if items.len() > 1 => {
                tracing::warn!(error = %err, size = items.len(), "batch not committed, retrying its writes one by one");
                for (item, (bus, answer)) in items.into_iter().zip(outlets) {
                    match conn.write(&store, std::slice::from_ref(&item)).await {
                        Ok(written) => {
                            let _ = durable.send(Unflushed {
                                items: vec![item],
                                outlets: vec![(bus, answer)],
                                written,
                            });
                        }
                        Err(err) => {
                            let _ = answer.send(Err(err));
                        }
                    }
                }
            }
            Err(err) => {
                if let Some((_, answer)) = outlets.into_iter().next() {
                    let _ = answer.send(Err(err));
                }
            }
        }
    }
}

/// The writer's own connection, kept from batch to batch. A SQLite connection's page cache only
/// stays valid while no other connection writes, so writing through whichever pooled connection
/// is free read the hot index pages back from the file on every batch; this one keeps them (its
/// cache is sized for them). Closed after an error (it may be broken) and taken anew next time.
#[derive(Default)]
struct Connection(Option<PoolConnection<sqlx::Any>>);

/// The writer connection's page cache, in KiB: the indexes' pages that inserts touch.
const WRITER_CACHE_KIB: i64 = 64 * 1024;

impl Connection {
    async fn write(
        &mut self,
        store: &Store,
        items: &[(ConversationKey, Write)],
    ) -> Result<Vec<(Vec<Event>, bool)>, sqlx::Error> {
        let conn = match &mut self.0 {
            Some(conn) => conn,
            empty => {
                let mut conn = store.pool.acquire().await?;
                if store.backend == super::Backend::Sqlite {
                    sqlx::query(AssertSqlSafe(format!(
                        "PRAGMA cache_size = -{WRITER_CACHE_KIB}"
                    )))
                    .execute(&mut *conn)
                    .await?;
                }
                empty.insert(conn)
            }
        };
        // A bug that panics on one batch answers its writes with an error; the writer goes on
        // with the next (one by one first, so only the write that panics fails).
        let written = AssertUnwindSafe(store.write_batch(conn, items))
            .catch_unwind()
            .await
            .unwrap_or_else(|_| {
                tracing::error!(size = items.len(), "writing a batch panicked");
                Err(sqlx::Error::Protocol("writing the batch panicked".into()))
            });
        if written.is_err()
            && let Some(mut broken) = self.0.take()
        {
            broken.close_on_drop();
        }
        written
    }
}
