use super::error::StoreResult;
use super::{Store, now_ms};

/// Browsers one user keeps subscribed; registering another drops the least recently refreshed,
/// so one account cannot make every inbound message fan out without bound.
pub const MAX_PUSH_SUBSCRIPTIONS_PER_USER: i64 = 10;

/// Where and how to reach one browser (the parts of a `PushSubscription` that matter) or one
/// device of the native app.
#[derive(Clone, PartialEq, Eq)]
pub struct PushSubscription {
    /// `web` (Web Push), or `android` / `ios` (FCM).
    pub platform: String,
    /// The push service URL of a browser, or the FCM registration token of a device; either is
    /// a bearer capability, so it is never logged.
    pub endpoint: String,
    /// The browser's P-256 public key, base64url without padding (empty for a device).
    pub p256dh: String,
    /// The browser's auth secret, base64url without padding (empty for a device).
    pub auth: String,
}

impl std::fmt::Debug for PushSubscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushSubscription")
            .field("platform", &self.platform)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Registers (or refreshes) a browser or device for a user; answers the refresh time (Unix ms). An
    /// endpoint belongs to whoever of the business registered it last (a browser that changes
    /// hands follows them); another business registering it gets its own row.
    pub async fn upsert_push_subscription(
        &self,
        business_id: &str,
        user_id: &str,
        subscription: &PushSubscription,
    ) -> StoreResult<i64> {
        let now = now_ms();
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO push_subscriptions \
             (endpoint, business_id, user_id, platform, p256dh, auth, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (business_id, endpoint) DO UPDATE SET user_id = excluded.user_id, \
             platform = excluded.platform, p256dh = excluded.p256dh, auth = excluded.auth, \
             updated_at = excluded.updated_at",
        )
        .bind(&subscription.endpoint)
        .bind(business_id)
        .bind(user_id)
        .bind(&subscription.platform)
        .bind(&subscription.p256dh)
        .bind(&subscription.auth)
        .bind(now)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint NOT IN \
             (SELECT endpoint FROM push_subscriptions WHERE user_id = $1 \
              ORDER BY updated_at DESC, endpoint LIMIT $2)",
        )
        .bind(user_id)
        .bind(MAX_PUSH_SUBSCRIPTIONS_PER_USER)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.forget_routes();
        Ok(now)
    }

    /// Removes one of the user's browsers; answers how many rows went (0 or 1).
    pub async fn delete_push_subscription(
        &self,
        business_id: &str,
        user_id: &str,
        endpoint: &str,
    ) -> StoreResult<u64> {
        let done = sqlx::query(
            "DELETE FROM push_subscriptions \
             WHERE business_id = $1 AND user_id = $2 AND endpoint = $3",
        )
        .bind(business_id)
        .bind(user_id)
        .bind(endpoint)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Every subscribed browser and device of the business's users.
    pub async fn push_subscriptions(
        &self,
        business_id: &str,
    ) -> StoreResult<Vec<PushSubscription>> {
        let rows: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT platform, endpoint, p256dh, auth FROM push_subscriptions \
             WHERE business_id = $1",
        )
        .bind(business_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(PushSubscription::from).collect())
    }

    /// The subscribed browsers and devices of one user of the business.
    pub async fn user_push_subscriptions(
        &self,
        business_id: &str,
        user_id: &str,
    ) -> StoreResult<Vec<PushSubscription>> {
        let rows: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT platform, endpoint, p256dh, auth FROM push_subscriptions \
             WHERE business_id = $1 AND user_id = $2",
        )
        .bind(business_id)
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(PushSubscription::from).collect())
    }

    /// Drops a browser or device its push service says is gone (404/410, FCM's UNREGISTERED).
    pub async fn drop_expired_push_subscription(
        &self,
        business_id: &str,
        endpoint: &str,
    ) -> StoreResult<()> {
        sqlx::query("DELETE FROM push_subscriptions WHERE business_id = $1 AND endpoint = $2")
            .bind(business_id)
            .bind(endpoint)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

impl From<(String, String, String, String)> for PushSubscription {
    fn from((platform, endpoint, p256dh, auth): (String, String, String, String)) -> Self {
        PushSubscription {
            platform,
            endpoint,
            p256dh,
            auth,
        }
    }
}
