//! Contacts from an uploaded file: a vCard file (`.vcf`, vCard 3.0 and 4.0) or a CSV file with a
//! header row. Reading only finds each entry's name and phone as written; which of them are
//! valid is the importer's rule.
//!
//! - `vcard`: cards, folded lines, groups (`item1.TEL`), parameters and `tel:` URIs

use std::io::Cursor;

mod vcard;

/// One name and phone as the file wrote them (a card with several numbers gives one entry each;
/// a card without a number gives one with an empty phone).
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
    #[error("file is not UTF-8 text")]
    NotText,
    #[error("file is not a vCard file: it has no BEGIN:VCARD")]
    NoCards,
    #[error("file is not a readable CSV file: {0}")]
    Csv(String),
    #[error(
        "file needs a header row with a name column (name, full name) and a phone column \
         (phone, phone_number, mobile)"
    )]
    CsvHeader,
}

/// Headers (lower case, without spaces, `_` or `-`) of the CSV columns read.
const NAME_HEADERS: [&str; 4] = ["name", "fullname", "displayname", "contactname"];
const PHONE_HEADERS: [&str; 7] = [
    "phone",
    "phonenumber",
    "mobile",
    "mobilenumber",
    "tel",
    "telephone",
    "whatsapp",
];

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
    let text = std::str::from_utf8(bytes).map_err(|_| ContactFileError::NotText)?;
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    if vcard {
        vcard::contacts(text)
    } else {
        csv_contacts(text)
    }
}

/// Rows of a CSV file under its name and phone columns.
fn csv_contacts(text: &str) -> Result<Vec<FileContact>, ContactFileError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(Cursor::new(text));
    let headers = reader
        .headers()
        .map_err(|e| ContactFileError::Csv(e.to_string()))?;
    let column = |wanted: &[&str]| {
        headers.iter().position(|header| {
            let header: String = header
                .chars()
                .filter(|c| !matches!(c, ' ' | '_' | '-'))
                .collect::<String>()
                .to_lowercase();
            wanted.contains(&header.as_str())
        })
    };
    let (Some(name), Some(phone)) = (column(&NAME_HEADERS), column(&PHONE_HEADERS)) else {
        return Err(ContactFileError::CsvHeader);
    };
    let mut contacts = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| ContactFileError::Csv(e.to_string()))?;
        let cell = |index: usize| row.get(index).unwrap_or_default().to_string();
        let contact = FileContact {
            name: cell(name),
            phone: cell(phone),
        };
        // A row with neither (a blank line, a note) is no entry.
        if !(contact.name.is_empty() && contact.phone.is_empty()) {
            contacts.push(contact);
        }
    }
    Ok(contacts)
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
    fn a_csv_is_read_by_its_header_names() {
        let text = "\u{FEFF}Phone Number,Notes,Full Name\n+1 650 555 0101,vip,Ada\n\n,x,\n";
        let read = read("list.csv", None, text.as_bytes()).expect("read");
        assert_eq!(read, [contact("Ada", "+1 650 555 0101")]);
        assert!(matches!(
            read_csv("who,what\na,b\n"),
            Err(ContactFileError::CsvHeader)
        ));
    }

    fn read_csv(text: &str) -> Result<Vec<FileContact>, ContactFileError> {
        read("x.csv", None, text.as_bytes())
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
            read("a.csv", None, b"\xff\xfe"),
            Err(ContactFileError::NotText)
        ));
    }
}
