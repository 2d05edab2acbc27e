//! Parley's actors: how messages and receipts travel from the store to the agents looking.
//!
//! - `events`: the event type, names and channels
//! - `conversation`: one actor per conversation, the single writer of it; its registry
//! - `hub`: one per node, routes events to the sessions that follow their channels
//! - `session`: one per WebSocket or SSE connection
//! - `queue`: the bounded queue from a session to its connection's writer
//!
//! This crate knows no HTTP and no SQL: it declares the traits it needs (`ConversationStore`,
//! `EventLog`, `EventBus`) and the server implements them.

pub mod conversation;
pub mod error;
pub mod event_log;
pub mod events;
pub mod followers;
pub mod hub;
mod load;
pub mod queue;
mod sequencer;
pub mod session;
