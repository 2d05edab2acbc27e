use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sqlx::FromRow;

use super::error::{Account, Error, StoreResult};
use super::{Store, is_unique_violation, now_ms};
use crate::phone::{Region, region_of};

/// A tenant: the owner's business and the provider credentials of its profile.
#[derive(Clone, FromRow)]
pub struct Business {
    pub id: String,
    pub name: String,
    /// Routes inbound webhooks to this business; `None` until configured.
    pub phone_number_id: Option<String>,
    pub phone_number: String,
    /// Bearer token for the provider's Graph API.
    pub access_token: String,
    /// Echoed back in the webhook verification handshake.
    pub verify_token: String,
    pub waba_id: String,
    pub app_id: String,
    /// Keys the webhook signature; write-only over the API.
    pub app_secret: String,
}

impl Business {
    /// The country of the business's own number: the region of numbers written without a
    /// country code.
    pub fn region(&self) -> Option<Region> {
        region_of(&self.phone_number)
    }
}

impl std::fmt::Debug for Business {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Business")
            .field("id", &self.id)
            .field("phone_number_id", &self.phone_number_id)
            .finish_non_exhaustive()
    }
}

/// The business an inbound webhook is for, and what its new messages set off.
#[derive(Clone, FromRow)]
pub struct Addressee {
    #[sqlx(flatten)]
    pub business: Business,
    /// Its automated replies that are on.
    pub active_replies: i64,
    /// Browsers that take its push notifications.
    pub push_subscriptions: i64,
}

/// How long a node answers webhooks from its memory of a phone number's business. Changes made
/// on the node itself are seen at once; another node's, within this time.
const ROUTE_TTL: Duration = Duration::from_secs(2);

/// Webhook routing remembered per phone number id, so a webhook usually costs no query.
#[derive(Clone, Default)]
pub(super) struct Routes {
    remembered: Arc<Mutex<HashMap<String, (Instant, Addressee)>>>,
    /// One lookup at a time per phone number id: when a busy number's route runs out, the
    /// hundreds of webhooks in flight would each read it (and each hold a pooled connection)
    /// at the same moment; they wait for the first one's read instead.
    lookups: Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>,
}

impl Routes {
    fn recall(&self, phone_number_id: &str) -> Option<Addressee> {
        let routes = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        match routes.get(phone_number_id) {
            Some((at, addressee)) if at.elapsed() < ROUTE_TTL => Some(addressee.clone()),
            _ => None,
        }
    }

    /// The lock of a lookup of `phone_number_id`; locks no one holds or waits for are dropped.
    fn lookup(&self, phone_number_id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut lookups = self.lookups.lock().unwrap_or_else(|e| e.into_inner());
        lookups.retain(|_, lookup| Arc::strong_count(lookup) > 1);
        lookups
            .entry(phone_number_id.to_string())
            .or_default()
            .clone()
    }

    fn remember(&self, phone_number_id: &str, addressee: &Addressee) {
        let mut routes = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        routes.retain(|_, (at, _)| at.elapsed() < ROUTE_TTL);
        routes.insert(
            phone_number_id.to_string(),
            (Instant::now(), addressee.clone()),
        );
    }
}

impl Store {
    /// Forgets every remembered route: called after a business's credentials change and after
    /// an automated reply or push subscription is added or changed. (A removal needs no call: a
    /// route that still counts it only sends the webhook down the path that reads the real list.)
    pub(super) fn forget_routes(&self) {
        self.routes
            .remembered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }
}

/// A partial update of the provider credentials; `None` leaves a field as it is.
#[derive(Default)]
pub struct ProviderCredentials {
    pub phone_number_id: Option<String>,
    pub phone_number: Option<String>,
    pub access_token: Option<String>,
    pub verify_token: Option<String>,
    pub waba_id: Option<String>,
    pub app_id: Option<String>,
    pub app_secret: Option<String>,
}

macro_rules! business_columns {
    () => {
        "id, name, phone_number_id, phone_number, access_token, verify_token, \
                       waba_id, app_id, app_secret"
    };
}

impl Store {
    pub async fn business(&self, business_id: &str) -> StoreResult<Business> {
        sqlx::query_as(concat!(
            "SELECT ",
            business_columns!(),
            " FROM businesses WHERE id = $1"
        ))
        .bind(business_id)
        .fetch_one(&self.pool)
        .await
        .map_err(Error::from)
    }

    /// Every app secret a business has set, once each: what a webhook that names no business is
    /// checked against.
    pub async fn app_secrets(&self) -> StoreResult<Vec<String>> {
        let secrets: Vec<(String,)> =
            sqlx::query_as("SELECT DISTINCT app_secret FROM businesses WHERE app_secret <> ''")
                .fetch_all(&self.pool)
                .await?;
        Ok(secrets.into_iter().map(|(secret,)| secret).collect())
    }

    /// The business whose provider phone number id this is (webhook routing), with what its new
    /// messages set off besides the inbox. Remembered for `ROUTE_TTL` (an unknown number is not).
    pub async fn business_by_phone_number_id(
        &self,
        phone_number_id: &str,
    ) -> StoreResult<Option<Addressee>> {
        if let Some(addressee) = self.routes.recall(phone_number_id) {
            return Ok(Some(addressee));
        }
        let lookup = self.routes.lookup(phone_number_id);
        let _turn = lookup.lock().await;
        if let Some(addressee) = self.routes.recall(phone_number_id) {
            return Ok(Some(addressee));
        }
        let found: Option<Addressee> = sqlx::query_as(concat!(
            "SELECT ",
            business_columns!(),
            ", (SELECT COUNT(*) FROM automated_replies r \
             WHERE r.business_id = businesses.id AND r.is_active = 1) AS active_replies, \
             (SELECT COUNT(*) FROM push_subscriptions p \
             WHERE p.business_id = businesses.id) AS push_subscriptions \
             FROM businesses WHERE phone_number_id = $1"
        ))
        .bind(phone_number_id)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(addressee) = &found {
            self.routes.remember(phone_number_id, addressee);
        }
        Ok(found)
    }

    /// The business owning a WhatsApp Business Account (template webhooks are routed by it).
    pub async fn business_by_waba_id(&self, waba_id: &str) -> StoreResult<Option<Business>> {
        Ok(sqlx::query_as(concat!(
            "SELECT ",
            business_columns!(),
            " FROM businesses WHERE waba_id = $1 AND waba_id <> ''"
        ))
        .bind(waba_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The business a provider access token belongs to (the sandbox's check of bearer tokens).
    pub async fn business_by_access_token(&self, token: &str) -> StoreResult<Option<Business>> {
        Ok(sqlx::query_as(concat!(
            "SELECT ",
            business_columns!(),
            " FROM businesses WHERE access_token = $1 AND access_token <> ''"
        ))
        .bind(token)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Businesses whose verify token matches (webhook verification handshake).
    pub async fn verify_token_exists(&self, verify_token: &str) -> StoreResult<bool> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT id FROM businesses WHERE verify_token = $1 AND verify_token <> ''",
        )
        .bind(verify_token)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    pub async fn update_credentials(
        &self,
        business_id: &str,
        creds: ProviderCredentials,
    ) -> StoreResult<()> {
        let current = self.business(business_id).await?;
        let phone_number_id = match creds.phone_number_id {
            Some(id) if id.trim().is_empty() => None,
            Some(id) => Some(id.trim().to_string()),
            None => current.phone_number_id,
        };
        let result = sqlx::query(
            "UPDATE businesses SET phone_number_id = $1, phone_number = $2, access_token = $3, \
             verify_token = $4, waba_id = $5, app_id = $6, app_secret = $7 WHERE id = $8",
        )
        .bind(phone_number_id)
        .bind(creds.phone_number.unwrap_or(current.phone_number))
        .bind(creds.access_token.unwrap_or(current.access_token))
        .bind(creds.verify_token.unwrap_or(current.verify_token))
        .bind(creds.waba_id.unwrap_or(current.waba_id))
        .bind(creds.app_id.unwrap_or(current.app_id))
        .bind(creds.app_secret.unwrap_or(current.app_secret))
        .bind(business_id)
        .execute(&self.pool)
        .await;
        self.forget_routes();
        match result {
            Err(err) if is_unique_violation(&err) => {
                Err(Error::AccountTaken(Account::of_violation(&err)))
            }
            other => other.map(|_| ()).map_err(Error::from),
        }
    }
}

/// Inserts a business inside a registration transaction.
pub(super) async fn insert_business(
    tx: &mut sqlx::AnyConnection,
    id: &str,
    name: &str,
    creds: &ProviderCredentials,
) -> Result<(), sqlx::Error> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    sqlx::query(
        "INSERT INTO businesses (id, name, phone_number_id, phone_number, access_token, \
         verify_token, waba_id, app_id, app_secret, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(id)
    .bind(name)
    .bind(creds.phone_number_id.clone())
    .bind(text(&creds.phone_number))
    .bind(text(&creds.access_token))
    .bind(text(&creds.verify_token))
    .bind(text(&creds.waba_id))
    .bind(text(&creds.app_id))
    .bind(text(&creds.app_secret))
    .bind(now_ms())
    .execute(&mut *tx)
    .await?;
    Ok(())
}
