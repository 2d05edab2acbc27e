//! Edits and deletions of a side's own earlier messages (the customer's, or the business's from
//! the WhatsApp Business app), and either side's reactions (`reactions`): the stored message
//! changes in place (no new message), and a `message_updated` event carries it as it is now. A
//! change that came before its message waits in `early_amendments` and is applied here once the
//! message is stored. A deleted message the business has not read leaves the unread counts.

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
use super::profiles::update_by_profile;
use super::reactions::react;
use super::search_index::reindex_message;
use super::unread::uncount_deleted;

/// What a message keeps through an edit, which replaces only what it reads as: the quote, the
/// reactions, the ad it came from, and the mark of a message sent from the WhatsApp Business app.
const KEPT_THROUGH_EDITS: [&str; 4] = ["context", "reactions", "referral", "echo"];

/// The `message_updated` event's data.
#[derive(Serialize)]
struct MessageUpdated<'a> {
    conversation_id: &'a str,
    phone_number: &'a str,
    message: MessageJson<'a>,
}

/// Applies a customer's change, or a business's, and answers its events: what its delivery says
/// of the customer (profile name, BSUID, username) updates their known contact as their messages
/// do (even on a redelivery, and at once for a change kept until its message comes), then the
/// message changes (`change_message`).
pub(super) async fn apply_amendment(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    amendment: &Amendment,
    pnid: &str,
) -> Result<Vec<Draft>, sqlx::Error> {
    let mut drafts: Vec<Draft> = (update_by_profile(conn, key, &amendment.profile, pnid).await?)
        .into_iter()
        .collect();
    drafts.extend(change_message(conn, key, amendment, pnid).await?);
    Ok(drafts)
}

/// Applies an edit or deletion to a side's own message, or a reaction to any message of the
/// conversation, and answers its event. A change to a message not stored (yet) is kept until it
/// is (`early_amendments`); a redelivery, an edit or reaction older than the one applied, a
/// change to the other side's message, or any change to a deleted message changes nothing.
async fn change_message(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    amendment: &Amendment,
    pnid: &str,
) -> Result<Vec<Draft>, sqlx::Error> {
    let found: Option<MessageRow> = sqlx::query_as(concat!(
        "SELECT ",
        message_columns!(),
        " FROM messages WHERE business_id = $1 AND phone = $2 AND message_id = $3"
    ))
    .bind(&key.business_id)
    .bind(&key.phone)
    .bind(&amendment.original_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(mut row) = found else {
        // Its message may come later: a webhook's deliveries may arrive out of order.
        keep_early(conn, key, amendment).await?;
        return Ok(Vec::new());
    };
    // Each side edits and deletes only its own messages; either reacts to any message.
    let allowed = match amendment.now {
        Amended::Reacted { .. } => matches!(row.direction.as_str(), "incoming" | "outgoing"),
        Amended::Edited { .. } | Amended::Revoked { .. } => {
            row.direction == amendment.by.direction()
        }
    };
    if !allowed || row.revoked_at.is_some() {
        return Ok(Vec::new());
    }
    let at = amendment.timestamp_ms;
    let mut uncounted = None;
    let content = match &amendment.now {
        Amended::Edited { kind, content } => {
            let (kind, content) = kept_through_edit(&row.kind, &row.content, kind, content);
            let text = content.to_string();
            let stale = row
                .edited_at
                .is_some_and(|edited| edited > at || (edited == at && row.content == text));
            if stale {
                return Ok(Vec::new());
            }
            row.kind = kind;
            row.content = text;
            row.edited_at = Some(at);
            content
        }
        Amended::Revoked { content } => {
            row.content = content.to_string();
            row.revoked_at = Some(at);
            // A deleted message the business has not read no longer counts as unread.
            if row.direction == "incoming" && row.is_read == 0 {
                row.is_read = 1;
                uncounted = uncount_deleted(conn, key, pnid).await?;
            }
            content.clone()
        }
        Amended::Reacted { emoji } => {
            let changed = react(conn, key, &mut row, amendment, emoji).await?;
            return Ok(match changed {
                true => vec![updated_event(key, pnid, &row)],
                false => Vec::new(),
            });
        }
    };
    sqlx::query(
        "UPDATE messages SET kind = $1, content = $2, edited_at = $3, revoked_at = $4, \
         is_read = $5 WHERE business_id = $6 AND message_id = $7",
    )
    .bind(&row.kind)
    .bind(&row.content)
    .bind(row.edited_at)
    .bind(row.revoked_at)
    .bind(row.is_read)
    .bind(&key.business_id)
    .bind(&row.message_id)
    .execute(&mut *conn)
    .await?;
    reindex_message(conn, &key.business_id, &row.search_source()).await?;
    // The list's preview follows when this is the conversation's latest message.
    let (text, caption) = preview(&content);
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
    let mut drafts = vec![updated_event(key, pnid, &row)];
    drafts.extend(uncounted);
    Ok(drafts)
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

/// The kind and content an edit leaves: the `edited` content with what the stored message keeps
/// through an edit (and without any of it the stored message did not have: an edit that names a
/// quote does not make a message a reply). An edit that carries a file without its id (a new
/// caption only) keeps the stored file and kind.
fn kept_through_edit(
    stored_kind: &str,
    stored: &str,
    edited_kind: &str,
    edited: &Value,
) -> (String, Value) {
    let mut now = edited.clone();
    let mut kind = edited_kind.to_string();
    let before: Option<Value> = serde_json::from_str(stored).ok();
    if let (Some(Value::Object(before)), Value::Object(fields)) = (before, &mut now) {
        for key in KEPT_THROUGH_EDITS {
            match before.get(key) {
                Some(kept) => fields.insert(key.to_string(), kept.clone()),
                None => fields.remove(key),
            };
        }
        let caption_only = fields
            .get(edited_kind)
            .and_then(|file| file.get("media_id"))
            .is_some_and(|id| id.as_str().is_none_or(str::is_empty));
        if let (true, Some(file)) = (caption_only, file_of(&before, stored_kind)) {
            fields.remove(edited_kind);
            fields.insert(stored_kind.to_string(), file.clone());
            kind = stored_kind.to_string();
        }
    }
    (kind, now)
}

/// The file a stored message of `kind` carries (`{<kind>: {media_id, …}}`), if it has one.
fn file_of<'a>(content: &'a serde_json::Map<String, Value>, kind: &str) -> Option<&'a Value> {
    let file = content.get(kind)?;
    let id = file.get("media_id")?.as_str()?;
    (!id.is_empty()).then_some(file)
}
