//! The backend's full-text indexes over the search documents: one over every document and one
//! over the contacts' documents alone (what the chat list's name search reads), created at
//! start-up and brought up to their current definition once when a database has an older one.

use std::time::Duration;

use sqlx::{AnyConnection, Executor};

use super::{Backend, Store};

/// How long the pending-list cleaner rests between passes: a pass moves what gathered meanwhile
/// into the indexes proper (at 1,000 messages/s, far less than the lists' 512 kB).
const PENDING_CLEAN_INTERVAL: Duration = Duration::from_millis(100);

/// How long the cleaner waits after a failed pass (the database down, or the role not owning
/// the indexes), so a lasting failure is one warning a minute.
const PENDING_CLEAN_BACKOFF: Duration = Duration::from_secs(60);

/// An SQLite FTS5 index over the folded text of search documents (external content: the words
/// live only in the index), kept in step by triggers.
struct Fts5 {
    name: &'static str,
    /// The `CREATE VIRTUAL TABLE` statement, compared with the one stored in `sqlite_master`:
    /// a database made with another definition gets the index made again.
    create: &'static str,
    /// The triggers that keep it in step (idempotent).
    triggers: &'static str,
    /// Drops those triggers (before the table is made again).
    drop_triggers: &'static str,
    /// Fills a new index from the documents already stored.
    fill: &'static str,
}

/// Every document, its words and its conversation's customer key (a conversation's search
/// matches both: its documents are the key's, found without an index of documents by
/// conversation). The prefix index of two-letter prefixes makes a short prefix (`th*`) one
/// doclist instead of the thousands of terms it stands for; longer prefixes expand few terms.
const EVERY_DOCUMENT: Fts5 = Fts5 {
    name: "search_fts",
    create: "CREATE VIRTUAL TABLE search_fts USING fts5(folded, phone, \
        content='search_documents', content_rowid='rowid', \
        tokenize='unicode61 remove_diacritics 0', prefix='2')",
    triggers: "\
CREATE TRIGGER IF NOT EXISTS search_documents_added AFTER INSERT ON search_documents BEGIN
    INSERT INTO search_fts(rowid, folded, phone) VALUES (new.rowid, new.folded, new.phone);
END;
CREATE TRIGGER IF NOT EXISTS search_documents_removed AFTER DELETE ON search_documents BEGIN
    INSERT INTO search_fts(search_fts, rowid, folded, phone)
        VALUES ('delete', old.rowid, old.folded, old.phone);
END;
CREATE TRIGGER IF NOT EXISTS search_documents_changed AFTER UPDATE ON search_documents BEGIN
    INSERT INTO search_fts(search_fts, rowid, folded, phone)
        VALUES ('delete', old.rowid, old.folded, old.phone);
    INSERT INTO search_fts(rowid, folded, phone) VALUES (new.rowid, new.folded, new.phone);
END;",
    drop_triggers: "DROP TRIGGER IF EXISTS search_documents_added; \
        DROP TRIGGER IF EXISTS search_documents_removed; \
        DROP TRIGGER IF EXISTS search_documents_changed;",
    fill: "INSERT INTO search_fts(search_fts) VALUES ('rebuild')",
};

/// The contacts' documents only (name and number): a name search reads a few hundred
/// thousand contacts' words instead of every message's. FTS5's `rebuild` would index every
/// document of the external content, so it is filled (and refilled) with the contacts alone.
const CONTACTS: Fts5 = Fts5 {
    name: "search_contacts",
    create: "CREATE VIRTUAL TABLE search_contacts USING fts5(folded, \
        content='search_documents', content_rowid='rowid', \
        tokenize='unicode61 remove_diacritics 0')",
    triggers: "\
CREATE TRIGGER IF NOT EXISTS search_contacts_added AFTER INSERT ON search_documents
WHEN new.kind = 'contact' BEGIN
    INSERT INTO search_contacts(rowid, folded) VALUES (new.rowid, new.folded);
END;
CREATE TRIGGER IF NOT EXISTS search_contacts_removed AFTER DELETE ON search_documents
WHEN old.kind = 'contact' BEGIN
    INSERT INTO search_contacts(search_contacts, rowid, folded)
        VALUES ('delete', old.rowid, old.folded);
END;
CREATE TRIGGER IF NOT EXISTS search_contacts_changed AFTER UPDATE ON search_documents
WHEN old.kind = 'contact' OR new.kind = 'contact' BEGIN
    INSERT INTO search_contacts(search_contacts, rowid, folded)
        SELECT 'delete', old.rowid, old.folded WHERE old.kind = 'contact';
    INSERT INTO search_contacts(rowid, folded)
        SELECT new.rowid, new.folded WHERE new.kind = 'contact';
END;",
    drop_triggers: "DROP TRIGGER IF EXISTS search_contacts_added; \
        DROP TRIGGER IF EXISTS search_contacts_removed; \
        DROP TRIGGER IF EXISTS search_contacts_changed;",
    fill: "INSERT INTO search_contacts(rowid, folded) \
        SELECT rowid, folded FROM search_documents WHERE kind = 'contact'",
};

/// SQLite keeps no index of the documents by conversation: every inbound message's entry in it
/// landed on a page of its own conversation, about a sixth of the pages each batch wrote. A
/// conversation's search matches its key in the words' index (`EVERY_DOCUMENT`), its deletion
/// and move find the documents by their messages' ids
/// (docs/decisions/0050-no-document-index-by-conversation-on-sqlite.md). Postgres keeps it: a
/// conversation's search walks it.
const SQLITE_DROPPED: &str = "DROP INDEX IF EXISTS search_documents_conversation";

/// Postgres: the contacts' words, the expression that the name search matches and that
/// `POSTGRES_INDEXES` indexes and keeps statistics of (the two must be the same expression).
macro_rules! contact_words {
    () => {
        "(CASE WHEN kind = 'contact' THEN words END)"
    };
}
pub(super) use contact_words;

/// Postgres: the documents' words stored once as a `tsvector` (a time-ordered walk checks each
/// row without parsing its text again) and a GIN index over them. The contacts' words are the
/// expression `CASE WHEN kind = 'contact' THEN words END` (null for every other document): a
/// GIN index over it, the contacts' documents by customer (a walk of the list's order checks
/// each conversation's name there, not among its messages'), and statistics of it. Those
/// statistics count the contacts alone, so the planner expects a common first name's thousands
/// of matches; the words' own count every document, and with `kind = 'contact'` asked apart the
/// planner took the two as independent and expected a tenth. Replaces the partial indexes over
/// `words` and the GIN index over the text of earlier versions. New entries wait in a pending
/// list that every search of an index reads through; 512 kB instead of the default 4 MB bounds
/// that read while keeping inserts batched. Idempotent; adding the column rewrites the table
/// once.
const POSTGRES_INDEXES: &str = concat!(
    "ALTER TABLE search_documents ADD COLUMN IF NOT EXISTS words tsvector \
        GENERATED ALWAYS AS (to_tsvector('simple', folded)) STORED;
    CREATE INDEX IF NOT EXISTS search_words ON search_documents USING GIN (words) \
        WITH (gin_pending_list_limit = 512);
    CREATE INDEX IF NOT EXISTS search_names ON search_documents USING GIN (",
    contact_words!(),
    ") WITH (gin_pending_list_limit = 512) WHERE ",
    contact_words!(),
    " IS NOT NULL;
    CREATE INDEX IF NOT EXISTS search_documents_named ON search_documents (business_id, phone) \
        WHERE ",
    contact_words!(),
    " IS NOT NULL;
    CREATE STATISTICS IF NOT EXISTS search_names_statistics ON (",
    contact_words!(),
    ") FROM search_documents;
    DROP INDEX IF EXISTS search_contact_words;
    DROP INDEX IF EXISTS search_documents_contact;
    DROP INDEX IF EXISTS search_documents_words;"
);

/// Postgres: whether `POSTGRES_INDEXES`' column is there (1 or 0), whether its statistics are,
/// and whether its three indexes are and none it replaces. Asked first, so that a node starting
/// on an up-to-date database takes no lock on the search documents: `ALTER TABLE` locks the
/// table against every read and `CREATE INDEX` against every write even when there is nothing
/// to make, and both wait for the other nodes' open transactions on it.
const POSTGRES_INDEXES_THERE: &str = "\
SELECT (SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() \
    AND table_name = 'search_documents' AND column_name = 'words'), \
    (SELECT COUNT(*) FROM pg_statistic_ext WHERE stxname = 'search_names_statistics' \
    AND stxnamespace = current_schema()::regnamespace), \
    (SELECT COUNT(*) = 3 FROM pg_indexes WHERE schemaname = current_schema() \
    AND tablename = 'search_documents' \
    AND indexname IN ('search_words', 'search_names', 'search_documents_named')) \
    AND NOT EXISTS (SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() \
    AND tablename = 'search_documents' AND indexname IN \
    ('search_contact_words', 'search_documents_contact', 'search_documents_words'))";

/// Makes `index` if it is missing or was made with another definition (filling it from the
/// stored documents), and its triggers.
async fn prepare_fts5(conn: &mut AnyConnection, index: &Fts5) -> Result<(), sqlx::Error> {
    let made: Option<(String,)> =
        sqlx::query_as("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = $1")
            .bind(index.name)
            .fetch_optional(&mut *conn)
            .await?;
    if made.as_ref().map(|(sql,)| sql.as_str()) != Some(index.create) {
        conn.execute(index.drop_triggers).await?;
        if made.is_some() {
            // Only the fixed name of one of our own indexes is formatted in.
            let drop = format!("DROP TABLE {}", index.name);
            conn.execute(sqlx::AssertSqlSafe(drop)).await?;
        }
        conn.execute(index.create).await?;
        conn.execute(index.fill).await?;
    }
    conn.execute(index.triggers).await?;
    Ok(())
}

impl Store {
    /// On Postgres, starts this node's cleaner of the GIN indexes' pending lists. An insert that
    /// finds a list full merges it into the index itself, inside its statement: tens of
    /// milliseconds that a batch of inbound messages waited for in its transaction, every few
    /// seconds. Cleaned from outside the batches, a list does not fill at 1,000 messages/s; an
    /// insert that finds a clean-up running does not wait for it
    /// (docs/decisions/0025-postgres-ingest-tail.md). Started by the server, not by `migrate`.
    pub fn spawn_pending_list_cleaner(&self) {
        if self.backend != Backend::Postgres {
            return;
        }
        let pool = self.pool.clone();
        tokio::spawn(async move {
            while !pool.is_closed() {
                tokio::time::sleep(PENDING_CLEAN_INTERVAL).await;
                let cleaned = sqlx::query(
                    "SELECT gin_clean_pending_list('search_words'::regclass), \
                     gin_clean_pending_list('search_names'::regclass)",
                )
                .execute(&pool)
                .await;
                if let Err(err) = cleaned
                    && !pool.is_closed()
                {
                    tracing::warn!(error = %err, "cleaning the search indexes' pending lists failed");
                    // Inserts still clean a full list themselves; try again later.
                    tokio::time::sleep(PENDING_CLEAN_BACKOFF).await;
                }
            }
        });
    }

    /// Creates this backend's full-text indexes, or brings an older definition up to date.
    pub(super) async fn prepare_full_text(&self) -> Result<(), sqlx::Error> {
        let mut tx = self.begin_write().await?;
        match self.backend {
            Backend::Sqlite => {
                for index in [&EVERY_DOCUMENT, &CONTACTS] {
                    prepare_fts5(&mut tx, index).await?;
                }
                tx.execute(SQLITE_DROPPED).await?;
                tx.commit().await
            }
            Backend::Postgres => {
                let (words, statistics, indexes): (i64, i64, bool) =
                    sqlx::query_as(POSTGRES_INDEXES_THERE)
                        .fetch_one(&mut *tx)
                        .await?;
                if words == 1 && statistics == 1 && indexes {
                    return tx.commit().await;
                }
                tx.execute(POSTGRES_INDEXES).await?;
                tx.commit().await?;
                if words == 0 {
                    // The rewritten table has no statistics on the new column (the planner
                    // needs them to choose between the word's index and a walk by time) and no
                    // visibility map (the time index is read index-only once it has one).
                    (&self.pool)
                        .execute("VACUUM (ANALYZE) search_documents")
                        .await?;
                } else if statistics == 0 {
                    // New statistics are empty until the table is analyzed.
                    (&self.pool).execute("ANALYZE search_documents").await?;
                }
                Ok(())
            }
        }
    }
}
