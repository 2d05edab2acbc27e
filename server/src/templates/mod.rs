//! Templates and the sender's inputs, as pure checks the HTTP handlers call.
//!
//! - `rules`: the template form's validation rules, in the spec's order, with the form's texts:
//!   the JSON's shape, then name, category and language, header, body, buttons
//! - `media`: file kinds told by their first bytes, and the header media limits
//! - `recipients`: the phone numbers of a csv, xls or xlsx recipient file

pub mod media;
pub mod recipients;
pub mod rules;
