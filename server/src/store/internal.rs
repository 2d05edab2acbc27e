//! Internal entries of a conversation's history: activity (assignment and status changes) and
//! private notes. They are stored as messages with `direction: "internal"`, already read, and
//! leave the list's preview, order and unread counts alone; the customer never sees them.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::{NEW_MESSAGE, conversation_channel, event_data};
use serde_json::{Value, json};
use sqlx::AnyConnection;

use super::contacts::phone_number_id;
use super::events::Draft;
use super::messages::{MessageRow, insert_messages, next_time};
use super::now_ms;

/// The direction of entries only the team sees.
pub(super) const INTERNAL: &str = "internal";
/// The kind of an assignment or status change.
pub(super) const ACTIVITY: &str = "activity";
/// The kind of a private note.
pub(super) const NOTE: &str = "note";

/// Stores an internal entry and answers it with its `new_message` draft; `private` marks a note
/// in the event's data.
pub(super) async fn add_entry(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    kind: &str,
    content: &Value,
    author: &str,
) -> Result<(MessageRow, Draft), sqlx::Error> {
    let row = MessageRow {
        message_id: format!("internal.{}", uuid::Uuid::new_v4().simple()),
        phone: key.phone.clone(),
        direction: INTERNAL.into(),
        kind: kind.into(),
        content: content.to_string(),
        status: "stored".into(),
        is_read: 1,
        sender_name: author.into(),
        sent_at: next_time(conn, key, now_ms()).await?,
        error: None,
        edited_at: None,
        revoked_at: None,
        client_id: None,
    };
    insert_messages(conn, &key.business_id, &[&row]).await?;
    let (name,): (String,) =
        sqlx::query_as("SELECT name FROM contacts WHERE business_id = $1 AND phone = $2")
            .bind(&key.business_id)
            .bind(&key.phone)
            .fetch_one(&mut *conn)
            .await?;
    let pnid = phone_number_id(conn, &key.business_id).await?;
    let conversation_id = conversation_channel(&pnid, &key.phone);
    let data = event_data(&json!({
        "conversation_id": conversation_id,
        "phone_number": key.phone,
        "name": name,
        "message": row.to_json(&conversation_id),
        "private": kind == NOTE,
    }));
    let draft = Draft {
        channels: vec![conversation_id],
        name: NEW_MESSAGE,
        data,
    };
    Ok((row, draft))
}
