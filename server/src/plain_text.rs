//! Text that may be stored. What clients send must hold no control character: Postgres text
//! cannot hold U+0000, and none of them belongs in a name, a note or a message. What Meta sends is
//! kept, with U+0000 and escaped halves of UTF-16 pairs replaced by U+FFFD, so a delivery is
//! never refused for them (Meta would redeliver it forever).

use serde_json::Value;

/// A client's text field that holds a control character; it names the field.
#[derive(Debug, thiserror::Error)]
#[error("{0} must not contain control characters")]
pub struct ControlCharacter(pub String);

/// True for what a client may not send: C0 controls except tab, newline and carriage return,
/// and DEL.
fn is_refused(c: char) -> bool {
    c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// Refuses `text` of the field `field` when it holds a control character.
pub fn check(field: &str, text: &str) -> Result<(), ControlCharacter> {
    match text.chars().any(is_refused) {
        true => Err(ControlCharacter(field.to_string())),
        false => Ok(()),
    }
}

/// Refuses a form's text field with a control character, also when it carries JSON whose
/// strings hold one escaped (`\u0000`).
pub fn check_field(field: &str, text: &str) -> Result<(), ControlCharacter> {
    check(field, text)?;
    if text.trim_start().starts_with(['{', '['])
        && let Ok(value) = serde_json::from_str::<Value>(text)
    {
        check_at(&value, "").map_err(|_| ControlCharacter(field.to_string()))?;
    }
    Ok(())
}

/// Refuses a JSON body with a control character in any string or key, naming its path
/// (`contacts[2].name`; `body` for a bare string).
pub fn check_json(value: &Value) -> Result<(), ControlCharacter> {
    check_at(value, "").map_err(|err| match err.0.is_empty() {
        true => ControlCharacter("body".into()),
        false => err,
    })
}

fn check_at(value: &Value, path: &str) -> Result<(), ControlCharacter> {
    match value {
        Value::String(text) => check(path, text),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check_at(item, &format!("{path}[{i}]"))),
        Value::Object(map) => map.iter().try_for_each(|(key, item)| {
            let at = match path.is_empty() {
                true => key.clone(),
                false => format!("{path}.{key}"),
            };
            check(&at, key)?;
            check_at(item, &at)
        }),
        _ => Ok(()),
    }
}

/// Refuses a query string with a control character in a decoded name or value, naming it.
pub fn check_query(query: &str) -> Result<(), ControlCharacter> {
    url::form_urlencoded::parse(query.as_bytes()).try_for_each(|(name, value)| {
        check(&name, &name)?;
        check(&name, &value)
    })
}

/// Replaces U+0000 with U+FFFD in every string and key of Meta's JSON.
pub fn replace_nul(value: &mut Value) {
    match value {
        Value::String(text) if text.contains('\0') => *text = text.replace('\0', "\u{FFFD}"),
        Value::Array(items) => items.iter_mut().for_each(replace_nul),
        Value::Object(map) => {
            if map.keys().any(|key| key.contains('\0')) {
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(key, item)| (key.replace('\0', "\u{FFFD}"), item))
                    .collect();
            }
            map.values_mut().for_each(replace_nul);
        }
        _ => {}
    }
}

/// JSON text with every escaped UTF-16 surrogate that is not half of a pair (a `\ud800` alone,
/// which no JSON reader takes as text) written as U+FFFD instead; `None` when there is none.
pub fn replace_lone_surrogates(json: &[u8]) -> Option<Vec<u8>> {
    let escaped_unit = |at: usize| -> Option<u16> {
        let digits = json.get(at..at + 6)?.strip_prefix(b"\\u")?;
        u16::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let (mut out, mut changed, mut i) = (Vec::with_capacity(json.len()), false, 0);
    while i < json.len() {
        if json[i] != b'\\' {
            out.push(json[i]);
            i += 1;
            continue;
        }
        let step = match escaped_unit(i) {
            Some(0xD800..=0xDBFF) if matches!(escaped_unit(i + 6), Some(0xDC00..=0xDFFF)) => 12,
            Some(0xD800..=0xDFFF) => {
                out.extend_from_slice(b"\\ufffd");
                changed = true;
                i += 6;
                continue;
            }
            Some(_) => 6,
            // Any other escape: the backslash and the character it escapes.
            None => 2,
        };
        let end = (i + step).min(json.len());
        out.extend_from_slice(&json[i..end]);
        i = end;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_control_character_is_named_by_its_path() {
        let body = json!({"contacts": [{"name": "ok"}, {"name": "a\u{0}b"}]});
        assert_eq!(
            check_json(&body).expect_err("refused").0,
            "contacts[1].name"
        );
        assert_eq!(check_json(&json!("\u{7f}")).expect_err("refused").0, "body");
        assert!(check_json(&json!({"text": "tab\tnew\nline\r"})).is_ok());
        assert_eq!(
            check_query("a=1&search_query=x%00").expect_err("refused").0,
            "search_query"
        );
        assert_eq!(
            check_field("template", r#"{"a": "\u0000"}"#)
                .expect_err("refused")
                .0,
            "template"
        );
    }

    #[test]
    fn nul_in_meta_text_becomes_the_replacement_character() {
        let mut body = json!({"a\u{0}": ["x\u{0}y", {"b": "\\u0000"}]});
        replace_nul(&mut body);
        assert_eq!(body, json!({"a\u{FFFD}": ["x\u{FFFD}y", {"b": "\\u0000"}]}));
    }

    #[test]
    fn a_lone_surrogate_becomes_the_replacement_character_and_pairs_stay() {
        let body =
            br#"{"a":"x\ud800y","b":"\udc00","c":"\ud83d\ude00","d":"\\ud800","e":"\u00e9"}"#;
        let repaired = replace_lone_surrogates(body).expect("repaired");
        let value: Value = serde_json::from_slice(&repaired).expect("JSON");
        assert_eq!(
            value,
            json!({"a": "x\u{FFFD}y", "b": "\u{FFFD}", "c": "😀", "d": "\\ud800", "e": "é"})
        );
        assert!(replace_lone_surrogates(br#"{"c":"\ud83d\ude00"}"#).is_none());
    }
}
