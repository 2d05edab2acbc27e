//! Labels on conversations: setting a conversation's labels, and deleting a label from the
//! business and every conversation that carried it. Each conversation that changes is announced
//! with `conversation_updated`.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::Event;
use sqlx::AnyConnection;

use super::Store;
use super::contact_list::{ContactRow, read_row};
use super::error::StoreResult;
use super::events::{Draft, append_events};
use super::labels::{labels_changed, locked_label};
use super::team::{Person, conversation_updated, lock_conversation};

/// `conversation_updated` of each of these conversations as it is now.
async fn updates_of(
    conn: &mut AnyConnection,
    business_id: &str,
    phones: &[String],
    by: &Person,
) -> StoreResult<Vec<Draft>> {
    let mut drafts = Vec::with_capacity(phones.len());
    for phone in phones {
        let row = read_row(conn, business_id, phone).await?;
        drafts.push(conversation_updated(conn, business_id, &row, Some(by), None).await?);
    }
    Ok(drafts)
}

impl Store {
    /// Sets the labels a conversation carries to `label_ids` (each a label of the business, else
    /// `NotFound` naming it; repeats count once). Answers the row; nothing is announced when the
    /// set is unchanged.
    pub async fn set_conversation_labels(
        &self,
        key: &ConversationKey,
        label_ids: &[String],
        by: &Person,
    ) -> StoreResult<(ContactRow, Vec<Event>)> {
        let mut tx = self.begin_write().await?;
        // Members setting the same conversation's labels at once take turns.
        lock_conversation(&mut tx, key).await?;
        let before = read_row(&mut tx, &key.business_id, &key.phone).await?;
        let mut wanted: Vec<&str> = Vec::with_capacity(label_ids.len());
        for id in label_ids {
            locked_label(&mut tx, &key.business_id, id, Some(false)).await?;
            if !wanted.contains(&id.as_str()) {
                wanted.push(id);
            }
        }
        let mut had: Vec<&str> = before.labels.iter().map(|l| l.id.as_str()).collect();
        let mut sorted = wanted.clone();
        had.sort_unstable();
        sorted.sort_unstable();
        if had == sorted {
            tx.commit().await?;
            return Ok((before, Vec::new()));
        }
        sqlx::query("DELETE FROM conversation_labels WHERE business_id = $1 AND phone = $2")
            .bind(&key.business_id)
            .bind(&key.phone)
            .execute(&mut *tx)
            .await?;
        for id in wanted {
            sqlx::query(
                "INSERT INTO conversation_labels (business_id, phone, label_id, list_at) \
                 SELECT business_id, phone, $3, COALESCE(last_message_at, created_at) \
                 FROM contacts WHERE business_id = $1 AND phone = $2",
            )
            .bind(&key.business_id)
            .bind(&key.phone)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        let row = read_row(&mut tx, &key.business_id, &key.phone).await?;
        let draft = conversation_updated(&mut tx, &key.business_id, &row, Some(by), None).await?;
        let events = append_events(&mut tx, &key.business_id, vec![draft]).await?;
        tx.commit().await?;
        Ok((row, events))
    }

    /// Deletes a label: it leaves every conversation that carried it (each announced), then
    /// `labels_changed` lists what remains.
    pub async fn delete_label(
        &self,
        business_id: &str,
        id: &str,
        by: &Person,
    ) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        locked_label(&mut tx, business_id, id, Some(true)).await?;
        let phones: Vec<(String,)> = sqlx::query_as(
            "SELECT phone FROM conversation_labels WHERE business_id = $1 AND label_id = $2 \
             ORDER BY phone",
        )
        .bind(business_id)
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let phones: Vec<String> = phones.into_iter().map(|(phone,)| phone).collect();
        sqlx::query("DELETE FROM conversation_labels WHERE business_id = $1 AND label_id = $2")
            .bind(business_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM labels WHERE business_id = $1 AND id = $2")
            .bind(business_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let mut drafts = updates_of(&mut tx, business_id, &phones, by).await?;
        drafts.push(labels_changed(&mut tx, business_id).await?);
        let events = append_events(&mut tx, business_id, drafts).await?;
        tx.commit().await?;
        Ok(events)
    }
}
