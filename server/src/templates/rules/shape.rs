//! What the form itself can never send wrong: the JSON's structure, read once into the
//! template's components and its parameter style.

use serde_json::Value;

use super::buttons::{BUTTON_LIMITS, button_type};
use super::{Failure, Mode, text};

/// The template's components, found once.
pub(super) struct Parts<'a> {
    pub header: Option<&'a Value>,
    pub body: Option<&'a Value>,
    pub footer: Option<&'a Value>,
    /// Every button of the one BUTTONS component, in order.
    pub buttons: Vec<&'a Value>,
}

/// Checks the JSON's structure; a broken one fails as the rule `shape`.
pub(super) fn shape(template: &Value) -> Result<(Parts<'_>, Mode), Failure> {
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
