//! What the store answers when it cannot do what was asked: domain words (not found, conflict)
//! that the HTTP layer maps once, and the database's own error for everything else.

/// A store call that failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Nothing of the business by that id; the text says what was looked for.
    #[error("{0}")]
    NotFound(String),
    /// A duplicate of something that must be unique; the text says which.
    #[error("{0}")]
    Conflict(String),
    /// A provider account another business already holds.
    #[error("This {} is already used by another business", .0.field())]
    AccountTaken(Account),
    #[error("database error: {0}")]
    Db(sqlx::Error),
    /// A file or encoding failure around a query.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// The provider ids that name one business only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Account {
    WabaId,
    PhoneNumberId,
}

impl Account {
    /// The field of the profile that names it.
    pub fn field(self) -> &'static str {
        match self {
            Account::WabaId => "whatsappBusinessAccountID",
            Account::PhoneNumberId => "phoneNumberId",
        }
    }

    /// Which id a unique violation on the businesses table is about: both backends' messages
    /// name the column (SQLite) or the index (Postgres).
    pub(super) fn of_violation(err: &sqlx::Error) -> Account {
        match err.to_string().contains("waba_id") {
            true => Account::WabaId,
            false => Account::PhoneNumberId,
        }
    }
}

impl From<sqlx::Error> for Error {
    fn from(err: sqlx::Error) -> Self {
        match err {
            sqlx::Error::RowNotFound => Error::NotFound("Not found".into()),
            other => Error::Db(other),
        }
    }
}

/// The answer of a store call.
pub type StoreResult<T> = Result<T, Error>;
