//! The conversation list's last resort: when a search's index finds nobody, the typed text
//! anywhere in a contact's name or key. It is matched in the contact's search document, whose
//! text the server folded, and never through SQL's `LOWER`, which folds only ASCII letters on
//! SQLite and every letter on Postgres: `üll` and `ull` find "MÜLLER" on both.

use super::Backend;
use super::full_text::contact_words;
use super::search_index::CONTACT;
use crate::search_text::{Query, folded_words};

/// What a contact's document is searched in for `typed`, and the text looked for: a number's
/// digits (its separators dropped) or the folded words (one space between) in the folded text;
/// text with no letter or digit (`😀`, `%`), which folding would drop, as typed in the text as
/// written, where it has no case to fold.
fn needle(typed: &str) -> (&'static str, String) {
    match Query::parse(typed) {
        Ok(query) if query.is_number() => ("folded", query.words[0].clone()),
        Ok(_) => ("folded", folded_words(typed)),
        Err(_) => ("body", typed.to_string()),
    }
}

/// The keys of the business's contacts whose document holds `typed` anywhere, up to `most`
/// (an SQL expression); `bind` binds a text value and answers its placeholder. The business's contact documents are read by an index, one entry per
/// contact as the contacts' own scan was: SQLite by their ids' range (`contact:…`), Postgres by
/// its partial index of contact documents (`search_documents_named`). The text is found by
/// position, code point for code point: SQLite's `LIKE` takes U+FFFE and U+FFFF for U+FFFD.
pub(super) fn anywhere(
    bind: &mut impl FnMut(String) -> String,
    backend: Backend,
    business: &str,
    typed: &str,
    most: &str,
) -> String {
    let (column, needle) = needle(typed);
    let needle = bind(needle);
    let (contacts, found) = match backend {
        Backend::Sqlite => (
            format!(
                "doc_id >= {} AND doc_id < {}",
                bind(format!("{CONTACT}:")),
                bind(format!("{CONTACT};"))
            ),
            format!("instr({column}, {needle}) > 0"),
        ),
        Backend::Postgres => (
            concat!(contact_words!(), " IS NOT NULL").to_string(),
            format!("strpos({column}, {needle}) > 0"),
        ),
    };
    format!(
        "SELECT phone FROM search_documents WHERE business_id = {business} AND {contacts} \
         AND {found} LIMIT {most}"
    )
}

#[cfg(test)]
mod tests {
    use super::needle;

    #[test]
    fn typed_text_is_folded_as_documents_are_unless_it_has_no_letter_or_digit() {
        assert_eq!(needle("ÜLL"), ("folded", "ull".into()));
        assert_eq!(needle("Al-Ra"), ("folded", "al ra".into()));
        assert_eq!(needle("+44 7700-9"), ("folded", "4477009".into()));
        assert_eq!(needle("50%"), ("folded", "50".into()));
        assert_eq!(needle("%_\\"), ("body", "%_\\".into()));
        assert_eq!(needle("😀"), ("body", "😀".into()));
    }
}
