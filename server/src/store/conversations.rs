//! Conversations, messages and the event log. Implements the actors' `ConversationStore` and
//! `EventLog`: every change is written with the events it causes, numbered, in one transaction.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use futures_util::future::BoxFuture;
use parley_actors::conversation::{
    ConversationKey, ConversationStore, InboundMessage, OutgoingMessage, OutgoingState,
    SendOutcome, StatusUpdate,
};
use parley_actors::error::StoreError;
use parley_actors::event_log::{EventLog, Replay};
use parley_actors::events::{
    Event, MESSAGE_STATUS_UPDATE, NEW_CONTACT, NEW_MESSAGE, NOTIFICATION, NOTIFICATIONS,
    SYSTEM_NOTIFICATION, conversation_channel, event_data,
};
use parley_actors::hub::EventBus;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use sqlx::{AnyConnection, FromRow};

use super::error::{Error, StoreResult};
use super::ingest::Write;
use super::{Params, Store, iso_time, now_ms, rows_per_statement};

/// The provider's code for a billing problem: agents are told to check their payment method.
pub const PAYMENT_ERROR_CODE: i64 = 131042;
/// How long an attempt in flight holds its outbox entry before the worker may retry it.
/// Longer than the HTTP client's 15 s timeout.
pub const OUTBOX_LEASE_MS: i64 = 20_000;
/// Most events one resume replays; a longer gap gets `reset` and a re-fetch.
const MAX_REPLAY: i64 = 10_000;

/// A row of the conversation list.
#[derive(FromRow)]
pub struct ContactRow {
    pub phone: String,
    pub name: String,
    pub last_message_at: Option<i64>,
    pub last_incoming_at: Option<i64>,
    pub last_text: Option<String>,
    pub last_caption: Option<String>,
    pub unread_count: i64,
}

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
}

/// A page of the conversation list.
pub struct ContactPage {
    pub rows: Vec<ContactRow>,
    pub has_more: bool,
    pub total_unread: i64,
}

impl MessageRow {
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
        }
    }
}

/// A message as clients see it (docs/API.md).
#[derive(Serialize)]
pub struct MessageJson<'a> {
    message_id: &'a str,
    timestamp: String,
    status: &'a str,
    direction: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    content: Option<&'a RawValue>,
    is_read: bool,
    sender_name: &'a str,
    conversation_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<StoredError<'a>>,
}

/// A stored error: the provider's JSON object, or a plain message.
#[derive(Serialize)]
#[serde(untagged)]
enum StoredError<'a> {
    Json(&'a RawValue),
    Text(&'a str),
}

impl ContactRow {
    pub fn to_json(&self, phone_number_id: &str) -> Value {
        json!({
            "phone_number": self.phone,
            "name": self.name,
            "conversation_id": conversation_channel(phone_number_id, &self.phone),
            "last_message_content": {"text": self.last_text, "caption": self.last_caption},
            "last_message_timestamp": self.last_message_at.map(iso_time),
            "last_incoming_timestamp": self.last_incoming_at.map(iso_time),
            "unread_count": self.unread_count,
        })
    }
}

/// Order of statuses: a receipt only ever moves a message to a later one.
fn status_rank(status: &str) -> i32 {
    match status {
        "sending" | "pending" => 0,
        "sent" => 1,
        "failed" => 2,
        "delivered" => 3,
        "read" | "played" => 4,
        _ => -1,
    }
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

/// An event to append, before it has its number.
pub(super) struct Draft {
    pub(super) channels: Vec<String>,
    pub(super) name: &'static str,
    pub(super) data: Box<RawValue>,
}

/// The events of a status change: the receipt on both channels, and the billing alert when the
/// provider failed the message for a payment problem.
fn status_drafts(
    conversation_id: &str,
    phone: &str,
    message_id: &str,
    status: &str,
    error: Option<&Value>,
    client_id: Option<&str>,
) -> Vec<Draft> {
    let mut data = json!({
        "conversation_id": conversation_id,
        "phone_number": phone,
        "message_id": message_id,
        "status": status,
    });
    if let Some(err) = error {
        data["error"] = err.clone();
    }
    if let Some(client_id) = client_id {
        data["client_message_id"] = json!(client_id);
    }
    let mut drafts = vec![Draft {
        channels: vec![conversation_id.to_string(), NOTIFICATIONS.into()],
        name: MESSAGE_STATUS_UPDATE,
        data: event_data(&data),
    }];
    let code = error.and_then(|e| e.get("code")).and_then(Value::as_i64);
    if status == "failed" && code == Some(PAYMENT_ERROR_CODE) {
        drafts.push(Draft {
            channels: vec![NOTIFICATIONS.into()],
            name: SYSTEM_NOTIFICATION,
            data: event_data(&json!({
                "type": "payment_error",
                "message": "Message failed to send because of a payment issue. Check the \
                            payment method in WhatsApp Business Manager.",
                "conversation_id": conversation_id,
                "message_id": message_id,
            })),
        });
    }
    drafts
}

/// A contact's appearance; `previous` is the number it had when it was renumbered.
fn new_contact_draft(pnid: &str, phone: &str, name: &str, previous: Option<&str>) -> Draft {
    let mut data = json!({
        "phone_number": phone,
        "name": name,
        "conversation_id": conversation_channel(pnid, phone),
    });
    if let Some(previous) = previous {
        data["previous_phone_number"] = json!(previous);
    }
    Draft {
        channels: vec![NOTIFICATIONS.into()],
        name: NEW_CONTACT,
        data: event_data(&data),
    }
}

/// The `new_message` event's data.
#[derive(Serialize)]
struct NewMessage<'a> {
    conversation_id: &'a str,
    phone_number: &'a str,
    name: &'a str,
    message: MessageJson<'a>,
}

/// The events of a new message: the contact first when it is new, then the message itself.
pub(super) fn message_drafts(
    pnid: &str,
    phone: &str,
    name: &str,
    created: bool,
    row: &MessageRow,
) -> Vec<Draft> {
    let conversation_id = conversation_channel(pnid, phone);
    let mut drafts = Vec::new();
    if created {
        drafts.push(new_contact_draft(pnid, phone, name, None));
    }
    let data = event_data(&NewMessage {
        conversation_id: &conversation_id,
        phone_number: phone,
        name,
        message: row.to_json(&conversation_id),
    });
    drafts.push(Draft {
        channels: vec![conversation_id],
        name: NEW_MESSAGE,
        data,
    });
    drafts
}

/// Numbers and logs events inside the caller's transaction.
pub(super) async fn append_events(
    conn: &mut AnyConnection,
    business_id: &str,
    drafts: Vec<Draft>,
) -> Result<Vec<Event>, sqlx::Error> {
    if drafts.is_empty() {
        return Ok(Vec::new());
    }
    let count = drafts.len() as i64;
    let (last,): (i64,) = sqlx::query_as(
        "INSERT INTO event_counters (business_id, seq) VALUES ($1, $2) \
         ON CONFLICT (business_id) DO UPDATE SET seq = event_counters.seq + $3 RETURNING seq",
    )
    .bind(business_id)
    .bind(count)
    .bind(count)
    .fetch_one(&mut *conn)
    .await?;
    let now = now_ms();
    let events: Vec<Event> = drafts
        .into_iter()
        .enumerate()
        .map(|(i, draft)| Event {
            business_id: business_id.to_string(),
            seq: last - count + 1 + i as i64,
            channels: draft.channels,
            name: draft.name.to_string(),
            data: draft.data,
        })
        .collect();
    // Several rows per statement: a batch of inbound messages logs hundreds of events.
    for chunk in events.chunks(rows_per_statement(6)) {
        let rows = Params::of(conn).rows(chunk.len(), 6);
        let sql = format!(
            "INSERT INTO events (business_id, seq, channels, name, data, created_at) VALUES {rows}"
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
        for event in chunk {
            insert = insert
                .bind(business_id)
                .bind(event.seq)
                .bind(event.channels.join("\n"))
                .bind(event.name.as_str())
                .bind(event.data.get())
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
    }
    Ok(events)
}

pub(super) async fn phone_number_id(
    conn: &mut AnyConnection,
    business_id: &str,
) -> Result<String, sqlx::Error> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT phone_number_id FROM businesses WHERE id = $1")
            .bind(business_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.and_then(|(id,)| id).unwrap_or_default())
}

/// The business's phone number id and unread total, in one query.
pub(super) async fn number_and_unread(
    conn: &mut AnyConnection,
    business_id: &str,
) -> Result<(String, i64), sqlx::Error> {
    let row: Option<(Option<String>, Option<i64>)> = sqlx::query_as(
        "SELECT b.phone_number_id, t.total FROM businesses b \
         LEFT JOIN unread_totals t ON t.business_id = b.id WHERE b.id = $1",
    )
    .bind(business_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (pnid, total) = row.unwrap_or_default();
    Ok((pnid.unwrap_or_default(), total.unwrap_or_default()))
}

/// The business's unread total, as `add_unread` keeps it (one row, not a sum over contacts).
pub(super) async fn total_unread(
    conn: &mut AnyConnection,
    business_id: &str,
) -> Result<i64, sqlx::Error> {
    let total: Option<(i64,)> =
        sqlx::query_as("SELECT total FROM unread_totals WHERE business_id = $1")
            .bind(business_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(total.map_or(0, |(total,)| total))
}

/// Moves the business's unread total by `delta`, in the transaction that changed a contact's
/// unread count by as much.
pub(super) async fn add_unread(
    conn: &mut AnyConnection,
    business_id: &str,
    delta: i64,
) -> Result<(), sqlx::Error> {
    if delta == 0 {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO unread_totals (business_id, total) VALUES ($1, $2) \
         ON CONFLICT (business_id) DO UPDATE SET total = unread_totals.total + $3",
    )
    .bind(business_id)
    .bind(delta)
    .bind(delta)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Inserts messages (each with its client id, if any) unless their ids or client ids are known,
/// several rows per statement; answers the ids that went in.
pub(super) async fn insert_messages(
    conn: &mut AnyConnection,
    business_id: &str,
    rows: &[(&MessageRow, Option<&str>)],
) -> Result<HashSet<String>, sqlx::Error> {
    let mut inserted = HashSet::with_capacity(rows.len());
    let now = now_ms();
    for chunk in rows.chunks(rows_per_statement(12)) {
        let sql = format!(
            "INSERT INTO messages (business_id, message_id, phone, direction, kind, content, \
             status, is_read, sender_name, sent_at, client_id, created_at) VALUES {} \
             ON CONFLICT DO NOTHING RETURNING message_id",
            Params::of(conn).rows(chunk.len(), 12)
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut insert = sqlx::query_as::<_, (String,)>(sqlx::AssertSqlSafe(sql));
        for (row, client_id) in chunk {
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
                .bind(*client_id)
                .bind(now);
        }
        let ids = insert.fetch_all(&mut *conn).await?;
        inserted.extend(ids.into_iter().map(|(id,)| id));
    }
    Ok(inserted)
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

/// The contact of a conversation, created when new; answers (name, created).
pub(super) async fn ensure_contact(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    name: Option<&str>,
) -> Result<(String, bool), sqlx::Error> {
    let existing: Option<(String,)> =
        sqlx::query_as("SELECT name FROM contacts WHERE business_id = $1 AND phone = $2")
            .bind(&key.business_id)
            .bind(&key.phone)
            .fetch_optional(&mut *conn)
            .await?;
    match (existing, name) {
        (None, _) => {
            let name = name.unwrap_or_default().to_string();
            sqlx::query(
                "INSERT INTO contacts (business_id, phone, name, created_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(&key.business_id)
            .bind(&key.phone)
            .bind(&name)
            .bind(now_ms())
            .execute(&mut *conn)
            .await?;
            Ok((name, true))
        }
        (Some((old,)), Some(new)) if !new.is_empty() && new != old => {
            sqlx::query("UPDATE contacts SET name = $1 WHERE business_id = $2 AND phone = $3")
                .bind(new)
                .bind(&key.business_id)
                .bind(&key.phone)
                .execute(&mut *conn)
                .await?;
            Ok((new.to_string(), false))
        }
        (Some((old,)), _) => Ok((old, false)),
    }
}

/// Applies a receipt inside the caller's transaction (the group-commit writer's): moves the
/// message's status forward only, keeps a receipt for a message not recorded yet, and answers
/// the events to log (none when nothing changed).
pub(super) async fn apply_status(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    update: &StatusUpdate,
    pnid: &str,
) -> Result<Vec<Draft>, sqlx::Error> {
    let current: Option<(String, String)> = sqlx::query_as(
        "SELECT status, phone FROM messages WHERE business_id = $1 AND message_id = $2",
    )
    .bind(&key.business_id)
    .bind(&update.message_id)
    .fetch_optional(&mut *conn)
    .await?;
    let error = update.error.as_ref().map(Value::to_string);
    let Some((status, phone)) = current else {
        // The receipt beat its message here: keep it until the message is recorded.
        sqlx::query(
            "INSERT INTO early_statuses (business_id, message_id, status, error, received_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(&key.business_id)
        .bind(&update.message_id)
        .bind(&update.status)
        .bind(&error)
        .bind(now_ms())
        .execute(&mut *conn)
        .await?;
        return Ok(Vec::new());
    };
    if status_rank(&update.status) <= status_rank(&status) {
        return Ok(Vec::new());
    }
    let new_status = if update.status == "played" {
        "read"
    } else {
        update.status.as_str()
    };
    sqlx::query(
        "UPDATE messages SET status = $1, error = COALESCE($2, error) \
         WHERE business_id = $3 AND message_id = $4",
    )
    .bind(new_status)
    .bind(&error)
    .bind(&key.business_id)
    .bind(&update.message_id)
    .execute(&mut *conn)
    .await?;
    Ok(status_drafts(
        &conversation_channel(pnid, &phone),
        &phone,
        &update.message_id,
        new_status,
        update.error.as_ref(),
        None,
    ))
}

impl Store {
    /// Opens a transaction that writes: SQLite takes the write lock at once (`BEGIN IMMEDIATE`),
    /// so concurrent writers queue instead of failing on a stale snapshot.
    pub(super) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        self.pool.begin_with(self.write_start()).await
    }

    /// The statement that opens a writing transaction on this backend.
    pub(super) fn write_start(&self) -> &'static str {
        match self.backend {
            super::Backend::Sqlite => "BEGIN IMMEDIATE",
            super::Backend::Postgres => "BEGIN",
        }
    }

    async fn insert_outgoing(
        &self,
        key: ConversationKey,
        message: OutgoingMessage,
    ) -> Result<(OutgoingState, Vec<Event>), sqlx::Error> {
        let mut tx = self.begin_write().await?;
        let existing: Option<(String, String, Option<String>)> = sqlx::query_as(
            "SELECT message_id, status, error FROM messages WHERE business_id = $1 AND client_id = $2",
        )
        .bind(&key.business_id)
        .bind(&message.client_id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((message_id, status, error)) = existing {
            tx.rollback().await?;
            let error = error.map(|e| serde_json::from_str(&e).unwrap_or(Value::String(e)));
            return Ok((
                OutgoingState::Existing {
                    message_id,
                    status,
                    error,
                },
                Vec::new(),
            ));
        }
        let pnid = phone_number_id(&mut tx, &key.business_id).await?;
        let (name, created) = ensure_contact(&mut tx, &key, None).await?;
        let now = now_ms();
        let sent_at = next_time(&mut tx, &key, now).await?;
        let row = MessageRow {
            message_id: message.client_id.clone(),
            phone: key.phone.clone(),
            direction: "outgoing".into(),
            kind: message.kind,
            content: message.content.to_string(),
            status: "sending".into(),
            is_read: 1,
            sender_name: message.sender_name,
            sent_at,
            error: None,
        };
        insert_messages(
            &mut tx,
            &key.business_id,
            &[(&row, Some(&message.client_id))],
        )
        .await?;
        // The caller attempts the send at once; the lease keeps the outbox worker off it meanwhile.
        sqlx::query(
            "INSERT INTO outbox (business_id, client_id, phone, payload, attempts, \
             next_attempt_at, created_at) VALUES ($1, $2, $3, $4, 0, $5, $6)",
        )
        .bind(&key.business_id)
        .bind(&message.client_id)
        .bind(&key.phone)
        .bind(message.payload.to_string())
        .bind(now + OUTBOX_LEASE_MS)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let (text, caption) = preview(&message.content);
        sqlx::query(
            "UPDATE contacts SET last_message_at = $1, last_text = $2, last_caption = $3 \
             WHERE business_id = $4 AND phone = $5",
        )
        .bind(sent_at)
        .bind(&text)
        .bind(&caption)
        .bind(&key.business_id)
        .bind(&key.phone)
        .execute(&mut *tx)
        .await?;
        let drafts = message_drafts(&pnid, &key.phone, &name, created, &row);
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok((OutgoingState::Created, events))
    }

    async fn apply_send_outcome(
        &self,
        key: ConversationKey,
        outcome: SendOutcome,
    ) -> Result<Vec<Event>, sqlx::Error> {
        let mut tx = self.begin_write().await?;
        let (client_id, message_id, status, error) = match &outcome {
            SendOutcome::Accepted {
                client_id,
                provider_id,
            } => {
                // A receipt may have beaten the provider's answer here: take the furthest.
                let early: Vec<(String, Option<String>)> = sqlx::query_as(
                    "SELECT status, error FROM early_statuses WHERE business_id = $1 AND message_id = $2",
                )
                .bind(&key.business_id)
                .bind(provider_id)
                .fetch_all(&mut *tx)
                .await?;
                let furthest = early
                    .into_iter()
                    .chain(std::iter::once(("sent".to_string(), None)))
                    .max_by_key(|(status, _)| status_rank(status))
                    .unwrap_or(("sent".to_string(), None));
                sqlx::query(
                    "DELETE FROM early_statuses WHERE business_id = $1 AND message_id = $2",
                )
                .bind(&key.business_id)
                .bind(provider_id)
                .execute(&mut *tx)
                .await?;
                let error = furthest
                    .1
                    .map(|e| serde_json::from_str(&e).unwrap_or(Value::String(e)));
                let status = if furthest.0 == "played" {
                    "read".to_string()
                } else {
                    furthest.0
                };
                (client_id, provider_id.clone(), status, error)
            }
            SendOutcome::Failed { client_id, error } => (
                client_id,
                client_id.clone(),
                "failed".to_string(),
                Some(error.clone()),
            ),
        };
        let updated = sqlx::query(
            "UPDATE messages SET message_id = $1, status = $2, error = $3 \
             WHERE business_id = $4 AND client_id = $5",
        )
        .bind(&message_id)
        .bind(&status)
        .bind(error.as_ref().map(Value::to_string))
        .bind(&key.business_id)
        .bind(client_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM outbox WHERE business_id = $1 AND client_id = $2")
            .bind(&key.business_id)
            .bind(client_id)
            .execute(&mut *tx)
            .await?;
        if updated.rows_affected() == 0 {
            tx.commit().await?;
            return Ok(Vec::new());
        }
        let pnid = phone_number_id(&mut tx, &key.business_id).await?;
        let conversation_id = conversation_channel(&pnid, &key.phone);
        let drafts = status_drafts(
            &conversation_id,
            &key.phone,
            &message_id,
            &status,
            error.as_ref(),
            Some(client_id),
        );
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok(events)
    }

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

    pub async fn contact_name(&self, business_id: &str, phone: &str) -> StoreResult<String> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT name FROM contacts WHERE business_id = $1 AND phone = $2")
                .bind(business_id)
                .bind(phone)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(name,)| name).unwrap_or_default())
    }

    async fn set_read(&self, key: ConversationKey) -> Result<(u64, Vec<Event>), sqlx::Error> {
        let mut tx = self.begin_write().await?;
        let changed = sqlx::query(
            "UPDATE messages SET is_read = 1 WHERE business_id = $1 AND phone = $2 \
             AND direction = 'incoming' AND is_read = 0",
        )
        .bind(&key.business_id)
        .bind(&key.phone)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if changed == 0 {
            tx.rollback().await?;
            return Ok((0, Vec::new()));
        }
        let contact: Option<(String, i64)> = sqlx::query_as(
            "SELECT name, unread_count FROM contacts WHERE business_id = $1 AND phone = $2",
        )
        .bind(&key.business_id)
        .bind(&key.phone)
        .fetch_optional(&mut *tx)
        .await?;
        let (name, unread) = contact.unwrap_or_default();
        sqlx::query("UPDATE contacts SET unread_count = 0 WHERE business_id = $1 AND phone = $2")
            .bind(&key.business_id)
            .bind(&key.phone)
            .execute(&mut *tx)
            .await?;
        add_unread(&mut tx, &key.business_id, -unread).await?;
        let (pnid, total) = number_and_unread(&mut tx, &key.business_id).await?;
        let conversation_id = conversation_channel(&pnid, &key.phone);
        let drafts = vec![Draft {
            channels: vec![NOTIFICATIONS.into()],
            name: NOTIFICATION,
            data: event_data(&json!({
                "conversation_id": conversation_id,
                "phone_number": key.phone,
                "name": name,
                "unread_count": 0,
                "total_unread": total,
            })),
        }];
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok((changed, events))
    }

    /// A page of the conversation list, newest activity first; `search` matches name or phone.
    pub async fn contacts_page(
        &self,
        business_id: &str,
        search: &str,
        page: i64,
        limit: i64,
    ) -> StoreResult<ContactPage> {
        let pattern = format!(
            "%{}%",
            search
                .to_lowercase()
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        let mut rows: Vec<ContactRow> = sqlx::query_as(
            "SELECT phone, name, last_message_at, last_incoming_at, last_text, last_caption, \
             unread_count FROM contacts WHERE business_id = $1 \
             AND ($2 = '' OR LOWER(name) LIKE $3 ESCAPE '\\' OR phone LIKE $4 ESCAPE '\\') \
             ORDER BY COALESCE(last_message_at, created_at) DESC, phone LIMIT $5 OFFSET $6",
        )
        .bind(business_id)
        .bind(search)
        .bind(&pattern)
        .bind(&pattern)
        .bind(limit + 1)
        .bind((page - 1) * limit)
        .fetch_all(&self.pool)
        .await?;
        let has_more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        let mut conn = self.pool.acquire().await?;
        let total_unread = total_unread(&mut conn, business_id).await?;
        Ok(ContactPage {
            rows,
            has_more,
            total_unread,
        })
    }

    /// Up to `limit` messages before `before_ms`, oldest first, and whether older ones exist.
    pub async fn messages_page(
        &self,
        business_id: &str,
        phone: &str,
        before_ms: i64,
        limit: i64,
    ) -> StoreResult<(Vec<MessageRow>, bool)> {
        let mut rows: Vec<MessageRow> = sqlx::query_as(
            "SELECT message_id, phone, direction, kind, content, status, is_read, sender_name, \
             sent_at, error FROM messages WHERE business_id = $1 AND phone = $2 AND sent_at < $3 \
             ORDER BY sent_at DESC LIMIT $4",
        )
        .bind(business_id)
        .bind(phone)
        .bind(before_ms)
        .bind(limit + 1)
        .fetch_all(&self.pool)
        .await?;
        let has_more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        rows.reverse();
        Ok((rows, has_more))
    }

    /// Forgets logged events older than `retention_ms` and receipts that never met a message.
    pub async fn prune_events(&self, retention_ms: i64) -> StoreResult<()> {
        let cutoff = now_ms() - retention_ms;
        sqlx::query("DELETE FROM events WHERE created_at < $1")
            .bind(cutoff)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM early_statuses WHERE received_at < $1")
            .bind(now_ms() - EARLY_STATUS_TTL_MS)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Each business's last event seq.
    pub async fn last_seqs(&self) -> StoreResult<HashMap<String, i64>> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT business_id, seq FROM event_counters")
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().collect())
    }

    async fn replay(&self, business_id: &str, after: i64) -> Result<Replay, sqlx::Error> {
        let counter: Option<(i64,)> =
            sqlx::query_as("SELECT seq FROM event_counters WHERE business_id = $1")
                .bind(business_id)
                .fetch_optional(&self.pool)
                .await?;
        let current = counter.map_or(0, |(seq,)| seq);
        if after >= current {
            return Ok(Replay::Events(Vec::new()));
        }
        let (oldest,): (Option<i64>,) =
            sqlx::query_as("SELECT MIN(seq) FROM events WHERE business_id = $1")
                .bind(business_id)
                .fetch_one(&self.pool)
                .await?;
        if oldest.is_none_or(|oldest| after + 1 < oldest) || current - after > MAX_REPLAY {
            return Ok(Replay::TooOld);
        }
        Ok(Replay::Events(
            self.events_between(business_id, after + 1, i64::MAX)
                .await?,
        ))
    }

    /// A business's logged events with seqs in `first..=last`, in order.
    pub async fn events_between(
        &self,
        business_id: &str,
        first: i64,
        last: i64,
    ) -> Result<Vec<Event>, sqlx::Error> {
        let rows: Vec<(i64, String, String, String)> = sqlx::query_as(
            "SELECT seq, channels, name, data FROM events \
             WHERE business_id = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq",
        )
        .bind(business_id)
        .bind(first)
        .bind(last)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(seq, channels, name, data)| Event {
                business_id: business_id.to_string(),
                seq,
                channels: channels.split('\n').map(String::from).collect(),
                name,
                data: RawValue::from_string(data).unwrap_or_else(|_| event_data(&Value::Null)),
            })
            .collect())
    }

    /// Sends each payload as a `NOTIFY` on `channel` (Postgres only), many per statement.
    pub async fn notify(&self, channel: &str, payloads: &[String]) -> Result<(), sqlx::Error> {
        for chunk in payloads.chunks(NOTICES_PER_STATEMENT) {
            let calls: Vec<String> = (0..chunk.len())
                .map(|i| format!("pg_notify($1, ${})", i + 2))
                .collect();
            let sql = format!("SELECT {}", calls.join(", "));
            // Only numbered placeholders are formatted in; the values are bound.
            let mut select = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(channel);
            for payload in chunk {
                select = select.bind(payload.as_str());
            }
            select.execute(&self.pool).await?;
        }
        Ok(())
    }
}

/// `pg_notify` calls in one statement.
const NOTICES_PER_STATEMENT: usize = 500;

/// How long a receipt waits for a message that has not appeared.
const EARLY_STATUS_TTL_MS: i64 = 60 * 60 * 1000;

impl ConversationStore for Store {
    fn record_inbound(
        &self,
        key: ConversationKey,
        message: Arc<InboundMessage>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>> {
        let committed = self.ingest.submit(key, Write::Inbound(message), bus);
        Box::pin(async move { committed.await.map_err(StoreError::store) })
    }

    fn record_status(
        &self,
        key: ConversationKey,
        update: StatusUpdate,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<(), StoreError>> {
        let committed = self.ingest.submit(key, Write::Status(update), bus);
        Box::pin(async move { committed.await.map(drop).map_err(StoreError::store) })
    }

    fn mark_read(
        &self,
        key: ConversationKey,
    ) -> BoxFuture<'static, Result<(u64, Vec<Event>), StoreError>> {
        let store = self.clone();
        Box::pin(async move { store.set_read(key).await.map_err(StoreError::store) })
    }

    fn record_outgoing(
        &self,
        key: ConversationKey,
        message: OutgoingMessage,
    ) -> BoxFuture<'static, Result<(OutgoingState, Vec<Event>), StoreError>> {
        let store = self.clone();
        Box::pin(async move {
            store
                .insert_outgoing(key, message)
                .await
                .map_err(StoreError::store)
        })
    }

    fn record_send_outcome(
        &self,
        key: ConversationKey,
        outcome: SendOutcome,
    ) -> BoxFuture<'static, Result<Vec<Event>, StoreError>> {
        let store = self.clone();
        Box::pin(async move {
            store
                .apply_send_outcome(key, outcome)
                .await
                .map_err(StoreError::store)
        })
    }
}

impl EventLog for Store {
    fn since(
        &self,
        business_id: &str,
        after: i64,
    ) -> BoxFuture<'static, Result<Replay, StoreError>> {
        let store = self.clone();
        let business_id = business_id.to_string();
        Box::pin(async move {
            store
                .replay(&business_id, after)
                .await
                .map_err(StoreError::store)
        })
    }
}

/// What a contact import changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ImportCounts {
    pub added: u64,
    pub updated: u64,
    pub unchanged: u64,
}

impl Store {
    /// Adds a contact; 409 when the number is already one.
    pub async fn add_contact(
        &self,
        business_id: &str,
        phone: &str,
        name: &str,
    ) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let key = ConversationKey {
            business_id: business_id.to_string(),
            phone: phone.to_string(),
        };
        let (_, created) = ensure_contact(&mut tx, &key, Some(name)).await?;
        if !created {
            return Err(Error::Conflict(format!(
                "A contact with the number {phone} already exists"
            )));
        }
        let pnid = phone_number_id(&mut tx, business_id).await?;
        let events = append_events(
            &mut tx,
            business_id,
            vec![new_contact_draft(&pnid, phone, name, None)],
        )
        .await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Renames a contact and, with `new_phone`, moves its conversation (history included).
    pub async fn update_contact(
        &self,
        business_id: &str,
        phone: &str,
        name: &str,
        new_phone: Option<&str>,
    ) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let exists: Option<(String,)> =
            sqlx::query_as("SELECT phone FROM contacts WHERE business_id = $1 AND phone = $2")
                .bind(business_id)
                .bind(phone)
                .fetch_optional(&mut *tx)
                .await?;
        if exists.is_none() {
            return Err(Error::NotFound(format!(
                "No contact with the number {phone}"
            )));
        }
        let target = new_phone.filter(|n| *n != phone).unwrap_or(phone);
        if target != phone {
            let taken: Option<(String,)> =
                sqlx::query_as("SELECT phone FROM contacts WHERE business_id = $1 AND phone = $2")
                    .bind(business_id)
                    .bind(target)
                    .fetch_optional(&mut *tx)
                    .await?;
            if taken.is_some() {
                return Err(Error::Conflict(format!(
                    "A contact with the number {target} already exists"
                )));
            }
            for table in [
                "UPDATE messages SET phone = $1 WHERE business_id = $2 AND phone = $3",
                "UPDATE outbox SET phone = $1 WHERE business_id = $2 AND phone = $3",
                "UPDATE contacts SET phone = $1 WHERE business_id = $2 AND phone = $3",
            ] {
                sqlx::query(table)
                    .bind(target)
                    .bind(business_id)
                    .bind(phone)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        sqlx::query("UPDATE contacts SET name = $1 WHERE business_id = $2 AND phone = $3")
            .bind(name)
            .bind(business_id)
            .bind(target)
            .execute(&mut *tx)
            .await?;
        let pnid = phone_number_id(&mut tx, business_id).await?;
        let previous = (target != phone).then_some(phone);
        let draft = new_contact_draft(&pnid, target, name, previous);
        let events = append_events(&mut tx, business_id, vec![draft]).await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Adds new numbers, renames known ones whose name differs, counts the rest.
    pub async fn import_contacts(
        &self,
        business_id: &str,
        contacts: &[(String, String)],
    ) -> StoreResult<(ImportCounts, Vec<Event>)> {
        let mut tx = self.begin_write().await?;
        let pnid = phone_number_id(&mut tx, business_id).await?;
        let mut counts = ImportCounts::default();
        let mut drafts = Vec::new();
        for (phone, name) in contacts {
            let key = ConversationKey {
                business_id: business_id.to_string(),
                phone: phone.clone(),
            };
            let before: Option<(String,)> =
                sqlx::query_as("SELECT name FROM contacts WHERE business_id = $1 AND phone = $2")
                    .bind(business_id)
                    .bind(phone)
                    .fetch_optional(&mut *tx)
                    .await?;
            ensure_contact(&mut tx, &key, Some(name)).await?;
            match before {
                None => {
                    counts.added += 1;
                    drafts.push(new_contact_draft(&pnid, phone, name, None));
                }
                Some((old,)) if old != *name => counts.updated += 1,
                Some(_) => counts.unchanged += 1,
            }
        }
        let events = append_events(&mut tx, business_id, drafts).await?;
        tx.commit().await?;
        Ok((counts, events))
    }

    /// Deletes a contact with its conversation.
    pub async fn delete_contact(&self, business_id: &str, phone: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        let deleted: Option<(i64,)> = sqlx::query_as(
            "DELETE FROM contacts WHERE business_id = $1 AND phone = $2 RETURNING unread_count",
        )
        .bind(business_id)
        .bind(phone)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((unread,)) = deleted else {
            return Err(Error::NotFound(format!(
                "No contact with the number {phone}"
            )));
        };
        add_unread(&mut tx, business_id, -unread).await?;
        for statement in [
            "DELETE FROM messages WHERE business_id = $1 AND phone = $2",
            "DELETE FROM outbox WHERE business_id = $1 AND phone = $2",
        ] {
            sqlx::query(statement)
                .bind(business_id)
                .bind(phone)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
