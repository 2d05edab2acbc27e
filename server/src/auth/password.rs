//! argon2id password hashing, off the async workers (a hash takes tens of milliseconds).

use anyhow::Context;
use argon2::Argon2;
use argon2::password_hash::{
    PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng,
};

use super::error::AuthResult;

pub async fn hash_password(password: String) -> AuthResult<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| anyhow::anyhow!("argon2: {e}"))
    })
    .await
    .context("password hashing task failed")?
    .map_err(Into::into)
}

/// True when `password` matches the stored PHC string.
pub async fn verify_password(password: String, stored: String) -> AuthResult<bool> {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .context("password check task failed")
    .map_err(Into::into)
}
