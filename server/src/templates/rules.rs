//! The template form's rules (spec section 5, rules 1–14, the button maximums and the header
//! media limits), checked on the submitted template JSON in the spec's order. The first failure
//! wins, and its message is the exact text the form shows: `testdata/template-rules.json` holds
//! every rule's cases and is read by this crate's tests and by the web app's.
//!
//! A rule that covers several things (all buttons, all variables) is checked across all of them
//! before the next rule starts, so a long first button text loses to nothing but earlier rules.

use serde_json::Value;

use super::media::{HEADER_DOCUMENT_MAX, HEADER_IMAGE_MAX, HEADER_VIDEO_MAX, HeaderFile};
use crate::media::FileKind;

pub const NAME_MAX: usize = 512;
pub const BODY_MAX: usize = 1024;
pub const HEADER_TEXT_MAX: usize = 60;
pub const FOOTER_MAX: usize = 60;
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

/// The first rule a template breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// A stable key naming the rule (the web app may map it to its own wording).
    pub rule: &'static str,
    /// The English sentence the form shows.
    pub message: String,
}

type Checked = Result<(), Failure>;

fn fail(rule: &'static str, message: impl Into<String>) -> Checked {
    Err(Failure {
        rule,
        message: message.into(),
    })
}

/// Lengths count Unicode code points (`[...text].length` in JavaScript).
fn length(text: &str) -> usize {
    text.chars().count()
}

/// A string field, trimmed; "" when absent or not a string.
fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("").trim()
}

/// Parameter style of the template's variables.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Positional,
    Named,
}

/// The variables `{{name}}` of a text in order of appearance; `{{}}` gives "".
/// A name is letters, digits and underscores; anything else between braces is plain text.
pub fn variables(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            break;
        };
        let inner = after[..close].trim();
        if inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            found.push(inner.to_string());
            rest = &after[close + 2..];
        } else {
            rest = after;
        }
    }
    found
}

/// The template's components, found once.
struct Parts<'a> {
    header: Option<&'a Value>,
    body: Option<&'a Value>,
    footer: Option<&'a Value>,
    buttons: Vec<&'a Value>,
}

/// Checks `template` (the submitted JSON) and the header file, if one came with it.
pub fn check_template(template: &Value, file: Option<&HeaderFile>) -> Checked {
    let (parts, mode) = shape(template)?;
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
    // 5: body.
    let body = parts.body.map(|b| text(b, "text")).unwrap_or("");
    if body.is_empty() {
        return fail("body_required", "Body text is required.");
    }
    if length(body) > BODY_MAX {
        return fail("body_length", "Body text must be at most 1024 characters.");
    }
    // 6 and the media limits, then 7.
    if let Some(header) = parts.header {
        check_media_header(header, file)?;
        check_text_header(header, mode)?;
    }
    // 8.
    check_body_examples(parts.body.unwrap_or(&Value::Null), body, mode)?;
    // 9.
    if mode == Mode::Named {
        if variables(body).iter().any(String::is_empty) {
            return fail(
                "empty_placeholder",
                "Every {{}} placeholder in the body needs a variable name.",
            );
        }
        let header_text = parts.header.map(|h| text(h, "text")).unwrap_or("");
        if is_text_header(parts.header) && variables(header_text).iter().any(String::is_empty) {
            return fail(
                "empty_placeholder",
                "Every {{}} placeholder in the header needs a variable name.",
            );
        }
    }
    // 10–13 and the button maximums.
    check_buttons(&parts.buttons)?;
    // 14.
    if let Some(footer) = parts.footer
        && length(text(footer, "text")) > FOOTER_MAX
    {
        return fail(
            "footer_length",
            "Footer text must be at most 60 characters.",
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

/// Checks what the form itself can never send wrong: the JSON's structure.
fn shape(template: &Value) -> Result<(Parts<'_>, Mode), Failure> {
    let shape_error = |message: String| Failure {
        rule: "shape",
        message,
    };
    if !template.is_object() {
        return Err(shape_error("The template must be a JSON object.".into()));
    }
    let mode = match template.get("parameter_format") {
        None | Some(Value::Null) => Mode::Positional,
        Some(Value::String(f)) if f.eq_ignore_ascii_case("POSITIONAL") => Mode::Positional,
        Some(Value::String(f)) if f.eq_ignore_ascii_case("NAMED") => Mode::Named,
        Some(_) => {
            return Err(shape_error(
                "Parameter format must be POSITIONAL or NAMED.".into(),
            ));
        }
    };
    let components = match template.get("components") {
        Some(Value::Array(list)) => list.as_slice(),
        None | Some(Value::Null) => &[],
        Some(_) => return Err(shape_error("Components must be a list.".into())),
    };
    let mut parts = Parts {
        header: None,
        body: None,
        footer: None,
        buttons: Vec::new(),
    };
    let mut seen_buttons = false;
    for component in components {
        let kind = text(component, "type").to_ascii_uppercase();
        if kind == "BUTTONS" {
            if std::mem::replace(&mut seen_buttons, true) {
                return Err(shape_error(
                    "The template has more than one BUTTONS component.".into(),
                ));
            }
            let Some(Value::Array(buttons)) = component.get("buttons") else {
                return Err(shape_error(
                    "The BUTTONS component needs a buttons list.".into(),
                ));
            };
            for button in buttons {
                let button_type = button_type(button);
                if !BUTTON_LIMITS.iter().any(|(t, _, _)| *t == button_type) {
                    return Err(shape_error(format!(
                        "Unknown button type \"{button_type}\"."
                    )));
                }
                parts.buttons.push(button);
            }
            continue;
        }
        let slot = match kind.as_str() {
            "HEADER" => &mut parts.header,
            "BODY" => &mut parts.body,
            "FOOTER" => &mut parts.footer,
            other => {
                return Err(shape_error(format!("Unknown component type \"{other}\".")));
            }
        };
        if slot.is_some() {
            return Err(shape_error(format!(
                "The template has more than one {kind} component."
            )));
        }
        *slot = Some(component);
    }
    if let Some(header) = parts.header {
        let format = text(header, "format").to_ascii_uppercase();
        if !["TEXT", "IMAGE", "DOCUMENT", "VIDEO", "LOCATION"].contains(&format.as_str()) {
            return Err(shape_error(format!("Unknown header format \"{format}\".")));
        }
    }
    Ok((parts, mode))
}

fn header_format(header: &Value) -> String {
    text(header, "format").to_ascii_uppercase()
}

fn is_text_header(header: Option<&Value>) -> bool {
    header.is_some_and(|h| header_format(h) == "TEXT")
}

/// Rule 6 and the media table: a media header needs a file of the right kind and size.
fn check_media_header(header: &Value, file: Option<&HeaderFile>) -> Checked {
    let (noun, accepted, max, type_message, size_message): (_, &[FileKind], _, _, _) =
        match header_format(header).as_str() {
            "IMAGE" => (
                "An image",
                &[FileKind::Png, FileKind::Jpeg],
                HEADER_IMAGE_MAX,
                "The header image must be a PNG or JPEG file.",
                "The header image must be at most 5 MB.",
            ),
            "DOCUMENT" => (
                "A document",
                &[FileKind::Pdf],
                HEADER_DOCUMENT_MAX,
                "The header document must be a PDF file.",
                "The header document must be at most 100 MB.",
            ),
            "VIDEO" => (
                "A video",
                &[FileKind::Mp4],
                HEADER_VIDEO_MAX,
                "The header video must be an MP4 file.",
                "The header video must be at most 16 MB.",
            ),
            _ => return Ok(()),
        };
    let Some(file) = file else {
        return fail(
            "header_file_required",
            format!("{noun} header needs a file."),
        );
    };
    if !accepted.contains(&file.kind) {
        return fail("header_file_type", type_message);
    }
    if file.size > max {
        return fail("header_file_size", size_message);
    }
    Ok(())
}

/// Rule 7: a text header's text, example, length and single variable.
fn check_text_header(header: &Value, mode: Mode) -> Checked {
    if header_format(header) != "TEXT" {
        return Ok(());
    }
    let header_text = text(header, "text");
    if header_text.is_empty() {
        return fail("header_text_required", "Header text is required.");
    }
    let vars = variables(header_text);
    let example = header.get("example").unwrap_or(&Value::Null);
    let named_example = example
        .get("header_text_named_params")
        .and_then(|p| p.get(0))
        .unwrap_or(&Value::Null);
    let example_value = match mode {
        Mode::Positional => example
            .get("header_text")
            .and_then(|e| e.get(0))
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim(),
        Mode::Named => text(named_example, "example"),
    };
    if !vars.is_empty() && example_value.is_empty() {
        return fail(
            "header_example",
            "The header variable needs an example value.",
        );
    }
    if length(header_text) > HEADER_TEXT_MAX {
        return fail(
            "header_length",
            "Header text must be at most 60 characters.",
        );
    }
    if vars.len() > 1 {
        return fail(
            "header_variable_count",
            "The header can have only one variable.",
        );
    }
    let Some(var) = vars.first() else {
        return Ok(());
    };
    match mode {
        Mode::Positional if var != "1" => {
            fail("header_variable_name", "The header variable must be {{1}}.")
        }
        Mode::Named if var.is_empty() => {
            fail("header_variable_name", "The header variable needs a name.")
        }
        Mode::Named if text(named_example, "param_name") != var => fail(
            "header_example",
            format!("The header example must be given for {{{{{var}}}}}."),
        ),
        _ => Ok(()),
    }
}

/// Rule 8: every body variable has an example value.
fn check_body_examples(body_component: &Value, body: &str, mode: Mode) -> Checked {
    let example = body_component.get("example").unwrap_or(&Value::Null);
    let mut seen: Vec<String> = Vec::new();
    for var in variables(body) {
        if seen.contains(&var) {
            continue;
        }
        seen.push(var.clone());
        let value = match mode {
            Mode::Positional => {
                let number = var.parse::<usize>().ok().filter(|n| *n >= 1);
                let Some(number) = number else {
                    return fail(
                        "body_variable_format",
                        "Body variables must be numbered from {{1}} in positional mode.",
                    );
                };
                example
                    .get("body_text")
                    .and_then(|rows| rows.get(0))
                    .and_then(|row| row.get(number - 1))
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .trim()
            }
            // An empty {{}} is rule 9's to report.
            Mode::Named if var.is_empty() => continue,
            Mode::Named => example
                .get("body_text_named_params")
                .and_then(Value::as_array)
                .and_then(|params| params.iter().find(|p| text(p, "param_name") == var))
                .map(|p| text(p, "example"))
                .unwrap_or(""),
        };
        if value.is_empty() {
            return fail(
                "body_example",
                format!("Body variable {{{{{var}}}}} needs an example value."),
            );
        }
    }
    Ok(())
}

fn button_type(button: &Value) -> String {
    text(button, "type").to_ascii_uppercase()
}

/// The button maximums, then rules 10 to 13, each across all buttons (numbered from 1).
fn check_buttons(buttons: &[&Value]) -> Checked {
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
    fn finds_variables_in_order() {
        assert_eq!(
            variables("Hi {{1}}, {{ name }} and {{}}"),
            ["1", "name", ""]
        );
        assert_eq!(variables("{{not a var}} {{2}}"), ["2"]);
        assert!(variables("no {{ end").is_empty());
    }

    #[test]
    fn phone_pattern() {
        assert!(is_phone("+15551234567"));
        assert!(is_phone("2 0100-123"));
        assert!(!is_phone("+1555123"));
        assert!(!is_phone("+ 15551234567"));
        assert!(!is_phone("15551234567x"));
    }

    #[test]
    fn language_codes() {
        assert!(is_language_code("en_US"));
        assert!(is_language_code("ar"));
        assert!(is_language_code("fil"));
        assert!(!is_language_code("english"));
        assert!(!is_language_code("en-us"));
    }
}
