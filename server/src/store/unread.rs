//! Unread counts: each business's total (kept in one row, moved with each contact's count) and
//! marking a conversation read; a deleted unread message no longer counts.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::{Event, NOTIFICATION, NOTIFICATIONS, conversation_channel, event_data};
use serde_json::json;
use sqlx::AnyConnection;

use super::Store;
use super::events::{Draft, append_events};

/// The business's phone number id and unread total, in one query (its `ListHeading`).
pub(super) async fn number_and_unread(
    conn: &mut AnyConnection,
    business_id: &str,
) -> Result<(String, i64), sqlx::Error> {
    let heading = list_heading(conn, business_id).await?;
    Ok((heading.phone_number_id, heading.total_unread))
}

/// What the conversation list shows beside its rows: the business's phone number id (it names
/// the conversations), its own number (the region of numbers typed without a country code) and
/// its unread total as `add_unread` keeps it (one row, not a sum over contacts).
pub(super) struct ListHeading {
    pub phone_number_id: String,
    pub own_number: String,
    pub total_unread: i64,
}

/// The business's `ListHeading`, in one query.
pub(super) async fn list_heading(
    conn: &mut AnyConnection,
    business_id: &str,
) -> Result<ListHeading, sqlx::Error> {
    let row: Option<(Option<String>, String, Option<i64>)> = sqlx::query_as(
        "SELECT b.phone_number_id, b.phone_number, t.total FROM businesses b \
         LEFT JOIN unread_totals t ON t.business_id = b.id WHERE b.id = $1",
    )
    .bind(business_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (pnid, own_number, total) = row.unwrap_or_default();
    Ok(ListHeading {
        phone_number_id: pnid.unwrap_or_default(),
        own_number,
        total_unread: total.unwrap_or_default(),
    })
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

/// Takes a deleted unread message out of its conversation's count and the business's total, in
/// the transaction that deleted it, and answers the `notification` that tells the sessions the
/// counts as they are now (as marking a conversation read does).
pub(super) async fn uncount_deleted(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    pnid: &str,
) -> Result<Option<Draft>, sqlx::Error> {
    let contact: Option<(String, i64)> = sqlx::query_as(
        "UPDATE contacts SET unread_count = unread_count - 1 \
         WHERE business_id = $1 AND phone = $2 AND unread_count > 0 \
         RETURNING name, unread_count",
    )
    .bind(&key.business_id)
    .bind(&key.phone)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((name, unread)) = contact else {
        return Ok(None);
    };
    add_unread(conn, &key.business_id, -1).await?;
    let (_, total) = number_and_unread(conn, &key.business_id).await?;
    Ok(Some(counts_draft(pnid, &key.phone, &name, unread, total)))
}

/// The `notification` that carries a conversation's unread count and the business's total after
/// they dropped (no preview: the list's row keeps its own).
fn counts_draft(pnid: &str, phone: &str, name: &str, unread: i64, total: i64) -> Draft {
    Draft {
        channels: vec![NOTIFICATIONS.into()],
        name: NOTIFICATION,
        data: event_data(&json!({
            "conversation_id": conversation_channel(pnid, phone),
            "phone_number": phone,
            "name": name,
            "unread_count": unread,
            "total_unread": total,
        })),
    }
}

impl Store {
    pub(super) async fn set_read(
        &self,
        key: ConversationKey,
    ) -> Result<(u64, Vec<Event>), sqlx::Error> {
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
        let drafts = vec![counts_draft(&pnid, &key.phone, &name, 0, total)];
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok((changed, events))
    }
}
