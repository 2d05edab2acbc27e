//! Stored messages: their rows, how clients see them, their insertion and `new_message` events,
//! and the history of a conversation.

use std::collections::HashSet;

use parley_actors::conversation::ConversationKey;
use parley_actors::events::{NEW_MESSAGE, NOTIFICATIONS, conversation_channel, event_data};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use sqlx::{AnyConnection, FromRow};

use super::contacts::{ContactIds, new_contact_draft};
use super::error::StoreResult;
use super::events::Draft;
use super::labels::relist_labels;
use super::search_index::{MessageSource, index_messages};
use super::{Params, Store, iso_time, now_ms, rows_per_statement};

/// A stored message.
#[derive(FromRow)]
pub struct MessageRow {
    pub message_id: String,
    pub phone: String,
    pub direction: String,
    pub kind: String,
    pub content: String,
    pub status: String,
    pub is_read: i64,
    pub sender_name: String,
    pub sent_at: i64,
    pub error: Option<String>,
    /// When its sender last edited it (ms).
    pub edited_at: Option<i64>,
    /// When its sender deleted it for everyone (ms).
    pub revoked_at: Option<i64>,
    /// The id the sending client gave it (`message_id` of send-message), for an agent's message.
    pub client_id: Option<String>,
}

/// The columns a `MessageRow` is read from.
macro_rules! message_columns {
    () => {
        "message_id, phone, direction, kind, content, status, is_read, sender_name, sent_at, \
         error, edited_at, revoked_at, client_id"
    };
}
pub(super) use message_columns;

/// Where a page of history ends: before this message's time, or at that time before its id
/// (`""`: before the whole time).
pub struct HistoryCursor<'a> {
    /// Unix ms; `i64::MAX` for the newest page.
    pub at: i64,
    pub message_id: &'a str,
}

impl MessageRow {
    /// What its search document is made from.
    pub(super) fn search_source(&self) -> MessageSource<'_> {
        MessageSource {
            message_id: &self.message_id,
            phone: &self.phone,
            kind: &self.kind,
            sent_at: self.sent_at,
            content: &self.content,
        }
    }

    /// The message as the API and the `new_message` event show it. Its stored content and error
    /// are JSON already: they are copied as they are, not parsed.
    pub fn to_json<'a>(&'a self, conversation_id: &'a str) -> MessageJson<'a> {
        MessageJson {
            message_id: &self.message_id,
            timestamp: iso_time(self.sent_at),
            status: &self.status,
            direction: &self.direction,
            kind: &self.kind,
            content: serde_json::from_str(&self.content).ok(),
            is_read: self.is_read != 0,
            sender_name: &self.sender_name,
            conversation_id,
            error: self.error.as_deref().map(|error| {
                serde_json::from_str(error).map_or(StoredError::Text(error), StoredError::Json)
            }),
            edited_at: self.edited_at.map(iso_time),
            revoked_at: self.revoked_at.map(iso_time),
            client_message_id: self
                .client_id
                .as_deref()
                .filter(|client_id| *client_id != self.message_id),
        }
    }
}

/// A message as clients see it (docs/API.md).
#[derive(Serialize, utoipa::ToSchema)]
pub struct MessageJson<'a> {
    message_id: &'a str,
    /// ISO 8601.
    timestamp: String,
    /// `pending`, `queued`, `sent`, `delivered`, `read` or `failed`.
    status: &'a str,
    /// `incoming` or `outgoing`.
    direction: &'a str,
    /// `text`, `image`, `template`, `reaction`, `note`, …
    #[serde(rename = "type")]
    kind: &'a str,
    /// The message's content, whose fields vary with its type (text, caption, media, template,
    /// `context` of a quoted reply, `reactions`, …): free-form on purpose.
    #[schema(value_type = Option<Object>)]
    content: Option<&'a RawValue>,
    is_read: bool,
    sender_name: &'a str,
    conversation_id: &'a str,
    /// Why it failed: the provider's error object, or a plain message.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<serde_json::Value>)]
    error: Option<StoredError<'a>>,
    /// ISO 8601, when its sender (the customer, or the business in the WhatsApp Business app)
    /// last edited it.
    #[serde(skip_serializing_if = "Option::is_none")]
    edited_at: Option<String>,
    /// ISO 8601, when its sender deleted it for everyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    revoked_at: Option<String>,
    /// The sending client's id for the message, once the provider's id has replaced it: a
    /// client that still holds the message under its own id knows it is sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    client_message_id: Option<&'a str>,
}

/// A stored error: the provider's JSON object, or a plain message.
#[derive(Serialize)]
#[serde(untagged)]
enum StoredError<'a> {
    Json(&'a RawValue),
    Text(&'a str),
}

/// The preview the list shows: text, else caption.
pub(crate) fn preview(content: &Value) -> (Option<String>, Option<String>) {
    let text = content
        .get("text")
        .or_else(|| content.get("body"))
        .and_then(Value::as_str)
        .map(String::from);
    let caption = content
        .get("caption")
        .and_then(Value::as_str)
        .map(String::from);
    (text, caption)
}

/// The `new_message` event's data.
#[derive(Serialize)]
struct NewMessage<'a> {
    conversation_id: &'a str,
    phone_number: &'a str,
    name: &'a str,
    message: MessageJson<'a>,
}

/// The events of a new message: the contact first when it is new (`created` holds its ids),
/// then the message itself.
pub(super) fn message_drafts(
    pnid: &str,
    phone: &str,
    name: &str,
    created: Option<ContactIds>,
    row: &MessageRow,
) -> Vec<Draft> {
    let conversation_id = conversation_channel(pnid, phone);
    let mut drafts = Vec::new();
    if let Some(ids) = created {
        drafts.push(new_contact_draft(pnid, phone, name, ids, None));
    }
    let data = event_data(&NewMessage {
        conversation_id: &conversation_id,
        phone_number: phone,
        name,
        message: row.to_json(&conversation_id),
    });
    // A message the business sends also moves its row in every list (an inbound one does that
    // with its `notification`).
    let channels = match row.direction.as_str() {
        "outgoing" => vec![conversation_id, NOTIFICATIONS.to_string()],
        _ => vec![conversation_id],
    };
    drafts.push(Draft {
        channels,
        name: NEW_MESSAGE,
        data,
    });
    drafts
}

/// Inserts messages unless their ids or client ids are known, several rows per statement, with
/// their search documents; answers the ids that went in.
pub(super) async fn insert_messages(
    conn: &mut AnyConnection,
    business_id: &str,
    rows: &[&MessageRow],
) -> Result<HashSet<String>, sqlx::Error> {
    let mut inserted = HashSet::with_capacity(rows.len());
    let now = now_ms();
    for chunk in rows.chunks(rows_per_statement(13)) {
        let sql = format!(
            "INSERT INTO messages (business_id, message_id, phone, direction, kind, content, \
             status, is_read, sender_name, sent_at, error, client_id, created_at) VALUES {} \
             ON CONFLICT DO NOTHING RETURNING message_id",
            Params::of(conn).rows(chunk.len(), 13)
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut insert = sqlx::query_as::<_, (String,)>(sqlx::AssertSqlSafe(sql));
        for row in chunk {
            insert = insert
                .bind(business_id)
                .bind(&row.message_id)
                .bind(&row.phone)
                .bind(&row.direction)
                .bind(&row.kind)
                .bind(&row.content)
                .bind(&row.status)
                .bind(row.is_read)
                .bind(&row.sender_name)
                .bind(row.sent_at)
                .bind(&row.error)
                .bind(&row.client_id)
                .bind(now);
        }
        let ids = insert.fetch_all(&mut *conn).await?;
        inserted.extend(ids.into_iter().map(|(id,)| id));
    }
    let new: Vec<MessageSource> = rows
        .iter()
        .filter(|row| inserted.contains(&row.message_id))
        .map(|row| row.search_source())
        .collect();
    index_messages(conn, business_id, &new).await?;
    Ok(inserted)
}

/// Moves the conversation's last message (time and preview, and its labels' list time) to a
/// message the business sent.
pub(super) async fn record_last_sent(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    sent_at: i64,
    content: &Value,
) -> Result<(), sqlx::Error> {
    let (text, caption) = preview(content);
    sqlx::query(
        "UPDATE contacts SET last_message_at = $1, last_text = $2, last_caption = $3 \
         WHERE business_id = $4 AND phone = $5",
    )
    .bind(sent_at)
    .bind(&text)
    .bind(&caption)
    .bind(&key.business_id)
    .bind(&key.phone)
    .execute(&mut *conn)
    .await?;
    relist_labels(conn, &key.business_id, &[&key.phone]).await
}

/// The next time in a conversation: now-ish, but after every message already in it, so times
/// are unique and increasing and history pages are exact.
pub(super) async fn next_time(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    wanted: i64,
) -> Result<i64, sqlx::Error> {
    let (latest,): (Option<i64>,) =
        sqlx::query_as("SELECT MAX(sent_at) FROM messages WHERE business_id = $1 AND phone = $2")
            .bind(&key.business_id)
            .bind(&key.phone)
            .fetch_one(&mut *conn)
            .await?;
    Ok(wanted.max(latest.map_or(0, |l| l + 1)))
}

impl Store {
    /// When the customer last wrote (opens the 24-hour window), if ever.
    pub async fn last_incoming_at(
        &self,
        business_id: &str,
        phone: &str,
    ) -> StoreResult<Option<i64>> {
        let row: Option<(Option<i64>,)> = sqlx::query_as(
            "SELECT last_incoming_at FROM contacts WHERE business_id = $1 AND phone = $2",
        )
        .bind(business_id)
        .bind(phone)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.and_then(|(at,)| at))
    }

    /// The customer's newest message id (the provider marks it and all before it read).
    pub async fn latest_incoming_id(
        &self,
        business_id: &str,
        phone: &str,
    ) -> StoreResult<Option<String>> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT message_id FROM messages WHERE business_id = $1 AND phone = $2 \
             AND direction = 'incoming' ORDER BY sent_at DESC LIMIT 1",
        )
        .bind(business_id)
        .bind(phone)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(id,)| id))
    }

    /// The customer key of the conversation that holds the message `message_id`, if any.
    pub async fn conversation_of_message(
        &self,
        business_id: &str,
        message_id: &str,
    ) -> StoreResult<Option<String>> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT phone FROM messages WHERE business_id = $1 AND message_id = $2")
                .bind(business_id)
                .bind(message_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(phone,)| phone))
    }

    /// Up to `limit` messages before `before_ms`, oldest first, and whether older ones exist.
    pub async fn messages_page(
        &self,
        business_id: &str,
        phone: &str,
        before: &HistoryCursor<'_>,
        limit: i64,
    ) -> StoreResult<(Vec<MessageRow>, bool)> {
        // Messages of one time come by id, so a page that ends inside them is followed by the
        // next page exactly (an id of "" is before every id: the whole time is older).
        let id = self.backend.byte_order("message_id");
        let sql = format!(
            "SELECT {} FROM messages WHERE business_id = $1 AND phone = $2 AND sent_at <= $3 \
             AND (sent_at < $4 OR {id} < $5) ORDER BY sent_at DESC, {id} DESC LIMIT $6",
            message_columns!()
        );
        // Only fixed fragments are formatted in; the values are bound.
        let mut rows: Vec<MessageRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(business_id)
            .bind(phone)
            .bind(before.at)
            .bind(before.at)
            .bind(before.message_id)
            .bind(limit + 1)
            .fetch_all(&self.pool)
            .await?;
        let has_more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        rows.reverse();
        Ok((rows, has_more))
    }
}
