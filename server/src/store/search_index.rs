//! The search documents, kept in step with what they index: written in the transaction of each
//! change (new messages, edits, deletions, renumbering, contacts). The one-time passes over what
//! was stored before are in `search_backfill`, the full-text indexes in `full_text`.

use serde_json::Value;
use sqlx::AnyConnection;

use super::{Params, key_list, rows_per_statement};
use crate::search_text::index_text;

/// Kind of a contact's document (name and number); a message's document has the message's kind.
pub(super) const CONTACT: &str = "contact";
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
pub(super) fn indexed(body: &str) -> String {
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
