//! The store's event log as the actors read it: a session resuming after the last seq its client
//! saw, and the hub filling a gap in a business's order.

use futures_util::future::BoxFuture;

use crate::error::StoreError;
use crate::events::Event;

/// What the event log answers to a read.
pub enum Replay {
    /// Every logged event of the business after the asked-for seq, in order.
    Events(Vec<Event>),
    /// The gap reaches before the oldest kept event: the client must re-fetch.
    TooOld,
}

/// The store's event log.
pub trait EventLog: Send + Sync + 'static {
    /// The business's logged events after seq `after`, in order (or `TooOld`).
    fn since(
        &self,
        business_id: &str,
        after: i64,
    ) -> BoxFuture<'static, Result<Replay, StoreError>>;
}
