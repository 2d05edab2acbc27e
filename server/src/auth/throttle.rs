//! Login and registration throttling: after too many failed sign-ins inside a window, an
//! account or a client address is locked out for a while (429 with Retry-After); so is a client
//! address after too many registrations. The counts are in the database
//! (`store::logins`), so every node sees the same ones and a restart keeps them.

use sha2::{Digest, Sha256};

use crate::config::AuthSettings;
use crate::error::ApiResult;
use crate::store::{Store, now_ms};

pub struct LoginThrottle {
    per_account: i64,
    per_address: i64,
    registrations_per_address: i64,
    window_ms: i64,
    lockout_ms: i64,
    store: Store,
}

impl LoginThrottle {
    pub fn new(settings: &AuthSettings, store: Store) -> LoginThrottle {
        LoginThrottle {
            per_account: settings.max_failed_logins_per_account.into(),
            per_address: settings.max_failed_logins_per_address.into(),
            registrations_per_address: settings.max_registrations_per_address.into(),
            window_ms: settings.failed_login_window_secs as i64 * 1000,
            lockout_ms: settings.lockout_secs as i64 * 1000,
            store,
        }
    }

    /// Keyed `account:{key}` (the caller's account key, see `handlers::login`) and
    /// `address:{ip}`.
    fn keys(account: &str, address: &str) -> [String; 2] {
        [key("account", account), key("address", address)]
    }

    /// Seconds until the caller may try again, when locked out.
    pub async fn locked_for(&self, account: &str, address: &str) -> ApiResult<Option<u64>> {
        let now = now_ms();
        let until = self
            .store
            .login_locked_until(&Self::keys(account, address), now)
            .await?;
        Ok(until.map(|until| ((until - now) / 1000).max(1) as u64))
    }

    pub async fn record_failure(&self, account: &str, address: &str) -> ApiResult<()> {
        let now = now_ms();
        let [account_key, address_key] = Self::keys(account, address);
        for (key, limit) in [
            (account_key, self.per_account),
            (address_key, self.per_address),
        ] {
            self.store
                .record_login_failure(&key, limit, now, self.window_ms, self.lockout_ms)
                .await?;
        }
        Ok(())
    }

    /// A successful sign-in clears the account's failures (not the address's).
    pub async fn record_success(&self, account: &str) -> ApiResult<()> {
        let [account_key, _] = Self::keys(account, "");
        Ok(self.store.clear_login_failures(&account_key).await?)
    }

    /// Seconds until the client address may register again, when it registered too often.
    pub async fn registration_locked_for(&self, address: &str) -> ApiResult<Option<u64>> {
        let key = key("register", address);
        let now = now_ms();
        let until = self
            .store
            .login_locked_until(&[key.clone(), key], now)
            .await?;
        Ok(until.map(|until| ((until - now) / 1000).max(1) as u64))
    }

    /// Counts a registration attempt of the client address; the last one allowed inside the
    /// window locks it out.
    pub async fn record_registration(&self, address: &str) -> ApiResult<()> {
        Ok(self
            .store
            .record_login_failure(
                &key("register", address),
                self.registrations_per_address,
                now_ms(),
                self.window_ms,
                self.lockout_ms,
            )
            .await?)
    }

    /// Forgets failures whose window has ended and whose lock (if any) has expired.
    pub async fn prune(&self) -> ApiResult<()> {
        let now = now_ms();
        Ok(self
            .store
            .prune_login_failures(now - self.window_ms, now)
            .await?)
    }
}

/// Longest name kept as it is in a key; a longer one (a name typed to sign in is any text) is
/// kept as its SHA-256, as Postgres indexes keys and takes no entry over about 2.7 KB.
const KEY_NAME_MAX: usize = 128;

/// The stored key of `kind` and `name`.
fn key(kind: &str, name: &str) -> String {
    match name.len() > KEY_NAME_MAX {
        true => format!("{kind}:sha256:{:x}", Sha256::digest(name.as_bytes())),
        false => format!("{kind}:{name}"),
    }
}
