//! Receipts: a message's status only ever moves forward, a receipt that beats its message waits
//! for it, a status change logs its events (with the billing alert for a payment failure), and
//! the BSUID and username a receipt names are kept with the customer's contact.

use parley_actors::conversation::{ConversationKey, CustomerProfile, StatusUpdate};
use parley_actors::events::{
    MESSAGE_STATUS_UPDATE, NOTIFICATIONS, SYSTEM_NOTIFICATION, conversation_channel, event_data,
};
use serde_json::{Value, json};
use sqlx::{AnyConnection, FromRow};

use super::contacts::has_contact;
use super::events::Draft;
use super::now_ms;
use super::profiles::{ContactProfile, stored_profile, take_profile};

/// The provider's code for a billing problem: agents are told to check their payment method.
pub const PAYMENT_ERROR_CODE: i64 = 131042;

/// Order of statuses: a receipt only ever moves a message to a later one.
pub(super) fn status_rank(status: &str) -> i32 {
    match status {
        "sending" | "pending" => 0,
        "sent" => 1,
        "failed" => 2,
        "delivered" => 3,
        "read" | "played" => 4,
        _ => -1,
    }
}

/// The events of a status change: the receipt on both channels, and the billing alert when the
/// provider failed the message for a payment problem.
pub(super) fn status_drafts(
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

/// Applies a receipt inside the caller's transaction (the group-commit writer's): moves an
/// outgoing message's status forward only (a later `delivered` or `read` clears a `failed`
/// one's error), keeps a receipt for a message not recorded yet, keeps the BSUID and username it
/// names with the conversation's contact (`learn_ids`, even before its message is recorded), and
/// answers the events to log (none when nothing changed).
pub(super) async fn apply_status(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    update: &StatusUpdate,
    pnid: &str,
) -> Result<Vec<Draft>, sqlx::Error> {
    // With its contact as stored, so a receipt that names the customer's BSUID or username
    // costs no read of its own.
    let current: Option<Receipted> = sqlx::query_as(
        "SELECT m.status, m.phone, m.direction, m.error, c.name, c.user_id, c.username, \
         c.named_by_business \
         FROM messages m LEFT JOIN contacts c \
         ON c.business_id = m.business_id AND c.phone = m.phone \
         WHERE m.business_id = $1 AND m.message_id = $2",
    )
    .bind(&key.business_id)
    .bind(&update.message_id)
    .fetch_optional(&mut *conn)
    .await?;
    let error = update.error.as_ref().map(Value::to_string);
    let Some(Receipted {
        status,
        phone,
        direction,
        error: known_error,
        name,
        user_id,
        username,
        named_by_business,
    }) = current
    else {
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
        // The customer it names is known before the message is: their ids are kept at once.
        if update.customer == CustomerProfile::default() {
            return Ok(Vec::new());
        }
        let contact = stored_profile(conn, key).await?;
        return learn_ids(conn, key, contact, &update.customer, pnid).await;
    };
    // A receipt is about a message the business sent: the customer's own are never changed.
    if direction != "outgoing" {
        return Ok(Vec::new());
    }
    let conversation = ConversationKey {
        business_id: key.business_id.clone(),
        phone,
    };
    let contact = name.map(|name| ContactProfile {
        name,
        user_id,
        username,
        given: named_by_business.is_some_and(|given| given != 0),
    });
    let mut drafts = learn_ids(conn, &conversation, contact, &update.customer, pnid).await?;
    if status_rank(&update.status) <= status_rank(&status) {
        return Ok(drafts);
    }
    let phone = conversation.phone;
    let new_status = if update.status == "played" {
        "read"
    } else {
        update.status.as_str()
    };
    sqlx::query(
        "UPDATE messages SET status = $1, error = $2 WHERE business_id = $3 AND message_id = $4",
    )
    .bind(new_status)
    .bind(match new_status {
        "failed" => error.or(known_error),
        _ => None,
    })
    .bind(&key.business_id)
    .bind(&update.message_id)
    .execute(&mut *conn)
    .await?;
    drafts.extend(status_drafts(
        &conversation_channel(pnid, &phone),
        &phone,
        &update.message_id,
        new_status,
        update.error.as_ref(),
        None,
    ));
    Ok(drafts)
}

/// A receipt's message, and its conversation's contact (none when the contact was deleted).
#[derive(FromRow)]
struct Receipted {
    status: String,
    phone: String,
    direction: String,
    error: Option<String>,
    name: Option<String>,
    user_id: Option<String>,
    username: Option<String>,
    named_by_business: Option<i64>,
}

/// Keeps the BSUID and username a receipt names with the known contact of its conversation, by
/// the rule a message follows (`take_profile`), announced the same way. A BSUID that another
/// conversation is kept under is left to the customer's next message, which joins the two.
async fn learn_ids(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    contact: Option<ContactProfile>,
    sent: &CustomerProfile,
    pnid: &str,
) -> Result<Vec<Draft>, sqlx::Error> {
    let Some(contact) = contact else {
        return Ok(Vec::new());
    };
    let mut sent = sent.clone();
    if let Some(user_id) = sent.user_id.as_deref()
        && contact.user_id.as_deref() != Some(user_id)
        && user_id != key.phone
        && has_contact(conn, &key.business_id, user_id).await?
    {
        sent.user_id = None;
    }
    Ok(take_profile(conn, key, contact, &sent, pnid)
        .await?
        .into_iter()
        .collect())
}

/// The furthest status a just recorded message `message_id` has reached: `sent`, or the
/// furthest of the receipts that came before it (kept in `early_statuses`, which it empties),
/// with that receipt's error; `played` counts as `read`.
pub(super) async fn take_early_status(
    conn: &mut AnyConnection,
    business_id: &str,
    message_id: &str,
) -> Result<(String, Option<Value>), sqlx::Error> {
    let early: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT status, error FROM early_statuses WHERE business_id = $1 AND message_id = $2",
    )
    .bind(business_id)
    .bind(message_id)
    .fetch_all(&mut *conn)
    .await?;
    let had_early = !early.is_empty();
    let (status, error) = early
        .into_iter()
        .chain(std::iter::once(("sent".to_string(), None)))
        .max_by_key(|(status, _)| status_rank(status))
        .unwrap_or(("sent".to_string(), None));
    if had_early {
        sqlx::query("DELETE FROM early_statuses WHERE business_id = $1 AND message_id = $2")
            .bind(business_id)
            .bind(message_id)
            .execute(&mut *conn)
            .await?;
    }
    let error = error.map(|e| serde_json::from_str(&e).unwrap_or(Value::String(e)));
    let status = if status == "played" {
        "read".to_string()
    } else {
        status
    };
    Ok((status, error))
}
