//! Coexistence echoes: messages the business sent from the WhatsApp Business app on its phone,
//! stored as outgoing messages of the customer's conversation (already `sent`, or further when
//! its receipts came first) and announced like any message the business sends.

use parley_actors::conversation::{ConversationKey, InboundMessage};
use parley_actors::events::{SYSTEM_NOTIFICATION, conversation_channel};
use serde_json::Value;
use sqlx::AnyConnection;

use super::contacts::{Ensured, ensure_contact};
use super::events::Draft;
use super::messages::{MessageRow, insert_messages, message_drafts, next_time, record_last_sent};
use super::profiles::update_by_profile;
use super::receipts::{status_drafts, take_early_status};

/// The sender the inbox shows for a message sent from the WhatsApp Business app.
const ECHO_SENDER: &str = "WhatsApp app";

/// Stores an echo unless its id is known (a redelivery) and answers its events. The BSUID it was
/// sent to is kept with the customer's contact as a message of theirs would keep it (even on a
/// redelivery).
pub(super) async fn insert_echo(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    echo: &InboundMessage,
    pnid: &str,
) -> Result<Vec<Draft>, sqlx::Error> {
    let (name, ensured) = ensure_contact(conn, key, None).await?;
    let created = ensured == Ensured::Created;
    let updated = update_by_profile(conn, key, &echo.profile, pnid).await?;
    // A new contact is announced once, with its ids, by `message_drafts`.
    let mut drafts: Vec<Draft> = updated.into_iter().filter(|_| !created).collect();
    let sent_at = next_time(conn, key, echo.timestamp_ms).await?;
    // A receipt may have come before the echo: it starts where the furthest one left it.
    let (status, error) = take_early_status(conn, &key.business_id, &echo.provider_id).await?;
    let mut content = echo.content.clone();
    content["echo"] = Value::Bool(true);
    let row = MessageRow {
        message_id: echo.provider_id.clone(),
        phone: key.phone.clone(),
        direction: "outgoing".into(),
        kind: echo.kind.clone(),
        content: content.to_string(),
        status,
        is_read: 1,
        sender_name: ECHO_SENDER.into(),
        sent_at,
        error: error.as_ref().map(Value::to_string),
        edited_at: None,
        revoked_at: None,
        client_id: None,
    };
    let inserted = insert_messages(conn, &key.business_id, &[&row]).await?;
    if inserted.is_empty() {
        return Ok(drafts);
    }
    record_last_sent(conn, key, sent_at, &content).await?;
    let created = created.then_some((echo.profile.user_id.as_deref(), None));
    drafts.extend(message_drafts(pnid, &key.phone, &name, created, &row));
    // A failure whose receipt came first raises its billing alert now, as it would have on
    // time (the message itself is announced with its status).
    if row.status == "failed" {
        let alerts = status_drafts(
            &conversation_channel(pnid, &key.phone),
            &key.phone,
            &row.message_id,
            &row.status,
            error.as_ref(),
            None,
        );
        drafts.extend(alerts.into_iter().filter(|d| d.name == SYSTEM_NOTIFICATION));
    }
    Ok(drafts)
}
