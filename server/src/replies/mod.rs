//! Automated replies: the form's rules, the engine that picks an answer, and what it sends.
//!
//! - `form`: the create/edit form read into a plan (what to store, which uploads to keep)
//! - `engine`: `choose_reply`, the matching rules of docs/AUTOMATED_REPLIES.md
//! - `answer`: the chosen answer as a Cloud API message and as the inbox shows it

pub mod answer;
pub mod engine;
pub mod form;

pub use answer::{Answer, OutgoingReply};
pub use engine::{Choice, InboundKind, Reason, choose_reply};
