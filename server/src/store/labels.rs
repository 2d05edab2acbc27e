//! The business's labels: list, create, rename and recolour (each change announced with the whole
//! list as `labels_changed`), and the list time conversations carry for a label's page.

use parley_actors::events::{Event, LABELS_CHANGED, NOTIFICATIONS, event_data};
use serde::Serialize;
use serde_json::json;
use sqlx::{AnyConnection, FromRow};

use super::error::{Error, StoreResult};
use super::events::{Draft, append_events};
use super::{Backend, Params, Store, is_unique_violation, key_list, now_ms};
use crate::search_text::caseless_key;

/// A label as lists, rows and events show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, FromRow, utoipa::ToSchema)]
pub struct Label {
    pub id: String,
    pub name: String,
    /// `#RRGGBB`.
    pub color: String,
}

/// The key that makes a name unique in its business: case does not count.
fn name_key(name: &str) -> String {
    caseless_key(name)
}

/// The refusal of a name another label of the business has.
fn name_taken(name: &str) -> Error {
    Error::Conflict(format!("A label named {name} already exists"))
}

/// The business's labels, by name (case aside), in code point order on both backends: sorted
/// here, since Postgres orders text by its database's collation (a language's rules under
/// `en_US.UTF-8`, where "éclair" comes before "zebra") and SQLite by code point.
pub(super) async fn all_labels(
    conn: &mut AnyConnection,
    business_id: &str,
) -> StoreResult<Vec<Label>> {
    let mut labels: Vec<Label> =
        sqlx::query_as("SELECT id, name, color FROM labels WHERE business_id = $1")
            .bind(business_id)
            .fetch_all(&mut *conn)
            .await?;
    labels.sort_by_cached_key(|label| (name_key(&label.name), label.id.clone()));
    Ok(labels)
}

/// One label of the business, or `NotFound` naming the id.
pub(super) async fn one_label(
    conn: &mut AnyConnection,
    business_id: &str,
    id: &str,
) -> StoreResult<Label> {
    locked_label(conn, business_id, id, None).await
}

/// One label of the business, its row locked until the transaction ends (`exclusive` to
/// change or delete it, else to put it on a conversation): a label deleted meanwhile is `NotFound`, and
/// one being put on a conversation is deleted only after, from there too.
pub(super) async fn locked_label(
    conn: &mut AnyConnection,
    business_id: &str,
    id: &str,
    exclusive: Option<bool>,
) -> StoreResult<Label> {
    let lock = exclusive.map_or("", |exclusive| Backend::of(conn).row_lock(exclusive));
    let sql =
        format!("SELECT id, name, color FROM labels WHERE business_id = $1 AND id = $2{lock}");
    // Only the backend's lock clause is formatted in; the values are bound.
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(business_id)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::NotFound(format!("No label {id}")))
}

/// `labels_changed` with the business's labels as they are now.
pub(super) async fn labels_changed(
    conn: &mut AnyConnection,
    business_id: &str,
) -> StoreResult<Draft> {
    let labels = all_labels(conn, business_id).await?;
    Ok(Draft {
        channels: vec![NOTIFICATIONS.into()],
        name: LABELS_CHANGED,
        data: event_data(&json!({ "labels": labels })),
    })
}

impl Store {
    /// The business's labels, by name.
    pub async fn labels(&self, business_id: &str) -> StoreResult<Vec<Label>> {
        let mut conn = self.pool.acquire().await?;
        all_labels(&mut conn, business_id).await
    }

    /// A new label; a name the business already has (in any case) is a `Conflict`.
    pub async fn create_label(
        &self,
        business_id: &str,
        name: &str,
        color: &str,
    ) -> StoreResult<(Label, Vec<Event>)> {
        let label = Label {
            id: uuid::Uuid::new_v4().to_string(),
            name: name.to_string(),
            color: color.to_string(),
        };
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO labels (id, business_id, name, name_key, color, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&label.id)
        .bind(business_id)
        .bind(name)
        .bind(name_key(name))
        .bind(color)
        .bind(now_ms())
        .execute(&mut *tx)
        .await
        .map_err(|err| match is_unique_violation(&err) {
            true => name_taken(name),
            false => err.into(),
        })?;
        let draft = labels_changed(&mut tx, business_id).await?;
        let events = append_events(&mut tx, business_id, vec![draft]).await?;
        tx.commit().await?;
        Ok((label, events))
    }

    /// Renames and/or recolours a label (`None` keeps a value).
    pub async fn update_label(
        &self,
        business_id: &str,
        id: &str,
        name: Option<&str>,
        color: Option<&str>,
    ) -> StoreResult<(Label, Vec<Event>)> {
        let mut tx = self.begin_write().await?;
        // Locked, so a rename and a recolour at once take turns and neither undoes the other.
        let before = locked_label(&mut tx, business_id, id, Some(true)).await?;
        let name = name.unwrap_or(&before.name);
        let color = color.unwrap_or(&before.color);
        if name == before.name && color == before.color {
            tx.commit().await?;
            return Ok((before, Vec::new()));
        }
        // The key is made again only for a new name: a label whose key was set aside when keys
        // were folded again (`caseless_keys`) keeps it through a recolour.
        sqlx::query(
            "UPDATE labels SET name = $1, \
             name_key = CASE WHEN name = $1 THEN name_key ELSE $2 END, color = $3 \
             WHERE business_id = $4 AND id = $5",
        )
        .bind(name)
        .bind(name_key(name))
        .bind(color)
        .bind(business_id)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(|err| match is_unique_violation(&err) {
            true => name_taken(name),
            false => err.into(),
        })?;
        let label = one_label(&mut tx, business_id, id).await?;
        let draft = labels_changed(&mut tx, business_id).await?;
        let events = append_events(&mut tx, business_id, vec![draft]).await?;
        tx.commit().await?;
        Ok((label, events))
    }
}

/// Sets the list time the labels of these conversations carry to their conversations' own, after
/// a write that moved it (`conversation_labels_order` keeps a label's conversations in the list's
/// order).
pub(super) async fn relist_labels(
    conn: &mut AnyConnection,
    business_id: &str,
    phones: &[&str],
) -> Result<(), sqlx::Error> {
    if phones.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "UPDATE conversation_labels SET list_at = (SELECT COALESCE(c.last_message_at, \
         c.created_at) FROM contacts c WHERE c.business_id = conversation_labels.business_id \
         AND c.phone = conversation_labels.phone) WHERE business_id = $1 AND {}",
        Params::of(conn).one_of("phone", 2)
    );
    // Only the list's text is formatted in; the values are bound.
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(business_id)
        .bind(key_list(phones)?)
        .execute(&mut *conn)
        .await?;
    Ok(())
}
