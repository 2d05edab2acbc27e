//! The SQL of one conversation list page: where its rows come from (the contacts a search found,
//! a label's conversations, or the list's own index) and what filters them. Each source is read
//! by an index it can seek; the rows are then put in the list's order and paged.

use super::Backend;
use super::list_filter::{AssigneeFilter, ListFilter, ListSearch};
use super::search::{Documents, word_match};

/// The list's order: newest activity first (`contacts_list_order` and the filter indexes of
/// migration 0028 hold it).
const LIST_ORDER: &str = "ORDER BY COALESCE(c.last_message_at, c.created_at) DESC, c.phone";

/// A page's statement and its text values, bound from `$3` on (`$1` is the row limit and `$2`
/// the offset).
pub(super) struct PageQuery {
    pub sql: String,
    pub texts: Vec<String>,
}

impl PageQuery {
    /// The placeholder the next text value takes.
    fn next(&self) -> String {
        format!("${}", self.texts.len() + 3)
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

/// A `LIKE` pattern that finds `typed`, lower-cased, anywhere.
fn anywhere(typed: &str) -> String {
    format!(
        "%{}%",
        typed
            .to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    )
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

/// Counts the business's numbers starting with `prefixes`, up to `$1` (`$2` is 0).
pub(super) fn numbers_count(business_id: &str, prefixes: &[String]) -> PageQuery {
    let mut q = PageQuery {
        sql: String::new(),
        texts: Vec::new(),
    };
    let business = q.text(business_id);
    let ranges = number_ranges(&mut q, prefixes, "phone").join(" OR ");
    q.sql = format!(
        "SELECT COUNT(*) FROM (SELECT 1 FROM contacts WHERE business_id = {business} \
         AND ({ranges}) LIMIT $1 OFFSET $2) n"
    );
    q
}

/// The customer keys a search finds by an index, or `None` without a search.
fn found(
    q: &mut PageQuery,
    backend: Backend,
    business: &str,
    search: &ListSearch,
) -> Option<String> {
    match search {
        ListSearch::Everything => None,
        ListSearch::Nothing => Some("SELECT phone FROM contacts WHERE 1 = 0".into()),
        ListSearch::Number(prefixes) => Some(
            number_ranges(q, prefixes, "phone")
                .iter()
                .map(|range| {
                    format!("SELECT phone FROM contacts WHERE business_id = {business} AND {range}")
                })
                .collect::<Vec<_>>()
                .join(" UNION "),
        ),
        ListSearch::Words(query) => {
            let (from, matches, words) = word_match(backend, query, &q.next(), Documents::Contacts);
            q.texts.push(words);
            Some(format!(
                "SELECT d.phone FROM {from} WHERE {matches} \
                 AND d.business_id = {business} AND d.kind = 'contact'"
            ))
        }
    }
}

/// The statement of a page of the list for `filter`: `columns` of the contacts `c` and their
/// assignee `u`. With `many_numbers` a number search is checked along the list's order (its
/// page meets its rows soon) instead of gathering every match and sorting them.
pub(super) fn page_query(
    backend: Backend,
    business_id: &str,
    filter: &ListFilter,
    columns: &str,
    many_numbers: bool,
) -> PageQuery {
    let mut q = PageQuery {
        sql: String::new(),
        texts: Vec::new(),
    };
    let business = q.text(business_id);
    // SQLite's CROSS JOIN keeps the found rows first (Postgres has no such join with ON).
    let then = match backend {
        Backend::Sqlite => "CROSS JOIN",
        Backend::Postgres => "JOIN",
    };
    let assignee = "LEFT JOIN users u ON u.id = c.assignee_id AND u.business_id = c.business_id";
    let mut conditions = Vec::new();
    let found = match &filter.search {
        ListSearch::Number(prefixes) if many_numbers => {
            let ranges = number_ranges(&mut q, prefixes, "c.phone").join(" OR ");
            conditions.push(format!("({ranges})"));
            None
        }
        search => found(&mut q, backend, &business, search),
    };
    let source = match found {
        // What the search found, or when it found nothing, the typed text anywhere in the
        // lower-cased name or number (as the list has always matched).
        Some(found) => {
            let pattern = q.text(anywhere(&filter.typed));
            q.sql = format!(
                "WITH found(phone) AS ({found}), matched(phone) AS (SELECT phone FROM found \
                 UNION ALL SELECT phone FROM contacts WHERE business_id = {business} \
                 AND NOT EXISTS (SELECT 1 FROM found) AND (LOWER(name) LIKE {pattern} \
                 ESCAPE '\\' OR phone LIKE {pattern} ESCAPE '\\')) "
            );
            conditions.push(format!("c.business_id = {business}"));
            if let Some(label) = &filter.label {
                let label = q.text(label.as_str());
                conditions.push(format!(
                    "EXISTS (SELECT 1 FROM conversation_labels cl WHERE cl.business_id = \
                     c.business_id AND cl.phone = c.phone AND cl.label_id = {label})"
                ));
            }
            format!(
                "matched m {then} contacts c ON c.business_id = {business} \
                 AND c.phone = m.phone {assignee}"
            )
        }
        // A label's conversations through its index, then their rows.
        None if filter.label.is_some() => {
            let label = q.text(filter.label.as_deref().unwrap_or_default());
            conditions.push(format!(
                "cl.label_id = {label} AND cl.business_id = {business}"
            ));
            format!(
                "conversation_labels cl {then} contacts c ON c.business_id = cl.business_id \
                 AND c.phone = cl.phone {assignee}"
            )
        }
        None => {
            conditions.push(format!("c.business_id = {business}"));
            format!("contacts c {assignee}")
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
    q.sql = format!(
        "{}{columns} FROM {source} WHERE {} {LIST_ORDER} LIMIT $1 OFFSET $2",
        q.sql,
        conditions.join(" AND ")
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
