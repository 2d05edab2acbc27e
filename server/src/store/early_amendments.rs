//! Customers' edits, deletions and reactions that came before the message they change: a
//! webhook's deliveries may arrive out of order, so such a change is kept (for an hour) instead
//! of dropped, and applied once its message is stored.

use parley_actors::conversation::{Amended, Amendment, ConversationKey, Reactor};
use parley_actors::events::Event;
use serde_json::{Value, json};
use sqlx::AnyConnection;

use super::amend::apply_amendment;
use super::contacts::phone_number_id;
use super::error::StoreResult;
use super::events::append_events;
use super::{Store, now_ms};

/// How long a change waits for its message.
pub(super) const EARLY_AMENDMENT_TTL_MS: i64 = 60 * 60 * 1000;

/// Keeps a change whose message is not stored (yet).
pub(super) async fn keep_early(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    amendment: &Amendment,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO early_amendments (id, business_id, phone, original_id, amendment, \
         received_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(&key.business_id)
    .bind(&key.phone)
    .bind(&amendment.original_id)
    .bind(encode(amendment).to_string())
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

impl Store {
    /// Applies the kept changes whose message is stored now, each once (of several nodes doing
    /// this at once, the one that deletes a change applies it), and answers their events.
    pub async fn apply_early_amendments(&self) -> StoreResult<Vec<Event>> {
        let due: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT e.id, e.business_id, e.phone, e.amendment FROM early_amendments e \
             WHERE EXISTS (SELECT 1 FROM messages m WHERE m.business_id = e.business_id \
             AND m.phone = e.phone AND m.message_id = e.original_id)",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut events = Vec::new();
        for (id, business_id, phone, amendment) in due {
            let mut tx = self.begin_write().await?;
            let claimed = sqlx::query("DELETE FROM early_amendments WHERE id = $1")
                .bind(&id)
                .execute(&mut *tx)
                .await?;
            let decoded = serde_json::from_str(&amendment).ok().and_then(decode);
            let (true, Some(amendment)) = (claimed.rows_affected() == 1, decoded) else {
                tx.commit().await?;
                continue;
            };
            let key = ConversationKey { business_id, phone };
            let pnid = phone_number_id(&mut tx, &key.business_id).await?;
            let drafts = apply_amendment(&mut tx, &key, &amendment, &pnid).await?;
            events.extend(append_events(&mut tx, &key.business_id, drafts).await?);
            tx.commit().await?;
        }
        Ok(events)
    }
}

fn encode(amendment: &Amendment) -> Value {
    let now = match &amendment.now {
        Amended::Edited { kind, content } => json!({"edited": {"kind": kind, "content": content}}),
        Amended::Revoked { content } => json!({"revoked": {"content": content}}),
        Amended::Reacted { by, emoji } => json!({"reacted": {"by": by.key(), "emoji": emoji}}),
    };
    json!({"original_id": amendment.original_id, "timestamp_ms": amendment.timestamp_ms,
           "now": now})
}

fn decode(kept: Value) -> Option<Amendment> {
    let now = &kept["now"];
    let amended = if let Some(edited) = now.get("edited") {
        Amended::Edited {
            kind: edited["kind"].as_str()?.to_string(),
            content: edited["content"].clone(),
        }
    } else if let Some(revoked) = now.get("revoked") {
        Amended::Revoked {
            content: revoked["content"].clone(),
        }
    } else {
        let reacted = now.get("reacted")?;
        let by = match reacted["by"].as_str()? {
            "business" => Reactor::Business,
            _ => Reactor::Customer,
        };
        Amended::Reacted {
            by,
            emoji: reacted["emoji"].as_str()?.to_string(),
        }
    };
    Some(Amendment {
        original_id: kept["original_id"].as_str()?.to_string(),
        timestamp_ms: kept["timestamp_ms"].as_i64()?,
        now: amended,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_kept_change_reads_back_as_it_was() {
        for now in [
            Amended::Edited {
                kind: "text".into(),
                content: json!({"text": "fixed"}),
            },
            Amended::Revoked {
                content: json!({"text": null, "revoked": true}),
            },
            Amended::Reacted {
                by: Reactor::Customer,
                emoji: "👍".into(),
            },
        ] {
            let amendment = Amendment {
                original_id: "wamid.1".into(),
                timestamp_ms: 1_763_700_000_000,
                now,
            };
            let back = decode(encode(&amendment)).expect("decoded");
            assert_eq!(format!("{back:?}"), format!("{amendment:?}"));
        }
    }
}
