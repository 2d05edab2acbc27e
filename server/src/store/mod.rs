//! The one data-access layer, over sqlx's `Any` driver so the same SQL serves SQLite and
//! Postgres. Every query that touches tenant data names the business it is scoped to.
//!
//! - `error`: what a store call answers when it fails
//! - `businesses`: tenants and their provider credentials
//! - `users`: owners and agents
//! - `tokens`: refresh tokens, rotation and reuse detection
//! - `events`: the numbered event log, its replay on resume, and pruning
//! - `contacts`: the conversation list; adding, editing and deleting contacts
//! - `contact_import`: importing contacts, a few statements per thousand
//! - `customers`: which customer an inbound message is from; linking a phone and a BSUID
//! - `profiles`: the one rule by which a customer's deliveries update their contact's name and
//!   ids
//! - `unread`: unread totals and marking a conversation read
//! - `messages`: stored messages, their events, and a conversation's history
//! - `receipts`: status changes of our messages, and receipts that beat their message
//! - `outgoing`: our sends, recorded before the attempt, and the provider's answer
//! - `amend`: each side's edits and deletions of its earlier messages, and reactions
//! - `reactions`: each side's reaction on a message, and when it last changed
//! - `quotes`: what a quoted reply shows of the message it answers
//! - `echoes`: messages the business sent from the WhatsApp Business app
//! - `conversations`: the actors' `ConversationStore`, over the modules above
//! - `ingest`: group commit of inbound messages and receipts (`batch`: one batch's SQL,
//!   `threads`: its conversations' contacts and message times)
//! - `flush`: a batch's shared rows released before its WAL flush (Postgres)
//! - `params`: the bind parameters of generated statements (rows of values, lists of keys)
//! - `logins`: failed sign-ins, for login throttling
//! - `outbox`: sends waiting for the provider, and stored media files
//! - `templates`: message templates and bulk template sends
//! - `replies`: automated replies, their flow steps and cooldown memory
//! - `reply_edits`: saving and deleting a reply with its files and flow steps
//! - `push`: Web Push subscriptions of the business's users
//! - `list_filter`: the conversation list's status and assignee filter
//! - `internal`: activity entries and private notes in a conversation's history
//! - `team`: a conversation's status and assignee as members change them, notes, tab counts
//! - `team_auto`: the changes the server makes itself (reopen, snoozes, claim timeouts,
//!   round robin)
//! - `team_settings`: the business's assignment mode and claim timeout
//! - `canned`: canned replies, the ready texts agents insert by shortcut
//! - `labels`: the business's labels, and the labels of the list's rows
//! - `caseless_keys`: label names' and shortcuts' unique keys folded again at start
//! - `labelled`: a conversation's labels set, and a label deleted from every conversation
//! - `search_index`: search documents kept in step with messages, notes and contacts
//! - `search_backfill`: the one-time passes over older history (indexing it, folding it again)
//! - `full_text`: the backend's full-text indexes over the search documents (every document,
//!   and the contacts' alone)
//! - `search`: full-history search over those documents
//! - `reports`: message counts per quarter hour and the histories reports are computed from
//!
//! Imports between them go one way: `conversations` uses `ingest` and `outgoing`; `ingest` uses
//! `amend` (which uses `reactions`) and `echoes`; they use `messages`, `contacts`, `unread` and
//! `receipts`, which use `events`; `ingest`, `amend`, `echoes` and `receipts` update contacts
//! through `profiles`, which uses `contacts`; `messages`, `amend`, `contacts`, `customers`, `profiles`
//! and `outgoing` keep `search_index` in step.

mod amend;
mod businesses;
mod canned;
mod caseless_keys;
mod contact_import;
mod contact_list;
mod contacts;
mod conversations;
mod customers;
mod early_amendments;
mod echoes;
mod error;
mod events;
mod flush;
mod full_text;
mod ingest;
mod internal;
mod labelled;
mod labels;
mod list_anywhere;
mod list_filter;
mod list_query;
mod logins;
mod messages;
mod outbox;
mod outgoing;
mod params;
mod profiles;
mod push;
mod quotes;
mod reactions;
mod receipts;
mod replies;
mod reply_edits;
mod reports;
mod search;
mod search_backfill;
mod search_index;
mod team;
mod team_auto;
mod team_settings;
mod template_upkeep;
mod templates;
mod tokens;
mod unread;
mod users;
mod word_match;

pub use businesses::{Business, ProviderCredentials};
pub use canned::{CannedMedia, CannedReply};
pub use contact_import::ImportCounts;
pub use contact_list::{ContactPage, ContactRow, ConversationJson};
pub use error::{Account, Error, StoreResult};
pub use ingest::{Committed, NewInbound, NewMedia};
pub use labels::Label;
pub use list_filter::{AssigneeFilter, ListFilter};
pub(crate) use messages::preview;
pub use messages::{HistoryCursor, MessageJson, MessageRow};
pub use outbox::{MediaFile, OutboxItem};
pub use outgoing::OUTBOX_LEASE_MS;
pub use push::{MAX_PUSH_SUBSCRIPTIONS_PER_USER, PushSubscription};
pub use receipts::PAYMENT_ERROR_CODE;
pub use replies::{FlowStep, MatchMode, QuickReplyButton, Reply, ReplyMedia, trigger_key};
pub use reports::{SlotCount, Step, TimelineRow};
pub use search::{Cursor, SearchHit, SearchScope, parse_cursor};
pub use team::{Assigned, Person, TabCounts};
pub use team_auto::Standing;
pub use team_settings::TeamSettings;
pub use templates::{JobRecipient, SendJob, TemplateJson, TemplateRow};
pub use tokens::RefreshOutcome;
pub use users::{NewUser, ROLE_AGENT, ROLE_OWNER, User, UserChanges};

use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, ConnectOptions, Connection as _, Executor};

use crate::config::Settings;
use params::{Params, key_list, rows_per_statement};

/// Which database sits behind the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a connection talks to.
    pub(super) fn of(conn: &sqlx::AnyConnection) -> Backend {
        match conn.backend_name() {
            "SQLite" => Backend::Sqlite,
            _ => Backend::Postgres,
        }
    }

    /// ` FOR UPDATE` / ` FOR SHARE` after a read on Postgres, so writers of the same rows take
    /// turns instead of one failing on a key the other wrote; nothing on SQLite, whose writing
    /// transactions (`BEGIN IMMEDIATE`) already take turns.
    pub(super) fn row_lock(self, exclusive: bool) -> &'static str {
        match (self, exclusive) {
            (Backend::Sqlite, _) => "",
            (Backend::Postgres, true) => " FOR UPDATE",
            (Backend::Postgres, false) => " FOR SHARE",
        }
    }

    /// `column` compared by its bytes, as SQLite compares text. Postgres compares text by its
    /// database's collation (a language's rules under `en_US.utf8`), so an order or a cursor
    /// over ids would otherwise differ between the backends.
    pub(super) fn byte_order(self, column: &str) -> String {
        match self {
            Backend::Sqlite => column.to_string(),
            Backend::Postgres => format!("{column} COLLATE \"C\""),
        }
    }

    /// ` INDEXED BY index` on SQLite, which has no statistics to pick it by; nothing on
    /// Postgres, which plans by its own.
    pub(super) fn indexed_by(self, index: &str) -> String {
        match self {
            Backend::Sqlite => format!(" INDEXED BY {index}"),
            Backend::Postgres => String::new(),
        }
    }
}

/// Cheap to clone: a handle on the pool.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// Picks the migration set and a few dialect details.
    backend: Backend,
    /// The group-commit writer of inbound messages and receipts.
    ingest: ingest::Ingest,
    /// What the writer hands over after each commit, until the tasks that follow it up take it.
    hand_overs: Arc<Mutex<ingest::HandOvers>>,
    /// Webhook routing, remembered (`business_by_phone_number_id`).
    routes: businesses::Routes,
}

/// One set of migrations for both backends: the SQL keeps to what SQLite and Postgres share
/// (TEXT, BIGINT, ON CONFLICT, partial indexes), so the two schemas cannot drift apart.
static MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// Every SQLite connection's settings but `synchronous` (configured). Statement journals (a
/// multi-row statement's undo within its transaction) stay in memory: as a temporary file, each
/// batch's journal went through the kernel a page at a time
/// (docs/decisions/0045-statement-journals-in-memory.md).
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode=WAL; PRAGMA temp_store=MEMORY; \
    PRAGMA busy_timeout=10000; PRAGMA foreign_keys=ON;";

/// How long a pooled Postgres connection may sit idle before it is pinged on acquire.
const PING_WHEN_IDLE: Duration = Duration::from_secs(1);

impl Store {
    /// Connects to the configured database; creates the data dir for SQLite.
    pub async fn connect(settings: &Settings) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let url = settings.database_url();
        let backend = if url.starts_with("postgres") {
            Backend::Postgres
        } else if url.starts_with("sqlite") {
            std::fs::create_dir_all(&settings.server.data_dir)
                .context("Failed to create the data dir")?;
            Backend::Sqlite
        } else {
            anyhow::bail!("unsupported database URL scheme (use sqlite:// or postgres://)");
        };
        let options = AnyConnectOptions::from_str(&url)
            .context("Failed to parse the database URL")?
            .disable_statement_logging();
        let synchronous = match settings.database.sqlite_synchronous.as_str() {
            "normal" => "PRAGMA synchronous=NORMAL",
            _ => "PRAGMA synchronous=FULL",
        };
        let mut pool_options =
            AnyPoolOptions::new().max_connections(settings.database.max_connections);
        if backend == Backend::Postgres {
            // A Postgres connection's socket belongs to the runtime that opened it, and each
            // HTTP worker has its own, stopped before the server's future ends: connections a
            // request opened died under the main runtime's tasks at shutdown. So the pool opens
            // them all here, on the main runtime, and keeps them (none is reaped for age or
            // idleness; a broken one is still found by the ping after idling).
            pool_options = pool_options
                .min_connections(settings.database.max_connections)
                .idle_timeout(None)
                .max_lifetime(None);
        }
        let pool = pool_options
            // A SQLite connection is a local file that does not go stale; pinging it before each
            // use is one more round trip to its worker thread (about 0.1 ms here). A Postgres
            // connection may have been dropped by the server while it sat idle, so one idle for
            // a while is pinged first; one that was just in use is not: under load a ping per
            // acquire was a round trip per media lookup and follow-up read, on the same core
            // as Postgres (docs/decisions/0022-postgres-ingest-round-trips.md).
            .test_before_acquire(false)
            .before_acquire(move |conn, meta| {
                Box::pin(async move {
                    if backend == Backend::Postgres && meta.idle_for > PING_WHEN_IDLE {
                        conn.ping().await?;
                    }
                    Ok(true)
                })
            })
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    match backend {
                        Backend::Sqlite => {
                            conn.execute(SQLITE_PRAGMAS).await?;
                            conn.execute(synchronous).await?
                        }
                        // No parallel plans: starting workers costs tens of milliseconds on a
                        // busy node, more than the reads it would share out
                        // (docs/decisions/0033-no-parallel-query-on-postgres.md).
                        Backend::Postgres => {
                            conn.execute("SET max_parallel_workers_per_gather = 0")
                                .await?
                        }
                    };
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .with_context(|| format!("Failed to connect to {}", crate::config::redact_url(&url)))?;
        let (ingest, writer, hand_overs) = ingest::Ingest::new();
        let store = Store {
            pool,
            backend,
            ingest,
            hand_overs,
            routes: businesses::Routes::default(),
        };
        tokio::spawn(ingest::run(store.clone(), writer));
        Ok(store)
    }

    /// Applies the migrations, then what the shared SQL cannot say: this backend's full-text
    /// search index (and, once, indexing the history stored before it), and the unique keys of
    /// label names and shortcuts folded by today's rules.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        MIGRATIONS
            .run(&self.pool)
            .await
            .context("Failed to apply migrations")?;
        self.prepare_search()
            .await
            .context("Failed to prepare the search index")?;
        self.refold_keys()
            .await
            .context("Failed to fold label names and canned-reply shortcuts again")
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A trivial round trip, for the health check.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Opens a transaction that writes: SQLite takes the write lock at once (`BEGIN IMMEDIATE`),
    /// so concurrent writers queue instead of failing on a stale snapshot.
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        self.pool.begin_with(self.write_start()).await
    }

    /// The statement that opens a writing transaction on this backend.
    fn write_start(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        }
    }
}

/// Unix milliseconds now; every timestamp column holds these.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// True when the error is a unique-constraint violation (a duplicate).
pub fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// Unix milliseconds as the API writes times: RFC 3339 UTC with milliseconds.
pub fn iso_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Reads a time the API was given: RFC 3339, or Unix seconds or milliseconds of a date a
/// calendar can show (`iso_time` writes it back).
pub fn parse_time(raw: &str) -> Option<i64> {
    if let Ok(number) = raw.trim().parse::<i64>() {
        // Ten or fewer digits are seconds (until the year 2286).
        let ms = if number.abs() < 10_000_000_000 {
            number * 1000
        } else {
            number
        };
        return chrono::DateTime::from_timestamp_millis(ms).map(|_| ms);
    }
    chrono::DateTime::parse_from_rfc3339(raw.trim())
        .ok()
        .map(|t| t.timestamp_millis())
}

#[cfg(test)]
mod tests {
    use super::Store;
    use crate::config::Settings;

    #[tokio::test]
    async fn postgres_connections_make_no_parallel_plans() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut settings = Settings::load(&root).expect("config loads");
        settings.database.url = std::env::var("PARLEY_TEST_DATABASE_URL")
            .expect("PARLEY_TEST_DATABASE_URL must name a Postgres server (make test starts one)");
        settings.database.max_connections = 2;
        let store = Store::connect(&settings).await.expect("connects");
        // Two connections at once: each new one is set, not only the first.
        let (mut first, mut second) = (
            store.pool.acquire().await.expect("a connection"),
            store.pool.acquire().await.expect("another"),
        );
        for conn in [&mut first, &mut second] {
            let (workers,): (String,) = sqlx::query_as("SHOW max_parallel_workers_per_gather")
                .fetch_one(&mut **conn)
                .await
                .expect("the setting");
            assert_eq!(workers, "0");
        }
    }
}
