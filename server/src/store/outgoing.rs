//! Our outgoing messages: recorded with their outbox entry before the send is attempted, then
//! moved to the provider's answer (its id, or the failure).

use parley_actors::conversation::{ConversationKey, OutgoingMessage, OutgoingState, SendOutcome};
use parley_actors::events::{Event, conversation_channel};
use serde_json::Value;

use super::contacts::{Ensured, ensure_contact, phone_number_id};
use super::events::append_events;
use super::messages::{MessageRow, insert_messages, message_drafts, next_time, record_last_sent};
use super::receipts::{status_drafts, take_early_status};
use super::search_index::rename_document;
use super::{Store, now_ms};

/// How long an attempt in flight holds its outbox entry before the worker may retry it.
/// Longer than the HTTP client's 15 s timeout.
pub const OUTBOX_LEASE_MS: i64 = 20_000;

impl Store {
    pub(super) async fn insert_outgoing(
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
        let (name, ensured) = ensure_contact(&mut tx, &key, None).await?;
        let created = ensured == Ensured::Created;
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
            edited_at: None,
            revoked_at: None,
            client_id: Some(message.client_id.clone()),
        };
        insert_messages(&mut tx, &key.business_id, &[&row]).await?;
        if let Some(user_id) = &message.sent_by {
            sqlx::query(
                "UPDATE messages SET sent_by = $1 WHERE business_id = $2 AND client_id = $3",
            )
            .bind(user_id)
            .bind(&key.business_id)
            .bind(&message.client_id)
            .execute(&mut *tx)
            .await?;
        }
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
        record_last_sent(&mut tx, &key, sent_at, &message.content).await?;
        let drafts = message_drafts(
            &pnid,
            &key.phone,
            &name,
            created.then_some((None, None)),
            &row,
        );
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok((OutgoingState::Created, events))
    }

    pub(super) async fn apply_send_outcome(
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
                let (status, error) =
                    take_early_status(&mut tx, &key.business_id, provider_id).await?;
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
        rename_document(&mut tx, &key.business_id, client_id, &message_id).await?;
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
}
