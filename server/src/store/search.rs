//! Full-history search over the search documents: the backend's full-text index finds the
//! documents holding every word (the last as a prefix); results come newest first, a page at a
//! time, with a cursor after the last.

use parley_actors::events::conversation_channel;
use sqlx::FromRow;

use super::contacts::phone_number_id;
use super::error::StoreResult;
use super::search_index::CONTACT;
use super::word_match::{Documents, word_match};
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

/// The cursor's time and document id as bound values (no cursor: before everything).
fn cursor_binds(scope: &SearchScope) -> (i64, &str) {
    scope
        .after
        .as_ref()
        .map_or((i64::MAX, ""), |c| (c.at, c.doc_id.as_str()))
}

/// Reads a `next_cursor`; `None` when it is not one a search gave.
pub fn parse_cursor(cursor: &str) -> Option<Cursor> {
    let (at, doc_id) = cursor.split_once(':')?;
    Some(Cursor {
        at: at.parse().ok()?,
        doc_id: doc_id.to_string(),
    })
}

/// How many of the newest documents in scope each step of a search reads before the next; after
/// the last step it reads the rest of the history. A common word fills its page in the first
/// step; a rarer one widens the window until the page is full, so neither reads every match.
const WINDOWS: [i64; 3] = [2_000, 20_000, 200_000];

/// A search whose words match fewer documents than this in its scope reads the rest of them at
/// once after the first window: sorting a few matches is cheaper than walking the time index
/// for wider windows.
const FEW_MATCHES: i64 = 2_000;

/// The times (both included) and, on SQLite, the least index rowid one step of a search covers.
#[derive(Clone, Copy)]
struct Bounds {
    from: i64,
    to: i64,
    min_rowid: i64,
}

/// The scope's conditions on search documents `d`, from placeholder `$3` on (phone twice, then
/// the cursor's time twice and document id). Document ids compare by their bytes (`doc_id`, as
/// the order of results names it) on both backends.
fn in_scope(doc_id: &str) -> String {
    format!("($3 = '' OR d.phone = $4) AND (d.at < $7 OR (d.at = $8 AND {doc_id} < $9))")
}

/// Whether a search statement is kept prepared. Postgres plans each search for its words and
/// bounds instead: a plan made for any value intersects the word's index with the time index
/// over the whole range, which reads every document of the business for a rare word, or every
/// match of a common prefix for the newest window.
fn keep_prepared(backend: Backend) -> bool {
    backend == Backend::Sqlite
}

impl<'a> Documents<'a> {
    /// A search scope's documents: the conversation's, or every one when `phone` is empty.
    fn of(phone: &'a str) -> Documents<'a> {
        if phone.is_empty() {
            Documents::Every
        } else {
            Documents::Conversation(phone)
        }
    }
}

impl Store {
    /// The oldest time and least rowid among the `size` newest documents of the scope's
    /// conversation (on Postgres) or of all within `bounds`; `None` when fewer remain (one
    /// search over all of them is as cheap). Only the time index is read (it holds the rowid on
    /// SQLite).
    async fn window(
        &self,
        business_id: &str,
        phone: &str,
        bounds: &Bounds,
        size: i64,
    ) -> StoreResult<Option<(i64, i64)>> {
        let rowid = match self.backend {
            Backend::Sqlite => "rowid",
            Backend::Postgres => "CAST(0 AS BIGINT)",
        };
        // Without a conversation the condition is left out, so the time index alone answers.
        let in_conversation = if phone.is_empty() {
            ""
        } else {
            "AND phone = $5"
        };
        let sql = format!(
            "SELECT MIN(at), MIN(r), COUNT(*) FROM (SELECT at, {rowid} AS r \
             FROM search_documents WHERE business_id = $1 AND at >= $2 AND at <= $3 \
             {in_conversation} ORDER BY at DESC LIMIT $4) w"
        );
        // Only fixed fragments are formatted in; the values are bound.
        let mut select = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(business_id)
            .bind(bounds.from)
            .bind(bounds.to)
            .bind(size);
        if !phone.is_empty() {
            select = select.bind(phone);
        }
        let (oldest, min_rowid, count): (Option<i64>, Option<i64>, i64) =
            select.fetch_one(&self.pool).await?;
        Ok(match (oldest, min_rowid) {
            (Some(oldest), Some(min_rowid)) if count >= size => Some((oldest, min_rowid)),
            _ => None,
        })
    }

    /// Whether the words match fewer than `FEW_MATCHES` documents of the scope's conversation
    /// (or all); reads at most that many matches, in the index's order.
    async fn few_matches(
        &self,
        business_id: &str,
        query: &Query,
        phone: &str,
    ) -> StoreResult<bool> {
        let (from, matches, words) = word_match(self.backend, query, "$1", Documents::of(phone));
        let in_conversation = if phone.is_empty() {
            ""
        } else {
            "AND d.phone = $4"
        };
        let sql = format!(
            "SELECT COUNT(*) FROM (SELECT 1 FROM {from} WHERE {matches} \
             AND d.business_id = $2 {in_conversation} LIMIT $3) m"
        );
        // Only fixed fragments are formatted in; the values are bound.
        let mut count = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .persistent(keep_prepared(self.backend))
            .bind(words)
            .bind(business_id)
            .bind(FEW_MATCHES);
        if !phone.is_empty() {
            count = count.bind(phone);
        }
        let (found,): (i64,) = count.fetch_one(&self.pool).await?;
        Ok(found < FEW_MATCHES)
    }

    /// Up to `limit` matching documents within `bounds`, newest first. With `few` the words are
    /// known to match few documents, and Postgres reads them from the words' index whatever its
    /// statistics say (before a large table's first analysis it would walk the time index for a
    /// rare word).
    async fn find(
        &self,
        business_id: &str,
        query: &Query,
        scope: &SearchScope,
        bounds: &Bounds,
        limit: i64,
        few: bool,
    ) -> StoreResult<Vec<Found>> {
        if bounds.from > bounds.to {
            return Ok(Vec::new());
        }
        let phone = scope.phone.as_deref().unwrap_or_default();
        let (from, matches, words) = word_match(self.backend, query, "$1", Documents::of(phone));
        let rowid = match self.backend {
            Backend::Sqlite => "f.rowid",
            Backend::Postgres => "CAST(0 AS BIGINT)",
        };
        // An order the time index cannot give leaves Postgres the words' index alone.
        let newest = if few && self.backend == Backend::Postgres {
            "(d.at + 0)"
        } else {
            "d.at"
        };
        // Results of one time come by document id in byte order, as the cursor reads them.
        let doc_id = self.backend.byte_order("d.doc_id");
        let sql = format!(
            "SELECT d.doc_id, d.phone, d.kind, d.at, d.body, c.name FROM {from} \
             LEFT JOIN contacts c ON c.business_id = d.business_id AND c.phone = d.phone \
             WHERE {matches} AND d.business_id = $2 AND {} \
             AND d.at >= $5 AND d.at <= $6 AND {rowid} >= $11 \
             ORDER BY {newest} DESC, {doc_id} DESC LIMIT $10",
            in_scope(&doc_id)
        );
        let (before_at, before_id) = cursor_binds(scope);
        // Only fixed fragments are formatted in; the values are bound.
        Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .persistent(keep_prepared(self.backend))
            .bind(words)
            .bind(business_id)
            .bind(phone)
            .bind(phone)
            .bind(bounds.from)
            .bind(bounds.to)
            .bind(before_at)
            .bind(before_at)
            .bind(before_id)
            .bind(limit)
            .bind(bounds.min_rowid)
            .fetch_all(&self.pool)
            .await?)
    }

    /// Up to `limit` documents of the business matching `query` in `scope`, newest first, and
    /// the cursor of the next page (none at the end).
    pub async fn search(
        &self,
        business_id: &str,
        query: &Query,
        scope: &SearchScope,
        limit: i64,
    ) -> StoreResult<(Vec<SearchHit>, Option<String>)> {
        let (before_at, _) = cursor_binds(scope);
        let phone = scope.phone.as_deref().unwrap_or_default();
        // What is left to search: everything in scope up to the cursor.
        let mut rest = Bounds {
            from: scope.from_ms.unwrap_or(i64::MIN),
            to: scope.to_ms.unwrap_or(i64::MAX).min(before_at),
            min_rowid: i64::MIN,
        };
        // The newest documents first, in ever wider windows: strictly after a window's oldest
        // time every document of the scope is in the window, so its matches come before all
        // older ones and are complete; the next step reads from that time down. A common word
        // or prefix fills its page in the first window without an index lookup of all its
        // matches; after it, words with few matches read the rest in one step.
        let mut rows = Vec::new();
        let mut few = false;
        // SQLite has no index of a conversation's documents by time to take windows from; its
        // conversation's matches come from the words' index in one step.
        let windows = if phone.is_empty() || self.backend == Backend::Postgres {
            &WINDOWS[..]
        } else {
            &[]
        };
        for (step, &size) in windows.iter().enumerate() {
            if rows.len() as i64 > limit {
                break;
            }
            if step == 1 && self.few_matches(business_id, query, phone).await? {
                few = true;
                break;
            }
            let Some((oldest, min_rowid)) = self.window(business_id, phone, &rest, size).await?
            else {
                break;
            };
            let newest = Bounds {
                from: rest.from.max(oldest.saturating_add(1)),
                min_rowid,
                ..rest
            };
            let wanted = limit + 1 - rows.len() as i64;
            rows.extend(
                self.find(business_id, query, scope, &newest, wanted, false)
                    .await?,
            );
            rest.to = oldest;
        }
        if rows.len() as i64 <= limit {
            let wanted = limit + 1 - rows.len() as i64;
            rows.extend(
                self.find(business_id, query, scope, &rest, wanted, few)
                    .await?,
            );
        }
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
