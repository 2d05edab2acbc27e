//! Parley's actors: how messages and receipts travel from the store to the agents looking.
//!
//! - `events`: the event type, names and channels
//! - `error`: `StoreError`, the failure the store (or a conversation actor before it) answers
//! - `event_log`: the store's event log as sessions and the hub read it (`EventLog`, `Replay`)
//! - `conversation`: one actor per conversation, the single writer of it; its registry
//! - `hub`: one per node, routes events to the sessions that follow their channels; `EventBus`
//! - `followers`: the hub's table of connected sessions and their channels, the messages
//!   sessions use to join it, and the heartbeat and token expiry the hub keeps for all of them
//! - `sequencer` (private): puts each business's events back in `seq` order, filling gaps from
//!   the log
//! - `load` (private): samples the process's CPU use, so a busy hub merges hand-overs
//! - `presence`: who is viewing or typing in a conversation, told to the others following it
//! - `session`: one per WebSocket or SSE connection
//! - `queue`: the bounded queue from a session to its connection's writer
//!
//! Files import one way: `events`, `error` and `queue` at the bottom, then `event_log`,
//! `followers`, `sequencer` and `load`, then `hub`, then `presence`, then `conversation` and `session`; nothing
//! imports back up.
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
pub mod presence;
pub mod queue;
mod sequencer;
pub mod session;
