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
mod presence;
mod push;
mod recipients;
mod replies;
mod sandbox;
mod sandbox_graph;
mod security;
mod sending;
mod team;
mod team_nodes;
mod team_notes;
mod team_settings;
mod template_flow;
mod template_rules;
mod webhook;
