//! Parley's server: the main API (`/api`), the identity service (`/identity`), the provider
//! webhook, live pushes and the web app, over SQLite or Postgres.
//!
//! Layout:
//! - `config`: layered settings (defaults < config files < `PARLEY_*` environment)
//! - `app`: builds the actix application and wires the parts; used by `main` and the tests
//! - `state`: what every handler shares
//! - `customer`: the customer key (a phone number's digits, or a BSUID) that names a conversation
//! - `contact_file`: contacts read from an uploaded vCard or CSV file
//! - `customer_file`: the headers a customer's file is served with (allowed types, sandboxed)
//! - `multipart`: multipart forms read into memory with limits
//! - `phone`: phone numbers as people write them, read with libphonenumber into E.164 digits
//! - `names`: how long user and contact names may be and which characters they may not hold
//! - `plain_text`: no control characters in client text; U+0000 in Meta's text replaced
//! - `body_encoding`: the door check that refuses compressed request bodies (no inflating)
//! - `client_text`: the door check that refuses client text with a control character
//! - `error`: the one error type and its JSON shape
//! - `framework_errors`: actix's own refusals (extractors, limits, long URLs) in that shape
//! - `security_headers`: the Content Security Policy and other headers of every answer
//! - `telemetry`: logging and request ids
//! - `scheduling`: the server's threads as batch threads (woken ones do not preempt the running)
//! - `metrics`: the Prometheus metrics' names, the calls that record them, who may read them
//! - `secrets`: generated secrets kept in the data dir
//! - `search_text`: search folding (case, Latin, Greek and Cyrillic accents, Arabic marks and
//!   letter forms, digits), queries and highlighted snippets
//! - `store`: the data-access layer
//! - `auth`: the identity service and the bearer-token check
//! - `api`: the main API, one module per area
//! - `web_app`: the built web app (hashed assets cached for good and precompressed)
//! - `webhook`: the provider's webhook (verification, signature, reading the body)
//! - `inbound`: persisting a webhook's messages and receipts, and what new messages set off
//!   (Web Push, automated replies, keeping their media)
//! - `cloud`: the typed Cloud API model (what Meta sends and what the client sends and reads)
//! - `provider`: the Cloud API client
//! - `sandbox`: a fake Cloud API under `/sandbox`, talking to the rest by store and webhook
//! - `templates`: template form rules, header media checks, recipient files for bulk sends
//! - `replies`: the automated reply form's rules and the reply-choosing engine
//! - `outbox`: durable delivery of outgoing messages, provider media
//! - `refusal`: why a send was refused for good, in words for the agent (with the provider's details)
//! - `answer_journal`: the provider's answers to sends, journaled before the store records them
//! - `send_line`: the outbox's sends, made and answered on a thread of their own
//! - `media`: file type sniffing from the bytes, the Cloud API's limits, storage
//! - `media_link`: signed share links that open one media file without a login until they expire
//! - `rate`: per-number token buckets
//! - `sending`: the rules of sending (the 24-hour window, templates, durable bulk jobs)
//! - `push`: Web Push of new customer messages to the business's subscribed browsers
//! - `reports`: conversation and response-time numbers per time bucket and per team member
//! - `team`: conversation status, assignment and its claim lock, private notes, snoozes
//! - `cluster`: events across nodes that share one Postgres (`LISTEN`/`NOTIFY`)
//! - `canned`: canned replies' form rules and the shortcut filter

pub mod answer_journal;
pub mod api;
pub mod app;
pub mod auth;
pub mod body_encoding;
pub mod canned;
pub mod client_text;
pub mod cloud;
pub mod cluster;
pub mod config;
pub mod contact_file;
pub mod customer;
pub mod customer_file;
pub mod error;
pub mod framework_errors;
pub mod inbound;
pub mod media;
pub mod media_link;
pub mod metrics;
pub mod multipart;
pub mod names;
pub mod outbox;
pub mod phone;
pub mod plain_text;
pub mod provider;
pub mod push;
pub mod rate;
pub mod refusal;
pub mod replies;
pub mod reports;
pub mod sandbox;
pub mod scheduling;
pub mod search_text;
pub mod secrets;
pub mod security_headers;
pub mod send_line;
pub mod sending;
pub mod state;
pub mod store;
pub mod team;
pub mod telemetry;
pub mod templates;
pub mod visible;
pub mod web_app;
pub mod webhook;
