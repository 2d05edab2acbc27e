//! The names and numbers of a CSV file with a header row, as address books export them: Google
//! Contacts (`Name` or `First Name`/`Last Name`, numbers in `Phone 1 - Value`, `Phone 2 - Value`…,
//! several in one cell joined by ` ::: `), Outlook (`First Name`, `Middle Name`, `Last Name`,
//! `Mobile Phone`, `Business Phone`, `Home Phone 2`…) and hand-made lists (`name`, `phone`).
//! Cells are separated by `,`, `;` (Excel in much of Europe) or a tab, as the header row shows.

use std::collections::HashSet;

use super::{ContactFileError, FileContact};

/// Headers (lower case, without spaces, `_` or `-`) of the columns read, by what they hold.
const FULL_NAME_HEADERS: [&str; 4] = ["name", "fullname", "displayname", "contactname"];
const GIVEN_HEADERS: [&str; 3] = ["firstname", "givenname", "first"];
const MIDDLE_HEADERS: [&str; 3] = ["middlename", "additionalname", "middle"];
const FAMILY_HEADERS: [&str; 4] = ["lastname", "familyname", "surname", "last"];
const PHONE_HEADERS: [&str; 8] = [
    "phone",
    "phonenumber",
    "mobile",
    "mobilenumber",
    "cell",
    "tel",
    "telephone",
    "whatsapp",
];

/// Where a row's name and numbers are.
struct Columns {
    /// Full-name columns: the first one not blank in a row is its name.
    full: Vec<usize>,
    /// Given, middle and family name, joined when the row has no full name.
    parts: [Option<usize>; 3],
    /// Every phone column, in the file's order.
    phones: Vec<usize>,
}

impl Columns {
    fn of(headers: &csv::StringRecord) -> Option<Columns> {
        let keys: Vec<String> = headers.iter().map(header_key).collect();
        let first = |wanted: &[&str]| keys.iter().position(|key| wanted.contains(&key.as_str()));
        let indexes = |pick: &dyn Fn(&str) -> bool| {
            (0..keys.len())
                .filter(|&at| pick(&keys[at]))
                .collect::<Vec<_>>()
        };
        let columns = Columns {
            full: indexes(&|key| FULL_NAME_HEADERS.contains(&key)),
            parts: [
                first(&GIVEN_HEADERS),
                first(&MIDDLE_HEADERS),
                first(&FAMILY_HEADERS),
            ],
            phones: indexes(&is_phone_header),
        };
        let named = !columns.full.is_empty() || columns.parts.iter().any(Option::is_some);
        (named && !columns.phones.is_empty()).then_some(columns)
    }

    /// A row's name: its full name, else its name parts joined.
    fn name(&self, row: &csv::StringRecord) -> String {
        let cell = |at: usize| row.get(at).unwrap_or_default();
        if let Some(full) = self.full.iter().map(|&at| cell(at)).find(|c| !c.is_empty()) {
            return full.to_string();
        }
        self.parts
            .iter()
            .flatten()
            .map(|&at| cell(at))
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A row's numbers, each once (Google joins several of one kind in a cell with ` ::: `).
    fn phones<'r>(&self, row: &'r csv::StringRecord) -> Vec<&'r str> {
        let mut seen = HashSet::new();
        self.phones
            .iter()
            .filter_map(|&at| row.get(at))
            .flat_map(|cell| cell.split(":::"))
            .map(str::trim)
            .filter(|phone| !phone.is_empty() && seen.insert(*phone))
            .collect()
    }
}

/// A header compared: lower case, without spaces, `_` or `-` (`Phone 1 - Value` is `phone1value`).
fn header_key(header: &str) -> String {
    header
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .collect::<String>()
        .to_lowercase()
}

/// A column of numbers: a plain name (`phone`, `mobile`), a kind of phone with an optional
/// count (`mobilephone`, `businessphone2`) or Google's `phone1value`. Faxes and pagers are not.
fn is_phone_header(key: &str) -> bool {
    if PHONE_HEADERS.contains(&key) {
        return true;
    }
    let google = key
        .strip_prefix("phone")
        .and_then(|rest| rest.strip_suffix("value"))
        .is_some_and(|count| !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()));
    google
        || key
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .ends_with("phone")
}

/// The cell separator a csv's first line uses most outside quotes: `,`, `;` or a tab (a
/// spreadsheet saving csv where the decimal mark is a comma, or as "tab-separated", writes the
/// others); a comma on a tie or when the line has none.
pub fn delimiter(bytes: &[u8]) -> u8 {
    let mut counts = [(b',', 0usize), (b';', 0), (b'\t', 0)];
    let mut quoted = false;
    for &byte in bytes {
        match byte {
            b'\n' if !quoted => break,
            b'"' => quoted = !quoted,
            _ if !quoted => {
                if let Some(count) = counts.iter_mut().find(|(d, _)| *d == byte) {
                    count.1 += 1;
                }
            }
            _ => {}
        }
    }
    // The first of the most used.
    let most = counts.iter().map(|(_, n)| *n).max().unwrap_or_default();
    counts
        .iter()
        .find(|(_, n)| *n == most)
        .map_or(b',', |(d, _)| *d)
}

/// Rows of a CSV file under its name and phone columns: one entry per number of a row, one with
/// an empty phone for a row with a name and no number, none for a row with neither.
pub fn contacts(text: &str) -> Result<Vec<FileContact>, ContactFileError> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter(text.as_bytes()))
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| ContactFileError::Csv(e.to_string()))?;
    let columns = Columns::of(headers).ok_or(ContactFileError::CsvHeader)?;
    let mut contacts = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| ContactFileError::Csv(e.to_string()))?;
        let name = columns.name(&row);
        let phones = columns.phones(&row);
        if phones.is_empty() && !name.is_empty() {
            contacts.push(FileContact {
                name,
                phone: String::new(),
            });
            continue;
        }
        contacts.extend(phones.into_iter().map(|phone| FileContact {
            name: name.clone(),
            phone: phone.to_string(),
        }));
    }
    Ok(contacts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        contacts(text)
            .expect("rows")
            .into_iter()
            .map(|c| (c.name, c.phone))
            .collect()
    }

    fn pair(name: &str, phone: &str) -> (String, String) {
        (name.into(), phone.into())
    }

    #[test]
    fn a_csv_is_read_by_its_header_names() {
        let text = "Phone Number,Notes,Full Name\n+1 650 555 0101,vip,Ada\n\n,x,\n";
        assert_eq!(pairs(text), [pair("Ada", "+1 650 555 0101")]);
        assert!(matches!(
            contacts("who,what\na,b\n"),
            Err(ContactFileError::CsvHeader)
        ));
        assert!(matches!(
            contacts("name,Phone 1 - Type,Business Fax,Pager\na,Mobile,1,2\n"),
            Err(ContactFileError::CsvHeader)
        ));
    }

    #[test]
    fn google_contacts_rows_give_every_number_under_first_and_last_name() {
        let text = "First Name,Middle Name,Last Name,Phone 1 - Label,Phone 1 - Value,\
                    Phone 2 - Label,Phone 2 - Value\n\
                    Ada,,Lovelace,Mobile,+44 7700 900123 ::: +44 7700 900124,Work,+44 20 7946 0000\n\
                    ,,Solo,Home,+1 650 555 0100,,\n\
                    Nameless,,,,,,\n";
        assert_eq!(
            pairs(text),
            [
                pair("Ada Lovelace", "+44 7700 900123"),
                pair("Ada Lovelace", "+44 7700 900124"),
                pair("Ada Lovelace", "+44 20 7946 0000"),
                pair("Solo", "+1 650 555 0100"),
                pair("Nameless", ""),
            ]
        );
        // The older export has a full name beside its parts; a blank one falls back to them.
        let text = "Name,Given Name,Family Name,Phone 1 - Type,Phone 1 - Value\n\
                    Dr Ada L.,Ada,Lovelace,Mobile,+44 7700 900123\n,Grace,Hopper,,+1 202 555 0143\n";
        assert_eq!(
            pairs(text),
            [
                pair("Dr Ada L.", "+44 7700 900123"),
                pair("Grace Hopper", "+1 202 555 0143"),
            ]
        );
    }

    #[test]
    fn outlook_rows_give_each_phone_column_once() {
        let text = "First Name,Middle Name,Last Name,Business Fax,Business Phone,Business Phone 2,\
                    Home Phone,Mobile Phone,Pager,Primary Phone\n\
                    Jean,Luc,Picard,1 555 0000,+33 1 23 45 67 89,,,+33 6 12 34 56 78,999,+33 6 12 34 56 78\n";
        assert_eq!(
            pairs(text),
            [
                pair("Jean Luc Picard", "+33 1 23 45 67 89"),
                pair("Jean Luc Picard", "+33 6 12 34 56 78"),
            ]
        );
    }

    #[test]
    fn semicolons_and_tabs_separate_cells_as_the_header_line_shows() {
        let semicolons = "Name;Phone;Note\n\"Doe; Jane\";+49 151 99999999;a, b\n";
        assert_eq!(pairs(semicolons), [pair("Doe; Jane", "+49 151 99999999")]);
        let tabs = "Full Name\tMobile\t\"Notes, more; still\"\n\"Doe, Jane\"\t+49 151 99999999\t\n";
        assert_eq!(pairs(tabs), [pair("Doe, Jane", "+49 151 99999999")]);
        assert_eq!(delimiter(b"name,phone;x\n"), b',');
        assert_eq!(delimiter(b"name\n"), b',');
    }
}
