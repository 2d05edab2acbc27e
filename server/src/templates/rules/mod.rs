//! The template form's rules (spec section 5, rules 1–14, the button maximums and the header
//! media limits), checked on the submitted template JSON in the spec's order. The first failure
//! wins, and its message is the exact text the form shows: `testdata/template-rules.json` holds
//! every rule's cases and is read by this crate's tests and by the web app's.
//!
//! A rule that covers several things (all buttons, all variables) is checked across all of them
//! before the next rule starts, so a long first button text loses to nothing but earlier rules.
//!
//! - `shape`: the JSON's structure, found once into the template's parts and parameter style
//! - `identity`: rules 1–4, the name, category and language
//! - `header`: rules 6–7 and the header media limits
//! - `body`: rules 5, 8 and 9, the body text and its variables' examples and names
//! - `buttons`: the button maximums and rules 10–13

mod body;
mod buttons;
mod header;
mod identity;
mod shape;

use serde_json::Value;

use super::media::HeaderFile;

pub const FOOTER_MAX: usize = 60;

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

/// Parameter style of the template's variables.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Positional,
    Named,
}

/// Checks `template` (the submitted JSON) and the header file, if one came with it.
pub fn check_template(template: &Value, file: Option<&HeaderFile>) -> Checked {
    let (parts, mode) = shape::shape(template)?;
    identity::check_identity(template)?;
    // 5.
    let body = parts.body.map(|b| text(b, "text")).unwrap_or("");
    body::check_body_text(body)?;
    // 6 and the media limits, then 7.
    if let Some(header) = parts.header {
        header::check_media_header(header, file)?;
        header::check_text_header(header, mode)?;
    }
    // 8.
    body::check_body_examples(parts.body.unwrap_or(&Value::Null), body, mode)?;
    // 9.
    if mode == Mode::Named {
        body::check_named_placeholders(body, parts.header)?;
    }
    // 10–13 and the button maximums.
    buttons::check_buttons(&parts.buttons)?;
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
}
