//! Per-recipient template variables: the column names a recipient file uses for a send's
//! parameters, and a send's components with one recipient's values put in.
//!
//! - a body variable: its position (`1`, `2`, …) or, for named parameters, its name (`first_name`);
//! - a header text variable: `header_` and its position or name (`header_1`, `header_order_id`);
//! - a header's media: `header_image_url`, `header_video_url` or `header_document_url` (a link).

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// The header media a file's link may replace.
const MEDIA: [&str; 3] = ["image", "video", "document"];

/// The column name of parameter `index` (from 0) of a component of type `kind`; `None` for a
/// parameter a file cannot set (a button's, a location).
pub fn column(kind: &str, index: usize, parameter: &Value) -> Option<String> {
    let kind = kind.to_ascii_lowercase();
    let of_type = parameter.get("type").and_then(Value::as_str)?;
    let name = parameter
        .get("parameter_name")
        .and_then(Value::as_str)
        .map_or_else(|| (index + 1).to_string(), String::from);
    match (kind.as_str(), of_type) {
        ("body", "text") => Some(name),
        ("header", "text") => Some(format!("header_{name}")),
        ("header", media) if MEDIA.contains(&media) => Some(format!("header_{media}_url")),
        _ => None,
    }
}

/// `components` with the parameters named in `values` set to them.
pub fn personalised(components: &Value, values: &BTreeMap<String, String>) -> Value {
    let mut out = components.clone();
    for component in out.as_array_mut().into_iter().flatten() {
        let kind = component
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let parameters = component
            .get_mut("parameters")
            .and_then(Value::as_array_mut);
        for (index, parameter) in parameters.into_iter().flatten().enumerate() {
            let Some(value) = column(&kind, index, parameter).and_then(|c| values.get(&c)) else {
                continue;
            };
            let of_type = parameter["type"].as_str().unwrap_or("text").to_string();
            if of_type == "text" {
                parameter["text"] = json!(value);
            } else {
                parameter[&of_type] = json!({"link": value});
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_parameter_takes_its_column() {
        let components = json!([
            {"type": "header", "parameters": [{"type": "image", "image": {"id": "1"}}]},
            {"type": "body", "parameters": [
                {"type": "text", "text": "Sheena"},
                {"type": "text", "text": "A1", "parameter_name": "order"},
            ]},
        ]);
        let values = BTreeMap::from([
            ("1".to_string(), "Omar".to_string()),
            ("order".to_string(), "B2".to_string()),
            (
                "header_image_url".to_string(),
                "https://example.com/a.png".to_string(),
            ),
        ]);
        assert_eq!(
            personalised(&components, &values),
            json!([
                {"type": "header", "parameters": [
                    {"type": "image", "image": {"link": "https://example.com/a.png"}}]},
                {"type": "body", "parameters": [
                    {"type": "text", "text": "Omar"},
                    {"type": "text", "text": "B2", "parameter_name": "order"},
                ]},
            ])
        );
    }

    #[test]
    fn header_text_is_prefixed() {
        let parameter = json!({"type": "text", "text": "x"});
        assert_eq!(column("HEADER", 0, &parameter).as_deref(), Some("header_1"));
        assert_eq!(column("button", 0, &parameter), None);
    }
}
