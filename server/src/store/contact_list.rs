//! The conversation list: its rows (customer, last activity, status and assignee) and pages,
//! filtered by search, status, assignee and label (`list_query` says how each page is read).

use serde::Serialize;
use sqlx::{AnyConnection, FromRow};
use utoipa::ToSchema;

use super::contacts::Customer;
use super::error::{Error, StoreResult};
use super::labels::Label;
use super::list_filter::{ListFilter, ListSearch};
use super::list_query::{PageQuery, RowRead, SearchRead, numbers_count, page_query, words_count};
use super::unread::list_heading;
use super::{Backend, Store, iso_time};
use crate::phone::region_of;
use crate::search_text::Query;

/// SQLite gathers a number search's matches and sorts them when fewer than this many: it has no
/// statistics and walks the list's covering status index whenever it may, which for a band of a
/// thousand numbers far down the list reads tens of thousands of entries.
const SQLITE_GATHERS_BELOW: i64 = 2_000;

/// How many matches of a number search are counted: as many as decide how it is read.
fn numbers_counted(backend: Backend) -> i64 {
    match backend {
        Backend::Sqlite => SQLITE_GATHERS_BELOW,
        Backend::Postgres => 1,
    }
}

/// How a number search that matched `found` of the business's numbers (counted up to
/// `numbers_counted`) is read. Postgres's planner weighs the key range against the list's order
/// by its statistics: a range and a sort for a few, the order for many.
fn number_read(backend: Backend, found: i64) -> SearchRead {
    if found == 0 {
        SearchRead::Found
    } else if backend == Backend::Sqlite && found < SQLITE_GATHERS_BELOW {
        SearchRead::Gathered
    } else {
        SearchRead::AlongTheOrder
    }
}

/// SQLite walks the list's order for a one-word name once this many contacts (of every business,
/// counted in the word index alone) hold it: gathering reads each match's document, about 3 µs
/// apiece, while a walk checks each conversation it passes by its document's key. In a business
/// of 100,000 conversations the two cost the same near a thousand matches.
const SQLITE_WALKS_FROM: i64 = 1_000;

/// How SQLite reads a name of `words`: a name of several words is seldom held by a thousand
/// customers, and is gathered without the count (about a millisecond for two words); one word
/// is counted, and walked along the list's order when many hold it. Postgres always reads a
/// name along the order and weighs its matches there by its statistics of the contacts' words
/// (a common first name matches thousands: gathering and sorting them all took tens of
/// milliseconds).
async fn sqlite_words_read(conn: &mut AnyConnection, words: &Query) -> StoreResult<SearchRead> {
    if words.words.len() > 1 {
        return Ok(SearchRead::Found);
    }
    let found = count(conn, words_count(words, SQLITE_WALKS_FROM)).await?;
    Ok(if found < SQLITE_WALKS_FROM {
        SearchRead::Found
    } else {
        SearchRead::AlongTheOrder
    })
}

/// The count a counting statement answers.
async fn count(conn: &mut AnyConnection, query: PageQuery) -> StoreResult<i64> {
    let mut select = sqlx::query_as(sqlx::AssertSqlSafe(query.sql));
    for text in query.texts {
        select = select.bind(text);
    }
    let (found,): (i64,) = select.fetch_one(&mut *conn).await?;
    Ok(found)
}

/// The rows of a page's statement, one per conversation. Only fixed fragments, numbers and
/// numbered placeholders are formatted into its SQL; the texts are bound.
async fn read_page(conn: &mut AnyConnection, query: PageQuery) -> StoreResult<Vec<ContactRow>> {
    let mut select = sqlx::query_as(sqlx::AssertSqlSafe(query.sql));
    for text in query.texts {
        select = select.bind(text);
    }
    if let Some((rows, skip)) = query.bounds {
        select = select.bind(rows).bind(skip);
    }
    Ok(gathered(select.fetch_all(&mut *conn).await?))
}

/// A row of the conversation list.
#[derive(FromRow)]
pub struct ContactRow {
    pub phone: String,
    pub name: String,
    pub last_message_at: Option<i64>,
    pub last_incoming_at: Option<i64>,
    pub last_text: Option<String>,
    pub last_caption: Option<String>,
    pub unread_count: i64,
    /// The customer's BSUID, when known.
    pub user_id: Option<String>,
    /// The customer's WhatsApp username, when they took one.
    pub username: Option<String>,
    /// `open`, `pending`, `resolved` or `snoozed`.
    pub status: String,
    pub snoozed_until: Option<i64>,
    pub assignee_id: Option<String>,
    /// The assignee's full name (empty when unassigned).
    pub assignee_name: Option<String>,
    /// The labels the conversation carries, by name (gathered from its rows as read).
    #[sqlx(skip)]
    pub labels: Vec<Label>,
}

/// How a list row is read: its columns with the assignee's name and one of its labels (`NULL`s
/// when it carries none), after the contact `c`, its assignee `u` and its labels `l`. A
/// conversation with several labels comes as one row per label, in the labels' order;
/// `gathered` makes them one row.
const ROW_READ: RowRead = RowRead {
    columns: "SELECT c.phone, c.name, c.last_message_at, c.last_incoming_at, c.last_text, \
        c.last_caption, c.unread_count, c.user_id, c.username, c.status, c.snoozed_until, \
        c.assignee_id, TRIM(u.first_name || ' ' || u.last_name) AS assignee_name, \
        l.id AS label_id, l.name AS label_name, l.color AS label_color",
    joins: "LEFT JOIN users u ON u.id = c.assignee_id AND u.business_id = c.business_id \
        LEFT JOIN conversation_labels cl ON cl.business_id = c.business_id AND cl.phone = c.phone \
        LEFT JOIN labels l ON l.id = cl.label_id",
    label_order: "l.name_key, l.id",
};

/// A list row as read: the row, and one of its labels.
#[derive(FromRow)]
struct LabelledRow {
    #[sqlx(flatten)]
    row: ContactRow,
    label_id: Option<String>,
    label_name: Option<String>,
    label_color: Option<String>,
}

/// The rows read with `ROW_READ`, one per conversation with all its labels.
fn gathered(read: Vec<LabelledRow>) -> Vec<ContactRow> {
    let mut rows: Vec<ContactRow> = Vec::new();
    for LabelledRow {
        row,
        label_id,
        label_name,
        label_color,
    } in read
    {
        if rows.last().is_none_or(|last| last.phone != row.phone) {
            rows.push(row);
        }
        if let (Some(id), Some(name), Some(color), Some(last)) =
            (label_id, label_name, label_color, rows.last_mut())
        {
            last.labels.push(Label { id, name, color });
        }
    }
    rows
}

/// A page of the conversation list.
pub struct ContactPage {
    pub rows: Vec<ContactRow>,
    pub has_more: bool,
    pub total_unread: i64,
    /// The business's phone number id, which names its conversations.
    pub phone_number_id: String,
}

impl ContactRow {
    /// The row as the list and the team answers show it.
    pub fn to_json(&self, phone_number_id: &str) -> ConversationJson<'_> {
        ConversationJson {
            customer: Customer::new(
                phone_number_id,
                &self.phone,
                &self.name,
                self.user_id.as_deref(),
                self.username.as_deref(),
            ),
            last_message_content: LastContent {
                text: self.last_text.as_deref(),
                caption: self.last_caption.as_deref(),
            },
            last_message_timestamp: self.last_message_at.map(iso_time),
            last_incoming_timestamp: self.last_incoming_at.map(iso_time),
            unread_count: self.unread_count,
            status: &self.status,
            snoozed_until: self.snoozed_until.map(iso_time),
            assignee: self.assignee_id.as_deref().map(|id| Assignee {
                id,
                name: self.assignee_name.as_deref().unwrap_or_default(),
            }),
            labels: &self.labels,
        }
    }
}

/// A conversation as the list shows it: its customer, last activity, status and assignee.
#[derive(Serialize, ToSchema)]
pub struct ConversationJson<'a> {
    #[serde(flatten)]
    customer: Customer,
    last_message_content: LastContent<'a>,
    /// ISO 8601; null before the first message.
    last_message_timestamp: Option<String>,
    /// ISO 8601; null until the customer writes (the 24-hour window opens then).
    last_incoming_timestamp: Option<String>,
    unread_count: i64,
    /// `open`, `pending`, `resolved` or `snoozed`.
    status: &'a str,
    /// ISO 8601, while snoozed.
    snoozed_until: Option<String>,
    assignee: Option<Assignee<'a>>,
    labels: &'a [Label],
}

/// The preview of the last message: its text, else its caption.
#[derive(Serialize, ToSchema)]
pub struct LastContent<'a> {
    text: Option<&'a str>,
    caption: Option<&'a str>,
}

/// The agent a conversation is assigned to.
#[derive(Serialize, ToSchema)]
pub struct Assignee<'a> {
    id: &'a str,
    /// Full name.
    name: &'a str,
}

/// One conversation's list row, or `NotFound`.
pub(super) async fn read_row(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
) -> StoreResult<ContactRow> {
    let sql = format!(
        "{} FROM contacts c {} WHERE c.business_id = $1 AND c.phone = $2 ORDER BY {}",
        ROW_READ.columns, ROW_READ.joins, ROW_READ.label_order
    );
    // Only the fixed fragments of `ROW_READ` are formatted in.
    let read: Vec<LabelledRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(business_id)
        .bind(phone)
        .fetch_all(&mut *conn)
        .await?;
    gathered(read)
        .pop()
        .ok_or_else(|| Error::NotFound(format!("No conversation with {phone}")))
}

impl Store {
    pub async fn contact_name(&self, business_id: &str, phone: &str) -> StoreResult<String> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT name FROM contacts WHERE business_id = $1 AND phone = $2")
                .bind(business_id)
                .bind(phone)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(name,)| name).unwrap_or_default())
    }

    /// One conversation's list row.
    pub async fn contact_row(&self, business_id: &str, phone: &str) -> StoreResult<ContactRow> {
        let mut conn = self.pool.acquire().await?;
        read_row(&mut conn, business_id, phone).await
    }

    /// A page of the conversation list, newest activity first, filtered by `filter`. Every
    /// statement of the page runs on one connection: on Postgres each acquire is also a ping.
    pub async fn contacts_page(
        &self,
        business_id: &str,
        filter: &ListFilter,
        page: i64,
        limit: i64,
    ) -> StoreResult<ContactPage> {
        let mut conn = self.pool.acquire().await?;
        let heading = list_heading(&mut conn, business_id).await?;
        let search = ListSearch::read(&filter.typed, region_of(&heading.own_number));
        let read = match &search {
            ListSearch::Number(prefixes) => {
                let counting = numbers_count(business_id, prefixes, numbers_counted(self.backend));
                number_read(self.backend, count(&mut conn, counting).await?)
            }
            ListSearch::Words(words) => match self.backend {
                Backend::Sqlite => sqlite_words_read(&mut conn, words).await?,
                Backend::Postgres => SearchRead::AlongTheOrder,
            },
            _ => SearchRead::Found,
        };
        // A page far past the end is an empty page, never an overflow.
        let window = (limit + 1, (page - 1).saturating_mul(limit));
        let page_of = |read| {
            page_query(
                self.backend,
                business_id,
                filter,
                &search,
                &ROW_READ,
                window,
                read,
            )
        };
        let mut rows = read_page(&mut conn, page_of(read)).await?;
        // An empty page of words read along the order may be so because the index found the
        // words in no name: read as found, it is then the typed text anywhere.
        if rows.is_empty()
            && read == SearchRead::AlongTheOrder
            && matches!(search, ListSearch::Words(_))
        {
            rows = read_page(&mut conn, page_of(SearchRead::Found)).await?;
        }
        let has_more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        Ok(ContactPage {
            rows,
            has_more,
            total_unread: heading.total_unread,
            phone_number_id: heading.phone_number_id,
        })
    }
}
