//! Customers' edits, deletions and reactions that came before the message they change: a
//! webhook's deliveries may arrive out of order, so such a change is kept (for an hour) instead
//! of dropped, in a stored form read back when its message is stored (see `amend`).

use parley_actors::conversation::{Amended, Amendment, ConversationKey, Reactor};
use serde_json::{Value, json};
use sqlx::AnyConnection;

use super::now_ms;

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

/// The stored form of a kept change.
fn encode(amendment: &Amendment) -> Value {
    let now = match &amendment.now {
        Amended::Edited { kind, content } => json!({"edited": {"kind": kind, "content": content}}),
        Amended::Revoked { content } => json!({"revoked": {"content": content}}),
        Amended::Reacted { by, emoji } => json!({"reacted": {"by": by.key(), "emoji": emoji}}),
    };
    json!({"original_id": amendment.original_id, "timestamp_ms": amendment.timestamp_ms,
           "now": now})
}

/// A kept change as it was, from its stored form; `None` for a form it cannot read.
pub(super) fn decode(kept: Value) -> Option<Amendment> {
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
