//! Random JSON, and mutations of a valid document: one value somewhere inside it replaced.

use proptest::prelude::*;
use serde_json::{Map, Value};

/// Any JSON value, a few levels deep, with the strings the parsers look for mixed in.
pub fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        word().prop_map(Value::String),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((word(), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Names and values the Cloud API and the template rules use, so random documents reach past
/// the first `match`.
pub fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "type",
            "text",
            "body",
            "image",
            "id",
            "from",
            "from_user_id",
            "timestamp",
            "messages",
            "statuses",
            "contacts",
            "value",
            "field",
            "entry",
            "changes",
            "interactive",
            "button_reply",
            "list_reply",
            "context",
            "referral",
            "errors",
            "name",
            "language",
            "category",
            "components",
            "BODY",
            "HEADER",
            "FOOTER",
            "BUTTONS",
            "format",
            "example",
            "body_text",
            "header_text",
            "buttons",
            "url",
            "phone_number",
            "parameter_format",
            "NAMED",
            "POSITIONAL",
            "{{1}}",
            "{{name}}",
            "IMAGE",
            "TEXT",
            "location",
            "reaction",
        ])
        .prop_map(str::to_string),
        "[a-z_]{1,12}",
    ]
}

/// Every path to a value inside `doc` (object keys and array indexes).
fn paths(doc: &Value) -> Vec<Vec<PathStep>> {
    let mut found = vec![Vec::new()];
    match doc {
        Value::Object(map) => {
            for (key, child) in map {
                for mut path in paths(child) {
                    path.insert(0, PathStep::Key(key.clone()));
                    found.push(path);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                for mut path in paths(child) {
                    path.insert(0, PathStep::Index(i));
                    found.push(path);
                }
            }
        }
        _ => {}
    }
    found
}

#[derive(Clone, Debug)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at<'a>(doc: &'a mut Value, path: &[PathStep]) -> &'a mut Value {
    path.iter().fold(doc, |value, step| match step {
        PathStep::Key(key) => &mut value[key.as_str()],
        PathStep::Index(i) => &mut value[*i],
    })
}

/// `doc` with the value at one of its paths replaced by a random one, or removed.
pub fn mutated(doc: Value) -> impl Strategy<Value = Value> {
    let all = paths(&doc);
    (prop::sample::select(all), json(), any::<bool>()).prop_map(move |(path, new, remove)| {
        let mut doc = doc.clone();
        match (remove, path.split_last()) {
            (true, Some((PathStep::Key(key), parent))) => {
                if let Some(map) = at(&mut doc, parent).as_object_mut() {
                    map.remove(key);
                }
            }
            _ => *at(&mut doc, &path) = new,
        }
        doc
    })
}
