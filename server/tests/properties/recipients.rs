//! Recipient files: any bytes as CSV, XLS or XLSX, and valid spreadsheets with bytes changed,
//! are read or refused without a panic, and never yield more numbers than their rows allow.

use std::path::PathBuf;

use parley_server::templates::recipient_limits::MAX_ROWS;
use parley_server::templates::recipient_rows::{Reading, Recipients};
use parley_server::templates::recipients::{FileType, parse};
use proptest::prelude::*;

fn xlsx() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (row, value) in ["phone", "16505551234", "+44 20 7946 0958", "not a number"]
        .into_iter()
        .enumerate()
    {
        sheet
            .write_string(row as u32, 0, value)
            .expect("a cell written");
    }
    book.save_to_buffer().expect("an xlsx")
}

fn xls() -> Vec<u8> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/recipients/recipients.xls");
    std::fs::read(path).expect("testdata/recipients/recipients.xls is readable")
}

/// `file` with a few bytes overwritten.
fn damaged(file: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = file.len();
    prop::collection::vec((0..len, any::<u8>()), 1..8).prop_map(move |changes| {
        let mut file = file.clone();
        for (at, byte) in changes {
            file[at] = byte;
        }
        file
    })
}

fn bounded(read: &Recipients, most: usize) -> bool {
    read.numbers.len() + read.skipped.len() <= most
        && read
            .numbers
            .iter()
            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_bytes_as_csv_give_no_more_numbers_than_lines(
        bytes in prop::collection::vec(any::<u8>(), 0..1024),
    ) {
        if let Ok(read) = parse(FileType::Csv, &bytes, Reading::default()) {
            prop_assert!(bounded(&read, bytes.len()));
        }
    }

    #[test]
    fn phone_like_csv_text_gives_no_more_numbers_than_lines(
        text in "(phone_?number\n)?([0-9+ ()-]{0,20}(,[a-z0-9]{0,5})?\r?\n){0,40}",
    ) {
        if let Ok(read) = parse(FileType::Csv, text.as_bytes(), Reading::default()) {
            prop_assert!(bounded(&read, text.lines().count()));
        }
    }

    #[test]
    fn any_bytes_as_a_spreadsheet_are_read_or_refused(
        bytes in prop::collection::vec(any::<u8>(), 0..1024),
        xlsx in any::<bool>(),
    ) {
        let kind = if xlsx { FileType::Xlsx } else { FileType::Xls };
        if let Ok(read) = parse(kind, &bytes, Reading::default()) {
            prop_assert!(bounded(&read, MAX_ROWS as usize));
        }
    }

    #[test]
    fn a_damaged_xlsx_is_read_or_refused(bytes in damaged(xlsx())) {
        if let Ok(read) = parse(FileType::Xlsx, &bytes, Reading::default()) {
            prop_assert!(bounded(&read, MAX_ROWS as usize));
        }
    }

    #[test]
    fn a_damaged_xls_is_read_or_refused(bytes in damaged(xls())) {
        if let Ok(read) = parse(FileType::Xls, &bytes, Reading::default()) {
            prop_assert!(bounded(&read, MAX_ROWS as usize));
        }
    }
}
