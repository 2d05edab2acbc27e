//! The conversation list's last resort: when a search's index finds nobody, the typed text
//! anywhere in a contact's name or key. It is matched in the contact's search document, whose
//! text the server folded, and never through SQL's `LOWER`, which folds only ASCII letters on
//! SQLite and every letter on Postgres: `üll` finds "MÜLLER" on both.

use super::Backend;
use super::full_text::contact_words;
use super::list_query::PageQuery;
use super::search_index::CONTACT;
use crate::search_text::{Query, folded_words};

/// What a contact's document is searched in for `typed`, and the `LIKE` pattern: a number's
/// digits (its separators dropped) or the folded words (one space between) in the folded text;
/// text with no letter or digit (`😀`, `%`), which folding would drop, as typed in the text as
/// written, where it has no case to fold.
fn pattern(typed: &str) -> (&'static str, String) {
    let (column, text) = match Query::parse(typed) {
        Some(query) if query.is_number() => ("folded", query.words[0].clone()),
        Some(_) => ("folded", folded_words(typed)),
        None => ("body", typed.to_string()),
    };
    let escaped = text
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    (column, format!("%{escaped}%"))
}

/// The keys of the business's contacts whose document holds `typed` anywhere, up to `most`
/// (an SQL expression). The business's contact documents are read by an index, one entry per
/// contact as the contacts' own scan was: SQLite by their ids' range (`contact:…`), Postgres by
/// its partial index of contact documents (`search_documents_named`).
pub(super) fn anywhere(
    q: &mut PageQuery,
    backend: Backend,
    business: &str,
    typed: &str,
    most: &str,
) -> String {
    let (column, pattern) = pattern(typed);
    let pattern = q.text(pattern);
    let contacts = match backend {
        Backend::Sqlite => format!(
            "doc_id >= {} AND doc_id < {}",
            q.text(format!("{CONTACT}:")),
            q.text(format!("{CONTACT};"))
        ),
        Backend::Postgres => concat!(contact_words!(), " IS NOT NULL").to_string(),
    };
    format!(
        "SELECT phone FROM search_documents WHERE business_id = {business} AND {contacts} \
         AND {column} LIKE {pattern} ESCAPE '\\' LIMIT {most}"
    )
}

#[cfg(test)]
mod tests {
    use super::pattern;

    #[test]
    fn typed_text_is_folded_as_documents_are_unless_it_has_no_letter_or_digit() {
        assert_eq!(pattern("ÜLL"), ("folded", "%üll%".into()));
        assert_eq!(pattern("Al-Ra"), ("folded", "%al ra%".into()));
        assert_eq!(pattern("+44 7700-9"), ("folded", "%4477009%".into()));
        assert_eq!(pattern("50%"), ("folded", "%50%".into()));
        assert_eq!(pattern("%_\\"), ("body", "%\\%\\_\\\\%".into()));
        assert_eq!(pattern("😀"), ("body", "%😀%".into()));
    }
}
