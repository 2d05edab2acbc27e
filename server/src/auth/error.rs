//! What the identity services (tokens, passwords, Google ID tokens, token versions) refuse; the
//! HTTP layer maps it to its answer once, in `crate::error`.

use crate::store;

pub type AuthResult<T> = Result<T, AuthError>;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// An access token past its expiry: the client refreshes on this one.
    #[error("token expired")]
    Expired,
    /// The user's token version moved on since the token was issued.
    #[error("token revoked")]
    Revoked,
    /// A credential that is missing, malformed, forged or spent; the text says which.
    #[error("{0}")]
    Refused(String),
    /// Google sign-in without a client id configured.
    #[error("{0}")]
    NotConfigured(String),
    /// Google's key set could not be fetched.
    #[error("{0}")]
    Unreachable(String),
    #[error(transparent)]
    Store(#[from] store::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}
