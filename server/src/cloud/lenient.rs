//! Reading Meta's JSON so that one odd field or item never fails a whole delivery: the provider
//! retries a refused webhook for days, and a single mistyped field would block every update
//! batched with it.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Number, Value};
use sha2::{Digest, Sha256};

/// The longest message id kept as sent. Meta's `wamid.…` ids are under 100 bytes; a longer one
/// would not fit an index key (Postgres takes about 2.7 kB), so it is kept as its digest.
pub const MAX_MESSAGE_ID: usize = 512;

/// A string, a number as its digits (a `from` or `phone_number_id` of `16505551234` names the
/// same as `"16505551234"`), or `None` for anything else (a required one that is missing is
/// refused by name later, where the rules know which fields a delivery needs).
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(text) => Some(text),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    })
}

/// A number, or a string that holds one (`"37.44"` reads as `37.44`). Anything else does not
/// fit.
pub fn number<'de, D: Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
    match Value::deserialize(d)? {
        Value::Number(number) => Ok(number),
        Value::String(text) => text
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(|value| match value.fract() == 0.0 && value.abs() < 1e15 {
                // Whole numbers stay whole (`"2"` reads as `2`, not `2.0`).
                true => Some(Number::from(value as i64)),
                false => Number::from_f64(value),
            })
            .ok_or_else(|| serde::de::Error::custom(format!("expected a number, got {text:?}"))),
        other => Err(serde::de::Error::custom(format!(
            "expected a number, got {other}"
        ))),
    }
}

/// A message id (`wamid.…`), or `None` for anything but a string.
pub fn message_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(string(d)?.map(fitted_id))
}

/// A message id that must be a string (the message an edit, deletion or reaction names).
pub fn required_message_id<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d).map(fitted_id)
}

/// `id`, or when it is longer than `MAX_MESSAGE_ID` a digest of it: the same id always reads
/// the same, so a redelivery, a receipt or an edit of that message still finds it.
pub fn fitted_id(id: String) -> String {
    if id.len() <= MAX_MESSAGE_ID {
        return id;
    }
    format!("parley.long.{}", hex::encode(Sha256::digest(id.as_bytes())))
}

/// Text: a string, or a number as its digits (a body of `12345` is the text "12345"). Anything
/// else does not fit.
pub fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(text) => Ok(text),
        Value::Number(number) => Ok(number.to_string()),
        other => Err(serde::de::Error::custom(format!(
            "expected text, got {other}"
        ))),
    }
}

/// Unix seconds: Meta sends a string of digits; a number is taken too, and a fraction of a
/// second (`1763700000.5`, as a number or a string) is dropped.
pub fn unix_seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let whole = |seconds: f64| (seconds.is_finite()).then(|| seconds.trunc() as i64);
    Ok(match Value::deserialize(d)? {
        Value::String(text) => {
            (text.trim().parse().ok()).or_else(|| whole(text.trim().parse::<f64>().ok()?))
        }
        Value::Number(number) => number.as_i64().or_else(|| whole(number.as_f64()?)),
        _ => None,
    })
}

/// `T`, or its default when the JSON does not fit it.
pub fn or_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(T::deserialize(Value::deserialize(d)?).unwrap_or_default())
}

/// An array whose items are read one by one: an item that does not fit becomes its default.
/// Fails only when the JSON is not an array.
pub fn array<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(each(Vec::<Value>::deserialize(d)?))
}

/// Like `array`, but anything that is not an array reads as none.
pub fn items<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => each(items),
        _ => Vec::new(),
    })
}

fn each<T: DeserializeOwned + Default>(items: Vec<Value>) -> Vec<T> {
    items
        .into_iter()
        .map(|item| T::deserialize(item).unwrap_or_default())
        .collect()
}
