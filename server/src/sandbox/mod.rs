//! The sandbox: a fake WhatsApp Cloud API served under `/sandbox`, reached over real HTTP by the
//! same client code as the real one. It answers sends with `wamid.…` ids and Cloud-API-shaped
//! errors, enforces the 24-hour window and the per-number rate, posts signed `sent`,
//! `delivered` and `read` webhooks back to `/webhook` with realistic delays, keeps uploaded
//! media, and plays customers who write in and sometimes answer. It reaches the rest of Parley
//! only through the store and that webhook.
//!
//! - `graph`: Graph's error answers, also for every route the sandbox does not have
//! - `account`: the phone number object and the business profile
//! - `identity`: customers by phone or business-scoped user id, as webhooks and sends name them
//! - `access`: who may call — a number's access token for Graph calls, a signed-in user for
//!   the inject endpoint
//! - `webhooks`: signed webhooks posted back to this server, as Meta posts them
//! - `messages`: sends (window, templates, rate), their receipts, the log of what was accepted
//! - `customers`: simulated customers who write in, answer, and greet a new business
//! - `media`: uploads, their lookup and download
//! - `templates`: template submission, the delayed review, header example uploads
//! - `numbers`: the credentials of a fresh sandbox number

mod access;
mod account;
mod customers;
mod graph;
mod identity;
mod media;
mod messages;
mod numbers;
mod templates;
mod webhooks;

pub use access::{SignedIn, SignedInCheck};
pub use numbers::new_number;

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use actix_web::{HttpResponse, web};
use base64::Engine;
use rand::Rng;
use serde_json::Value;

use crate::config::SandboxSettings;
use crate::error::ApiError;
use crate::rate::TokenBuckets;
use crate::store::Store;

/// The fake Cloud API's state, shared by its handlers and by registration (which asks it to
/// greet a new business).
pub struct Sandbox {
    settings: SandboxSettings,
    /// Read for the businesses behind numbers and tokens, as Meta knows its accounts.
    store: Store,
    http: reqwest::Client,
    /// `http://host:port` of this server: statuses are posted to its `/webhook`.
    self_url: String,
    media_dir: PathBuf,
    /// The per-number throughput limit, as the Cloud API enforces it.
    buckets: TokenBuckets,
    /// Accepted message bodies per phone number id, newest last.
    sent: Mutex<HashMap<String, VecDeque<Value>>>,
    /// Submitted templates per WhatsApp Business Account, kept in `sandbox-templates.json`.
    templates: Mutex<HashMap<String, Vec<Value>>>,
    /// Customers with a business-scoped user id per phone number id, as the sandbox met them:
    /// how it names them in receipts and answers.
    people: Mutex<HashMap<String, Vec<identity::Customer>>>,
    /// Business profile fields set per phone number id (a new profile's defaults otherwise).
    profiles: Mutex<HashMap<String, Value>>,
}

impl Sandbox {
    pub fn new(
        settings: SandboxSettings,
        store: Store,
        http: reqwest::Client,
        self_url: String,
        data_dir: &std::path::Path,
    ) -> Sandbox {
        Sandbox {
            buckets: TokenBuckets::new(settings.rate_per_second),
            settings,
            store,
            http,
            self_url,
            media_dir: data_dir.join("sandbox-media"),
            sent: Mutex::new(messages::read_sent_log(
                &data_dir.join("sandbox-sent.jsonl"),
            )),
            templates: Mutex::new(templates::read_templates(
                &data_dir.join("sandbox-templates.json"),
            )),
            people: Mutex::default(),
            profiles: Mutex::default(),
        }
    }

    fn pause(&self, base_ms: u64) -> Duration {
        // ±50 % jitter, like a real network.
        let jitter = rand::thread_rng().gen_range(0.5..1.5);
        Duration::from_millis((base_ms as f64 * jitter) as u64)
    }
}

/// A message id, as the Cloud API makes them.
fn wamid() -> String {
    let mut raw = [0u8; 24];
    rand::thread_rng().fill(&mut raw);
    format!(
        "wamid.{}",
        base64::engine::general_purpose::STANDARD.encode(raw)
    )
}

/// A 15-digit Graph object id (media, templates).
fn graph_id() -> String {
    rand::thread_rng()
        .gen_range(100_000_000_000_000u64..999_999_999_999_999)
        .to_string()
}

/// Routes under `/sandbox`, when the sandbox is the provider (its `web::Data<Sandbox>` is
/// registered on the scope). Anything else under a Graph version gets Graph's error.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/customers/inject", web::post().to(customers::inject))
        .route("/sent", web::get().to(messages::sent))
        .route("/files/{media_id}", web::get().to(media::download))
        .route(
            "/{version}/{phone_number_id}/messages",
            web::post().to(messages::messages),
        )
        .route(
            "/{version}/{phone_number_id}/media",
            web::post().to(media::upload),
        )
        .route(
            "/{version}/{phone_number_id}/whatsapp_business_profile",
            web::get().to(account::get_profile),
        )
        .route(
            "/{version}/{phone_number_id}/whatsapp_business_profile",
            web::post().to(account::update_profile),
        )
        .route(
            "/{version}/{waba_id}/message_templates",
            web::post().to(templates::create_template),
        )
        .route(
            "/{version}/{waba_id}/message_templates",
            web::get().to(templates::list_templates),
        )
        .route(
            "/{version}/{waba_id}/message_templates",
            web::delete().to(templates::delete_template),
        )
        .route(
            "/{version}/{app_id}/uploads",
            web::post().to(templates::start_upload),
        )
        .route(
            "/{version}/{session}",
            web::post().to(templates::finish_upload),
        )
        .route("/{version}/{object_id}", web::get().to(account::get_object))
        .default_service(web::to(graph::unknown_route));
}

/// Every `/sandbox` call when another provider is configured.
pub async fn not_enabled() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound(
        "The sandbox provider is not enabled".into(),
    ))
}

/// The inject endpoint when another provider is configured: a caller who is not signed in is
/// told so first, as when the sandbox is on.
pub async fn inject_not_enabled(_: SignedIn) -> Result<HttpResponse, ApiError> {
    not_enabled().await
}
