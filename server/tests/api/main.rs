//! Integration tests: the real application on a random port, on SQLite and on Postgres.

mod auto_replies;
mod cluster;
mod crash;
mod customer_sends;
mod customers;
mod google;
mod helpers;
mod identity;
mod inbox;
mod kinds;
mod live;
mod push;
mod recipients;
mod replies;
mod sandbox;
mod sandbox_graph;
mod sending;
mod template_flow;
mod template_rules;
mod webhook;
