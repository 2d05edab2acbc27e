//! The names and numbers of a vCard file (vCard 2.1, RFC 2426 for 3.0, RFC 6350 for 4.0): lines
//! unfolded, each content line read as `[group.]NAME[;param=value…]:value` (a quoted parameter
//! value may hold `:`), `FN` for the name with `N` in its place when missing, and every `TEL`,
//! whether plain text (`TEL;TYPE=CELL:+1 650…`) or a URI (`TEL;VALUE=uri:tel:+1-650…;ext=2`).
//! A quoted-printable value (`ENCODING=QUOTED-PRINTABLE`, or 2.1's bare `QUOTED-PRINTABLE`), as
//! Android writes non-ASCII names, is decoded in its `CHARSET` (UTF-8 when none), its soft line
//! breaks joined. Lenient where exporters differ (a card whose `END:VCARD` is missing is still
//! read); nothing else of a card is read.

use std::borrow::Cow;

use super::{ContactFileError, FileContact, charset_text};

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

/// Every card's contacts, in file order (a card left open by a missing `END:VCARD` when the
/// next one begins, as 2.1's nested `AGENT` cards are, is read once the file ends).
pub fn contacts(text: &str) -> Result<Vec<FileContact>, ContactFileError> {
    let mut out = Vec::new();
    // The cards begun and not yet ended, the innermost last.
    let mut open: Vec<Card> = Vec::new();
    let mut seen_card = false;
    for line in unfold(text) {
        let Some((name, params, value)) = content_line(&line) else {
            continue;
        };
        let value = decoded(params, value);
        match (name.as_str(), open.last_mut()) {
            ("BEGIN", _) if value.eq_ignore_ascii_case("VCARD") => {
                seen_card = true;
                open.push(Card::default());
            }
            ("END", Some(_)) if value.eq_ignore_ascii_case("VCARD") => {
                if let Some(done) = open.pop() {
                    done.into_contacts(&mut out);
                }
            }
            ("FN", Some(card)) => card.formatted = Some(unescape(&value)),
            ("N", Some(card)) => card.structured = Some(structured_name(&value)),
            ("TEL", Some(card)) => card.phones.push(tel_value(params, &value)),
            _ => {}
        }
    }
    if !seen_card {
        return Err(ContactFileError::NoCards);
    }
    // A file cut after its last card's lines still has that card.
    while let Some(done) = open.pop() {
        done.into_contacts(&mut out);
    }
    Ok(out)
}

/// Logical lines: a line that starts with a space or a tab continues the one before it, and so
/// does any line after a quoted-printable value's soft line break (a last `=`).
fn unfold(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let Some(last) = lines.last_mut() else {
            lines.push(raw.to_string());
            continue;
        };
        if let Some(soft) = soft_line_break(last) {
            last.truncate(soft);
            last.push_str(raw);
        } else if let Some(rest) = raw.strip_prefix([' ', '\t']) {
            last.push_str(rest);
        } else {
            lines.push(raw.to_string());
        }
    }
    lines
}

/// Where the `=` that ends a quoted-printable line starts, when it does.
fn soft_line_break(line: &str) -> Option<usize> {
    // The cheap test first: a long folded value (a photo) is checked once per physical line.
    let trimmed = line.trim_end_matches([' ', '\t']).strip_suffix('=')?;
    let (_, params, _) = content_line(line)?;
    Params(params).quoted_printable().then_some(trimmed.len())
}

/// A content line's parameters: `TYPE=CELL`, `CHARSET=UTF-8`, or 2.1's bare `CELL`.
struct Params<'a>(&'a str);

impl<'a> Params<'a> {
    fn iter(&self) -> impl Iterator<Item = (&'a str, Option<&'a str>)> {
        split_outside_quotes(self.0, ';').filter_map(|param| {
            let param = param.trim();
            if param.is_empty() {
                return None;
            }
            Some(match param.split_once('=') {
                Some((key, value)) => (key.trim(), Some(value.trim().trim_matches('"'))),
                None => (param, None),
            })
        })
    }

    /// The value of the first parameter named `key`.
    fn get(&self, key: &str) -> Option<&'a str> {
        self.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .and_then(|(_, value)| value)
    }

    fn quoted_printable(&self) -> bool {
        self.iter().any(|(key, value)| {
            let encoding = match value {
                Some(value) if key.eq_ignore_ascii_case("ENCODING") => value,
                Some(_) => return false,
                None => key,
            };
            encoding.eq_ignore_ascii_case("QUOTED-PRINTABLE")
        })
    }
}

/// `text` split at each `sep` outside double quotes.
fn split_outside_quotes(text: &str, sep: char) -> impl Iterator<Item = &str> {
    let mut quoted = false;
    text.split(move |c| {
        if c == '"' {
            quoted = !quoted;
        }
        c == sep && !quoted
    })
}

/// A value as text: quoted-printable decoded in its charset, any other as it is.
fn decoded<'v>(params: &str, value: &'v str) -> Cow<'v, str> {
    let params = Params(params);
    if !params.quoted_printable() {
        return Cow::Borrowed(value);
    }
    // Robust mode keeps a malformed `=` sequence as written instead of refusing the value.
    match quoted_printable::decode(value, quoted_printable::ParseMode::Robust) {
        Ok(bytes) => Cow::Owned(charset_text(params.get("CHARSET"), &bytes)),
        Err(_) => Cow::Borrowed(value),
    }
}

/// (upper-case name without its group, the parameters' text, the value) of a content line.
fn content_line(line: &str) -> Option<(String, &str, &str)> {
    let head = split_outside_quotes(line, ':').next()?;
    // No value without the colon.
    let value = line.get(head.len() + 1..)?;
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
        || Params(params)
            .get("VALUE")
            .is_some_and(|value| value.eq_ignore_ascii_case("uri"));
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
    fn quoted_printable_values_are_decoded_in_their_charset() {
        let text = "BEGIN:VCARD\r\nVERSION:2.1\r\n\
                    N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Dupr=C3=A9;=C3=89lodie;;;\r\n\
                    FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=89lodie=20Dupr=\r\n\
                    =C3=A9\r\nTEL;CELL:+33 6 12 34 56 78\r\nEND:VCARD\r\n\
                    BEGIN:VCARD\r\nVERSION:2.1\r\nN;QUOTED-PRINTABLE:M=FCller;J=FCrgen\r\n\
                    TEL;HOME;VOICE:+49 30 1234567\r\nEND:VCARD\r\n\
                    BEGIN:VCARD\r\nVERSION:3.0\r\n\
                    FN;CHARSET=\"windows-1252\";ENCODING=quoted-printable:Fran=E7ois =80\r\n\
                    TEL;ENCODING=QUOTED-PRINTABLE:+1 650 555 0100=\r\n\r\nEND:VCARD\r\n";
        assert_eq!(
            pairs(text),
            [
                ("Élodie Dupré".into(), "+33 6 12 34 56 78".into()),
                ("Jürgen Müller".into(), "+49 30 1234567".into()),
                ("François €".into(), "+1 650 555 0100".into()),
            ]
        );
    }

    #[test]
    fn a_card_without_its_end_is_still_read() {
        let text = "BEGIN:VCARD\nFN:Open\nTEL:+1 650 555 0101\n\
                    BEGIN:VCARD\nFN:Closed\nTEL:+1 650 555 0102\nEND:VCARD\n\
                    BEGIN:VCARD\nFN:Last\nTEL:+1 650 555 0103";
        assert_eq!(
            pairs(text),
            [
                ("Closed".into(), "+1 650 555 0102".into()),
                ("Last".into(), "+1 650 555 0103".into()),
                ("Open".into(), "+1 650 555 0101".into()),
            ]
        );
    }

    #[test]
    fn a_base64_line_ending_in_padding_joins_nothing() {
        let text =
            "BEGIN:VCARD\nFN:Pic\nPHOTO;ENCODING=b:AAAA\n AA==\nTEL:1 650 555 0101\nEND:VCARD\n";
        assert_eq!(pairs(text), [("Pic".into(), "1 650 555 0101".into())]);
    }

    #[test]
    fn text_without_cards_is_refused() {
        assert!(matches!(
            contacts("name,phone\nAda,1"),
            Err(ContactFileError::NoCards)
        ));
    }
}
