//! Rules 1–4: the template's name, category and language.

use serde_json::Value;

use super::{Checked, fail, length, text};

pub const NAME_MAX: usize = 512;

/// Rules 1–4 in order: name required, its characters, its length; category; language.
pub(super) fn check_identity(template: &Value) -> Checked {
    // 1–2: name.
    let name = text(template, "name");
    if name.is_empty() {
        return fail("name_required", "Template name is required.");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return fail(
            "name_format",
            "Template name may only contain lowercase letters, digits and underscores.",
        );
    }
    if length(name) > NAME_MAX {
        return fail(
            "name_length",
            "Template name must be at most 512 characters.",
        );
    }
    // 3: category.
    let category = text(template, "category");
    if category.is_empty() {
        return fail("category_required", "Category is required.");
    }
    if !["MARKETING", "UTILITY"]
        .iter()
        .any(|c| c.eq_ignore_ascii_case(category))
    {
        return fail("category_value", "Category must be MARKETING or UTILITY.");
    }
    // 4: language.
    let language = text(template, "language");
    if language.is_empty() {
        return fail("language_required", "Language is required.");
    }
    if !is_language_code(language) {
        return fail(
            "language_format",
            "Language must be a language code such as en_US.",
        );
    }
    Ok(())
}

/// A code such as `ar`, `en_US` or `fil`: what the provider's language list holds.
fn is_language_code(code: &str) -> bool {
    let (lang, region) = match code.split_once('_') {
        Some((lang, region)) => (lang, Some(region)),
        None => (code, None),
    };
    (2..=3).contains(&lang.len())
        && lang.chars().all(|c| c.is_ascii_lowercase())
        && region
            .is_none_or(|r| (2..=3).contains(&r.len()) && r.chars().all(|c| c.is_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_codes() {
        assert!(is_language_code("en_US"));
        assert!(is_language_code("ar"));
        assert!(is_language_code("fil"));
        assert!(!is_language_code("english"));
        assert!(!is_language_code("en-us"));
    }
}
