//! The bind parameters of generated statements: multi-row writes with a placeholder per value,
//! and lists of keys bound as one parameter.

use super::Backend;

/// Most parameters one generated statement binds (both backends allow far more).
const PARAMS_PER_STATEMENT: usize = 1000;

/// Rows per multi-row statement when each row binds `columns` values.
pub(super) fn rows_per_statement(columns: usize) -> usize {
    PARAMS_PER_STATEMENT / columns
}

/// Bind parameters of generated statements: multi-row ones, numbered from 1 and used once each,
/// in order, and key lists bound as one parameter. In multi-row statements SQLite gets anonymous
/// `?`: sqlx looks every numbered parameter up by a linear scan, which makes a long statement's
/// binding cost grow with its square.
pub(super) struct Params {
    backend: Backend,
}

impl Params {
    pub(super) fn of(conn: &sqlx::AnyConnection) -> Params {
        Params {
            backend: Backend::of(conn),
        }
    }

    /// The `n`th parameter.
    pub(super) fn nth(&self, n: usize) -> String {
        match self.backend {
            Backend::Sqlite => "?".into(),
            Backend::Postgres => format!("${n}"),
        }
    }

    /// `($1, $2), ($3, $4)`: `rows` rows of `columns` parameters, from the first.
    pub(super) fn rows(&self, rows: usize, columns: usize) -> String {
        (0..rows)
            .map(|row| format!("({})", self.list(row * columns + 1, columns)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `column` is one of the keys of the list (`key_list`) bound as parameter `n`. The
    /// statement's text is the same whatever the list's length, so each connection prepares and
    /// plans it once, where a placeholder per key made a new statement for every length
    /// (docs/decisions/0034-key-lists-as-one-parameter.md). On Postgres the list is read once
    /// and the column's index walked for its keys, as for a literal list.
    pub(super) fn one_of(&self, column: &str, n: usize) -> String {
        let keys = format!("SELECT k.value FROM {}", self.keys(n));
        match self.backend {
            Backend::Sqlite => format!("{column} IN ({keys})"),
            Backend::Postgres => format!("{column} = ANY(ARRAY({keys}))"),
        }
    }

    /// A row source `k` with a column `value`: the keys of the list (`key_list`) bound as
    /// parameter `n`, for a statement that reads something per key.
    pub(super) fn keys(&self, n: usize) -> String {
        match self.backend {
            Backend::Sqlite => format!("json_each(${n}) AS k"),
            Backend::Postgres => format!("json_array_elements_text(${n}::json) AS k(value)"),
        }
    }

    /// `$3, $4`: `count` parameters from the `first`.
    fn list(&self, first: usize, count: usize) -> String {
        (first..first + count)
            .map(|n| self.nth(n))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A list of keys bound as one parameter, a JSON array of strings, for `Params::one_of`.
pub(super) fn key_list(keys: &[&str]) -> Result<String, sqlx::Error> {
    serde_json::to_string(keys).map_err(|err| sqlx::Error::Encode(Box::new(err)))
}
