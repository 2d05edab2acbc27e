//! What the conversation list filters on: a typed search, status, assignee and label.

use crate::phone::{Region, key_prefixes};
use crate::search_text::Query;

/// Which conversations a list page shows by assignee.
pub enum AssigneeFilter {
    All,
    Unassigned,
    /// Assigned to this user.
    User(String),
}

/// What a typed list search looks for, each by an index it can seek; when none of these finds
/// a conversation, the search matches anywhere in the name or number instead.
pub enum ListSearch {
    /// No search: every conversation.
    Everything,
    /// Numbers starting with one of these digits (see `key_prefixes`).
    Number(Vec<String>),
    /// Contacts whose name and number hold these words, the last as a prefix (the search
    /// documents index them).
    Words(Query),
    /// Text without a letter or digit: nothing seekable.
    Nothing,
}

/// What the list filters on: the search as typed (read with the business's region into a
/// `ListSearch`, and kept for matching anywhere), a status (`None` for all), the assignee, and a
/// label the conversations carry (`None`: any).
pub struct ListFilter {
    pub typed: String,
    pub status: Option<String>,
    pub assignee: AssigneeFilter,
    pub label: Option<String>,
}

impl ListSearch {
    /// Reads a typed search: digits (with `+`, spaces, dashes, brackets) are a number, written
    /// with its country code or nationally in the business's `region`; anything else is words.
    pub fn read(typed: &str, region: Option<Region>) -> ListSearch {
        if typed.trim().is_empty() {
            return ListSearch::Everything;
        }
        match Query::parse(typed) {
            // Too many words is refused before the list is read.
            Err(_) => ListSearch::Nothing,
            Ok(query) if query.is_number() => {
                ListSearch::Number(key_prefixes(&query.words[0], region))
            }
            Ok(query) => ListSearch::Words(query),
        }
    }
}
