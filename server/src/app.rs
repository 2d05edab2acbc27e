//! Builds the running application: store, shared state, routes and the HTTP server. `main` and
//! the integration tests both start Parley through `Application::build`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use actix::Actor;
use actix_codec::Framed;
use actix_http::body::MessageBody;
use actix_http::h1::Codec;
use actix_http::{HttpService, Request};
use actix_multipart::form::MultipartFormConfig;
use actix_service::map_config;
use actix_web::dev::{
    AppConfig, Server, ServiceFactory, ServiceRequest, ServiceResponse, fn_service,
};
use actix_web::middleware::{Compress, from_fn};
use actix_web::rt::net::TcpStream;
use actix_web::{App, web};
use anyhow::Context;
use parley_actors::conversation::Conversations;
use parley_actors::event_log::EventLog;
use parley_actors::hub::{EventBus, Hub, InProcessBus};

use crate::answer_journal::AnswerJournal;
use crate::auth::google::GoogleVerifier;
use crate::auth::password::hash_password;
use crate::auth::revocation::Revocations;
use crate::auth::throttle::LoginThrottle;
use crate::auth::token_versions::TokenVersions;
use crate::auth::tokens::TokenIssuer;
use crate::body_encoding;
use crate::config::Settings;
use crate::framework_errors::{self, BodyLimit};
use crate::media_link::MediaLinks;
use crate::multipart::{MAX_FORM_TEXT, MAX_UPLOAD};
use crate::outbox::Outbox;
use crate::provider::Provider;
use crate::provider::cloud::CloudClient;
use crate::push::Push;
use crate::sandbox::{self, Sandbox, SignedInCheck};
use crate::security_headers::security_headers;
use crate::send_line::SendLine;
use crate::sending::Sending;
use crate::state::AppState;
use crate::store::{Backend, Store};
use crate::team::{Team, spawn_team_sweep};
use crate::{
    api, auth, client_text, cluster, inbound, metrics, secrets, telemetry, web_app, webhook,
};

/// The client every call to the outside goes through.
fn http_client() -> anyhow::Result<reqwest::Client> {
    reqwest::Client::builder()
        // Below the outbox lease, so an attempt in flight never outlives its claim.
        .timeout(Duration::from_secs(15))
        .build()
        .context("Failed to build the HTTP client")
}

/// A bound, not yet running server.
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Connects and migrates the store, prepares secrets and binds the listener.
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        // The process's recorder, before anything records.
        metrics::handle();
        let store = Store::connect(&settings).await?;
        store.migrate().await?;
        let jwt_secret = if settings.auth.jwt_secret.is_empty() {
            secrets::load_or_create(&settings.server.data_dir, "jwt.key", 64)?
        } else {
            settings.auth.jwt_secret.clone()
        };
        let http = http_client()?;
        // Bound first: the sandbox and the default provider URL point back at this listener.
        let listener = TcpListener::bind(&settings.server.bind)
            .with_context(|| format!("Failed to bind {}", settings.server.bind))?;
        let address = listener.local_addr()?;
        let port = address.port();
        let host = if address.ip().is_unspecified() {
            "127.0.0.1".to_string()
        } else {
            address.ip().to_string()
        };
        let self_url = format!("http://{host}:{port}");
        let node = uuid::Uuid::new_v4().simple().to_string();
        // Nodes sharing a Postgres tell each other of their events; listening starts before the
        // hub reads where each log stands, so no other node's commit falls between the two.
        let other_nodes = match store.backend() {
            Backend::Postgres => Some(
                cluster::listen(&settings.database_url())
                    .await
                    .context("Failed to listen for other nodes' events")?,
            ),
            Backend::Sqlite => None,
        };
        // The hub continues each business's log where it stands, so it orders even the first
        // events after a start (group commit publishes a batch's events in any order).
        let event_log: Arc<dyn EventLog> = Arc::new(store.clone());
        let hub = Hub::resuming(store.last_seqs().await?)
            .reading(event_log.clone())
            .start();
        let token_versions = Arc::new(TokenVersions::default());
        let bus: Arc<dyn EventBus> = match other_nodes {
            Some(listener) => Arc::new(cluster::join(
                store.clone(),
                hub.clone(),
                token_versions.clone(),
                listener,
                node.clone(),
            )),
            None => Arc::new(InProcessBus(hub.clone())),
        };
        let conversations = Conversations::new(
            Arc::new(store.clone()),
            bus.clone(),
            Duration::from_secs(settings.realtime.conversation_idle_secs.max(1)),
        );
        let sandbox_on = settings.provider.kind == "sandbox";
        let provider_url = match settings.provider.base_url.as_str() {
            "" if sandbox_on => format!("{self_url}/sandbox"),
            "" => "https://graph.facebook.com".to_string(),
            url => url.to_string(),
        };
        let provider: Arc<dyn Provider> = Arc::new(CloudClient::new(
            http.clone(),
            &provider_url,
            &settings.provider.graph_version,
        ));
        let journal = AnswerJournal::open(&settings.server.data_dir)
            .context("Failed to open the send answer journal")?;
        let line = SendLine::start(
            Arc::new(CloudClient::new(
                http_client()?,
                &provider_url,
                &settings.provider.graph_version,
            )),
            journal,
        )
        .context("Failed to start the send thread")?;
        let outbox = Arc::new(Outbox::new(
            store.clone(),
            provider.clone(),
            conversations.clone(),
            settings.outbox.clone(),
            settings.server.data_dir.clone(),
            line,
        ));
        outbox.adopt_orphans().await?;
        actix_web::rt::spawn(outbox.clone().run());
        if let Some(media) = store.take_new_media() {
            actix_web::rt::spawn(inbound::keep_media(store.clone(), outbox.clone(), media));
        }
        let media_links =
            MediaLinks::new(jwt_secret.as_bytes(), settings.media.share_link_ttl_secs);
        let tokens = TokenIssuer::new(
            jwt_secret.as_bytes(),
            settings.auth.access_token_ttl_secs,
            settings.auth.refresh_token_ttl_secs,
            settings.auth.refresh_reuse_grace_secs,
        );
        let sandbox = sandbox_on.then(|| {
            Arc::new(Sandbox::new(
                settings.sandbox.clone(),
                store.clone(),
                http.clone(),
                self_url.clone(),
                &settings.server.data_dir,
            ))
        });
        let push = Push::start(&settings, store.clone())?;
        let sending = Sending::new(
            store.clone(),
            outbox.clone(),
            provider.clone(),
            bus.clone(),
            node.clone(),
            settings.server.data_dir.clone(),
        );
        actix_web::rt::spawn(sending.clone().take_over_jobs());
        let team = Team::new(store.clone(), bus.clone(), hub.clone());
        spawn_team_sweep(store.clone(), bus.clone());
        store.spawn_pending_list_cleaner();
        let revocations = Revocations::new(store.clone(), token_versions.clone(), bus.clone());
        let state = web::Data::new(AppState {
            team,
            node,
            push,
            sending,
            hub,
            bus,
            event_log,
            conversations,
            provider,
            outbox,
            sandbox,
            tokens,
            token_versions,
            revocations,
            throttle: LoginThrottle::new(&settings.auth, store.clone()),
            google: GoogleVerifier::new(settings.google.clone(), http.clone()),
            http,
            media_links,
            dummy_hash: hash_password("parley-dummy-password".into()).await?,
            store,
            settings,
        });
        spawn_pruning(state.clone());
        tracing::info!(
            port,
            backend = ?state.store.backend(),
            provider = %provider_url,
            "Parley listening"
        );
        // Said whatever the log level, for whoever started the server.
        println!("Parley is listening on {self_url}");
        let web_dir = state.settings.server.web_dir.clone();
        // actix-web's `HttpServer` offers no upgrade hook, so the service is assembled here:
        // WebSocket upgrades go to `api::ws` with the bare socket, everything else to the app.
        let server = Server::build()
            .listen("parley", listener, move || {
                let ws_state = state.clone();
                let app = routes(state.clone(), web_dir.clone());
                HttpService::build()
                    .local_addr(address)
                    // Pushed frames are small and go out one by one: Nagle's algorithm would hold
                    // each behind the client's delayed ACK of the one before (up to 40 ms).
                    .tcp_nodelay(true)
                    .upgrade(fn_service(
                        move |(req, framed): (Request, Framed<TcpStream, Codec>)| {
                            api::ws::serve(ws_state.clone(), req, framed)
                        },
                    ))
                    .finish(map_config(app, |_| AppConfig::default()))
                    .tcp()
            })?
            .run();
        Ok(Application { port, server })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Runs until a shutdown signal (SIGINT/SIGTERM) or the server handle stops it.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// Every HTTP route of the process.
fn routes(
    state: web::Data<AppState>,
    web_dir: PathBuf,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let sandbox = state.sandbox.clone();
    let signed_in = SignedInCheck::new(
        state.tokens.clone(),
        state.token_versions.clone(),
        state.store.clone(),
    );
    let headers = security_headers(&state.settings.server.public_url);
    App::new()
        .app_data(state)
        .app_data(
            MultipartFormConfig::default()
                .total_limit(MAX_UPLOAD)
                .memory_limit(MAX_FORM_TEXT),
        )
        .wrap(from_fn(framework_errors::json_refusals))
        .wrap(headers)
        .wrap(Compress::default())
        .wrap(from_fn(body_encoding::refuse_encoded_bodies))
        .wrap(from_fn(telemetry::request_span))
        .wrap(from_fn(metrics::track_requests))
        .service(
            web::resource("/metrics")
                .route(web::get().to(api::metrics::render))
                .route(web::head().to(api::metrics::render))
                .default_service(api::unrouted::served_with("GET, HEAD")),
        )
        .service(
            web::scope("/api")
                .wrap(from_fn(client_text::refuse_control_characters))
                .wrap(from_fn(api::unrouted::answer_head_as_get))
                .configure(api::api_routes)
                .default_service(web::to(api::unrouted::unrouted)),
        )
        .service(
            web::resource("/webhook")
                .app_data(web::PayloadConfig::new(webhook::MAX_BODY))
                .app_data(BodyLimit(webhook::MAX_BODY))
                .route(web::get().to(webhook::verify))
                .route(web::head().to(webhook::verify))
                .route(web::post().to(webhook::receive))
                .default_service(api::unrouted::served_with("GET, HEAD, POST")),
        )
        .service(sandbox_scope(sandbox, signed_in))
        .service(
            web::scope("/identity")
                .wrap(from_fn(client_text::refuse_control_characters))
                .wrap(from_fn(api::unrouted::answer_head_as_get))
                .configure(auth::identity_routes)
                .default_service(web::to(api::unrouted::unrouted)),
        )
        .configure(|cfg| web_app::serve_web_app(cfg, &web_dir))
}

/// `/sandbox`: the fake Cloud API with its own state, or a refusal when another provider is on.
fn sandbox_scope(sandbox: Option<Arc<Sandbox>>, signed_in: SignedInCheck) -> actix_web::Scope {
    let scope = web::scope("/sandbox")
        // Template header examples go up as raw bytes, up to 100 MB.
        .app_data(web::PayloadConfig::new(MAX_UPLOAD))
        .app_data(BodyLimit(MAX_UPLOAD))
        .app_data(web::Data::new(signed_in));
    match sandbox {
        Some(sandbox) => scope
            .app_data(web::Data::from(sandbox))
            .configure(sandbox::routes),
        None => scope
            .route(
                "/customers/inject",
                web::post().to(sandbox::inject_not_enabled),
            )
            .default_service(web::to(sandbox::not_enabled)),
    }
}

/// Every minute: drops events past their retention and sign-in failures past their window.
fn spawn_pruning(state: web::Data<AppState>) {
    actix_web::rt::spawn(async move {
        let retention_ms = state.settings.realtime.event_retention_secs as i64 * 1000;
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            if let Err(err) = state.store.prune_events(retention_ms).await {
                tracing::warn!(error = %err, "event log pruning failed");
            }
            if let Err(err) = state.throttle.prune().await {
                tracing::warn!(error = %err, "sign-in failure pruning failed");
            }
        }
    });
}
