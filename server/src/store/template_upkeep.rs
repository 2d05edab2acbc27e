//! What the provider tells of templates after they are stored: its review decisions (with the
//! reason of a rejection) and the list it answers, which drops templates deleted elsewhere.

use parley_actors::events::{Event, NOTIFICATIONS, TEMPLATE_STATUS, event_data};
use serde_json::{Value, json};

use super::error::StoreResult;
use super::events::{Draft, append_events};
use super::templates::template_id;
use super::{Store, now_ms};

impl Store {
    /// The provider's review decision: stored with its reason (Meta says `NONE` when there is
    /// none), and logged as a `template_status` event.
    pub async fn template_decided(
        &self,
        business_id: &str,
        update: &Value,
    ) -> StoreResult<Vec<Event>> {
        let id = template_id(update.get("message_template_id"));
        let status = update
            .get("event")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let reason = update
            .get("reason")
            .and_then(Value::as_str)
            .filter(|reason| !reason.is_empty() && *reason != "NONE");
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "UPDATE templates SET status = $1, rejection_reason = $2, updated_at = $3 \
             WHERE business_id = $4 AND id = $5",
        )
        .bind(status)
        .bind(reason)
        .bind(now_ms())
        .bind(business_id)
        .bind(&id)
        .execute(&mut *tx)
        .await?;
        let draft = Draft {
            channels: vec![NOTIFICATIONS.into()],
            name: TEMPLATE_STATUS,
            data: event_data(&json!({
                "id": id,
                "name": update.get("message_template_name"),
                "language": update.get("message_template_language"),
                "status": status,
                "reason": reason,
            })),
        };
        let events = append_events(&mut tx, business_id, vec![draft]).await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Takes the provider's whole list as the truth: its templates are stored, and the ones it
    /// no longer lists (deleted outside Parley) are forgotten. A template stored while the list
    /// was on its way (just submitted) is newer than the sync and stays.
    pub async fn replace_templates(
        &self,
        business_id: &str,
        listed: &[Value],
        listed_at: i64,
    ) -> StoreResult<()> {
        self.upsert_templates(business_id, listed).await?;
        sqlx::query("DELETE FROM templates WHERE business_id = $1 AND updated_at < $2")
            .bind(business_id)
            .bind(listed_at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
