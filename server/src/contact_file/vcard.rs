//! The names and numbers of a vCard file (RFC 2426 for 3.0, RFC 6350 for 4.0): lines unfolded,
//! each content line read as `[group.]NAME[;param=value…]:value` (a quoted parameter value may
//! hold `:`), `FN` for the name with `N` in its place when missing, and every `TEL`, whether
//! plain text (`TEL;TYPE=CELL:+1 650…`) or a URI (`TEL;VALUE=uri:tel:+1-650…;ext=2`). Small and
//! strict enough for the files phones and address books export; nothing else of a card is read.

use super::{ContactFileError, FileContact};

/// One card's fields while it is read.
#[derive(Default)]
struct Card {
    formatted: Option<String>,
    structured: Option<String>,
    phones: Vec<String>,
}

impl Card {
    /// One entry per number (one with no number when it has none), under its name.
    fn into_contacts(self, out: &mut Vec<FileContact>) {
        let name = self
            .formatted
            .filter(|name| !name.trim().is_empty())
            .or(self.structured)
            .unwrap_or_default();
        if self.phones.is_empty() {
            out.push(FileContact {
                name,
                phone: String::new(),
            });
            return;
        }
        for phone in self.phones {
            out.push(FileContact {
                name: name.clone(),
                phone,
            });
        }
    }
}

/// Every card's contacts, in file order.
pub fn contacts(text: &str) -> Result<Vec<FileContact>, ContactFileError> {
    let mut out = Vec::new();
    let mut card: Option<Card> = None;
    let mut seen_card = false;
    for line in unfold(text) {
        let Some((name, params, value)) = content_line(&line) else {
            continue;
        };
        match name.as_str() {
            "BEGIN" if value.eq_ignore_ascii_case("VCARD") => {
                seen_card = true;
                card = Some(Card::default());
            }
            "END" if value.eq_ignore_ascii_case("VCARD") => {
                if let Some(done) = card.take() {
                    done.into_contacts(&mut out);
                }
            }
            "FN" => {
                if let Some(card) = card.as_mut() {
                    card.formatted = Some(unescape(value));
                }
            }
            "N" => {
                if let Some(card) = card.as_mut() {
                    card.structured = Some(structured_name(value));
                }
            }
            "TEL" => {
                if let Some(card) = card.as_mut() {
                    card.phones.push(tel_value(params, value));
                }
            }
            _ => {}
        }
    }
    if !seen_card {
        return Err(ContactFileError::NoCards);
    }
    Ok(out)
}

/// Logical lines: a line that starts with a space or a tab continues the one before it.
fn unfold(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        match (raw.strip_prefix([' ', '\t']), lines.last_mut()) {
            (Some(rest), Some(last)) => last.push_str(rest),
            _ => lines.push(raw.to_string()),
        }
    }
    lines
}

/// (upper-case name without its group, the parameters' text, the value) of a content line.
fn content_line(line: &str) -> Option<(String, &str, &str)> {
    let mut quoted = false;
    let colon = line.char_indices().find_map(|(at, c)| match c {
        '"' => {
            quoted = !quoted;
            None
        }
        ':' if !quoted => Some(at),
        _ => None,
    })?;
    let (head, value) = (&line[..colon], &line[colon + 1..]);
    let (name, params) = head.split_once(';').unwrap_or((head, ""));
    let name = name.rsplit('.').next().unwrap_or(name);
    Some((name.trim().to_ascii_uppercase(), params, value.trim()))
}

/// `N`'s parts (family; given; additional; prefixes; suffixes) as a person reads them.
fn structured_name(value: &str) -> String {
    let parts: Vec<String> = split_unescaped(value, ';')
        .iter()
        .map(|part| {
            // A component's several values (`Anna,Maria`) are separated by unescaped commas.
            let values: Vec<String> = split_unescaped(part, ',')
                .iter()
                .map(|v| unescape(v))
                .collect();
            values.join(" ")
        })
        .collect();
    let part = |index: usize| parts.get(index).map(String::as_str).unwrap_or_default();
    [part(3), part(1), part(2), part(0), part(4)]
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A `TEL` value as written: the `tel:` URI's number (its parameters such as `;ext=` dropped)
/// or the text.
fn tel_value(params: &str, value: &str) -> String {
    let scheme = value
        .get(..4)
        .is_some_and(|s| s.eq_ignore_ascii_case("tel:"));
    let uri = scheme
        || params
            .split(';')
            .any(|param| param.trim().eq_ignore_ascii_case("VALUE=uri"));
    if !uri {
        return unescape(value);
    }
    // The scheme is four ASCII bytes, so index 4 is a character boundary.
    let number = if scheme { &value[4..] } else { value };
    number.split(';').next().unwrap_or_default().to_string()
}

/// `value` split at each `sep` not escaped by a backslash (escapes kept for `unescape`).
fn split_unescaped(value: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut escaped = false;
    for c in value.chars() {
        match c {
            _ if escaped => {
                escaped = false;
                push_last(&mut parts, '\\');
                push_last(&mut parts, c);
            }
            '\\' => escaped = true,
            _ if c == sep => parts.push(String::new()),
            _ => push_last(&mut parts, c),
        }
    }
    parts
}

fn push_last(parts: &mut [String], c: char) {
    if let Some(last) = parts.last_mut() {
        last.push(c);
    }
}

/// A text value without its escapes (`\,` `\;` `\\`, and `\n` as a space: names are one line).
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push(' '),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        contacts(text)
            .expect("cards")
            .into_iter()
            .map(|c| (c.name, c.phone))
            .collect()
    }

    #[test]
    fn version_3_cards_with_groups_types_and_folded_lines() {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Haddad;Layla;;Dr.;\r\nFN:Layla\r\n  Haddad\r\n\
                    item1.TEL;type=CELL;type=pref:+971 50 123 4567\r\nitem1.X-ABLabel:mobile\r\n\
                    TEL;TYPE=HOME,VOICE:(650) 555-0100\r\nEND:VCARD\r\n\
                    BEGIN:VCARD\nVERSION:3.0\nN:Smith\\, Jr.;John;;;\nEND:VCARD\n";
        assert_eq!(
            pairs(text),
            [
                ("Layla Haddad".into(), "+971 50 123 4567".into()),
                ("Layla Haddad".into(), "(650) 555-0100".into()),
                ("John Smith, Jr.".into(), String::new()),
            ]
        );
    }

    #[test]
    fn version_4_tel_uris_and_quoted_parameters() {
        let text = "BEGIN:VCARD\nVERSION:4.0\nFN:Ana\nTEL;VALUE=uri;TYPE=\"voice,cell\":tel:+1-650-555-0199;ext=12\n\
                    TEL;PREF=1:tel:+44 20 7946 0000\nEND:VCARD\n";
        assert_eq!(
            pairs(text),
            [
                ("Ana".into(), "+1-650-555-0199".into()),
                ("Ana".into(), "+44 20 7946 0000".into()),
            ]
        );
    }

    #[test]
    fn text_without_cards_is_refused() {
        assert!(matches!(
            contacts("name,phone\nAda,1"),
            Err(ContactFileError::NoCards)
        ));
    }
}
