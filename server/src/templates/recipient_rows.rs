//! The rows of a recipient file, once its cells are text: the number column and the variable
//! columns found in the header row, each row kept as a recipient or skipped with its reason, and
//! the skipped rows as a CSV file.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use crate::customer::CustomerKey;
use crate::phone::Region;
use crate::templates::recipient_limits::{Bounds, Limit};

/// The headers of the number column (compared lower-cased): the spec's `PhoneNumber` and the
/// `phone` spreadsheets and exports often use.
const NUMBER_HEADERS: &[&str] = &["phonenumber", "phone"];

/// Why a row was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    InvalidNumber,
    Duplicate,
    MissingVariable,
}

/// A row that gives no recipient.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SkippedRow {
    pub row: u64,
    /// The number cell as written.
    pub value: String,
    pub reason: SkipReason,
    /// The variable whose cell is empty, for `missing_variable`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variable: Option<String>,
}

/// The numbers of a file in file order, each number's variable values, and the skipped rows.
#[derive(Debug, Default)]
pub struct Recipients {
    pub numbers: Vec<String>,
    /// Per number, the values of its row's variable columns (none when the file has none).
    pub variables: BTreeMap<String, BTreeMap<String, String>>,
    pub skipped: Vec<SkippedRow>,
}

/// What a file is read with: the region of numbers without a country code, and the variable
/// names whose columns are read.
#[derive(Clone, Debug, Default)]
pub struct Reading {
    pub region: Option<Region>,
    pub variables: Vec<String>,
}

/// Walks the rows within the bounds: finds the columns, then keeps the recipients.
pub(super) struct Collector {
    reading: Reading,
    /// The number column, once the first row has been seen.
    column: Option<usize>,
    /// The variable columns found in the header row: (column, variable name).
    variable_columns: Vec<(usize, String)>,
    seen: HashSet<String>,
    out: Recipients,
    bounds: Bounds,
}

impl Collector {
    pub(super) fn new(reading: Reading) -> Collector {
        Collector {
            reading,
            column: None,
            variable_columns: Vec::new(),
            seen: HashSet::new(),
            out: Recipients::default(),
            bounds: Bounds::start(),
        }
    }

    pub(super) fn row<'a>(
        &mut self,
        row: u64,
        cells: impl Iterator<Item = std::borrow::Cow<'a, str>>,
    ) -> Result<(), Limit> {
        self.bounds.row()?;
        let bounds = &self.bounds;
        // Every cell of the row is checked, not only the columns read.
        let cells = cells
            .map(|cell| bounds.cell(row, &cell).map(|()| cell))
            .collect::<Result<Vec<_>, _>>()?;
        let Some(column) = self.column else {
            let header = cells
                .iter()
                .position(|c| NUMBER_HEADERS.contains(&c.trim().to_ascii_lowercase().as_str()));
            self.column = Some(header.unwrap_or(0));
            match (header, cells.first()) {
                (None, Some(first)) if self.recipient(first.trim()).is_some() => {
                    self.keep(row, first.trim(), &cells)
                }
                // A header row, or a first row that is not a number: a header too.
                _ => self.find_variables(&cells),
            }
            return Ok(());
        };
        if let Some(value) = cells.get(column) {
            self.keep(row, value.trim(), &cells);
        }
        Ok(())
    }

    /// The header row's cells named after an asked-for variable (any case).
    fn find_variables(&mut self, cells: &[std::borrow::Cow<'_, str>]) {
        let wanted: HashMap<String, &String> = self
            .reading
            .variables
            .iter()
            .map(|name| (name.to_lowercase(), name))
            .collect();
        self.variable_columns = cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| {
                let name = wanted.get(&cell.trim().to_lowercase())?;
                Some((i, (*name).clone()))
            })
            .collect();
    }

    fn recipient(&self, value: &str) -> Option<String> {
        CustomerKey::typed(value, self.reading.region)
            .ok()
            .map(CustomerKey::into_string)
    }

    fn keep(&mut self, row: u64, value: &str, cells: &[std::borrow::Cow<'_, str>]) {
        if value.is_empty() {
            return;
        }
        let skip = |reason, variable| SkippedRow {
            row,
            value: value.to_string(),
            reason,
            variable,
        };
        let Some(phone) = self.recipient(value) else {
            self.out.skipped.push(skip(SkipReason::InvalidNumber, None));
            return;
        };
        let mut values = BTreeMap::new();
        for (column, name) in &self.variable_columns {
            let cell = cells.get(*column).map_or("", |c| c.trim());
            if cell.is_empty() {
                let missing = skip(SkipReason::MissingVariable, Some(name.clone()));
                self.out.skipped.push(missing);
                return;
            }
            values.insert(name.clone(), cell.to_string());
        }
        if !self.seen.insert(phone.clone()) {
            self.out.skipped.push(skip(SkipReason::Duplicate, None));
            return;
        }
        if !values.is_empty() {
            self.out.variables.insert(phone.clone(), values);
        }
        self.out.numbers.push(phone);
    }

    pub(super) fn done(self) -> Recipients {
        self.out
    }
}

/// The skipped rows as a CSV file to download: `row,value,reason,variable`.
pub fn skipped_csv(rows: &[SkippedRow]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let reason = |r: SkipReason| match r {
        SkipReason::InvalidNumber => "invalid_number",
        SkipReason::Duplicate => "duplicate",
        SkipReason::MissingVariable => "missing_variable",
    };
    // Writing to memory cannot fail.
    let _ = writer.write_record(["row", "value", "reason", "variable"]);
    for skipped in rows {
        let _ = writer.write_record([
            skipped.row.to_string().as_str(),
            skipped.value.as_str(),
            reason(skipped.reason),
            skipped.variable.as_deref().unwrap_or(""),
        ]);
    }
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}
