//! Login throttling: after too many failures inside a window, an account or a client address
//! is locked out for a while (429 with Retry-After). Kept in memory per node.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::config::AuthSettings;

/// Failures seen for one key.
struct Failures {
    count: u32,
    window_started: Instant,
    locked_until: Option<Instant>,
}

pub struct LoginThrottle {
    per_account: u32,
    per_address: u32,
    window: Duration,
    lockout: Duration,
    /// Keyed `account:{key}` (the caller's account key, see `handlers::login`) and
    /// `address:{ip}`.
    entries: Mutex<HashMap<String, Failures>>,
}

impl LoginThrottle {
    pub fn new(settings: &AuthSettings) -> LoginThrottle {
        LoginThrottle {
            per_account: settings.max_failed_logins_per_account,
            per_address: settings.max_failed_logins_per_address,
            window: Duration::from_secs(settings.failed_login_window_secs),
            lockout: Duration::from_secs(settings.lockout_secs),
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn keys(account: &str, address: &str) -> [String; 2] {
        [format!("account:{account}"), format!("address:{address}")]
    }

    /// Seconds until the caller may try again, when locked out.
    pub fn locked_for(&self, account: &str, address: &str) -> Option<u64> {
        let now = Instant::now();
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        Self::keys(account, address)
            .iter()
            .filter_map(|key| entries.get(key)?.locked_until)
            .filter(|until| *until > now)
            .map(|until| (until - now).as_secs().max(1))
            .max()
    }

    pub fn record_failure(&self, account: &str, address: &str) {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        // Bound the map: forget windows that ended and lockouts that expired.
        if entries.len() > 100_000 {
            entries.retain(|_, f| {
                now.duration_since(f.window_started) < self.window
                    || f.locked_until.is_some_and(|u| u > now)
            });
        }
        let [account_key, address_key] = Self::keys(account, address);
        for (key, limit) in [
            (account_key, self.per_account),
            (address_key, self.per_address),
        ] {
            let entry = entries.entry(key).or_insert(Failures {
                count: 0,
                window_started: now,
                locked_until: None,
            });
            if now.duration_since(entry.window_started) > self.window {
                entry.count = 0;
                entry.window_started = now;
            }
            entry.count += 1;
            if entry.count >= limit {
                entry.locked_until = Some(now + self.lockout);
                entry.count = 0;
                entry.window_started = now;
            }
        }
    }

    /// A successful sign-in clears the account's failures (not the address's).
    pub fn record_success(&self, account: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.remove(&format!("account:{account}"));
    }
}
