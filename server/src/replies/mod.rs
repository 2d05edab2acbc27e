//! Automated replies: the form's rules and the engine that picks an answer.
//!
//! - `form`: the create/edit form read into a plan (what to store, which uploads to keep)
//! - `engine`: `choose_reply`, the matching rules of docs/AUTOMATED_REPLIES.md

pub mod engine;
pub mod form;

pub use engine::{Answer, Choice, InboundKind, OutgoingReply, Reason, choose_reply};
