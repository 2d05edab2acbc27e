//! Customers' edits and deletions of their earlier messages, and either side's reactions: the
//! stored message changes in place (no new message), and a `message_updated` event carries it as
//! it is now. A change that came before its message waits in `early_amendments` and is applied
//! here once the message is stored.

use parley_actors::conversation::{Amended, Amendment, ConversationKey};
use parley_actors::events::{
    Event, MESSAGE_UPDATED, NOTIFICATIONS, conversation_channel, event_data,
};
use serde::Serialize;
use serde_json::Value;
use sqlx::AnyConnection;

use super::Store;
use super::contacts::phone_number_id;
use super::early_amendments::{decode, keep_early};
use super::error::StoreResult;
use super::events::{Draft, append_events};
use super::messages::{MessageJson, MessageRow, message_columns, preview};
use super::search_index::reindex_message;

/// The `message_updated` event's data.
#[derive(Serialize)]
struct MessageUpdated<'a> {
    conversation_id: &'a str,
    phone_number: &'a str,
    message: MessageJson<'a>,
}

/// Applies an edit or deletion to the customer's own message, or a reaction to any message of
/// the conversation, and answers its event. A change to a message not stored (yet) is kept until
/// it is (`early_amendments`); a redelivery, an edit older than the one applied, or any change
/// to a deleted message changes nothing.
pub(super) async fn apply_amendment(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    amendment: &Amendment,
    pnid: &str,
) -> Result<Vec<Draft>, sqlx::Error> {
    // The customer changes only their own messages; either side reacts to any message.
    let directions = match amendment.now {
        Amended::Reacted { .. } => ["incoming", "outgoing"],
        Amended::Edited { .. } | Amended::Revoked { .. } => ["incoming", "incoming"],
    };
    let found: Option<MessageRow> = sqlx::query_as(concat!(
        "SELECT ",
        message_columns!(),
        " FROM messages WHERE business_id = $1 AND phone = $2 AND message_id = $3 \
         AND direction IN ($4, $5)"
    ))
    .bind(&key.business_id)
    .bind(&key.phone)
    .bind(&amendment.original_id)
    .bind(directions[0])
    .bind(directions[1])
    .fetch_optional(&mut *conn)
    .await?;
    let Some(mut row) = found else {
        // Its message may come later: a webhook's deliveries may arrive out of order.
        keep_early(conn, key, amendment).await?;
        return Ok(Vec::new());
    };
    if row.revoked_at.is_some() {
        return Ok(Vec::new());
    }
    let at = amendment.timestamp_ms;
    let content = match &amendment.now {
        Amended::Edited { kind, content } => {
            let text = content.to_string();
            let stale = row
                .edited_at
                .is_some_and(|edited| edited > at || (edited == at && row.content == text));
            if stale {
                return Ok(Vec::new());
            }
            row.kind.clone_from(kind);
            row.content = text;
            row.edited_at = Some(at);
            content
        }
        Amended::Revoked { content } => {
            row.content = content.to_string();
            row.revoked_at = Some(at);
            content
        }
        Amended::Reacted { by, emoji } => {
            let Some(content) = with_reaction(&row.content, by.key(), emoji) else {
                return Ok(Vec::new());
            };
            row.content = content;
            sqlx::query(
                "UPDATE messages SET content = $1 WHERE business_id = $2 AND message_id = $3",
            )
            .bind(&row.content)
            .bind(&key.business_id)
            .bind(&row.message_id)
            .execute(&mut *conn)
            .await?;
            return Ok(vec![updated_event(key, pnid, &row)]);
        }
    };
    sqlx::query(
        "UPDATE messages SET kind = $1, content = $2, edited_at = $3, revoked_at = $4 \
         WHERE business_id = $5 AND message_id = $6",
    )
    .bind(&row.kind)
    .bind(&row.content)
    .bind(row.edited_at)
    .bind(row.revoked_at)
    .bind(&key.business_id)
    .bind(&row.message_id)
    .execute(&mut *conn)
    .await?;
    reindex_message(conn, &key.business_id, &row.search_source()).await?;
    // The list's preview follows when this is the conversation's latest message.
    let (text, caption) = preview(content);
    sqlx::query(
        "UPDATE contacts SET last_text = $1, last_caption = $2 \
         WHERE business_id = $3 AND phone = $4 AND last_message_at = $5",
    )
    .bind(&text)
    .bind(&caption)
    .bind(&key.business_id)
    .bind(&key.phone)
    .bind(row.sent_at)
    .execute(&mut *conn)
    .await?;
    Ok(vec![updated_event(key, pnid, &row)])
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

/// The `message_updated` event of a changed message.
fn updated_event(key: &ConversationKey, pnid: &str, row: &MessageRow) -> Draft {
    let conversation_id = conversation_channel(pnid, &key.phone);
    let data = event_data(&MessageUpdated {
        conversation_id: &conversation_id,
        phone_number: &key.phone,
        message: row.to_json(&conversation_id),
    });
    Draft {
        channels: vec![conversation_id.clone(), NOTIFICATIONS.into()],
        name: MESSAGE_UPDATED,
        data,
    }
}

/// The stored content with `reactions[side]` set to `emoji` (taken off when it is empty), or
/// `None` when that changes nothing.
fn with_reaction(stored: &str, side: &str, emoji: &str) -> Option<String> {
    let mut content: Value = serde_json::from_str(stored).ok()?;
    let reactions = content
        .as_object_mut()?
        .entry("reactions")
        .or_insert_with(|| Value::Object(Default::default()))
        .as_object_mut()?;
    let before = reactions.get(side).cloned();
    match emoji.is_empty() {
        true => reactions.remove(side),
        false => reactions.insert(side.to_string(), Value::from(emoji)),
    };
    if reactions.is_empty() {
        content.as_object_mut()?.remove("reactions");
    }
    let now = content.pointer(&format!("/reactions/{side}")).cloned();
    (now != before).then(|| content.to_string())
}
