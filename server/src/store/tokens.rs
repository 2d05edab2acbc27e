use super::error::{Error, StoreResult};
use super::{Store, now_ms};

/// What presenting a refresh token led to.
#[derive(Debug, PartialEq, Eq)]
pub enum RefreshOutcome {
    /// The token was current, or spent inside the reuse grace; its family continues.
    Rotated { user_id: String, family_id: String },
    /// The token had been rotated already: its whole family is now revoked.
    Reused,
    /// Unknown, revoked or expired.
    Invalid,
}

impl Store {
    pub async fn insert_refresh_token(
        &self,
        token_hash: &str,
        family_id: &str,
        user_id: &str,
        expires_at: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(family_id)
        .bind(user_id)
        .bind(expires_at)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Spends a refresh token. Presented again less than `grace_ms` after its first use (an
    /// answer lost on the network and retried, two tabs refreshing at once) it spends again into
    /// the same family. Later, a second use revokes its family, so a stolen token stops working
    /// for thief and owner alike.
    pub async fn spend_refresh_token(
        &self,
        token_hash: &str,
        grace_ms: i64,
    ) -> StoreResult<RefreshOutcome> {
        let now = now_ms();
        // One conditional statement decides, so concurrent presentations on any node each see
        // either a current token or one spent inside the grace; the first use's time is kept so
        // retries cannot stretch the window.
        let spent: Option<(String, String)> = sqlx::query_as(
            "UPDATE refresh_tokens SET used_at = COALESCE(used_at, $1) \
             WHERE token_hash = $2 AND revoked = 0 AND expires_at > $3 \
             AND (used_at IS NULL OR used_at > $4) \
             RETURNING user_id, family_id",
        )
        .bind(now)
        .bind(token_hash)
        .bind(now)
        .bind(now - grace_ms)
        .fetch_optional(&self.pool)
        .await?;
        if let Some((user_id, family_id)) = spent {
            return Ok(RefreshOutcome::Rotated { user_id, family_id });
        }
        let row: Option<(String, i64, i64)> = sqlx::query_as(
            "SELECT family_id, expires_at, revoked FROM refresh_tokens WHERE token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some((family_id, expires_at, 0)) if expires_at > now => {
                // Unrevoked, unexpired and still refused: it was spent longer than the grace ago.
                self.revoke_family(&family_id).await?;
                Ok(RefreshOutcome::Reused)
            }
            _ => Ok(RefreshOutcome::Invalid),
        }
    }

    /// Logout: revokes the family of the presented token (this sign-in, not others).
    pub async fn revoke_refresh_token(&self, token_hash: &str) -> StoreResult<bool> {
        let family: Option<(String,)> =
            sqlx::query_as("SELECT family_id FROM refresh_tokens WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(&self.pool)
                .await?;
        match family {
            Some((family_id,)) => {
                self.revoke_family(&family_id).await?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Ends every session of a user (a password change, signing out everywhere): raises the
    /// version their access tokens must carry, revokes their refresh tokens and forgets their
    /// push subscriptions; answers the new version.
    pub async fn end_sessions(&self, user_id: &str) -> StoreResult<i64> {
        let mut tx = self.pool.begin().await?;
        let (version,): (i64,) = sqlx::query_as(
            "UPDATE users SET token_version = token_version + 1 WHERE id = $1 \
             RETURNING token_version",
        )
        .bind(user_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::NotFound("Account no longer exists".into()))?;
        sqlx::query("UPDATE refresh_tokens SET revoked = 1 WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        // No signed-out browser or device keeps receiving the customers' messages.
        sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(version)
    }

    /// The version a user's access tokens must carry; `None` once the account is gone.
    pub async fn token_version(&self, user_id: &str) -> StoreResult<Option<i64>> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT token_version FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|(version,)| version))
    }

    async fn revoke_family(&self, family_id: &str) -> StoreResult<()> {
        sqlx::query("UPDATE refresh_tokens SET revoked = 1 WHERE family_id = $1")
            .bind(family_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
