//! Contacts from an uploaded file: a vCard file (`.vcf`, vCard 2.1, 3.0 and 4.0) or a CSV file
//! with a header row, in the encodings address books write (UTF-8, UTF-16 with or without
//! a BOM, Windows-1252). Reading only finds each entry's name and phone as written; which of them are
//! valid is the importer's rule.
//!
//! - `vcard`: cards, folded lines, groups (`item1.TEL`), parameters, quoted-printable values and
//!   `tel:` URIs
//! - `csv_file`: the columns of Google's, Outlook's and other exporters' header rows

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

mod csv_file;
mod vcard;

pub use csv_file::delimiter as csv_delimiter;

/// One name and phone as the file wrote them (a card or row with several numbers gives one entry
/// each; one without a number gives one with an empty phone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileContact {
    pub name: String,
    pub phone: String,
}

/// Why a file holds no contacts to read.
#[derive(Debug, thiserror::Error)]
pub enum ContactFileError {
    #[error("file must be a vCard (.vcf) or CSV (.csv) file")]
    UnknownType,
    #[error("file is empty")]
    Empty,
    #[error("file is not text: save it as UTF-8, UTF-16 or Windows-1252 text")]
    NotText,
    #[error("file is not a vCard file: it has no BEGIN:VCARD")]
    NoCards,
    #[error("file is not a readable CSV file: {0}")]
    Csv(String),
    #[error(
        "file needs a header row with a name column (name, full name, or first name and last \
         name) and a phone column (phone, phone_number, mobile, mobile phone, Phone 1 - Value…)"
    )]
    CsvHeader,
}

/// The contacts of a file, told vCard or CSV by its name's extension, else its content type.
pub fn read(
    file_name: &str,
    content_type: Option<&str>,
    bytes: &[u8],
) -> Result<Vec<FileContact>, ContactFileError> {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase());
    let vcard = match (extension.as_deref(), content_type) {
        (Some("vcf" | "vcard"), _) => true,
        (Some("csv"), _) => false,
        (_, Some("text/vcard" | "text/x-vcard" | "text/directory")) => true,
        (_, Some("text/csv")) => false,
        _ => return Err(ContactFileError::UnknownType),
    };
    let text = file_text(bytes)?;
    if text.trim().is_empty() {
        return Err(ContactFileError::Empty);
    }
    if vcard {
        vcard::contacts(&text)
    } else {
        csv_file::contacts(&text)
    }
}

/// A file's text without its byte order mark: UTF-8 or UTF-16 as its BOM says, UTF-16 without
/// one when its bytes read as such (`utf_16_without_bom`), else UTF-8 when it is valid, else
/// Windows-1252 (what Excel and Outlook write on Windows). Other bytes with a NUL are no text in
/// any of these (a spreadsheet or an image).
fn file_text(bytes: &[u8]) -> Result<Cow<'_, str>, ContactFileError> {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        // Malformed sequences become U+FFFD: one odd character does not cost the file.
        return Ok(encoding.decode_without_bom_handling(&bytes[bom..]).0);
    }
    if let Some(text) = utf_16_without_bom(bytes) {
        return Ok(Cow::Owned(text));
    }
    if bytes.contains(&0) {
        return Err(ContactFileError::NotText);
    }
    Ok(utf8_or_windows_1252(bytes))
}

/// The text of UTF-16 written without a byte order mark (some exports do): the NULs that Latin
/// characters' high bytes make fall nearly all at odd offsets (little-endian) or even ones
/// (big-endian), the bytes decode without a bad sequence, and the text holds no control
/// character but tabs and line ends. `None` for anything else, a zip or an image among them.
fn utf_16_without_bom(bytes: &[u8]) -> Option<String> {
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    let nuls_at = |parity: usize| {
        bytes
            .iter()
            .skip(parity)
            .step_by(2)
            .filter(|b| **b == 0)
            .count()
    };
    let (even, odd) = (nuls_at(0), nuls_at(1));
    let encoding = if odd > 0 && even <= odd / 10 {
        UTF_16LE
    } else if even > 0 && odd <= even / 10 {
        UTF_16BE
    } else {
        return None;
    };
    let text = encoding.decode_without_bom_handling_and_without_replacement(bytes)?;
    let plain = |c: char| !c.is_control() || matches!(c, '\t' | '\n' | '\r');
    text.chars().all(plain).then(|| text.into_owned())
}

/// `bytes` as UTF-8 when they are, else as Windows-1252 (which maps every byte).
fn utf8_or_windows_1252(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => WINDOWS_1252.decode_without_bom_handling(bytes).0,
    }
}

/// `bytes` in the charset a vCard parameter names (`UTF-8`, `ISO-8859-1`, `windows-1252`…);
/// without one, or with one unknown, as a file's text is read.
fn charset_text(charset: Option<&str>, bytes: &[u8]) -> String {
    match charset.and_then(|label| Encoding::for_label(label.trim().as_bytes())) {
        Some(encoding) if encoding != UTF_8 => encoding.decode_without_bom_handling(bytes).0,
        _ => utf8_or_windows_1252(bytes),
    }
    .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contact(name: &str, phone: &str) -> FileContact {
        FileContact {
            name: name.into(),
            phone: phone.into(),
        }
    }

    #[test]
    fn the_type_comes_from_the_name_then_the_content_type() {
        assert!(matches!(
            read("notes.txt", Some("text/plain"), b"x"),
            Err(ContactFileError::UnknownType)
        ));
        assert!(matches!(
            read("upload", Some("text/vcard"), b"name,phone"),
            Err(ContactFileError::NoCards)
        ));
        assert!(matches!(
            read("a.csv", None, b"PK\x03\x04\x00\x00"),
            Err(ContactFileError::NotText)
        ));
    }

    #[test]
    fn utf_16_windows_1252_and_utf_8_files_are_read() {
        let utf16le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "name,phone\nZoë,+33 6 12 34 56 78\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        let utf16be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(
                "name,phone\nZoë,+33 6 12 34 56 78\n"
                    .encode_utf16()
                    .flat_map(u16::to_be_bytes),
            )
            .collect();
        let text = "name,phone\nZoë,+33 6 12 34 56 78\n";
        let utf16le_without_bom: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let utf16be_without_bom: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let cp1252 = b"name,phone\nZo\xeb,+33 6 12 34 56 78\n";
        let utf8 = "\u{FEFF}name,phone\nZoë,+33 6 12 34 56 78\n";
        let files = [
            &utf16le[..],
            &utf16be,
            &utf16le_without_bom,
            &utf16be_without_bom,
            cp1252,
            utf8.as_bytes(),
        ];
        for bytes in files {
            let read = read("x.csv", None, bytes).expect("read");
            assert_eq!(read, [contact("Zoë", "+33 6 12 34 56 78")]);
        }
    }

    #[test]
    fn an_empty_file_says_so() {
        for bytes in [&b""[..], b"\xEF\xBB\xBF", b" \r\n"] {
            assert!(matches!(
                read("x.vcf", None, bytes),
                Err(ContactFileError::Empty)
            ));
        }
    }

    #[test]
    fn a_charset_names_how_bytes_are_read() {
        assert_eq!(charset_text(Some("ISO-8859-1"), b"Ren\xe9"), "René");
        assert_eq!(charset_text(Some("UTF-8"), "René".as_bytes()), "René");
        assert_eq!(charset_text(None, b"Ren\xe9"), "René");
        assert_eq!(
            charset_text(Some("no-such-charset"), "René".as_bytes()),
            "René"
        );
    }
}
