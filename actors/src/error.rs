//! What can go wrong when an actor asks the store: the one error the server's implementations of
//! `ConversationStore` and `EventLog` answer, and `Conversations::ask` passes on.

use actix::MailboxError;

/// Why a change was not recorded (or the log not read).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store failed; the server's own error is the source. This crate knows no SQL, so it
    /// cannot name that error's type.
    #[error("store failed: {0}")]
    Store(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The conversation's actor stopped before it answered, and so did the fresh one.
    #[error("conversation actor unavailable: {0}")]
    Unavailable(#[from] MailboxError),
}

impl StoreError {
    /// Wraps the store's error (`.map_err(StoreError::store)`).
    pub fn store(source: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError::Store(Box::new(source))
    }
}
