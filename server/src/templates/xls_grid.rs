//! The grid an xls asks for, measured before calamine reads it.
//!
//! calamine opens an xls by reading every sheet into a dense grid: it reserves a cell for each
//! place the sheet's dimensions record declares, then spans a grid from the first to the last
//! cell position it meets (and another for formulas). Both come from the file, unchecked: a
//! damaged or made-up record asks for hundreds of gigabytes, and a failed allocation aborts the
//! whole server rather than failing the upload. So the workbook stream is taken out of its
//! compound file, its first sheet (the one read for recipients) is walked here record by record
//! as calamine walks it and refused when its grids come to more than [`MAX_GRID_CELLS`], and
//! every other sheet is pointed at an empty one; calamine then reads that same stream, put in a
//! fresh compound file, so what it reads is what was measured.

use std::io::{Cursor, Read, Write};

use crate::templates::recipient_limits::{Limit, MAX_GRID_CELLS, Unmeasured};

/// The workbook of `bytes` in a fresh compound file, its first sheet within the bound and the
/// others empty.
pub fn measured_workbook(bytes: &[u8]) -> Result<Vec<u8>, Unmeasured> {
    let mut file = cfb::CompoundFile::open(Cursor::new(bytes))?;
    // calamine reads "Workbook" (BIFF8), else "Book" (BIFF5 and older).
    let name = ["/Workbook", "/Book"]
        .into_iter()
        .find(|name| file.is_stream(name))
        .ok_or_else(|| std::io::Error::other("no workbook stream"))?;
    let mut stream = Vec::new();
    file.open_stream(name)?.read_to_end(&mut stream)?;
    let sheets = bound_sheets(&stream);
    if let Some(sheet) = sheets.first().and_then(|s| stream.get(s.starts_at..))
        && walk_sheet(sheet).cells()? > MAX_GRID_CELLS
    {
        return Err(Limit::Grid.into());
    }
    if sheets.len() > 1 {
        let empty = u32::try_from(stream.len()).map_err(std::io::Error::other)?;
        stream.extend_from_slice(&EMPTY_SHEET);
        for sheet in &sheets[1..] {
            stream[sheet.offset_at..sheet.offset_at + 4].copy_from_slice(&empty.to_le_bytes());
        }
    }
    // Version 3 (512-byte sectors), as Excel writes: calamine refuses a version 4 file whose
    // streams are all too large for the mini stream.
    let mut fresh =
        cfb::CompoundFile::create_with_version(cfb::Version::V3, Cursor::new(Vec::new()))?;
    fresh.create_stream(name)?.write_all(&stream)?;
    fresh.flush()?;
    Ok(fresh.into_inner().into_inner())
}

/// A sheet's entry in the workbook globals (a BoundSheet8 record): where in the stream its
/// offset is written, and that offset.
struct BoundSheet {
    offset_at: usize,
    starts_at: usize,
}

/// The globals' sheets, up to their EOF.
fn bound_sheets(stream: &[u8]) -> Vec<BoundSheet> {
    Records::of(stream)
        .take_while(|record| record.kind != EOF)
        .filter(|record| record.kind == BOUND_SHEET && record.data.len() >= 4)
        .map(|record| BoundSheet {
            offset_at: record.at,
            starts_at: u32::from_le_bytes([
                record.data[0],
                record.data[1],
                record.data[2],
                record.data[3],
            ]) as usize,
        })
        .collect()
}

/// A sheet with nothing in it: its BOF record (16 bytes of BIFF8 zeros) and its EOF.
const EMPTY_SHEET: [u8; 24] = [
    0x09, 0x08, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0, 0,
];

const EOF: u16 = 0x000A;
const BOF: u16 = 0x0809;
const BOUND_SHEET: u16 = 0x0085;
const DIMENSIONS: u16 = 0x0200;
const FORMULA: u16 = 0x0006;
const FORMULA_STRING: u16 = 0x0207;
const MUL_RK: u16 = 0x00BD;
/// Number, Label, RString, BoolErr, Rk, LabelSst: a cell at the row and column they start with.
const CELLS: [u16; 6] = [0x0203, 0x0204, 0x00D6, 0x0205, 0x027E, 0x00FD];

/// One sheet's grids: from its first BOF to its EOF, skipping nested substreams (charts).
struct Sheet {
    cells: Span,
    formulas: Span,
    /// The most cells a dimensions record declares; None once one ends before it starts.
    declared: Option<u64>,
}

impl Sheet {
    /// The cells calamine's grids for the sheet would hold: its declared dimensions, or its cell
    /// and formula grids together, whichever is more.
    fn cells(&self) -> Result<u64, std::io::Error> {
        let declared = self
            .declared
            .ok_or_else(|| std::io::Error::other("a sheet's dimensions end before they start"))?;
        let spanned = self.cells.area().saturating_add(self.formulas.area());
        Ok(spanned.max(declared))
    }
}

fn walk_sheet(sheet: &[u8]) -> Sheet {
    let mut walked = Sheet {
        cells: Span::default(),
        formulas: Span::default(),
        declared: Some(0),
    };
    let mut formula_at = (0, 0);
    let mut seen_bof = false;
    let mut depth = 0usize;
    for Record { kind, data, .. } in Records::of(sheet) {
        if depth > 0 {
            match kind {
                BOF => depth += 1,
                EOF => depth -= 1,
                _ => {}
            }
            continue;
        }
        let at = position(data);
        match kind {
            BOF if seen_bof => depth += 1,
            BOF => seen_bof = true,
            EOF => break,
            DIMENSIONS => {
                walked.declared = match (walked.declared, declared_cells(data)) {
                    (Some(most), Some(cells)) => Some(most.max(cells)),
                    _ => None,
                }
            }
            FORMULA => {
                if let Some(at) = at {
                    formula_at = at;
                    walked.formulas.add(at);
                    walked.cells.add(at);
                }
            }
            FORMULA_STRING => walked.cells.add(formula_at),
            MUL_RK => {
                if let Some((row, first)) = at {
                    let columns = data.len().saturating_sub(6).div_ceil(6) as u32;
                    walked.cells.add((row, first));
                    walked.cells.add((row, first + columns.saturating_sub(1)));
                }
            }
            kind if CELLS.contains(&kind) => {
                if let Some(at) = at {
                    walked.cells.add(at);
                }
            }
            _ => {}
        }
    }
    walked
}

/// The row and column a cell record starts with.
fn position(data: &[u8]) -> Option<(u32, u32)> {
    let bytes = data.get(..4)?;
    let row = u16::from_le_bytes([bytes[0], bytes[1]]);
    let column = u16::from_le_bytes([bytes[2], bytes[3]]);
    Some((u32::from(row), u32::from(column)))
}

/// The cells a dimensions record makes calamine reserve, by its arithmetic: rows and columns
/// from the first to one before the last, and a first column past 255 or after the last read
/// as 0. None when the rows end before they start, which calamine does not check.
fn declared_cells(data: &[u8]) -> Option<u64> {
    let u16_at = |at: usize| u32::from(u16::from_le_bytes([data[at], data[at + 1]]));
    let u32_at =
        |at: usize| u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
    let (first_row, last_row, mut first_column, last_column) = match data.len() {
        10 => (u16_at(0), u16_at(2), u16_at(4), u16_at(6)),
        14 | 16 => (u32_at(0), u32_at(4), u16_at(8), u16_at(10)),
        _ => return Some(0),
    };
    if first_column > 0xFF || last_column < first_column {
        first_column = 0;
    }
    if last_row == 0 || last_column == 0 {
        return Some(1);
    }
    let rows = last_row.checked_sub(first_row)?;
    let columns = last_column - first_column;
    Some(u64::from(rows) * u64::from(columns))
}

/// The rows and columns a grid spans, from the positions added to it.
#[derive(Default)]
struct Span(Option<((u32, u32), (u32, u32))>);

impl Span {
    fn add(&mut self, (row, column): (u32, u32)) {
        self.0 = Some(match self.0 {
            None => ((row, row), (column, column)),
            Some((rows, columns)) => (
                (rows.0.min(row), rows.1.max(row)),
                (columns.0.min(column), columns.1.max(column)),
            ),
        });
    }

    fn area(&self) -> u64 {
        self.0.map_or(0, |(rows, columns)| {
            u64::from(rows.1 - rows.0 + 1) * u64::from(columns.1 - columns.0 + 1)
        })
    }
}

/// A BIFF record: its type, where its data starts in the stream walked, and its data.
struct Record<'a> {
    kind: u16,
    at: usize,
    data: &'a [u8],
}

/// A BIFF stream's records, to the first one cut short; a CONTINUE record is passed as a record
/// of its own, which no measure here reads.
struct Records<'a> {
    stream: &'a [u8],
    at: usize,
}

impl<'a> Records<'a> {
    fn of(stream: &'a [u8]) -> Self {
        Records { stream, at: 0 }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        let header = self.stream.get(self.at..self.at + 4)?;
        let kind = u16::from_le_bytes([header[0], header[1]]);
        let len = usize::from(u16::from_le_bytes([header[2], header[3]]));
        let at = self.at + 4;
        let data = self.stream.get(at..at + len)?;
        self.at = at + len;
        Some(Record { kind, at, data })
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use calamine::Reader;

    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/recipients");
        std::fs::read(path.join(name)).expect("a fixture of testdata/recipients")
    }

    fn sample() -> Vec<u8> {
        fixture("recipients.xls")
    }

    /// The sample with `change` applied to each record of its workbook stream, and `tail` after.
    fn rewritten(change: impl Fn(u16, &mut [u8]), tail: &[u8]) -> Vec<u8> {
        let mut file = cfb::CompoundFile::open(Cursor::new(sample())).expect("a compound file");
        let mut stream = Vec::new();
        let mut reader = file.open_stream("/Workbook").expect("a workbook");
        reader.read_to_end(&mut stream).expect("read");
        let mut at = 0;
        while at + 4 <= stream.len() {
            let kind = u16::from_le_bytes([stream[at], stream[at + 1]]);
            let len = usize::from(u16::from_le_bytes([stream[at + 2], stream[at + 3]]));
            change(kind, &mut stream[at + 4..at + 4 + len]);
            at += 4 + len;
        }
        stream.extend_from_slice(tail);
        let mut fresh =
            cfb::CompoundFile::create_with_version(cfb::Version::V3, Cursor::new(Vec::new()))
                .expect("created");
        let mut writer = fresh.create_stream("/Workbook").expect("a stream");
        writer.write_all(&stream).expect("written");
        drop(writer);
        fresh.flush().expect("flushed");
        fresh.into_inner().into_inner()
    }

    fn first_sheet(bytes: Vec<u8>) -> calamine::Range<calamine::Data> {
        let mut book = calamine::Xls::new(Cursor::new(bytes)).expect("an xls");
        book.worksheet_range_at(0).expect("a sheet").expect("read")
    }

    #[test]
    fn calamine_reads_the_measured_workbook_as_it_reads_the_file() {
        let measured = measured_workbook(&sample()).expect("within the bound");
        assert_eq!(first_sheet(measured), first_sheet(sample()));
        assert!(first_sheet(sample()).height() > 1);
    }

    #[test]
    fn only_the_first_sheet_is_measured_and_the_others_are_read_empty() {
        // Its second sheet's two cells span 65,536 rows of 256 columns.
        let two_sheets = fixture("two-sheets.xls");
        let measured = measured_workbook(&two_sheets).expect("within the bound");
        let mut book = calamine::Xls::new(Cursor::new(measured)).expect("an xls");
        assert_eq!(book.sheet_names(), ["Recipients", "Notes"]);
        let first = book.worksheet_range_at(0).expect("a sheet").expect("read");
        assert_eq!(first, first_sheet(sample()));
        let second = book.worksheet_range_at(1).expect("a sheet").expect("read");
        assert!(second.is_empty());
    }

    #[test]
    fn a_workbook_too_large_for_the_mini_stream_is_read() {
        // Records no sheet reaches, after the last EOF, take the stream past 4,096 bytes.
        let padding: Vec<u8> = [0x3Cu8, 0x00, 0xE8, 0x03]
            .into_iter()
            .chain([0; 1000])
            .cycle()
            .take(8 * 1004)
            .collect();
        let large = rewritten(|_, _| {}, &padding);
        let measured = measured_workbook(&large).expect("within the bound");
        assert!(measured.len() > 8_000);
        assert_eq!(first_sheet(measured), first_sheet(sample()));
    }

    #[test]
    fn a_dimensions_record_declaring_billions_of_rows_or_ending_before_it_starts_is_refused() {
        let huge = rewritten(
            |kind, data| {
                if kind == DIMENSIONS && data.len() == 14 {
                    data[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
                }
            },
            &[],
        );
        assert!(matches!(
            measured_workbook(&huge),
            Err(Unmeasured::Limit(Limit::Grid))
        ));
        // calamine would take a last row before the first for about four billion rows.
        let wrapped = rewritten(
            |kind, data| {
                if kind == DIMENSIONS && data.len() == 14 {
                    data[0..4].copy_from_slice(&7u32.to_le_bytes());
                    data[4..8].copy_from_slice(&3u32.to_le_bytes());
                }
            },
            &[],
        );
        assert!(matches!(
            measured_workbook(&wrapped),
            Err(Unmeasured::Unreadable(_))
        ));
    }

    #[test]
    fn a_cell_far_from_the_others_is_refused() {
        let far = rewritten(
            |kind, data| {
                if CELLS.contains(&kind) && data[..2] == [3, 0] {
                    data[..4].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0x00]);
                }
            },
            &[],
        );
        assert!(matches!(
            measured_workbook(&far),
            Err(Unmeasured::Limit(Limit::Grid))
        ));
    }

    #[test]
    fn a_file_that_is_not_a_compound_file_is_unreadable() {
        assert!(matches!(
            measured_workbook(b"PhoneNumber\n15551234567\n"),
            Err(Unmeasured::Unreadable(_))
        ));
    }
}
