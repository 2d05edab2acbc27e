//! What an account's sign-in fields must be: usernames, emails and passwords (names are
//! `crate::names`). Passwords follow NIST SP 800-63B: at least 8 characters, not one of the
//! 10,000 most common passwords, and not the account's own username or email.

use std::collections::HashSet;
use std::sync::LazyLock;

use email_address::{EmailAddress, Options};

use crate::error::{ApiError, ApiResult};
use crate::names::check_visible;

/// Minimum password length for accounts made with a password.
pub const MIN_PASSWORD_LEN: usize = 8;
/// Shortest and longest username, in characters.
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 32;

/// The 10,000 most frequent passwords of zxcvbn's list (MIT), one a line, lower-case.
static COMMON_PASSWORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("../../data/common-passwords.txt")
        .lines()
        .collect()
});

/// A username as stored: lower-cased with whitespace removed, as the sign-up form types it,
/// then 3–32 characters of `a-z`, `0-9`, `.`, `_` and `-`. Hidden and control characters are
/// named as such before anything is removed. An `@` is never allowed: sign-in takes a username
/// or an email in one field, so a username shaped like an email would capture its sign-in.
pub fn normalize_username(raw: &str) -> ApiResult<String> {
    check_visible("username", raw.trim())?;
    let username: String = raw
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    if username.contains('@') {
        return Err(ApiError::Unprocessable(
            "username must not contain @".into(),
        ));
    }
    if !username
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
    {
        return Err(ApiError::Unprocessable(
            "username may only contain letters a-z, digits, '.', '_' and '-'".into(),
        ));
    }
    if !(USERNAME_MIN..=USERNAME_MAX).contains(&username.len()) {
        return Err(ApiError::Unprocessable(format!(
            "username must be {USERNAME_MIN} to {USERNAME_MAX} characters"
        )));
    }
    Ok(username)
}

/// A lower-cased, trimmed email that is a plain address (no display name, no IP literal) with a
/// dotted domain, else 422.
pub fn normalize_email(raw: &str) -> ApiResult<String> {
    let email = raw.trim().to_lowercase();
    check_visible("email", &email)?;
    let options = Options::default()
        .with_required_tld()
        .without_domain_literal()
        .without_display_text();
    match EmailAddress::parse_with_options(&email, options) {
        Ok(_) => Ok(email),
        Err(_) => Err(ApiError::Unprocessable(
            "email is not a valid email address".into(),
        )),
    }
}

/// The password rules, against the account's own `username` and `email`.
pub fn check_password(password: &str, username: &str, email: &str) -> ApiResult<()> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(ApiError::Unprocessable(format!(
            "password must be at least {MIN_PASSWORD_LEN} characters"
        )));
    }
    let lowered = password.to_lowercase();
    if COMMON_PASSWORDS.contains(lowered.as_str()) {
        return Err(ApiError::Unprocessable(
            "password is one of the most common passwords; choose another".into(),
        ));
    }
    if lowered == username.to_lowercase() || lowered == email.to_lowercase() {
        return Err(ApiError::Unprocessable(
            "password must not be the username or the email".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_are_lower_cased_and_kept_to_their_alphabet() {
        assert_eq!(
            normalize_username(" Zoe Agent ").expect("valid"),
            "zoeagent"
        );
        assert_eq!(normalize_username("a.b_c-9").expect("valid"), "a.b_c-9");
        for bad in [
            "ab",
            &"a".repeat(33),
            "zoé",
            "a@b",
            "a\u{202E}bc",
            "ab\u{200B}c",
        ] {
            assert!(normalize_username(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn emails_are_plain_addresses() {
        assert_eq!(
            normalize_email(" A@Example.COM ").expect("valid"),
            "a@example.com"
        );
        for bad in [
            "a@b",
            "a@",
            "@b.c",
            "A <a@b.c>",
            "a@[127.0.0.1]",
            "a b@c.d",
            "a@@b.c",
        ] {
            assert!(normalize_email(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_are_long_uncommon_and_not_the_account_names() {
        assert!(check_password("correct horse", "zoe", "zoe@example.com").is_ok());
        assert!(check_password("short", "zoe", "zoe@example.com").is_err());
        assert!(check_password("Password1", "zoe", "zoe@example.com").is_err());
        assert!(check_password("ZoeAgent7", "zoeagent7", "z@example.com").is_err());
        assert!(check_password("Z@Example.com", "zoe", "z@example.com").is_err());
    }
}
