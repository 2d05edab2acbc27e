//! Talking to the server: setup through the public API, signed webhooks, WebSocket sessions
//! bound to a chosen loopback source address, the latency marker, and reading a process's RSS.
//!
//! - `api`: the HTTP client, JSON calls and forms, nchan publishes.
//! - `business`: registering the business, its agents and its customers' media.
//! - `webhook`: signed Cloud API webhooks carrying customers' messages.
//! - `session`: Parley and nchan WebSocket sessions from a chosen source address.
//! - `marker`: the latency marker measured messages carry.
//! - `rss`: the target's resident memory.

mod api;
mod business;
mod marker;
mod rss;
mod session;
mod webhook;

pub use api::Api;
pub use business::{Business, customer_phone};
pub use marker::{marker, parse_marker, unix_nanos};
pub use rss::rss_bytes;
pub use session::{
    BULK_SEND_PROGRESS, Ws, connect_ws, nchan_session, parley_resume, parley_session,
};
pub use webhook::{Inbound, sign, webhook_body};
