//! What every handler shares: the store, the actors, the provider and the services, built once
//! by `app` at start.

use std::sync::Arc;

use actix::Addr;
use parley_actors::conversation::Conversations;
use parley_actors::event_log::EventLog;
use parley_actors::hub::{EventBus, Hub};

use crate::auth::google::GoogleVerifier;
use crate::auth::revocation::Revocations;
use crate::auth::throttle::LoginThrottle;
use crate::auth::token_versions::TokenVersions;
use crate::auth::tokens::TokenIssuer;
use crate::config::Settings;
use crate::media_link::MediaLinks;
use crate::outbox::Outbox;
use crate::provider::Provider;
use crate::push::Push;
use crate::sandbox::Sandbox;
use crate::sending::Sending;
use crate::store::Store;
use crate::team::Team;

/// What every handler can reach.
pub struct AppState {
    pub settings: Settings,
    pub store: Store,
    pub tokens: TokenIssuer,
    /// The token versions this node knows, checked on every request.
    pub token_versions: Arc<TokenVersions>,
    /// Ends users' sessions at once, on every node.
    pub revocations: Revocations,
    pub throttle: LoginThrottle,
    /// Outbound HTTP (provider, Google); one pool for the process.
    pub http: reqwest::Client,
    pub google: GoogleVerifier,
    /// Routes events to this node's sessions.
    pub hub: Addr<Hub>,
    /// Where events are published (the hub, through the bus).
    pub bus: Arc<dyn EventBus>,
    /// The store's event log as the hub and every session replay it (one, shared).
    pub event_log: Arc<dyn EventLog>,
    /// This process's id among the nodes sharing the database (random per start).
    pub node: String,
    /// The conversation actors, started on demand.
    pub conversations: Conversations,
    /// The Cloud API (or the sandbox, through the same client).
    pub provider: Arc<dyn Provider>,
    /// Delivers outgoing messages and keeps provider media.
    pub outbox: Arc<Outbox>,
    /// The rules of sending: the reply window, templates, bulk jobs.
    pub sending: Sending,
    /// Conversation status, assignment and private notes.
    pub team: Team,
    /// The fake Cloud API, when it is the provider (registration has it greet new businesses).
    pub sandbox: Option<Arc<Sandbox>>,
    /// Web Push of new customer messages to subscribed browsers.
    pub push: Push,
    /// Signs and checks media share links.
    pub media_links: MediaLinks,
    /// Checked against when a login names no account, so timing tells nothing.
    pub dummy_hash: String,
}
