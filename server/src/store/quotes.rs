//! Quoted replies: what a reply shows of the message it answers, so a client draws the quote
//! without asking for it.

use serde_json::{Value, json};
use sqlx::AnyConnection;

use super::Store;
use super::error::StoreResult;
use super::messages::{MessageRow, preview};

/// `{type, text, direction}` of a message of the conversation, or `None` when it has no such
/// message (a quote of a message from before Parley, or of another conversation).
async fn quote_of(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
    message_id: &str,
) -> Result<Option<Value>, sqlx::Error> {
    let found: Option<(String, String, String)> = sqlx::query_as(
        "SELECT kind, content, direction FROM messages WHERE business_id = $1 AND phone = $2 \
         AND message_id = $3 AND direction <> 'internal'",
    )
    .bind(business_id)
    .bind(phone)
    .bind(message_id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(found.map(|(kind, content, direction)| {
        let content: Value = serde_json::from_str(&content).unwrap_or_default();
        quote(&kind, &content, &direction)
    }))
}

/// What a reply shows of the message it answers: its text, else its caption, else its file's
/// name (a document without a caption).
fn quote(kind: &str, content: &Value, direction: &str) -> Value {
    let (text, caption) = preview(content);
    let filename = || {
        let name = content.get(kind)?.get("filename")?.as_str()?;
        Some(name.to_string()).filter(|name| !name.trim().is_empty())
    };
    json!({"type": kind, "text": text.or(caption).or_else(filename), "direction": direction})
}

/// Adds `quoted` to a content's `context` when its `id` names one of `earlier`, the messages of
/// the same batch written before it (with their contents); answers whether one did.
pub(super) fn quote_earlier<'a>(
    earlier: impl IntoIterator<Item = (&'a MessageRow, &'a Value)>,
    phone: &str,
    content: &mut Value,
) -> bool {
    let Some(id) = content.pointer("/context/id").and_then(Value::as_str) else {
        return false;
    };
    let found = (earlier.into_iter())
        .find(|(row, _)| row.message_id == id && row.phone == phone)
        .map(|(row, answered)| quote(&row.kind, answered, &row.direction));
    let Some(quoted) = found else {
        return false;
    };
    content["context"]["quoted"] = quoted;
    true
}

/// Adds `quoted` to a content's `context` when its `id` names a message of the conversation.
pub(super) async fn add_quote(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
    content: &mut Value,
) -> Result<(), sqlx::Error> {
    let Some(id) = content.pointer("/context/id").and_then(Value::as_str) else {
        return Ok(());
    };
    let id = id.to_string();
    if let Some(quoted) = quote_of(conn, business_id, phone, &id).await? {
        content["context"]["quoted"] = quoted;
    }
    Ok(())
}

impl Store {
    /// The `context` of a reply to `message_id` in the conversation with `phone`:
    /// `{id, quoted: {type, text, direction}}`, or `None` when the conversation has no such
    /// message.
    pub async fn reply_context(
        &self,
        business_id: &str,
        phone: &str,
        message_id: &str,
    ) -> StoreResult<Option<Value>> {
        let mut conn = self.pool.acquire().await?;
        let quoted = quote_of(&mut conn, business_id, phone, message_id).await?;
        Ok(quoted.map(|quoted| json!({"id": message_id, "quoted": quoted})))
    }
}
