//! Phone numbers, and each one's template variables, from a recipient file for bulk sends: csv,
//! xls or xlsx.
//!
//! A csv's separator is a comma, or the semicolon or tab its first line holds more of.
//! The number column is the one headed `PhoneNumber` or `phone` (any case), in a csv as in a
//! spreadsheet. Without such a header the first column is read, and a first row
//! that is not a number is taken as a header. Each value is a phone number as people write it
//! (read by `phone` with the business's region) or a BSUID (`US.13491208655302741918`). Columns
//! headed with one of the variable names asked for (see `variables`) give that row's values.
//! A row is skipped, with its row number (1-based, as a spreadsheet numbers them) and reason,
//! when its number is invalid, repeats an earlier row's, or a variable cell is empty; rows
//! with an empty number cell are passed over. Reading is bounded
//! (see `recipient_limits`): an xlsx's parts are measured before they are unpacked, and its sheet
//! is read cell by cell rather than as one dense grid.

use std::io::Cursor;
use std::panic::AssertUnwindSafe;

use calamine::{Data, Reader};

use crate::contact_file::csv_delimiter;

use crate::templates::recipient_limits::{
    Bounds, Limit, MAX_COLUMNS, Unmeasured, check_xlsx_archive,
};
use crate::templates::recipient_rows::Collector;
use crate::templates::recipient_rows::{Reading, Recipients};
use crate::templates::xls_grid::measured_workbook;

/// What kind of recipient file an upload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    Csv,
    Xls,
    Xlsx,
}

impl FileType {
    /// From the file name's extension, else from the declared content type.
    pub fn of(file_name: &str, content_type: Option<&str>) -> Option<FileType> {
        let extension = file_name
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_ascii_lowercase());
        match extension.as_deref() {
            Some("csv") => return Some(FileType::Csv),
            Some("xls") => return Some(FileType::Xls),
            Some("xlsx") => return Some(FileType::Xlsx),
            _ => {}
        }
        match content_type.map(|c| c.split(';').next().unwrap_or("").trim()) {
            Some("text/csv") => Some(FileType::Csv),
            Some("application/vnd.ms-excel") => Some(FileType::Xls),
            Some("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet") => {
                Some(FileType::Xlsx)
            }
            _ => None,
        }
    }
}

/// Why a file could not be read; the texts are the sender screen's.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("Failed to parse CSV")]
    Csv(#[source] csv::Error),
    #[error("Failed to parse Excel file")]
    Excel(#[source] anyhow::Error),
    #[error(transparent)]
    Limit(#[from] Limit),
}

impl From<Unmeasured> for ParseError {
    fn from(err: Unmeasured) -> Self {
        match err {
            Unmeasured::Limit(limit) => ParseError::Limit(limit),
            Unmeasured::Unreadable(err) => ParseError::Excel(err),
        }
    }
}

fn excel(err: impl std::error::Error + Send + Sync + 'static) -> ParseError {
    ParseError::Excel(err.into())
}

/// Reads the recipients of `bytes`, a file of type `kind`.
pub fn parse(kind: FileType, bytes: &[u8], reading: Reading) -> Result<Recipients, ParseError> {
    let collector = Collector::new(reading);
    match kind {
        FileType::Csv => parse_csv(bytes, collector),
        FileType::Xls => unpanicked(|| parse_xls(bytes, collector)),
        FileType::Xlsx => unpanicked(|| parse_xlsx(bytes, collector)),
    }
}

/// calamine panics on some damaged spreadsheets (an xls whose dimensions end before they start
/// overflows a subtraction): such a file is refused as unreadable, like any other.
fn unpanicked(
    read: impl FnOnce() -> Result<Recipients, ParseError>,
) -> Result<Recipients, ParseError> {
    std::panic::catch_unwind(AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(ParseError::Excel(anyhow::anyhow!(
            "the spreadsheet could not be read"
        )))
    })
}

/// A file over the row bound is refused after a count of its records, before any of its numbers
/// is read.
fn parse_csv(bytes: &[u8], mut collector: Collector) -> Result<Recipients, ParseError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut record = csv::ByteRecord::new();
    let (mut counted, mut count) = (csv_reader(bytes), Bounds::start());
    while counted
        .read_byte_record(&mut record)
        .map_err(ParseError::Csv)?
    {
        count.row()?;
    }
    let mut reader = csv_reader(bytes);
    let mut row = 0u64;
    while reader
        .read_byte_record(&mut record)
        .map_err(ParseError::Csv)?
    {
        row += 1;
        let cells = record.iter().map(|cell| String::from_utf8_lossy(cell));
        collector.row(row, cells)?;
    }
    Ok(collector.done())
}

fn csv_reader(bytes: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(csv_delimiter(bytes))
        .from_reader(bytes)
}

/// An xls is not compressed, but calamine makes a dense grid of each sheet: the first sheet's
/// grids are measured first (the others left empty), and calamine reads the stream measured.
fn parse_xls(bytes: &[u8], mut collector: Collector) -> Result<Recipients, ParseError> {
    let workbook = measured_workbook(bytes)?;
    let mut book = calamine::Xls::new(Cursor::new(workbook)).map_err(excel)?;
    let range = match book.worksheet_range_at(0) {
        Some(range) => range.map_err(excel)?,
        None => return Ok(Recipients::default()),
    };
    // A sheet's used range may start below the first row.
    let first_row = range.start().map(|(row, _)| u64::from(row)).unwrap_or(0);
    for (i, cells) in range.rows().enumerate() {
        let cells = cells.iter().map(cell_text);
        collector.row(first_row + i as u64 + 1, cells)?;
    }
    Ok(collector.done())
}

/// The first sheet of an xlsx, cell by cell: a sheet naming one far cell (`XFD1048576`) would
/// otherwise make a grid of billions of empty cells.
fn parse_xlsx(bytes: &[u8], mut collector: Collector) -> Result<Recipients, ParseError> {
    check_xlsx_archive(bytes)?;
    let mut book = calamine::Xlsx::new(Cursor::new(bytes)).map_err(excel)?;
    let Some(name) = book.sheet_names().first().cloned() else {
        return Ok(Recipients::default());
    };
    let mut reader = book.worksheet_cells_reader(&name).map_err(excel)?;
    // Columns count from the sheet's first used column, as a spreadsheet's used range does.
    let first_column = reader.dimensions().start.1;
    let mut row: Option<u32> = None;
    let mut cells: Vec<Data> = Vec::new();
    while let Some(cell) = reader.next_cell().map_err(excel)? {
        let (at_row, at_column) = cell.get_position();
        if row != Some(at_row) {
            if let Some(done) = row {
                collector.row(u64::from(done) + 1, cells.iter().map(cell_text))?;
            }
            row = Some(at_row);
            cells.clear();
        }
        let Some(column) = at_column.checked_sub(first_column) else {
            continue;
        };
        let column = column as usize;
        if column >= MAX_COLUMNS {
            return Err(Limit::Columns {
                row: u64::from(at_row) + 1,
            }
            .into());
        }
        if cells.len() <= column {
            cells.resize(column + 1, Data::Empty);
        }
        cells[column] = Data::from(cell.get_value().clone());
    }
    if let Some(done) = row {
        collector.row(u64::from(done) + 1, cells.iter().map(cell_text))?;
    }
    Ok(collector.done())
}

/// A cell as text; whole numbers without a decimal point (spreadsheets store numbers as floats).
fn cell_text(cell: &Data) -> std::borrow::Cow<'_, str> {
    match cell {
        Data::String(text) => text.as_str().into(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e16 => format!("{f:.0}").into(),
        Data::Empty => "".into(),
        other => other.to_string().into(),
    }
}

/// The sample file: the header and three example rows.
pub const SAMPLE_CSV: &str = "PhoneNumber\n201001234567\n966501234567\n15551234567\n";
pub const SAMPLE_FILE_NAME: &str = "sample_phone_numbers.csv";

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::templates::recipient_rows::{SkipReason, skipped_csv};

    fn csv(text: &str) -> Recipients {
        parse(FileType::Csv, text.as_bytes(), Reading::default()).expect("parses")
    }

    #[test]
    fn reads_the_phone_number_column_as_written_without_repeats() {
        let parsed = csv(
            "Name,PhoneNumber\nA, 201001234567 \nB,+20100\nC,+20 100 123 4567\nD,\nE,15551234567\n\
             F,US.13491208655302741918\n",
        );
        assert_eq!(
            parsed.numbers,
            ["201001234567", "15551234567", "US.13491208655302741918"]
        );
        let reasons: Vec<_> = parsed.skipped.iter().map(|s| (s.row, s.reason)).collect();
        assert_eq!(
            reasons,
            [(3, SkipReason::InvalidNumber), (4, SkipReason::Duplicate)]
        );
    }

    #[test]
    fn variable_columns_give_each_number_its_values() {
        let reading = Reading {
            region: Some(crate::phone::Region::GB),
            variables: vec!["1".into(), "header_1".into()],
        };
        let text = "PhoneNumber,1,Header_1,note\n07700 900123,Omar,Hi,x\n+15551234567,,Hey,y\n";
        let parsed = parse(FileType::Csv, text.as_bytes(), reading).expect("parses");
        assert_eq!(parsed.numbers, ["447700900123"]);
        assert_eq!(
            parsed.variables["447700900123"],
            BTreeMap::from([
                ("1".into(), "Omar".into()),
                ("header_1".into(), "Hi".into())
            ])
        );
        assert_eq!(parsed.skipped[0].reason, SkipReason::MissingVariable);
        assert_eq!(parsed.skipped[0].variable.as_deref(), Some("1"));
        assert_eq!(
            skipped_csv(&parsed.skipped),
            "row,value,reason,variable\n3,+15551234567,missing_variable,1\n"
        );
    }

    #[test]
    fn without_a_header_the_first_column_is_read_from_the_first_row() {
        let parsed = csv("201001234567,x\n15551234567,y\n");
        assert_eq!(parsed.numbers, ["201001234567", "15551234567"]);
        let parsed = csv("Numbers\n15551234567\n");
        assert_eq!(parsed.numbers, ["15551234567"]);
        assert!(parsed.skipped.is_empty());
    }

    #[test]
    fn a_csv_column_headed_phone_is_the_number_column_wherever_it_is() {
        let reading = Reading {
            region: None,
            variables: vec!["1".into()],
        };
        let text = "Name,Phone,1\nOmar,+44 7700 900123,Omar\nSheena,15550100002,Sheena\n";
        let parsed = parse(FileType::Csv, text.as_bytes(), reading).expect("parses");
        assert_eq!(parsed.numbers, ["447700900123", "15550100002"]);
    }

    #[test]
    fn semicolon_and_tab_separated_files_are_read_by_their_first_line() {
        for separator in [";", "\t"] {
            let text = format!(
                "Name{separator}PhoneNumber{separator}1\nOmar{separator}\"+44 7700 900123\"{separator}\
                 \"Omar, Jr.\"\nSheena{separator}+1 555 010 0002{separator}Sheena\n"
            );
            let reading = Reading {
                region: None,
                variables: vec!["1".into()],
            };
            let parsed = parse(FileType::Csv, text.as_bytes(), reading).expect("parses");
            assert_eq!(
                parsed.numbers,
                ["447700900123", "15550100002"],
                "{separator:?}"
            );
            assert_eq!(parsed.variables["447700900123"]["1"], "Omar, Jr.");
        }
        // Commas stay the separator when the first line has as many, or a semicolon is quoted.
        let parsed = csv("\"Name; full\",PhoneNumber\nA,201001234567\n");
        assert_eq!(parsed.numbers, ["201001234567"]);
    }

    #[test]
    fn a_hundred_thousand_rows() {
        let mut text = String::from("PhoneNumber\n");
        for i in 0..100_000u64 {
            text.push_str(&format!("2010{i:08}\n"));
        }
        let started = std::time::Instant::now();
        let parsed = csv(&text);
        // Printed for docs/BENCHMARKS.md; `cargo test --release` gives the real figure.
        println!("100,000-row csv parsed in {:?}", started.elapsed());
        assert_eq!(parsed.numbers.len(), 100_000);
    }

    #[test]
    fn the_sample_parses() {
        assert_eq!(csv(SAMPLE_CSV).numbers.len(), 3);
    }

    #[test]
    fn file_types_by_name_then_content_type() {
        assert_eq!(FileType::of("a.CSV", None), Some(FileType::Csv));
        assert_eq!(FileType::of("a.xls", None), Some(FileType::Xls));
        assert_eq!(FileType::of("a.xlsx", None), Some(FileType::Xlsx));
        assert_eq!(FileType::of("blob", Some("text/csv")), Some(FileType::Csv));
        assert_eq!(FileType::of("a.txt", Some("text/plain")), None);
    }
}
