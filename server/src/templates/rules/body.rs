//! Rules 5, 8 and 9: the body text, an example for each of its variables, and, in named mode,
//! a name in every placeholder.

use serde_json::Value;

use super::header::is_text_header;
use super::{Checked, Mode, fail, length, text, variables};

pub const BODY_MAX: usize = 1024;

/// Rule 5: the body's text, present and within its length.
pub(super) fn check_body_text(body: &str) -> Checked {
    if body.is_empty() {
        return fail("body_required", "Body text is required.");
    }
    if length(body) > BODY_MAX {
        return fail("body_length", "Body text must be at most 1024 characters.");
    }
    Ok(())
}

/// Rule 8: every body variable has an example value.
pub(super) fn check_body_examples(body_component: &Value, body: &str, mode: Mode) -> Checked {
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

/// Rule 9: in named mode, no `{{}}` in the body, then none in a text header.
pub(super) fn check_named_placeholders(body: &str, header: Option<&Value>) -> Checked {
    if variables(body).iter().any(String::is_empty) {
        return fail(
            "empty_placeholder",
            "Every {{}} placeholder in the body needs a variable name.",
        );
    }
    let header_text = header.map(|h| text(h, "text")).unwrap_or("");
    if is_text_header(header) && variables(header_text).iter().any(String::is_empty) {
        return fail(
            "empty_placeholder",
            "Every {{}} placeholder in the header needs a variable name.",
        );
    }
    Ok(())
}
