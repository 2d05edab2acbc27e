//! What the provider tells of templates after they are stored: its review decisions (with the
//! reason of a rejection) and the list it answers, which drops templates deleted elsewhere.

use parley_actors::events::{Event, NOTIFICATIONS, TEMPLATE_STATUS, event_data};
use serde_json::{Value, json};

use super::error::StoreResult;
use super::events::{Draft, append_events};
use super::templates::template_id;
use super::{Store, now_ms};

impl Store {
    /// The provider's review decision: the status it leaves the template in (`status_after`),
    /// stored with its reason (Meta says `NONE` when there is none), and logged as a
    /// `template_status` event.
    pub async fn template_decided(
        &self,
        business_id: &str,
        update: &Value,
    ) -> StoreResult<Vec<Event>> {
        let id = template_id(update.get("message_template_id"));
        let event = update
            .get("event")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let reason = update
            .get("reason")
            .and_then(Value::as_str)
            .filter(|reason| !reason.is_empty() && *reason != "NONE");
        let mut tx = self.begin_write().await?;
        let status = match status_after(event) {
            Some(status) => status.to_string(),
            None => {
                let stored: Option<(String,)> = sqlx::query_as(
                    "SELECT status FROM templates WHERE business_id = $1 AND id = $2",
                )
                .bind(business_id)
                .bind(&id)
                .fetch_optional(&mut *tx)
                .await?;
                stored.map_or_else(|| "APPROVED".to_string(), |(status,)| status)
            }
        };
        sqlx::query(
            "UPDATE templates SET status = $1, rejection_reason = $2, updated_at = $3 \
             WHERE business_id = $4 AND id = $5",
        )
        .bind(&status)
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

/// The status Meta's template `event` leaves a template in: most events name it, but a template
/// made sendable again (`REINSTATED`, `UNARCHIVED`) is approved, and `None` for an event that
/// changes no status (`FLAGGED`: at risk, still sendable; `LOCKED`, `UNLOCKED`: editing only),
/// whose template keeps the one stored (approved when none is: only approved ones get them).
fn status_after(event: &str) -> Option<&str> {
    match event {
        "REINSTATED" | "UNARCHIVED" => Some("APPROVED"),
        "FLAGGED" | "LOCKED" | "UNLOCKED" => None,
        event => Some(event),
    }
}
