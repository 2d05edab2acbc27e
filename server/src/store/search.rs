//! Full-history search over the search documents: the backend's full-text index finds the
//! documents holding every word (the last as a prefix); results come newest first, a page at a
//! time, with a cursor after the last.

use parley_actors::events::conversation_channel;
use sqlx::FromRow;

use super::contacts::phone_number_id;
use super::error::StoreResult;
use super::search_index::CONTACT;
use super::{Backend, Store};
use crate::search_text::Query;

/// Which documents a search looks at besides its words.
#[derive(Debug, Default)]
pub struct SearchScope {
    /// One conversation's customer key, or all conversations.
    pub phone: Option<String>,
    /// Only documents at or after this time (ms).
    pub from_ms: Option<i64>,
    /// Only documents at or before this time (ms).
    pub to_ms: Option<i64>,
    /// Continues after this place (`next_cursor` of the page before, read by `parse_cursor`).
    pub after: Option<Cursor>,
}

/// One result.
pub struct SearchHit {
    pub conversation_id: String,
    pub phone: String,
    pub name: String,
    /// The message's id; `None` for a contact's name or number.
    pub message_id: Option<String>,
    pub at: i64,
    /// The text as written (the snippet is cut from it).
    pub body: String,
}

#[derive(FromRow)]
struct Found {
    doc_id: String,
    phone: String,
    kind: String,
    at: i64,
    body: String,
    name: Option<String>,
}

/// Where a page ended: the last result's time and document id.
#[derive(Debug)]
pub struct Cursor {
    at: i64,
    doc_id: String,
}

/// `{at}:{doc_id}` of the last result of a page.
fn cursor_of(found: &Found) -> String {
    format!("{}:{}", found.at, found.doc_id)
}

/// Reads a `next_cursor`; `None` when it is not one a search gave.
pub fn parse_cursor(cursor: &str) -> Option<Cursor> {
    let (at, doc_id) = cursor.split_once(':')?;
    Some(Cursor {
        at: at.parse().ok()?,
        doc_id: doc_id.to_string(),
    })
}

impl Store {
    /// Up to `limit` documents of the business matching `query` in `scope`, newest first, and
    /// the cursor of the next page (none at the end).
    pub async fn search(
        &self,
        business_id: &str,
        query: &Query,
        scope: &SearchScope,
        limit: i64,
    ) -> StoreResult<(Vec<SearchHit>, Option<String>)> {
        let (before_at, before_id) = scope
            .after
            .as_ref()
            .map_or((i64::MAX, ""), |c| (c.at, c.doc_id.as_str()));
        let last = query.words.len() - 1;
        let (from, matches, words) = match self.backend {
            Backend::Sqlite => (
                "search_fts f JOIN search_documents d ON d.rowid = f.rowid",
                "search_fts MATCH $1",
                // Words are letters and digits only, so quoting them is safe.
                query
                    .words
                    .iter()
                    .enumerate()
                    .map(|(i, w)| format!("\"{w}\"{}", if i == last { "*" } else { "" }))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Backend::Postgres => (
                "search_documents d",
                "to_tsvector('simple', d.folded) @@ to_tsquery('simple', $1)",
                query
                    .words
                    .iter()
                    .enumerate()
                    .map(|(i, w)| format!("{w}{}", if i == last { ":*" } else { "" }))
                    .collect::<Vec<_>>()
                    .join(" & "),
            ),
        };
        let sql = format!(
            "SELECT d.doc_id, d.phone, d.kind, d.at, d.body, c.name FROM {from} \
             LEFT JOIN contacts c ON c.business_id = d.business_id AND c.phone = d.phone \
             WHERE {matches} AND d.business_id = $2 AND ($3 = '' OR d.phone = $4) \
             AND d.at >= $5 AND d.at <= $6 \
             AND (d.at < $7 OR (d.at = $8 AND d.doc_id < $9)) \
             ORDER BY d.at DESC, d.doc_id DESC LIMIT $10"
        );
        let phone = scope.phone.as_deref().unwrap_or_default();
        // Only fixed fragments are formatted in; the values are bound.
        let mut rows: Vec<Found> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(words)
            .bind(business_id)
            .bind(phone)
            .bind(phone)
            .bind(scope.from_ms.unwrap_or(i64::MIN))
            .bind(scope.to_ms.unwrap_or(i64::MAX))
            .bind(before_at)
            .bind(before_at)
            .bind(before_id)
            .bind(limit + 1)
            .fetch_all(&self.pool)
            .await?;
        let more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        let next = if more {
            rows.last().map(cursor_of)
        } else {
            None
        };
        let mut conn = self.pool.acquire().await?;
        let pnid = phone_number_id(&mut conn, business_id).await?;
        let hits = rows
            .into_iter()
            .map(|found| SearchHit {
                conversation_id: conversation_channel(&pnid, &found.phone),
                name: found.name.unwrap_or_default(),
                message_id: (found.kind != CONTACT).then_some(found.doc_id),
                phone: found.phone,
                at: found.at,
                body: found.body,
            })
            .collect();
        Ok((hits, next))
    }
}
