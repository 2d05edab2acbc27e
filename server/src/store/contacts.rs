//! Contacts: the conversation list, and adding, renaming, renumbering, importing and deleting
//! contacts.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::{Event, NEW_CONTACT, NOTIFICATIONS, conversation_channel, event_data};
use serde_json::{Value, json};
use sqlx::{AnyConnection, FromRow};

use super::error::{Error, StoreResult};
use super::events::{Draft, append_events};
use super::list_filter::ListFilter;
use super::unread::{add_unread, total_unread};
use super::{Store, iso_time, now_ms};

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
    /// `open`, `pending`, `resolved` or `snoozed`.
    pub status: String,
    pub snoozed_until: Option<i64>,
    pub assignee_id: Option<String>,
    /// The assignee's full name (empty when unassigned).
    pub assignee_name: Option<String>,
}

/// The list row's columns, with the assignee's name; contacts are `c`.
macro_rules! row_select {
    () => {
        "SELECT c.phone, c.name, c.last_message_at, c.last_incoming_at, c.last_text, \
         c.last_caption, c.unread_count, c.status, c.snoozed_until, c.assignee_id, \
         TRIM(u.first_name || ' ' || u.last_name) AS assignee_name FROM contacts c \
         LEFT JOIN users u ON u.id = c.assignee_id AND u.business_id = c.business_id "
    };
}

/// A page of the conversation list.
pub struct ContactPage {
    pub rows: Vec<ContactRow>,
    pub has_more: bool,
    pub total_unread: i64,
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
            "status": self.status,
            "snoozed_until": self.snoozed_until.map(iso_time),
            "assignee": self.assignee_id.as_ref().map(|id| json!({
                "id": id,
                "name": self.assignee_name.as_deref().unwrap_or_default(),
            })),
        })
    }
}

/// A contact's appearance; `previous` is the number it had when it was renumbered.
pub(super) fn new_contact_draft(
    pnid: &str,
    phone: &str,
    name: &str,
    previous: Option<&str>,
) -> Draft {
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

/// One conversation's list row, or `NotFound`.
pub(super) async fn read_row(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
) -> StoreResult<ContactRow> {
    sqlx::query_as(concat!(
        row_select!(),
        "WHERE c.business_id = $1 AND c.phone = $2"
    ))
    .bind(business_id)
    .bind(phone)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::NotFound(format!("No conversation with {phone}")))
}

impl Store {
    pub async fn contact_name(&self, business_id: &str, phone: &str) -> StoreResult<String> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT name FROM contacts WHERE business_id = $1 AND phone = $2")
                .bind(business_id)
                .bind(phone)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(name,)| name).unwrap_or_default())
    }

    /// One conversation's list row.
    pub async fn contact_row(&self, business_id: &str, phone: &str) -> StoreResult<ContactRow> {
        let mut conn = self.pool.acquire().await?;
        read_row(&mut conn, business_id, phone).await
    }

    /// A page of the conversation list, newest activity first; `search` matches name or phone.
    pub async fn contacts_page(
        &self,
        business_id: &str,
        search: &str,
        filter: &ListFilter,
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
        let (status, assignee, assignee_id) = filter.binds();
        let mut rows: Vec<ContactRow> = sqlx::query_as(concat!(
            row_select!(),
            "WHERE c.business_id = $1 \
             AND ($2 = '' OR LOWER(c.name) LIKE $3 ESCAPE '\\' OR c.phone LIKE $4 ESCAPE '\\') \
             AND ($7 = 'all' OR c.status = $7) AND ($8 = 'all' \
             OR ($8 = 'unassigned' AND c.assignee_id IS NULL) OR c.assignee_id = $9) \
             ORDER BY COALESCE(c.last_message_at, c.created_at) DESC, c.phone LIMIT $5 OFFSET $6"
        ))
        .bind(business_id)
        .bind(search)
        .bind(&pattern)
        .bind(&pattern)
        .bind(limit + 1)
        .bind((page - 1) * limit)
        .bind(status)
        .bind(assignee)
        .bind(assignee_id)
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
