//! Typed configuration: `config/default.toml` < `config/local.toml` < `PARLEY_*` environment.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Everything Parley reads at start-up.
#[derive(Clone, Debug, Deserialize)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub auth: AuthSettings,
    pub google: GoogleSettings,
    pub realtime: RealtimeSettings,
    pub provider: ProviderSettings,
    pub outbox: OutboxSettings,
    pub sandbox: SandboxSettings,
    pub push: PushSettings,
    pub media: MediaSettings,
    #[serde(default)]
    pub metrics: MetricsSettings,
}

/// Who may read `/metrics`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct MetricsSettings {
    /// Networks (CIDRs) allowed besides loopback, which always is.
    #[serde(default)]
    pub allow: Vec<ipnet::IpNet>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct MediaSettings {
    /// How long a share link (`POST /api/media/{id}/share`) opens its file without a login.
    pub share_link_ttl_secs: u64,
}

#[derive(Clone, Debug, Deserialize)]
pub struct OutboxSettings {
    /// Attempts before a message is marked failed.
    pub max_attempts: u32,
    /// Backoff before the second attempt; doubles each time up to `max_retry_ms`.
    pub first_retry_ms: u64,
    pub max_retry_ms: u64,
    /// Sends per second per phone number (the Cloud API's default is 80).
    pub rate_per_second: f64,
    /// How often the worker looks for due retries.
    pub poll_ms: u64,
}

#[derive(Clone, Deserialize)]
pub struct PushSettings {
    /// The VAPID `sub` claim, how push services reach the operator (`mailto:` or `https:`);
    /// empty means the public URL.
    pub subject: String,
    /// Hex of the 32-byte P-256 private key; empty: generated on first start and kept in the
    /// data dir (`vapid.key`). Every node of one deployment needs the same key.
    pub vapid_private_key: String,
    /// Notifications waiting for the sender; beyond this they are dropped, never the webhook
    /// slowed.
    pub queue_len: usize,
    /// Accepts `http://` endpoints on local addresses (a local push service in tests); real
    /// ones are `https://` on public addresses.
    pub allow_http_endpoints: bool,
    /// Native push to the Android and iOS apps.
    pub fcm: FcmSettings,
}

/// Firebase Cloud Messaging (HTTP v1); both `project_id` and `service_account_file` empty
/// leaves native push off.
#[derive(Clone, Debug, Deserialize)]
pub struct FcmSettings {
    /// The Firebase project the apps are registered in.
    pub project_id: String,
    /// The service account's JSON key file (a secret: it is read, never logged).
    pub service_account_file: PathBuf,
    /// FCM's base URL.
    pub endpoint: String,
}

impl fmt::Debug for PushSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushSettings")
            .field("subject", &self.subject)
            .field("vapid_private_key", &"[redacted]")
            .field("queue_len", &self.queue_len)
            .field("allow_http_endpoints", &self.allow_http_endpoints)
            .field("fcm", &self.fcm)
            .finish()
    }
}

#[derive(Clone, Debug, Deserialize)]
pub struct SandboxSettings {
    /// Typical delays of the receipts (each varies ±50 %).
    pub sent_delay_ms: u64,
    pub delivered_delay_ms: u64,
    pub read_delay_ms: u64,
    /// Chance that a customer answers a message they read.
    pub reply_probability: f64,
    /// Customers who write in to a newly registered business.
    pub simulated_customers: usize,
    /// The throughput limit the sandbox enforces per number.
    pub rate_per_second: f64,
    /// How long a submitted template stays PENDING.
    pub template_review_ms: u64,
}

#[derive(Clone, Debug, Deserialize)]
pub struct RealtimeSettings {
    /// Resume window: older gaps get `reset`.
    pub event_retention_secs: u64,
    /// Bound of each session's outgoing queue.
    pub session_queue_len: usize,
    pub conversation_idle_secs: u64,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ServerSettings {
    /// Listen address, `127.0.0.1:0` in tests.
    pub bind: String,
    /// SQLite file, generated secrets and media live here.
    pub data_dir: PathBuf,
    /// Built web app served at `/` when the directory exists.
    pub web_dir: PathBuf,
    /// Where the browser reaches the app; OAuth returns here.
    pub public_url: String,
}

#[derive(Clone, Deserialize)]
pub struct DatabaseSettings {
    /// Empty means the embedded SQLite file in the data dir.
    pub url: String,
    pub max_connections: u32,
    /// `full` or `normal`, for SQLite only.
    pub sqlite_synchronous: String,
}

impl fmt::Debug for DatabaseSettings {
    // The URL may hold a password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatabaseSettings")
            .field("url", &redact_url(&self.url))
            .field("max_connections", &self.max_connections)
            .field("sqlite_synchronous", &self.sqlite_synchronous)
            .finish()
    }
}

#[derive(Clone, Deserialize)]
pub struct AuthSettings {
    pub access_token_ttl_secs: u64,
    pub refresh_token_ttl_secs: u64,
    /// A spent refresh token presented again this soon after its use gets a new pair instead
    /// of ending its family (a lost answer retried, two tabs refreshing at once); 0 disables.
    pub refresh_reuse_grace_secs: u64,
    pub max_failed_logins_per_account: u32,
    pub max_failed_logins_per_address: u32,
    /// Registrations allowed per client address inside `failed_login_window_secs`.
    pub max_registrations_per_address: u32,
    pub failed_login_window_secs: u64,
    pub lockout_secs: u64,
    /// Empty: generated on first start and kept in the data dir.
    pub jwt_secret: String,
    /// Header in which a trusted reverse proxy passes the client address (`X-Forwarded-For`:
    /// its last entry counts). Empty: the TCP peer address. Only set it behind a proxy that
    /// writes the header, or clients choose their own address for login throttling.
    #[serde(default)]
    pub client_address_header: String,
}

impl fmt::Debug for AuthSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthSettings")
            .field("access_token_ttl_secs", &self.access_token_ttl_secs)
            .field("refresh_token_ttl_secs", &self.refresh_token_ttl_secs)
            .field("refresh_reuse_grace_secs", &self.refresh_reuse_grace_secs)
            .field("lockout_secs", &self.lockout_secs)
            .field("client_address_header", &self.client_address_header)
            .field("jwt_secret", &"[redacted]")
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Deserialize)]
pub struct GoogleSettings {
    /// Empty disables Google sign-in.
    pub client_id: String,
    pub client_secret: String,
    pub auth_url: String,
    pub token_url: String,
    pub jwks_url: String,
    /// Accepted `iss` values of ID tokens.
    pub issuers: Vec<String>,
}

impl fmt::Debug for GoogleSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GoogleSettings")
            .field("client_id", &self.client_id)
            .field("client_secret", &"[redacted]")
            .field("auth_url", &self.auth_url)
            .field("token_url", &self.token_url)
            .field("jwks_url", &self.jwks_url)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug, Deserialize)]
pub struct ProviderSettings {
    /// `sandbox` or `cloud`.
    pub kind: String,
    /// Cloud API base; empty with the sandbox means this server's own `/sandbox`.
    pub base_url: String,
    pub graph_version: String,
}

impl Settings {
    /// Reads the layered configuration: the built-in defaults, then `config/default.toml` and
    /// `config/local.toml` under `root` when present, then the environment.
    pub fn load(root: &Path) -> anyhow::Result<Settings> {
        let dir = root.join("config");
        let mut settings: Settings = config::Config::builder()
            .add_source(config::File::from_str(
                include_str!("../../config/default.toml"),
                config::FileFormat::Toml,
            ))
            .add_source(config::File::from(dir.join("default.toml")).required(false))
            .add_source(config::File::from(dir.join("local.toml")).required(false))
            .add_source(
                config::Environment::with_prefix("PARLEY")
                    .prefix_separator("_")
                    .separator("__")
                    .list_separator(",")
                    .with_list_parse_key("google.issuers")
                    .with_list_parse_key("metrics.allow")
                    .try_parsing(true),
            )
            .build()?
            .try_deserialize()?;
        if let Ok(url) = std::env::var("DATABASE_URL") {
            settings.database.url = url;
        }
        Ok(settings)
    }

    /// The database URL in force: the configured one (a Postgres one with its statement cache,
    /// `with_statement_cache`), else SQLite in the data dir.
    pub fn database_url(&self) -> String {
        if self.database.url.is_empty() {
            format!(
                "sqlite://{}?mode=rwc",
                self.server.data_dir.join("parley.db").display()
            )
        } else {
            with_statement_cache(&self.database.url)
        }
    }
}

/// Prepared statements each Postgres connection keeps (sqlx keeps 100 unless told). The
/// group-commit writer's multi-row statements differ with a batch's size, several hundred texts
/// in all, and one pushed out of the cache is parsed and planned again
/// (docs/decisions/0043-a-larger-statement-cache-on-postgres.md).
const POSTGRES_STATEMENT_CACHE: usize = 1000;

/// A Postgres URL with `statement-cache-capacity` unless it names one; any other as it is.
fn with_statement_cache(raw: &str) -> String {
    const KEY: &str = "statement-cache-capacity";
    match url::Url::parse(raw) {
        Ok(mut parsed)
            if parsed.scheme().starts_with("postgres")
                && !parsed.query_pairs().any(|(key, _)| key == KEY) =>
        {
            let capacity = POSTGRES_STATEMENT_CACHE.to_string();
            parsed.query_pairs_mut().append_pair(KEY, &capacity);
            parsed.to_string()
        }
        _ => raw.to_string(),
    }
}

/// `postgres://user:secret@host/db` → `postgres://user:***@host/db`, for logs.
pub fn redact_url(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(mut parsed) if parsed.password().is_some() => {
            // A URL that has a password can always take another one.
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => raw.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::with_statement_cache;

    #[test]
    fn a_postgres_url_keeps_a_thousand_statements_unless_it_says_otherwise() {
        assert_eq!(
            with_statement_cache("postgres://parley:secret@db:5432/parley?sslmode=require"),
            "postgres://parley:secret@db:5432/parley?sslmode=require&statement-cache-capacity=1000"
        );
        assert_eq!(
            with_statement_cache("postgresql://db/parley"),
            "postgresql://db/parley?statement-cache-capacity=1000"
        );
        let own = "postgres://db/parley?statement-cache-capacity=50";
        assert_eq!(with_statement_cache(own), own);
        let sqlite = "sqlite:///data/parley.db?mode=rwc";
        assert_eq!(with_statement_cache(sqlite), sqlite);
    }
}
