//! The SQL of one conversation list page: where its rows come from (the contacts a search found,
//! a label's conversations along its order index, or the list's own index) and what filters
//! them. Each source is read by an index it can seek; the rows are then put in the list's order
//! and paged.

use super::Backend;
use super::list_anywhere::anywhere;
use super::list_filter::{AssigneeFilter, ListFilter, ListSearch};
use super::search_index::CONTACT;
use super::word_match::{Documents, word_match};
use crate::search_text::Query;

/// The list's order: newest activity first (`contacts_list_order` and the filter indexes of
/// migration 0028 hold it).
const LIST_ORDER: &str = "ORDER BY COALESCE(c.last_message_at, c.created_at) DESC, c.phone";

/// How a page's rows are read once its keys are found: their columns, what they are joined from
/// after the contact `c`, and the order of a conversation's several rows (one per label).
pub(super) struct RowRead {
    pub columns: &'static str,
    pub joins: &'static str,
    pub label_order: &'static str,
}

/// A page's statement and its values: texts bound from `$1` on, then the row limit and offset
/// when they are bound rather than written in.
#[derive(Default)]
pub(super) struct PageQuery {
    pub sql: String,
    pub texts: Vec<String>,
    /// The row limit and offset, bound after the texts.
    pub bounds: Option<(i64, i64)>,
}

impl PageQuery {
    /// The placeholder the next text value takes.
    fn next(&self) -> String {
        format!("${}", self.texts.len() + 1)
    }

    /// Binds `value` as the next text value; answers its placeholder.
    fn text(&mut self, value: impl Into<String>) -> String {
        let placeholder = self.next();
        self.texts.push(value.into());
        placeholder
    }
}

/// The least text after every string starting with `digits` (`1999` → `2`); `None` when the
/// digits are all nines.
fn after_prefix(digits: &str) -> Option<String> {
    let kept = digits.trim_end_matches('9');
    let last = kept.chars().last()?;
    let next = char::from_digit(last.to_digit(10)? + 1, 10)?;
    Some(format!("{}{next}", &kept[..kept.len() - 1]))
}

/// A range of the contacts' primary key per prefix, on the column `phone`; `LIKE` keeps each
/// exact under any collation.
fn number_ranges(q: &mut PageQuery, prefixes: &[String], phone: &str) -> Vec<String> {
    prefixes
        .iter()
        .map(|prefix| {
            let from = q.text(prefix.as_str());
            let below = after_prefix(prefix)
                .map(|to| format!("AND {phone} < {}", q.text(to)))
                .unwrap_or_default();
            let like = q.text(format!("{prefix}%"));
            format!("({phone} >= {from} {below} AND {phone} LIKE {like})")
        })
        .collect()
}

/// Counts the business's numbers starting with `prefixes`, up to `most`.
pub(super) fn numbers_count(business_id: &str, prefixes: &[String], most: i64) -> PageQuery {
    let mut q = PageQuery::default();
    let business = q.text(business_id);
    let ranges = number_ranges(&mut q, prefixes, "phone").join(" OR ");
    q.sql = format!(
        "SELECT COUNT(*) FROM (SELECT 1 FROM contacts WHERE business_id = {business} \
         AND ({ranges}) LIMIT {most}) n"
    );
    q
}

/// SQLite: the rowids of the contacts' documents, of every business, whose words match `query`:
/// from their word index alone, with no document read.
fn contacts_matching(q: &mut PageQuery, query: &Query) -> String {
    let (_, matches, words) = word_match(Backend::Sqlite, query, &q.next(), Documents::Contacts);
    q.texts.push(words);
    format!("SELECT rowid FROM search_contacts WHERE {matches}")
}

/// SQLite: counts the contacts of every business whose words match `query`, up to `most`.
pub(super) fn words_count(query: &Query, most: i64) -> PageQuery {
    let mut q = PageQuery::default();
    let matching = contacts_matching(&mut q, query);
    q.sql = format!("SELECT COUNT(*) FROM ({matching} LIMIT {most}) n");
    q
}

/// How a search's matches are read: for a number, from how many there are (counted before the
/// page); for words, from the backend.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SearchRead {
    /// What the search found by an index, and when that is nobody, the typed text anywhere:
    /// gathered, then sorted.
    Found,
    /// A number's few matches: their keys and list columns in one range of
    /// `contacts_list_keys`, then sorted, with no row of `contacts` read.
    Gathered,
    /// The match as a condition on the list's own rows (never the text anywhere). A number
    /// dense enough to meet a page soon is checked along the list's order, and so is a name
    /// common enough on SQLite; for any name, Postgres weighs its matches against that order by
    /// its statistics of the contacts' words, and gathers a rare name's matches or walks the
    /// order for a common one.
    AlongTheOrder,
}

/// The columns of `contacts_list_keys`: a page that reads its rows from there reads that index
/// alone.
const KEY_COLUMNS: &str = "business_id, phone, status, assignee_id, last_message_at, created_at";

/// How SQLite is told to read a conversation's list columns from `contacts_list_keys`: by its
/// key alone it picks the primary key and then the row (twice the lookups). Postgres reads the
/// index by itself.
fn by_keys(backend: Backend) -> String {
    backend.indexed_by("contacts_list_keys")
}

/// How a page joins its source's keys to their rows: SQLite's CROSS JOIN keeps the source first
/// (Postgres has no such join with ON).
fn then(backend: Backend) -> &'static str {
    match backend {
        Backend::Sqlite => "CROSS JOIN",
        Backend::Postgres => "JOIN",
    }
}

/// `columns` of the business's contacts whose numbers start with one of `prefixes`: one range of
/// the index `from` names (or the primary key) per prefix.
fn number_rows(
    q: &mut PageQuery,
    business: &str,
    prefixes: &[String],
    columns: &str,
    from: &str,
) -> String {
    number_ranges(q, prefixes, "phone")
        .iter()
        .map(|range| {
            format!(
                "SELECT {columns} FROM contacts{from} WHERE business_id = {business} AND {range}"
            )
        })
        .collect::<Vec<_>>()
        .join(" UNION ")
}

/// The customer keys a search finds by an index.
fn found(q: &mut PageQuery, backend: Backend, business: &str, search: &ListSearch) -> String {
    match search {
        ListSearch::Everything | ListSearch::Nothing => {
            "SELECT phone FROM contacts WHERE 1 = 0".into()
        }
        ListSearch::Number(prefixes) => number_rows(q, business, prefixes, "phone", ""),
        ListSearch::Words(query) => {
            let (from, matches, words) = word_match(backend, query, &q.next(), Documents::Contacts);
            q.texts.push(words);
            // The match is of contacts only: on Postgres a `kind` condition beside it would
            // have the planner expect a tenth of the matches.
            format!("SELECT d.phone FROM {from} WHERE {matches} AND d.business_id = {business}")
        }
    }
}

/// The condition that the conversation `c` carries the filter's label, if it asks for one.
fn carries_label(q: &mut PageQuery, filter: &ListFilter) -> Option<String> {
    let label = q.text(filter.label.as_deref()?);
    Some(format!(
        "EXISTS (SELECT 1 FROM conversation_labels cl WHERE cl.business_id = c.business_id \
         AND cl.phone = c.phone AND cl.label_id = {label})"
    ))
}

/// How a page's rows are put in the list's order: the time each is listed by, and the order.
struct Order {
    at: &'static str,
    by: &'static str,
}

/// The contacts' own list order.
const CONTACT_ORDER: Order = Order {
    at: "COALESCE(c.last_message_at, c.created_at)",
    by: LIST_ORDER,
};

/// A label's conversations in the list's order, by the time they carry (the same as their
/// contacts', `conversation_labels_order`).
const LABEL_ORDER: Order = Order {
    at: "l.list_at",
    by: "ORDER BY l.list_at DESC, l.phone",
};

/// The list's own rows and their order: a label's conversations along its order index, each
/// checked against the other filters until the page is full, or every conversation.
fn listed(
    q: &mut PageQuery,
    backend: Backend,
    business: &str,
    filter: &ListFilter,
    conditions: &mut Vec<String>,
) -> (String, Order) {
    match &filter.label {
        Some(label) => {
            conditions.push(format!(
                "l.business_id = {business} AND l.label_id = {}",
                q.text(label.as_str())
            ));
            let from = format!(
                "conversation_labels l {} contacts c{} ON c.business_id = l.business_id \
                 AND c.phone = l.phone",
                then(backend),
                by_keys(backend)
            );
            (from, LABEL_ORDER)
        }
        None => ("contacts c".into(), CONTACT_ORDER),
    }
}

/// The statement of a page of the list for `filter` and its `search`: rows read as `row` says,
/// for `window` conversations after skipping as many (the limit and offset). `read` says how the
/// search's matches are read.
///
/// The page's keys are found and ordered first (`page`: customer key and list time, read from
/// indexes where the source allows), and only its rows are then read whole and joined to their
/// assignees and labels, so skipped and sorted rows cost an index entry, not a row and a join.
pub(super) fn page_query(
    backend: Backend,
    business_id: &str,
    filter: &ListFilter,
    search: &ListSearch,
    row: &RowRead,
    (rows, skip): (i64, i64),
    read: SearchRead,
) -> PageQuery {
    let mut q = PageQuery::default();
    let business = q.text(business_id);
    let (then, keys) = (then(backend), by_keys(backend));
    let mut steps = Vec::new();
    // Every source is the business's own; the page's WHERE is never empty.
    let mut conditions = vec![format!("c.business_id = {business}")];
    let (source, order) = match (search, read) {
        (ListSearch::Number(prefixes), SearchRead::Gathered) => {
            let rows = number_rows(&mut q, &business, prefixes, KEY_COLUMNS, &keys);
            steps.push(format!("numbers AS MATERIALIZED ({rows})"));
            conditions.extend(carries_label(&mut q, filter));
            ("numbers c".to_string(), CONTACT_ORDER)
        }
        (ListSearch::Everything, _)
        | (ListSearch::Number(_) | ListSearch::Words(_), SearchRead::AlongTheOrder) => {
            match search {
                ListSearch::Number(prefixes) => {
                    let ranges = number_ranges(&mut q, prefixes, "c.phone").join(" OR ");
                    conditions.push(format!("({ranges})"));
                }
                ListSearch::Words(query) => conditions.push(match backend {
                    Backend::Postgres => {
                        format!("c.phone IN ({})", found(&mut q, backend, &business, search))
                    }
                    // Each conversation's contact document, by its key, among the matches'
                    // rowids (gathered once from the word index): reading every match's
                    // document to learn its business is what gathering spends its time on.
                    Backend::Sqlite => format!(
                        "EXISTS (SELECT 1 FROM search_documents d \
                         WHERE d.business_id = c.business_id \
                         AND d.doc_id = '{CONTACT}:' || c.phone \
                         AND d.rowid IN ({}))",
                        contacts_matching(&mut q, query)
                    ),
                }),
                _ => {}
            }
            listed(&mut q, backend, &business, filter, &mut conditions)
        }
        // What the search found, or when it found nothing, the typed text anywhere in the
        // name or number (`list_anywhere`).
        (search, _) => {
            let found = found(&mut q, backend, &business, search);
            steps.push(format!("found(phone) AS ({found})"));
            // The fallback's LIMIT is 0 when the search found someone: a `NOT EXISTS` in its
            // WHERE would be tested on each of the business's contacts by SQLite.
            let most = format!(
                "CASE WHEN EXISTS (SELECT 1 FROM found) THEN 0 ELSE {} END",
                i64::MAX
            );
            let mut bind = |value: String| q.text(value);
            let anywhere = anywhere(&mut bind, backend, &business, &filter.typed, &most);
            steps.push(format!(
                "matched(phone) AS (SELECT phone FROM found UNION ALL SELECT phone FROM \
                 ({anywhere}) anywhere)"
            ));
            conditions.extend(carries_label(&mut q, filter));
            let from = format!(
                "matched m {then} contacts c{keys} ON c.business_id = {business} \
                 AND c.phone = m.phone"
            );
            (from, CONTACT_ORDER)
        }
    };
    if let Some(status) = &filter.status {
        conditions.push(format!("c.status = {}", q.text(status.as_str())));
    }
    match &filter.assignee {
        AssigneeFilter::All => {}
        AssigneeFilter::Unassigned => conditions.push("c.assignee_id IS NULL".into()),
        AssigneeFilter::User(id) => {
            conditions.push(format!("c.assignee_id = {}", q.text(id.as_str())))
        }
    }
    let window = match search {
        // The list's own rows or a label's: one plan serves every business and page, so the
        // limit and offset are written in and Postgres keeps one generic plan instead of
        // planning each run (with them bound, its generic plan sorts the whole business).
        ListSearch::Everything => format!("LIMIT {rows} OFFSET {skip}"),
        // A search's best plan depends on what was typed: bound, so Postgres plans each run for
        // its values.
        _ => {
            let first = q.texts.len() + 1;
            q.bounds = Some((rows, skip));
            format!("LIMIT ${first} OFFSET ${}", first + 1)
        }
    };
    steps.push(format!(
        "page(phone, list_at) AS (SELECT c.phone, {} FROM {source} WHERE {} {} {window})",
        order.at,
        conditions.join(" AND "),
        order.by
    ));
    q.sql = format!(
        "WITH {} {} FROM page p {then} contacts c ON c.business_id = {business} \
         AND c.phone = p.phone {} ORDER BY p.list_at DESC, p.phone, {}",
        steps.join(", "),
        row.columns,
        row.joins,
        row.label_order
    );
    q
}

#[cfg(test)]
mod tests {
    use super::after_prefix;

    #[test]
    fn the_text_after_a_prefix_bounds_every_number_that_starts_with_it() {
        assert_eq!(after_prefix("19990042").as_deref(), Some("19990043"));
        assert_eq!(after_prefix("1999").as_deref(), Some("2"));
        assert_eq!(after_prefix("99"), None);
        assert_eq!(after_prefix(""), None);
    }
}
