//! The search documents, kept in step with what they index: written in the transaction of each
//! change (new messages, edits, deletions, renumbering, contacts), and the one-time indexing of
//! what was stored before search existed (the full-text indexes over them are in `full_text`).

use serde_json::Value;
use sqlx::AnyConnection;

use super::{Params, Store, key_list, now_ms, rows_per_statement};
use crate::search_text::index_text;

/// Kind of a contact's document (name and number); a message's document has the message's kind.
pub(super) const CONTACT: &str = "contact";
/// Items read per step of the one-time indexing.
const BACKFILL_BATCH: i64 = 500;
/// The most of a document's folded text that is indexed, in bytes: a Postgres `tsvector` holds
/// under 1 MB, and a text of short distinct words takes up to about five times its length in
/// one. The document keeps its whole text; words past this are not found.
const INDEXED_MAX: usize = 128 * 1024;

/// One searchable item.
pub(super) struct Document {
    pub doc_id: String,
    pub phone: String,
    pub kind: String,
    pub at: i64,
    /// The text as written; snippets are cut from it.
    pub body: String,
}

/// The searchable text of a message: its text (or body), caption and file name. Activity
/// entries and deleted messages have none.
fn message_text(kind: &str, content: &Value) -> String {
    let file_name = content.get(kind).and_then(|media| media.get("filename"));
    [
        content.get("text").or_else(|| content.get("body")),
        content.get("caption"),
        file_name,
    ]
    .into_iter()
    .flatten()
    .filter_map(Value::as_str)
    .filter(|part| !part.trim().is_empty())
    .collect::<Vec<_>>()
    .join("\n")
}

/// A stored message as its search document is made from it.
pub(super) struct MessageSource<'a> {
    pub message_id: &'a str,
    pub phone: &'a str,
    pub kind: &'a str,
    pub sent_at: i64,
    /// The stored content (JSON).
    pub content: &'a str,
}

/// A message's document, if it has searchable text.
fn message_document(message: &MessageSource) -> Option<Document> {
    let content: Value = serde_json::from_str(message.content).ok()?;
    let body = message_text(message.kind, &content);
    (!body.is_empty()).then(|| Document {
        doc_id: message.message_id.to_string(),
        phone: message.phone.to_string(),
        kind: message.kind.to_string(),
        at: message.sent_at,
        body,
    })
}

/// Writes (or rewrites) documents, several rows per statement.
async fn write_documents(
    conn: &mut AnyConnection,
    business_id: &str,
    documents: &[Document],
) -> Result<(), sqlx::Error> {
    for chunk in documents.chunks(rows_per_statement(7)) {
        let sql = format!(
            "INSERT INTO search_documents (business_id, doc_id, phone, kind, at, body, folded) \
             VALUES {} ON CONFLICT (business_id, doc_id) DO UPDATE SET phone = excluded.phone, \
             kind = excluded.kind, at = excluded.at, body = excluded.body, \
             folded = excluded.folded",
            Params::of(conn).rows(chunk.len(), 7)
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
        for document in chunk {
            insert = insert
                .bind(business_id)
                .bind(&document.doc_id)
                .bind(&document.phone)
                .bind(&document.kind)
                .bind(document.at)
                .bind(&document.body)
                .bind(indexed(&document.body));
        }
        insert.execute(&mut *conn).await?;
    }
    Ok(())
}

/// The folded text a document is indexed by, cut to `INDEXED_MAX` after its last whole word.
fn indexed(body: &str) -> String {
    let mut folded = index_text(body);
    if folded.len() > INDEXED_MAX {
        let mut cut = INDEXED_MAX;
        while !folded.is_char_boundary(cut) {
            cut -= 1;
        }
        let end = folded[..cut].rfind(' ').unwrap_or(cut);
        folded.truncate(end);
    }
    folded
}

/// Indexes new messages (one multi-row statement per chunk).
pub(super) async fn index_messages(
    conn: &mut AnyConnection,
    business_id: &str,
    messages: &[MessageSource<'_>],
) -> Result<(), sqlx::Error> {
    let documents: Vec<Document> = messages.iter().filter_map(message_document).collect();
    write_documents(conn, business_id, &documents).await
}

/// Re-indexes a changed message: its new text replaces the old; without text it leaves the
/// index.
pub(super) async fn reindex_message(
    conn: &mut AnyConnection,
    business_id: &str,
    message: &MessageSource<'_>,
) -> Result<(), sqlx::Error> {
    match message_document(message) {
        Some(document) => write_documents(conn, business_id, &[document]).await,
        None => {
            sqlx::query("DELETE FROM search_documents WHERE business_id = $1 AND doc_id = $2")
                .bind(business_id)
                .bind(message.message_id)
                .execute(&mut *conn)
                .await?;
            Ok(())
        }
    }
}

/// Follows a sent message to the id the provider gave it.
pub(super) async fn rename_document(
    conn: &mut AnyConnection,
    business_id: &str,
    from: &str,
    to: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE search_documents SET doc_id = $1 WHERE business_id = $2 AND doc_id = $3")
        .bind(to)
        .bind(business_id)
        .bind(from)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Indexes the contacts (name and number) as they are stored now, each dated at its first
/// message (at its creation before it has one): a customer turns up in search where they
/// entered the history, and a history written in the past is not crowned by its contacts.
pub(super) async fn index_contacts(
    conn: &mut AnyConnection,
    business_id: &str,
    phones: &[&str],
) -> Result<(), sqlx::Error> {
    if phones.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "SELECT c.phone, c.name, COALESCE((SELECT MIN(m.sent_at) FROM messages m \
         WHERE m.business_id = c.business_id AND m.phone = c.phone), c.created_at) \
         FROM contacts c WHERE c.business_id = $1 AND {}",
        Params::of(conn).one_of("c.phone", 2)
    );
    // Only the list's text is formatted in; the values are bound.
    let found: Vec<(String, String, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(business_id)
        .bind(key_list(phones)?)
        .fetch_all(&mut *conn)
        .await?;
    let documents: Vec<Document> = found.into_iter().map(contact_document).collect();
    write_documents(conn, business_id, &documents).await?;
    Ok(())
}

fn contact_document((phone, name, first_at): (String, String, i64)) -> Document {
    Document {
        doc_id: format!("{CONTACT}:{phone}"),
        body: format!("{name}\n{phone}").trim().to_string(),
        phone,
        kind: CONTACT.into(),
        at: first_at,
    }
}

/// Moves a conversation's documents to another customer key, before its messages move (they are
/// found by their messages' ids: SQLite keeps no index of documents by conversation, see
/// `full_text`); the old key's contact document goes (the caller indexes the contact under its
/// new key).
pub(super) async fn move_documents(
    conn: &mut AnyConnection,
    business_id: &str,
    from: &str,
    to: &str,
) -> Result<(), sqlx::Error> {
    remove_contact_document(conn, business_id, from).await?;
    sqlx::query(
        "UPDATE search_documents SET phone = $1 WHERE business_id = $2 AND doc_id IN \
         (SELECT message_id FROM messages WHERE business_id = $2 AND phone = $3)",
    )
    .bind(to)
    .bind(business_id)
    .bind(from)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Removes a conversation's documents, before its messages are deleted (found by their ids, as
/// in `move_documents`).
pub(super) async fn remove_documents(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
) -> Result<(), sqlx::Error> {
    remove_contact_document(conn, business_id, phone).await?;
    sqlx::query(
        "DELETE FROM search_documents WHERE business_id = $1 AND doc_id IN \
         (SELECT message_id FROM messages WHERE business_id = $1 AND phone = $2)",
    )
    .bind(business_id)
    .bind(phone)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn remove_contact_document(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM search_documents WHERE business_id = $1 AND doc_id = $2")
        .bind(business_id)
        .bind(format!("{CONTACT}:{phone}"))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

impl Store {
    /// Creates this backend's full-text indexes and indexes what was stored before them, once.
    pub(super) async fn prepare_search(&self) -> Result<(), sqlx::Error> {
        self.prepare_full_text().await?;
        let done: Option<(String,)> =
            sqlx::query_as("SELECT name FROM search_backfills WHERE name = 'history'")
                .fetch_optional(&self.pool)
                .await?;
        if done.is_none() {
            self.backfill_messages().await?;
            self.backfill_contacts().await?;
            self.backfill_done("history").await?;
            // What was just indexed is folded by today's rules.
            self.backfill_done(COMPOSED_MARKS).await?;
        }
        let refolded: Option<(String,)> =
            sqlx::query_as("SELECT name FROM search_backfills WHERE name = $1")
                .bind(COMPOSED_MARKS)
                .fetch_optional(&self.pool)
                .await?;
        if refolded.is_none() {
            self.refold_documents().await?;
            self.backfill_done(COMPOSED_MARKS).await?;
        }
        Ok(())
    }

    /// Notes that the one-time pass `name` is done.
    async fn backfill_done(&self, name: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO search_backfills (name, finished_at) VALUES ($1, $2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(name)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Folds every document again by today's rules, in batches, rewriting those that change
    /// (documents indexed before combining marks joined their letter: a decomposed `é` split
    /// its word in two).
    async fn refold_documents(&self) -> Result<(), sqlx::Error> {
        let (mut business, mut doc) = (String::new(), String::new());
        loop {
            let rows: Vec<(String, String, String, String)> = sqlx::query_as(
                "SELECT business_id, doc_id, body, folded FROM search_documents \
                 WHERE business_id > $1 OR (business_id = $2 AND doc_id > $3) \
                 ORDER BY business_id, doc_id LIMIT $4",
            )
            .bind(&business)
            .bind(&business)
            .bind(&doc)
            .bind(BACKFILL_BATCH)
            .fetch_all(&self.pool)
            .await?;
            let Some(last) = rows.last() else {
                return Ok(());
            };
            (business, doc) = (last.0.clone(), last.1.clone());
            let mut tx = self.begin_write().await?;
            for (business_id, doc_id, body, folded) in &rows {
                let now = indexed(body);
                if now != *folded {
                    sqlx::query(
                        "UPDATE search_documents SET folded = $1 \
                         WHERE business_id = $2 AND doc_id = $3",
                    )
                    .bind(now)
                    .bind(business_id)
                    .bind(doc_id)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            tx.commit().await?;
        }
    }

    /// Indexes every stored message, in batches (rewriting a document is harmless).
    async fn backfill_messages(&self) -> Result<(), sqlx::Error> {
        let (mut business, mut id) = (String::new(), String::new());
        loop {
            let rows: Vec<StoredMessage> = sqlx::query_as(
                "SELECT business_id, message_id, phone, kind, sent_at, content FROM messages \
                 WHERE business_id > $1 OR (business_id = $2 AND message_id > $3) \
                 ORDER BY business_id, message_id LIMIT $4",
            )
            .bind(&business)
            .bind(&business)
            .bind(&id)
            .bind(BACKFILL_BATCH)
            .fetch_all(&self.pool)
            .await?;
            let Some(last) = rows.last() else {
                return Ok(());
            };
            (business, id) = (last.0.clone(), last.1.clone());
            let mut tx = self.begin_write().await?;
            for run in rows.chunk_by(|a, b| a.0 == b.0) {
                let messages: Vec<MessageSource> = run
                    .iter()
                    .map(
                        |(_, message_id, phone, kind, sent_at, content)| MessageSource {
                            message_id,
                            phone,
                            kind,
                            sent_at: *sent_at,
                            content,
                        },
                    )
                    .collect();
                index_messages(&mut tx, &run[0].0, &messages).await?;
            }
            tx.commit().await?;
        }
    }

    /// Indexes every stored contact, in batches.
    async fn backfill_contacts(&self) -> Result<(), sqlx::Error> {
        let (mut business, mut phone) = (String::new(), String::new());
        loop {
            let rows: Vec<(String, String)> = sqlx::query_as(
                "SELECT business_id, phone FROM contacts \
                 WHERE business_id > $1 OR (business_id = $2 AND phone > $3) \
                 ORDER BY business_id, phone LIMIT $4",
            )
            .bind(&business)
            .bind(&business)
            .bind(&phone)
            .bind(BACKFILL_BATCH)
            .fetch_all(&self.pool)
            .await?;
            let Some(last) = rows.last() else {
                return Ok(());
            };
            (business, phone) = last.clone();
            let mut tx = self.begin_write().await?;
            for run in rows.chunk_by(|a, b| a.0 == b.0) {
                let phones: Vec<&str> = run.iter().map(|(_, phone)| phone.as_str()).collect();
                index_contacts(&mut tx, &run[0].0, &phones).await?;
            }
            tx.commit().await?;
        }
    }
}

/// The one-time pass that folds documents indexed before combining marks joined their letter.
const COMPOSED_MARKS: &str = "composed_marks";

/// A stored message as the one-time indexing reads it: business, id, customer key, kind, time
/// and content.
type StoredMessage = (String, String, String, String, i64, String);

#[cfg(test)]
mod tests {
    use super::{INDEXED_MAX, indexed};

    #[test]
    fn a_long_text_is_indexed_up_to_the_cap_on_a_character_boundary() {
        for pad in 0..4 {
            let body = format!("{} {}", "x".repeat(pad + 1), "ж".repeat(INDEXED_MAX));
            let folded = indexed(&body);
            assert!(folded.len() <= INDEXED_MAX, "{}", folded.len());
            assert!(folded.starts_with('x'), "{pad}");
        }
        assert_eq!(
            indexed("Short text"),
            crate::search_text::index_text("Short text")
        );
    }
}
