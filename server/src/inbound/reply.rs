//! The automated reply to a new inbound message (docs/AUTOMATED_REPLIES.md).

use parley_actors::conversation::OutgoingMessage;

use super::InboundError;
use super::batch::Arrival;
use crate::outbox::{Delivery, Outbox};
use crate::replies::engine::{InboundKind, choose_reply};
use crate::store::Store;

/// The sender of automated replies, as the inbox shows it.
pub const AUTOMATED_SENDER: &str = "Automated reply";

/// Answers a new inbound message with the business's automated reply, if one applies. The reply
/// goes through the conversation's actor and the outbox like any other message, after the
/// message it answers.
pub(super) async fn auto_reply(
    store: &Store,
    outbox: &Outbox,
    arrival: Arrival,
) -> Result<(), InboundError> {
    let Arrival {
        key,
        stored,
        message,
        ..
    } = arrival;
    let replies = store.replies(&key.business_id).await?;
    if !replies.iter().any(|r| r.is_active) {
        return Ok(());
    }
    let inbound = InboundKind::from(&message.kind);
    let steps = store.all_flow_steps(&key.business_id).await?;
    let last_sent = store.reply_deliveries(&key.business_id, &key.phone).await?;
    let now = crate::store::now_ms();
    let Some(choice) = choose_reply(&replies, &steps, &inbound, &last_sent, now) else {
        return Ok(());
    };
    let reply = choice.answer.message(&key.phone);
    store
        .record_reply_delivery(&key.business_id, &choice.reply_id, &key.phone, now)
        .await?;
    let outgoing = OutgoingMessage {
        client_id: format!("auto:{}", stored.provider_id),
        kind: reply.kind,
        content: reply.content,
        sender_name: AUTOMATED_SENDER.into(),
        sent_by: None,
        payload: reply.payload,
    };
    if let Delivery::Refused(err) = outbox.send(key, outgoing).await? {
        tracing::warn!(error = %err, "automated reply refused by the provider");
    }
    Ok(())
}
