//! The button maximums and rules 10–13: each button's text, URL, phone number and example code.

use serde_json::Value;

use super::{Checked, fail, length, text, variables};

pub const BUTTON_TEXT_MAX: usize = 25;
pub const COPY_CODE_MAX: usize = 15;
/// Most buttons of each type, in the order their limits are checked; then the total.
pub const BUTTON_LIMITS: [(&str, usize, &str); 4] = [
    (
        "QUICK_REPLY",
        10,
        "At most 10 quick reply buttons are allowed.",
    ),
    ("URL", 2, "At most 2 URL buttons are allowed."),
    (
        "PHONE_NUMBER",
        1,
        "At most 1 phone number button is allowed.",
    ),
    ("COPY_CODE", 1, "At most 1 copy code button is allowed."),
];
pub const BUTTONS_TOTAL_MAX: usize = 10;

pub(super) fn button_type(button: &Value) -> String {
    text(button, "type").to_ascii_uppercase()
}

/// The button maximums, then rules 10 to 13, each across all buttons (numbered from 1).
pub(super) fn check_buttons(buttons: &[&Value]) -> Checked {
    for (kind, max, message) in BUTTON_LIMITS {
        if buttons.iter().filter(|b| button_type(b) == kind).count() > max {
            return fail("button_limits", message);
        }
    }
    if buttons.len() > BUTTONS_TOTAL_MAX {
        return fail("button_limits", "At most 10 buttons are allowed in total.");
    }
    let numbered = || {
        buttons
            .iter()
            .enumerate()
            .map(|(i, b)| (i + 1, *b, button_type(b)))
    };
    // 10.
    for (n, button, kind) in numbered() {
        let label = text(button, "text");
        if kind != "COPY_CODE" && label.is_empty() {
            return fail("button_text_required", format!("Button {n} needs text."));
        }
        if length(label) > BUTTON_TEXT_MAX {
            return fail(
                "button_text_length",
                format!("Button {n} text must be at most 25 characters."),
            );
        }
    }
    // 11.
    for (n, button, kind) in numbered() {
        if kind == "URL" {
            check_url_button(n, button)?;
        }
    }
    // 12.
    for (n, button, kind) in numbered() {
        if kind != "PHONE_NUMBER" {
            continue;
        }
        let phone = text(button, "phone_number");
        if phone.is_empty() {
            return fail(
                "phone_required",
                format!("Button {n} needs a country code and a phone number."),
            );
        }
        if !is_phone(phone) {
            return fail(
                "phone_invalid",
                format!("Button {n} has an invalid phone number."),
            );
        }
    }
    // 13.
    for (n, button, kind) in numbered() {
        if kind != "COPY_CODE" {
            continue;
        }
        let code = match button.get("example") {
            Some(Value::Array(list)) => list.first().and_then(Value::as_str).unwrap_or(""),
            Some(Value::String(code)) => code,
            _ => "",
        }
        .trim();
        if code.is_empty() {
            return fail(
                "copy_code_required",
                format!("Button {n} needs an example code."),
            );
        }
        if length(code) > COPY_CODE_MAX {
            return fail(
                "copy_code_length",
                format!("Button {n} example code must be at most 15 characters."),
            );
        }
    }
    Ok(())
}

/// Rule 11: the URL, with its example substituted for `{{1}}` (or appended), is a web address.
fn check_url_button(n: usize, button: &Value) -> Checked {
    let url = text(button, "url");
    if url.is_empty() {
        return fail("url_required", format!("Button {n} needs a URL."));
    }
    let example = match button.get("example") {
        Some(Value::Array(list)) => list.first().and_then(Value::as_str).unwrap_or(""),
        Some(Value::String(example)) => example,
        _ => "",
    }
    .trim();
    let dynamic = url.contains("{{");
    if dynamic && example.is_empty() {
        return fail(
            "url_example",
            format!("Button {n} needs an example for its URL variable."),
        );
    }
    if dynamic && variables(url) != ["1"] {
        return fail(
            "url_variable",
            format!("Button {n} URL may only use the variable {{{{1}}}}."),
        );
    }
    let full = if url.contains("{{1}}") {
        url.replace("{{1}}", example)
    } else {
        format!("{url}{example}")
    };
    let valid = url::Url::parse(&full).is_ok_and(|u| {
        matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty())
    });
    if !valid {
        return fail("url_invalid", format!("Button {n} has an invalid URL."));
    }
    Ok(())
}

/// Rule 12: an optional plus, a digit, then at least 7 digits, spaces or dashes.
fn is_phone(phone: &str) -> bool {
    let rest = phone.strip_prefix('+').unwrap_or(phone);
    let mut chars = rest.chars();
    chars.next().is_some_and(|c| c.is_ascii_digit()) && {
        let tail: Vec<char> = chars.collect();
        tail.len() >= 7
            && tail
                .iter()
                .all(|c| c.is_ascii_digit() || *c == ' ' || *c == '-')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_pattern() {
        assert!(is_phone("+15551234567"));
        assert!(is_phone("2 0100-123"));
        assert!(!is_phone("+1555123"));
        assert!(!is_phone("+ 15551234567"));
        assert!(!is_phone("15551234567x"));
    }
}
