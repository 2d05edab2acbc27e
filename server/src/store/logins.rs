//! Failed sign-ins, for login throttling (`auth::throttle`): a count per key inside a window,
//! and a lock once the count reaches its limit. Times are Unix milliseconds.

use super::Store;
use super::error::StoreResult;

impl Store {
    /// The latest time any of `keys` is locked until, when one is locked after `now`.
    pub async fn login_locked_until(
        &self,
        keys: &[String; 2],
        now: i64,
    ) -> StoreResult<Option<i64>> {
        let (until,): (Option<i64>,) = sqlx::query_as(
            "SELECT MAX(locked_until) FROM login_failures \
             WHERE key IN ($1, $2) AND locked_until > $3",
        )
        .bind(&keys[0])
        .bind(&keys[1])
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(until)
    }

    /// Counts a failure against `key`, in one statement so failures on several nodes at once all
    /// count: a window older than `window_ms` starts over, and the `limit`th failure locks the
    /// key for `lockout_ms` and starts a new window.
    pub async fn record_login_failure(
        &self,
        key: &str,
        limit: i64,
        now: i64,
        window_ms: i64,
        lockout_ms: i64,
    ) -> StoreResult<()> {
        // The count after this failure, for a row that exists ($5: when a window still open
        // started at the earliest).
        macro_rules! count_after {
            () => {
                "(CASE WHEN login_failures.window_started < $5 THEN 1 \
                 ELSE login_failures.failures + 1 END)"
            };
        }
        let locks = limit <= 1;
        sqlx::query(concat!(
            "INSERT INTO login_failures (key, failures, window_started, locked_until) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO UPDATE SET failures = CASE WHEN ",
            count_after!(),
            " >= $6 THEN 0 ELSE ",
            count_after!(),
            " END, window_started = CASE WHEN ",
            count_after!(),
            " >= $6 OR login_failures.window_started < $5 THEN $3 \
             ELSE login_failures.window_started END, locked_until = CASE WHEN ",
            count_after!(),
            " >= $6 THEN $7 ELSE login_failures.locked_until END",
        ))
        .bind(key)
        .bind(if locks { 0 } else { 1 })
        .bind(now)
        .bind(if locks { now + lockout_ms } else { 0 })
        .bind(now - window_ms)
        .bind(limit)
        .bind(now + lockout_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A successful sign-in forgets the account's failures.
    pub async fn clear_login_failures(&self, key: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM login_failures WHERE key = $1")
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets keys whose window started before `window_start` and that are not locked at `now`.
    pub async fn prune_login_failures(&self, window_start: i64, now: i64) -> StoreResult<()> {
        sqlx::query("DELETE FROM login_failures WHERE window_started < $1 AND locked_until <= $2")
            .bind(window_start)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
