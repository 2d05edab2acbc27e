//! The bounds on reading a recipient file, so that a small upload cannot take the server's memory
//! or time: an xlsx is a zip whose parts may unpack to far more than the upload (a 1 MB file can
//! hold a 1 GiB cell), so its parts are measured before any is parsed.
//!
//! - the parts of an xlsx unpack to at most [`MAX_UNPACKED`] bytes in all, by their declared sizes
//!   and again by reading them through a bounded reader (a header may lie), and no text in their
//!   XML is longer than a cell may be, so no parser is handed one;
//! - a cell holds at most [`MAX_CELL_CHARS`] characters;
//! - a file has at most [`MAX_ROWS`] rows besides its header row;
//! - an xls's grids span at most [`MAX_GRID_CELLS`] cells (see `xls_grid`);
//! - reading takes at most [`MAX_PARSE_TIME`].

use std::io::{Cursor, Read};
use std::time::{Duration, Instant};

/// The most an xlsx's parts may unpack to, together.
pub const MAX_UNPACKED: u64 = 50 * 1024 * 1024;
/// The most parts an xlsx may hold; a workbook of one sheet has about a dozen.
pub const MAX_PARTS: usize = 1_000;
/// The longest cell, in characters; a phone number has at most 15 digits.
pub const MAX_CELL_CHARS: usize = 4_096;
/// The most rows besides the header row.
pub const MAX_ROWS: u64 = 100_000;
/// The most columns of a spreadsheet row that are read.
pub const MAX_COLUMNS: usize = 16_384;
/// The most cells the grids of an xls's first sheet may span: its cells and formulas together,
/// and its declared dimensions (100,000 rows of 50 columns).
pub const MAX_GRID_CELLS: u64 = 5_000_000;
/// The longest a file may take to read.
pub const MAX_PARSE_TIME: Duration = Duration::from_secs(10);

const MB: u64 = 1024 * 1024;

/// Which bound a file went over; the texts name the bound for the sender screen.
#[derive(Debug, thiserror::Error)]
pub enum Limit {
    #[error("The recipient file unpacks to more than {} MB", MAX_UNPACKED / MB)]
    Unpacked,
    #[error("The recipient file holds more than {MAX_PARTS} parts")]
    Parts,
    #[error("Row {row} has a cell over {MAX_CELL_CHARS} characters")]
    Cell { row: u64 },
    /// A text over a cell's bound found while unpacking, before its row is known.
    #[error("The recipient file has a cell over {MAX_CELL_CHARS} characters")]
    Text,
    #[error("The recipient file has more than {MAX_ROWS} rows")]
    Rows,
    #[error("Row {row} has more than {MAX_COLUMNS} columns")]
    Columns { row: u64 },
    #[error("The recipient file's sheets span more than {MAX_GRID_CELLS} cells")]
    Grid,
    #[error("The recipient file took more than {} seconds to read", MAX_PARSE_TIME.as_secs())]
    Time,
}

/// Why a spreadsheet was not handed to calamine: over a bound, or not readable as its kind (an
/// xlsx's zip, an xls's compound file).
#[derive(Debug, thiserror::Error)]
pub enum Unmeasured {
    #[error(transparent)]
    Limit(#[from] Limit),
    #[error("not a readable spreadsheet")]
    Unreadable(#[source] anyhow::Error),
}

impl From<zip::result::ZipError> for Unmeasured {
    fn from(err: zip::result::ZipError) -> Self {
        Unmeasured::Unreadable(err.into())
    }
}

impl From<std::io::Error> for Unmeasured {
    fn from(err: std::io::Error) -> Self {
        Unmeasured::Unreadable(err.into())
    }
}

/// Refuses an xlsx whose parts unpack to more than [`MAX_UNPACKED`]: first by the sizes its
/// central directory declares, then by unpacking each part into nothing through a reader that
/// stops at what is left of the bound, so a part that lies about its size is caught too.
pub fn check_xlsx_archive(bytes: &[u8]) -> Result<(), Unmeasured> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))?;
    if archive.len() > MAX_PARTS {
        return Err(Limit::Parts.into());
    }
    let mut declared = 0u64;
    for index in 0..archive.len() {
        declared = declared.saturating_add(archive.by_index_raw(index)?.size());
        if declared > MAX_UNPACKED {
            return Err(Limit::Unpacked.into());
        }
    }
    unpack_within(&mut archive, MAX_UNPACKED)
}

/// Unpacks every part into nothing, refusing once they come to more than `bound` bytes, or
/// once an XML part holds a text longer than any cell may be (before a parser would keep it).
fn unpack_within(archive: &mut Archive<'_>, bound: u64) -> Result<(), Unmeasured> {
    let mut left = bound;
    let mut buffer = vec![0u8; 64 * 1024];
    for index in 0..archive.len() {
        let part = archive.by_index(index)?;
        let xml = part.name()?.ends_with(".xml");
        let mut part = part.take(left + 1);
        let mut run = 0;
        loop {
            let read = part.read(&mut buffer).map_err(zip::result::ZipError::Io)?;
            if read == 0 {
                break;
            }
            left = left.checked_sub(read as u64).ok_or(Limit::Unpacked)?;
            if xml {
                run = text_run(run, &buffer[..read])?;
            }
        }
    }
    Ok(())
}

/// The most bytes one cell's text may take in a sheet's XML: each character written as a
/// character reference at most.
const MAX_TEXT_BYTES: usize = MAX_CELL_CHARS * 10;

/// The length of the text run (bytes between markup) that `chunk` leaves open, after the
/// `open` bytes the chunks before it left; refuses a run longer than [`MAX_TEXT_BYTES`].
fn text_run(open: usize, chunk: &[u8]) -> Result<usize, Limit> {
    let mut runs = chunk.split(|byte| matches!(byte, b'<' | b'>'));
    let mut run = open + runs.next().map_or(0, <[u8]>::len);
    for next in runs {
        if run > MAX_TEXT_BYTES {
            return Err(Limit::Text);
        }
        run = next.len();
    }
    match run > MAX_TEXT_BYTES {
        true => Err(Limit::Text),
        false => Ok(run),
    }
}

type Archive<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

/// The running checks of one file's rows.
pub struct Bounds {
    deadline: Instant,
    rows: u64,
}

impl Bounds {
    pub fn start() -> Bounds {
        Bounds {
            deadline: Instant::now() + MAX_PARSE_TIME,
            rows: 0,
        }
    }

    /// Counts one more row (the first is the header or a number: one over the data rows is
    /// allowed) and checks the time.
    pub fn row(&mut self) -> Result<(), Limit> {
        self.rows += 1;
        if self.rows > MAX_ROWS + 1 {
            return Err(Limit::Rows);
        }
        if Instant::now() > self.deadline {
            return Err(Limit::Time);
        }
        Ok(())
    }

    /// Checks a cell of row `row`.
    pub fn cell(&self, row: u64, text: &str) -> Result<(), Limit> {
        // Bytes bound characters from above: count characters only for a long cell.
        if text.len() > MAX_CELL_CHARS && text.chars().count() > MAX_CELL_CHARS {
            return Err(Limit::Cell { row });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn zip_of(parts: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, body) in parts {
            writer
                .start_file(*name, zip::write::SimpleFileOptions::default())
                .expect("part");
            writer.write_all(body).expect("written");
        }
        writer.finish().expect("finished").into_inner()
    }

    #[test]
    fn a_part_that_lies_about_its_size_is_caught_by_reading_it() {
        let body = vec![b'a'; 2 * 1024 * 1024];
        let mut bytes = zip_of(&[("xl/sharedStrings.xml", &body)]);
        // Rewrite the uncompressed size (4 bytes at offset 24 of the central directory record,
        // 22 of the local header) to 1 KB in both headers.
        let size = (body.len() as u32).to_le_bytes();
        let small = 1024u32.to_le_bytes();
        let at: Vec<usize> = bytes
            .windows(4)
            .enumerate()
            .filter(|(_, w)| *w == size)
            .map(|(i, _)| i)
            .collect();
        assert!(!at.is_empty());
        for i in at {
            bytes[i..i + 4].copy_from_slice(&small);
        }
        // Either the reader notices the lie or the bound does; the part is never unpacked whole.
        let with_lower_bound = check_with(&bytes, 1024 * 1024);
        assert!(with_lower_bound.is_err(), "{with_lower_bound:?}");
    }

    /// The reading pass with a smaller bound, for a test that stays small.
    fn check_with(bytes: &[u8], bound: u64) -> Result<(), Unmeasured> {
        unpack_within(&mut zip::ZipArchive::new(Cursor::new(bytes))?, bound)
    }

    #[test]
    fn a_text_longer_than_a_cell_is_refused_while_unpacking_across_reads() {
        let long = format!("<si><t>{}</t></si>", "x".repeat(MAX_TEXT_BYTES + 1));
        let bytes = zip_of(&[("xl/sharedStrings.xml", long.as_bytes())]);
        assert!(matches!(
            check_xlsx_archive(&bytes),
            Err(Unmeasured::Limit(Limit::Text))
        ));
        // At the bound, in a part of another kind, or split by markup, it is not.
        let fits = format!(
            "<t>{}</t><t>{}</t>",
            "x".repeat(MAX_TEXT_BYTES),
            "y".repeat(9)
        );
        let image = vec![b'z'; MAX_TEXT_BYTES * 2];
        let bytes = zip_of(&[
            ("xl/sharedStrings.xml", fits.as_bytes()),
            ("xl/media/image1.png", &image),
        ]);
        check_xlsx_archive(&bytes).expect("within the bounds");
        // A run open at a chunk's end carries into the next.
        let open = text_run(0, &vec![b'a'; MAX_TEXT_BYTES - 1]).expect("open");
        assert!(matches!(text_run(open, b"bb<"), Err(Limit::Text)));
        assert_eq!(text_run(open, b"b<c").ok(), Some(1));
    }

    #[test]
    fn a_long_cell_and_too_many_rows_are_refused() {
        let mut bounds = Bounds::start();
        assert!(bounds.cell(1, &"٣".repeat(MAX_CELL_CHARS)).is_ok());
        assert!(matches!(
            bounds.cell(2, &"1".repeat(MAX_CELL_CHARS + 1)),
            Err(Limit::Cell { row: 2 })
        ));
        for _ in 0..=MAX_ROWS {
            bounds.row().expect("within the bound");
        }
        assert!(matches!(bounds.row(), Err(Limit::Rows)));
    }
}
