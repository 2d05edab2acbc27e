//! Edits, deletions and reactions that came before the message they change: a webhook's
//! deliveries may arrive out of order, so such a change is kept (for an hour) instead of dropped,
//! in a stored form read back when its message is stored (see `amend`).

use parley_actors::conversation::{Amended, Amendment, ConversationKey, Side};
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
        Amended::Reacted { emoji } => json!({"reacted": {"emoji": emoji}}),
    };
    json!({"id": amendment.id, "original_id": amendment.original_id,
           "by": amendment.by.key(), "timestamp_ms": amendment.timestamp_ms, "now": now})
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
        Amended::Reacted {
            emoji: now.get("reacted")?["emoji"].as_str()?.to_string(),
        }
    };
    // Kept before changes carried their id and side: a reaction named its side, nothing else
    // could be the business's.
    let by = kept["by"].as_str().or(now["reacted"]["by"].as_str());
    Some(Amendment {
        id: kept["id"].as_str().unwrap_or_default().to_string(),
        original_id: kept["original_id"].as_str()?.to_string(),
        by: match by {
            Some("business") => Side::Business,
            _ => Side::Customer,
        },
        timestamp_ms: kept["timestamp_ms"].as_i64()?,
        now: amended,
        // The profile updated the contact when the change came.
        profile: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_kept_change_reads_back_as_it_was() {
        for (by, now) in [
            (
                Side::Customer,
                Amended::Edited {
                    kind: "text".into(),
                    content: json!({"text": "fixed"}),
                },
            ),
            (
                Side::Business,
                Amended::Revoked {
                    content: json!({"text": null, "revoked": true}),
                },
            ),
            (
                Side::Business,
                Amended::Reacted {
                    emoji: "👍".into()
                },
            ),
        ] {
            let amendment = Amendment {
                id: "wamid.2".into(),
                original_id: "wamid.1".into(),
                by,
                timestamp_ms: 1_763_700_000_000,
                now,
                profile: Default::default(),
            };
            let back = decode(encode(&amendment)).expect("decoded");
            assert_eq!(format!("{back:?}"), format!("{amendment:?}"));
        }
    }

    #[test]
    fn a_change_kept_before_sides_and_ids_were_kept_reads_back() {
        let kept = json!({"original_id": "wamid.1", "timestamp_ms": 1,
                          "now": {"reacted": {"by": "business", "emoji": "🙏"}}});
        let back = decode(kept).expect("decoded");
        assert_eq!((back.by, back.id.as_str()), (Side::Business, ""));
        let kept = json!({"original_id": "wamid.1", "timestamp_ms": 1,
                          "now": {"edited": {"kind": "text", "content": {"text": "x"}}}});
        assert_eq!(decode(kept).expect("decoded").by, Side::Customer);
    }
}
