//! Templates: the form's checks, the sender's inputs, and the list kept in step with the provider.
//!
//! - `catalog`: templates synced from the provider and submitted for review
//! - `rules`: the template form's validation rules, in the spec's order, with the form's texts:
//!   the JSON's shape, then name, category and language, header, body, buttons
//! - `media`: the header media limits
//! - `recipients`: the phone numbers of a csv, xls or xlsx recipient file
//! - `recipient_limits`: the bounds on reading one: unpacked size, cell length, rows, grid, time
//! - `xls_grid`: an xls's first sheet measured against the grid bound, before calamine reads it
//! - `recipient_rows`: its rows as recipients with their variables, or skipped with a reason
//! - `variables`: per-recipient variables: their column names and a send's parameters filled

pub mod catalog;
pub mod media;
pub mod recipient_limits;
pub mod recipient_rows;
pub mod recipients;
pub mod rules;
pub mod variables;
pub mod xls_grid;
