//! Which customer an inbound message is from. A customer is keyed by phone when it is known and
//! by BSUID otherwise; when a message first names both, the BSUID-keyed conversation joins the
//! phone-keyed one (one customer, one history), and a system message announcing a new number or
//! a new BSUID moves the customer to it, history included.

use parley_actors::events::Event;
use sqlx::AnyConnection;

use super::Store;
use super::contacts::{has_contact, move_history, new_contact_draft, phone_number_id};
use super::error::StoreResult;
use super::events::append_events;
use super::labels::relist_labels;
use super::search_index::index_contacts;
use crate::customer::{CustomerKey, Sighting};

impl Store {
    /// The key `sighting`'s customer is kept under, after linking or moving their records as
    /// the sighting says; answers it with the events of any move (`new_contact` with
    /// `previous_phone_number`).
    pub async fn identify(
        &self,
        business_id: &str,
        sighting: &Sighting,
    ) -> StoreResult<(String, Vec<Event>)> {
        let changes = sighting.new_phone.is_some() || sighting.new_user_id.is_some();
        if let (Some(phone), None, false) = (&sighting.phone, &sighting.user_id, changes) {
            return Ok((phone.to_string(), Vec::new()));
        }
        // Most messages change nothing: they are answered with a read, without a write.
        let mut conn = self.pool.acquire().await?;
        let (key, joined) = resolve(&mut conn, business_id, sighting).await?;
        drop(conn);
        if joined.is_none() && !changes {
            return Ok((key, Vec::new()));
        }
        let mut tx = self.begin_write().await?;
        let (mut key, joined) = resolve(&mut tx, business_id, sighting).await?;
        let mut moves = Vec::new();
        if let Some(from) = joined {
            join(&mut tx, business_id, &from, &key).await?;
            moves.push((from, key.clone()));
        }
        if let Some(new) = &sighting.new_phone
            && new.as_str() != key
        {
            join(&mut tx, business_id, &key, new.as_str()).await?;
            moves.push((
                std::mem::replace(&mut key, new.to_string()),
                new.to_string(),
            ));
        }
        if let Some(new) = &sighting.new_user_id {
            if CustomerKey::from_user_id(&key).is_some() && new.as_str() != key {
                join(&mut tx, business_id, &key, new.as_str()).await?;
                moves.push((
                    std::mem::replace(&mut key, new.to_string()),
                    new.to_string(),
                ));
            }
            sqlx::query("UPDATE contacts SET user_id = $1 WHERE business_id = $2 AND phone = $3")
                .bind(new.as_str())
                .bind(business_id)
                .bind(&key)
                .execute(&mut *tx)
                .await?;
        }
        let mut drafts = Vec::new();
        if !moves.is_empty() {
            let pnid = phone_number_id(&mut tx, business_id).await?;
            for (from, to) in &moves {
                let row: Option<(String, Option<String>, Option<String>)> = sqlx::query_as(
                    "SELECT name, user_id, username FROM contacts \
                     WHERE business_id = $1 AND phone = $2",
                )
                .bind(business_id)
                .bind(to)
                .fetch_optional(&mut *tx)
                .await?;
                if let Some((name, user_id, username)) = row {
                    let ids = (user_id.as_deref(), username.as_deref());
                    drafts.push(new_contact_draft(&pnid, to, &name, ids, Some(from)));
                }
            }
        }
        let events = append_events(&mut tx, business_id, drafts).await?;
        tx.commit().await?;
        Ok((key, events))
    }

    /// The key a client's `key` names now: a BSUID whose customer is known by phone names the
    /// phone (one customer, one history); any other key names itself.
    pub async fn customer_key(
        &self,
        business_id: &str,
        key: CustomerKey,
    ) -> StoreResult<CustomerKey> {
        if !key.is_user_id() {
            return Ok(key);
        }
        let mut conn = self.pool.acquire().await?;
        let phone = phone_of(&mut conn, business_id, key.as_str()).await?;
        Ok(phone
            .and_then(|p| CustomerKey::from_phone(&p))
            .unwrap_or(key))
    }
}

/// The key the sighting's customer is kept under now, and the BSUID-keyed conversation to join
/// onto it when the sighting first names both the phone and the BSUID.
async fn resolve(
    conn: &mut AnyConnection,
    business_id: &str,
    sighting: &Sighting,
) -> Result<(String, Option<String>), sqlx::Error> {
    Ok(match (&sighting.phone, &sighting.user_id) {
        (Some(phone), Some(user_id)) => {
            let joined = has_contact(conn, business_id, user_id.as_str()).await?;
            (phone.to_string(), joined.then(|| user_id.to_string()))
        }
        (Some(phone), None) => (phone.to_string(), None),
        (None, Some(user_id)) => {
            let phone = phone_of(conn, business_id, user_id.as_str()).await?;
            (phone.unwrap_or_else(|| user_id.to_string()), None)
        }
        (None, None) => (String::new(), None),
    })
}

/// The phone key of the customer whose contact keeps this BSUID, if any.
async fn phone_of(
    conn: &mut AnyConnection,
    business_id: &str,
    user_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(String,)> = sqlx::query_as(
        "SELECT phone FROM contacts WHERE business_id = $1 AND user_id = $2 AND phone <> $3 \
         ORDER BY phone LIMIT 1",
    )
    .bind(business_id)
    .bind(user_id)
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|(phone,)| phone))
}

/// Moves the customer `from` onto `to`: their history, and their contact (merged into `to`'s
/// when both exist: unread counts add up, the newer activity wins, ids, a holder and every label
/// are kept).
async fn join(
    conn: &mut AnyConnection,
    business_id: &str,
    from: &str,
    to: &str,
) -> Result<(), sqlx::Error> {
    move_history(conn, business_id, from, to).await?;
    if !has_contact(conn, business_id, to).await? {
        sqlx::query("UPDATE contacts SET phone = $1 WHERE business_id = $2 AND phone = $3")
            .bind(to)
            .bind(business_id)
            .bind(from)
            .execute(&mut *conn)
            .await?;
        index_contacts(conn, business_id, &[to]).await?;
        return Ok(());
    }
    sqlx::query(
        "UPDATE contacts SET \
         unread_count = contacts.unread_count + old.unread_count, \
         last_text = CASE WHEN COALESCE(old.last_message_at, 0) > COALESCE(contacts.last_message_at, 0) \
             THEN old.last_text ELSE contacts.last_text END, \
         last_caption = CASE WHEN COALESCE(old.last_message_at, 0) > COALESCE(contacts.last_message_at, 0) \
             THEN old.last_caption ELSE contacts.last_caption END, \
         last_message_at = CASE WHEN COALESCE(old.last_message_at, 0) > COALESCE(contacts.last_message_at, 0) \
             THEN old.last_message_at ELSE contacts.last_message_at END, \
         last_incoming_at = CASE WHEN COALESCE(old.last_incoming_at, 0) > COALESCE(contacts.last_incoming_at, 0) \
             THEN old.last_incoming_at ELSE contacts.last_incoming_at END, \
         user_id = COALESCE(contacts.user_id, old.user_id), \
         username = COALESCE(contacts.username, old.username), \
         assigned_at = CASE WHEN contacts.assignee_id IS NULL THEN old.assigned_at \
             ELSE contacts.assigned_at END, \
         assignee_id = COALESCE(contacts.assignee_id, old.assignee_id), \
         name = CASE WHEN contacts.name = '' \
             OR (old.named_by_business = 1 AND contacts.named_by_business = 0) \
             THEN old.name ELSE contacts.name END, \
         named_by_business = CASE WHEN old.named_by_business = 1 THEN 1 \
             ELSE contacts.named_by_business END \
         FROM contacts AS old \
         WHERE contacts.business_id = $1 AND contacts.phone = $2 \
         AND old.business_id = $1 AND old.phone = $3",
    )
    .bind(business_id)
    .bind(to)
    .bind(from)
    .execute(&mut *conn)
    .await?;
    // The conversation's labels stay with it: the delete below would take them off.
    sqlx::query(
        "INSERT INTO conversation_labels (business_id, phone, label_id, list_at) \
         SELECT business_id, $1, label_id, list_at FROM conversation_labels \
         WHERE business_id = $2 AND phone = $3 ON CONFLICT DO NOTHING",
    )
    .bind(to)
    .bind(business_id)
    .bind(from)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM contacts WHERE business_id = $1 AND phone = $2")
        .bind(business_id)
        .bind(from)
        .execute(&mut *conn)
        .await?;
    relist_labels(conn, business_id, &[to]).await?;
    index_contacts(conn, business_id, &[to]).await
}
