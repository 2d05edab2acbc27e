//! A batch's contacts written back: new ones, new names and ids, and what the batch's messages
//! change on each (its list time and preview, unread count and its labels' list time).

use std::collections::HashMap;

use sqlx::AssertSqlSafe;

use super::threads::Thread;
use crate::store::labels::relist_labels;
use crate::store::profiles::save_profile;
use crate::store::search_index::index_contacts;
use crate::store::{Params, now_ms, rows_per_statement};

/// What a batch's new messages change on one contact: the count of those that are unread, the
/// time of the newest the customer wrote (a notice about them is neither), and the newest of
/// them all.
#[derive(Default)]
pub(super) struct Activity {
    pub(super) added: i64,
    pub(super) incoming_at: Option<i64>,
    pub(super) last_at: i64,
    pub(super) last_text: Option<String>,
    pub(super) last_caption: Option<String>,
}

/// Inserts the batch's new contacts and updates the ones whose name or ids a message changed
/// (their search documents follow in `index_changed_contacts`).
pub(super) async fn save_contacts(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    threads: &HashMap<String, Thread>,
) -> Result<(), sqlx::Error> {
    let created: Vec<_> = threads.iter().filter(|(_, t)| t.created).collect();
    let now = now_ms();
    for chunk in created.chunks(rows_per_statement(6)) {
        let sql = format!(
            "INSERT INTO contacts (business_id, phone, name, user_id, username, created_at) \
             VALUES {}",
            Params::of(conn).rows(chunk.len(), 6)
        );
        let mut insert = sqlx::query(AssertSqlSafe(sql));
        for (phone, thread) in chunk {
            insert = insert
                .bind(business)
                .bind(*phone)
                .bind(&thread.contact.name)
                .bind(&thread.contact.user_id)
                .bind(&thread.contact.username)
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
    }
    for (phone, thread) in threads.iter().filter(|(_, t)| t.renamed.is_some()) {
        save_profile(conn, business, phone, &thread.contact).await?;
    }
    Ok(())
}

/// Indexes the batch's new and renamed contacts for search; after their messages are written,
/// so a new contact's document is dated at its first message.
pub(super) async fn index_changed_contacts(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    threads: &HashMap<String, Thread>,
) -> Result<(), sqlx::Error> {
    let changed: Vec<&str> = threads
        .iter()
        .filter(|(_, t)| t.created || t.renamed.is_some())
        .map(|(phone, _)| phone.as_str())
        .collect();
    index_contacts(conn, business, &changed).await
}

/// Moves each contact's last message and preview (only forward: a late message does not take
/// the place of a newer one), latest time the customer wrote (only forward) and unread count,
/// and the list time of the labels of those that carry any; answers the unread counts after.
pub(super) async fn record_activity(
    conn: &mut sqlx::AnyConnection,
    business: &str,
    activity: &HashMap<&str, Activity>,
    threads: &HashMap<String, Thread>,
) -> Result<HashMap<String, i64>, sqlx::Error> {
    let activity: Vec<_> = activity.iter().collect();
    let mut unread = HashMap::with_capacity(activity.len());
    for chunk in activity.chunks(rows_per_statement(6) - 1) {
        let params = Params::of(conn);
        let sql = format!(
            "WITH batch (phone, at, incoming_at, last_text, last_caption, added) AS (VALUES {}) \
             UPDATE contacts SET \
             last_message_at = CASE WHEN batch.at >= COALESCE(contacts.last_message_at, 0) \
                 THEN batch.at ELSE contacts.last_message_at END, \
             last_incoming_at = CASE \
                 WHEN batch.incoming_at >= COALESCE(contacts.last_incoming_at, 0) \
                 THEN batch.incoming_at ELSE contacts.last_incoming_at END, \
             last_text = CASE WHEN batch.at >= COALESCE(contacts.last_message_at, 0) \
                 THEN batch.last_text ELSE contacts.last_text END, \
             last_caption = CASE WHEN batch.at >= COALESCE(contacts.last_message_at, 0) \
                 THEN batch.last_caption ELSE contacts.last_caption END, \
             unread_count = contacts.unread_count + batch.added \
             FROM batch WHERE contacts.phone = batch.phone AND contacts.business_id = {} \
             RETURNING contacts.phone, contacts.unread_count",
            params.rows(chunk.len(), 6),
            params.nth(chunk.len() * 6 + 1)
        );
        let mut update = sqlx::query_as::<_, (String, i64)>(AssertSqlSafe(sql));
        for (phone, a) in chunk {
            update = update
                .bind(**phone)
                .bind(a.last_at)
                .bind(a.incoming_at)
                .bind(&a.last_text)
                .bind(&a.last_caption)
                .bind(a.added);
        }
        unread.extend(update.bind(business).fetch_all(&mut *conn).await?);
    }
    let labelled: Vec<&str> = activity
        .iter()
        .map(|(phone, _)| **phone)
        .filter(|phone| threads.get(*phone).is_some_and(|t| t.labelled))
        .collect();
    relist_labels(conn, business, &labelled).await?;
    Ok(unread)
}
