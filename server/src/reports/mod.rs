//! Reports: how many conversations opened and resolved, messages each way, how fast the team
//! answered and resolved, per time bucket in the business's time zone, and per team member.
//!
//! - `range`: the requested range, bucket size and time zone, and the buckets' boundaries
//! - `overview`: the numbers, from the store's counts and conversation histories
//! - `csv`: the same numbers as a CSV download

pub mod csv;
pub mod overview;
pub mod range;

/// A report request the API refuses (422); the text names the parameter.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InvalidReport(pub String);
