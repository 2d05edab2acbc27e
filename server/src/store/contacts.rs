//! Contacts: the conversation list, and adding, renaming, renumbering, importing and deleting
//! contacts.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::{
    CONTACT_DELETED, Event, NEW_CONTACT, NOTIFICATIONS, conversation_channel, event_data,
};
use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::error::{Error, StoreResult};
use super::events::{Draft, append_events};
use super::search_index::{index_contacts, move_documents, remove_documents};
use super::unread::{add_unread, number_and_unread};
use super::{Backend, Store, now_ms};
use crate::customer::CustomerKey;

/// Who a conversation's customer is, as the list, the contact answers and `new_contact` show it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Customer {
    /// The customer's phone digits; null for a customer known only by BSUID.
    pub phone_number: Option<String>,
    /// The customer's BSUID, when known.
    pub user_id: Option<String>,
    /// The customer's WhatsApp username, when they took one.
    pub username: Option<String>,
    pub name: String,
    /// `{phoneNumberId}_{customerKey}`.
    pub conversation_id: String,
}

impl Customer {
    pub(super) fn new(
        pnid: &str,
        key: &str,
        name: &str,
        user_id: Option<&str>,
        username: Option<&str>,
    ) -> Self {
        let bsuid_key = CustomerKey::from_user_id(key).map(CustomerKey::into_string);
        Customer {
            phone_number: if bsuid_key.is_some() {
                None
            } else {
                Some(key.to_string())
            },
            user_id: user_id.map(str::to_string).or(bsuid_key),
            username: username.map(str::to_string),
            name: name.to_string(),
            conversation_id: conversation_channel(pnid, key),
        }
    }
}

/// The ids a contact is announced with besides its key: (BSUID, username).
pub(super) type ContactIds<'a> = (Option<&'a str>, Option<&'a str>);

/// A contact's appearance; `previous` is the key it had when it was renumbered or linked.
pub(super) fn new_contact_draft(
    pnid: &str,
    phone: &str,
    name: &str,
    ids: ContactIds,
    previous: Option<&str>,
) -> Draft {
    let mut data = json!(Customer::new(pnid, phone, name, ids.0, ids.1));
    if let Some(previous) = previous {
        data["previous_phone_number"] = json!(previous);
    }
    contact_draft(&data)
}

/// A known contact's new name or ids, from an agent's edit, an import, the WhatsApp Business
/// app's address book or a customer's delivery that is no message (`profiles`): `new_contact`
/// marked `renamed`, which a list applies to the conversation when it holds it and adds no row
/// for (an import renames many conversations at once).
pub(super) fn renamed_contact_draft(pnid: &str, phone: &str, name: &str, ids: ContactIds) -> Draft {
    let mut data = json!(Customer::new(pnid, phone, name, ids.0, ids.1));
    data["renamed"] = json!(true);
    contact_draft(&data)
}

fn contact_draft(data: &serde_json::Value) -> Draft {
    Draft {
        channels: vec![NOTIFICATIONS.into()],
        name: NEW_CONTACT,
        data: event_data(data),
    }
}

/// Moves a conversation's messages and queued sends from one customer key to another.
pub(super) async fn move_history(
    conn: &mut AnyConnection,
    business_id: &str,
    from: &str,
    to: &str,
) -> Result<(), sqlx::Error> {
    move_documents(conn, business_id, from, to).await?;
    for table in [
        "UPDATE messages SET phone = $1 WHERE business_id = $2 AND phone = $3",
        "UPDATE outbox SET phone = $1 WHERE business_id = $2 AND phone = $3",
    ] {
        sqlx::query(table)
            .bind(to)
            .bind(business_id)
            .bind(from)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
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

/// What `ensure_contact` did to a conversation's contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ensured {
    Created,
    Renamed,
    Kept,
}

/// The contact of a conversation, created when new and renamed when `name` is another
/// (non-empty) one; answers its name and what was done. A `name` is the business's: the contact
/// is marked named by it, so the customer's profile name no longer replaces it.
pub(super) async fn ensure_contact(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    name: Option<&str>,
) -> Result<(String, Ensured), sqlx::Error> {
    let existing: Option<(String, i64)> = sqlx::query_as(
        "SELECT name, named_by_business FROM contacts WHERE business_id = $1 AND phone = $2",
    )
    .bind(&key.business_id)
    .bind(&key.phone)
    .fetch_optional(&mut *conn)
    .await?;
    let given = name.filter(|name| !name.is_empty());
    match (existing, given) {
        (None, _) => {
            let name = name.unwrap_or_default().to_string();
            sqlx::query(
                "INSERT INTO contacts (business_id, phone, name, named_by_business, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&key.business_id)
            .bind(&key.phone)
            .bind(&name)
            .bind(i64::from(given.is_some()))
            .bind(now_ms())
            .execute(&mut *conn)
            .await?;
            index_contacts(conn, &key.business_id, &[&key.phone]).await?;
            Ok((name, Ensured::Created))
        }
        (Some((old, _)), Some(new)) if new != old => {
            name_contact(conn, &key.business_id, &key.phone, new).await?;
            index_contacts(conn, &key.business_id, &[&key.phone]).await?;
            Ok((new.to_string(), Ensured::Renamed))
        }
        (Some((old, 0)), Some(_)) => {
            name_contact(conn, &key.business_id, &key.phone, &old).await?;
            Ok((old, Ensured::Kept))
        }
        (Some((old, _)), _) => Ok((old, Ensured::Kept)),
    }
}

/// Gives a contact the business's name for them (see `ensure_contact`).
async fn name_contact(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
    name: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE contacts SET name = $1, named_by_business = 1 \
         WHERE business_id = $2 AND phone = $3",
    )
    .bind(name)
    .bind(business_id)
    .bind(phone)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Whether the business has a contact under `key`.
pub(super) async fn has_contact(
    conn: &mut AnyConnection,
    business_id: &str,
    key: &str,
) -> Result<bool, sqlx::Error> {
    let row: Option<(String,)> =
        sqlx::query_as("SELECT phone FROM contacts WHERE business_id = $1 AND phone = $2")
            .bind(business_id)
            .bind(key)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.is_some())
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
        let (_, ensured) = ensure_contact(&mut tx, &key, Some(name)).await?;
        if ensured != Ensured::Created {
            return Err(Error::Conflict(format!(
                "A contact with the number {phone} already exists"
            )));
        }
        let pnid = phone_number_id(&mut tx, business_id).await?;
        let events = append_events(
            &mut tx,
            business_id,
            vec![new_contact_draft(&pnid, phone, name, (None, None), None)],
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
        // Its ids go with the announcement, so that an open list keeps showing its username.
        // Locked first, as a batch of the customer's messages locks it, so the two take turns.
        let lock = Backend::of(&tx).row_lock(true);
        let sql = format!(
            "SELECT user_id, username FROM contacts WHERE business_id = $1 AND phone = $2{lock}"
        );
        // Only the backend's lock clause is formatted in; the values are bound.
        let ids: Option<(Option<String>, Option<String>)> =
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(business_id)
                .bind(phone)
                .fetch_optional(&mut *tx)
                .await?;
        let Some((user_id, username)) = ids else {
            return Err(Error::NotFound(format!(
                "No contact with the number {phone}"
            )));
        };
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
            move_history(&mut tx, business_id, phone, target).await?;
            sqlx::query("UPDATE contacts SET phone = $1 WHERE business_id = $2 AND phone = $3")
                .bind(target)
                .bind(business_id)
                .bind(phone)
                .execute(&mut *tx)
                .await?;
        }
        name_contact(&mut tx, business_id, target, name).await?;
        index_contacts(&mut tx, business_id, &[target]).await?;
        let pnid = phone_number_id(&mut tx, business_id).await?;
        let ids = (user_id.as_deref(), username.as_deref());
        let draft = if target == phone {
            renamed_contact_draft(&pnid, target, name, ids)
        } else {
            new_contact_draft(&pnid, target, name, ids, Some(phone))
        };
        let events = append_events(&mut tx, business_id, vec![draft]).await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Deletes a contact with its conversation; answers its `contact_deleted`, with the
    /// business's unread total after it.
    pub async fn delete_contact(&self, business_id: &str, phone: &str) -> StoreResult<Vec<Event>> {
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
        // Found by their messages' ids, so before the messages go.
        remove_documents(&mut tx, business_id, phone).await?;
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
        let (pnid, total) = number_and_unread(&mut tx, business_id).await?;
        let conversation_id = conversation_channel(&pnid, phone);
        let deleted = Draft {
            channels: vec![NOTIFICATIONS.into(), conversation_id.clone()],
            name: CONTACT_DELETED,
            data: event_data(&json!({
                "conversation_id": conversation_id,
                "phone_number": phone,
                "total_unread": total,
            })),
        };
        let events = append_events(&mut tx, business_id, vec![deleted]).await?;
        tx.commit().await?;
        Ok(events)
    }
}
