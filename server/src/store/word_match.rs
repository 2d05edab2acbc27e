//! The backend's full-text match of a query's words: the full-history search and the chat
//! list's name search read the same indexes through it.

use super::Backend;
use super::full_text::contact_words;
use crate::search_text::Query;

/// Which full-text index a match reads.
#[derive(Clone, Copy)]
pub(super) enum Documents<'a> {
    /// Every document (full-history search).
    Every,
    /// One conversation's documents (its customer key). On SQLite the index holds each
    /// document's key as a column of its own, so its words and the key are matched together.
    Conversation(&'a str),
    /// The contacts' documents alone (the chat list's name search). On Postgres their words are
    /// the expression of the index `search_names`, whose statistics count the contacts alone.
    Contacts,
}

/// The backend's full-text match of `query` on search documents `d` in the index of
/// `documents`: what to select from, the condition (its words bound at `param`) and the words to
/// bind.
pub(super) fn word_match(
    backend: Backend,
    query: &Query,
    param: &str,
    documents: Documents,
) -> (&'static str, String, String) {
    let last = query.words.len() - 1;
    // Each word quoted, the last one marked as a prefix, joined as the backend's "and".
    let words = |quote: &str, prefix: &str, and: &str| {
        query
            .words
            .iter()
            .enumerate()
            .map(|(i, w)| format!("{quote}{w}{quote}{}", if i == last { prefix } else { "" }))
            .collect::<Vec<_>>()
            .join(and)
    };
    match backend {
        // CROSS JOIN keeps the index first: walking the documents by time and probing the
        // index per row would read a whole history for a rare word. Words are letters and
        // digits only, and a customer key letters, digits and dots, so quoting them is safe.
        Backend::Sqlite => {
            // The words are matched in the text alone, not in the customer key's column.
            let every = "search_fts f CROSS JOIN search_documents d ON d.rowid = f.rowid";
            let quoted = words("\"", "*", " ");
            let (from, table, words) = match documents {
                Documents::Every => (every, "search_fts", format!("folded : ({quoted})")),
                Documents::Conversation(phone) => (
                    every,
                    "search_fts",
                    format!("folded : ({quoted}) AND phone : \"{phone}\""),
                ),
                Documents::Contacts => (
                    "search_contacts f CROSS JOIN search_documents d ON d.rowid = f.rowid",
                    "search_contacts",
                    quoted,
                ),
            };
            (from, format!("{table} MATCH {param}"), words)
        }
        Backend::Postgres => {
            // Unqualified, the contacts' words are the document's: the innermost table.
            let indexed = match documents {
                Documents::Every | Documents::Conversation(_) => "d.words",
                Documents::Contacts => contact_words!(),
            };
            (
                "search_documents d",
                format!("{indexed} @@ to_tsquery('simple', {param})"),
                words("", ":*", " & "),
            )
        }
    }
}
