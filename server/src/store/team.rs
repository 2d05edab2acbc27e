//! Team workflow in the store: a conversation's status and assignee as members change them
//! (each change logged as an activity entry of its history with a `conversation_updated` event),
//! private notes, and the tab counts.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::{
    CONVERSATION_UPDATED, Event, MENTION, NOTIFICATIONS, conversation_channel, event_data,
    user_channel,
};
use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::contact_list::{ContactRow, read_row};
use super::contacts::phone_number_id;
use super::error::StoreResult;
use super::events::{Draft, append_events};
use super::internal::{ACTIVITY, NOTE, add_entry};
use super::messages::MessageRow;
use super::{Backend, Store, iso_time, now_ms};

/// A member of the team as events and entries name them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Person {
    pub id: String,
    pub name: String,
}

/// The answer of an assignment.
pub enum Assigned {
    /// Done (or nothing to change): the conversation's row and the events to publish.
    Done(Box<ContactRow>, Vec<Event>),
    /// A claim met a conversation someone else holds.
    TakenBy(Person),
    /// The assignee is no user of the business (or was removed meanwhile).
    NotMember,
}

/// The three tabs' counts for one status filter.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TabCounts {
    pub mine: i64,
    pub unassigned: i64,
    pub all: i64,
}

/// Why and by whom a conversation changed: `by` is `None` for the server's own changes.
struct Change<'a> {
    action: &'a str,
    by: Option<&'a Person>,
    reason: Option<&'a str>,
}

/// Who holds the conversation of this row.
fn assignee_of(row: &ContactRow) -> Option<Person> {
    row.assignee_id.as_ref().map(|id| Person {
        id: id.clone(),
        name: row.assignee_name.clone().unwrap_or_default(),
    })
}

/// Whether `user_id` is a user of the business; on Postgres their row stays locked until the
/// transaction ends, so an agent removed meanwhile is either not found here or removed after,
/// with the conversations they hold then released.
async fn is_member(
    conn: &mut AnyConnection,
    business_id: &str,
    user_id: &str,
) -> StoreResult<bool> {
    let lock = Backend::of(conn).row_lock(false);
    let sql = format!("SELECT id FROM users WHERE business_id = $1 AND id = $2{lock}");
    // Only the backend's lock clause is formatted in; the values are bound.
    let found: Option<(String,)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(business_id)
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(found.is_some())
}

/// Locks a conversation's row on Postgres until the transaction ends, so members changing it at
/// once take turns and each reads what the one before left.
pub(super) async fn lock_conversation(
    conn: &mut AnyConnection,
    key: &ConversationKey,
) -> StoreResult<()> {
    let lock = Backend::of(conn).row_lock(true);
    let sql = format!("SELECT phone FROM contacts WHERE business_id = $1 AND phone = $2{lock}");
    // Only the backend's lock clause is formatted in; the values are bound.
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(&key.business_id)
        .bind(&key.phone)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Records that `user_id` was given a conversation at `at` (Unix ms): round robin's tie-break.
pub(super) async fn note_assignment(
    conn: &mut AnyConnection,
    business_id: &str,
    user_id: &str,
    at: i64,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO last_assignments (business_id, user_id, assigned_at) VALUES ($1, $2, $3) \
         ON CONFLICT (business_id, user_id) DO UPDATE SET assigned_at = excluded.assigned_at",
    )
    .bind(business_id)
    .bind(user_id)
    .bind(at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Logs a change: the activity entry in the history, then `conversation_updated`.
async fn log_change(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    change: Change<'_>,
) -> StoreResult<(ContactRow, Vec<Draft>)> {
    let row = read_row(conn, &key.business_id, &key.phone).await?;
    let assignee = assignee_of(&row);
    let snoozed_until = row.snoozed_until.map(iso_time);
    let mut activity = json!({"action": change.action, "by": change.by});
    match change.action {
        "status" => {
            activity["status"] = json!(row.status);
            activity["snoozed_until"] = json!(snoozed_until);
        }
        _ => activity["assignee"] = json!(assignee),
    }
    if let Some(reason) = change.reason {
        activity["reason"] = json!(reason);
    }
    let author = change.by.map(|p| p.name.as_str()).unwrap_or_default();
    let (_, entry) = add_entry(conn, key, ACTIVITY, &json!({"activity": activity}), author).await?;
    let updated =
        conversation_updated(conn, &key.business_id, &row, change.by, change.reason).await?;
    Ok((row, vec![entry, updated]))
}

/// `conversation_updated` with the conversation's status, assignee and labels as they are now.
pub(super) async fn conversation_updated(
    conn: &mut AnyConnection,
    business_id: &str,
    row: &ContactRow,
    by: Option<&Person>,
    reason: Option<&str>,
) -> StoreResult<Draft> {
    let pnid = phone_number_id(conn, business_id).await?;
    let assignee = assignee_of(row);
    let mut data = json!({
        "conversation_id": conversation_channel(&pnid, &row.phone),
        "phone_number": row.phone,
        "status": row.status,
        "snoozed_until": row.snoozed_until.map(iso_time),
        "assignee": assignee,
        "labels": row.labels,
        "by": by,
    });
    if let Some(reason) = reason {
        data["reason"] = json!(reason);
    }
    Ok(Draft {
        channels: vec![NOTIFICATIONS.into()],
        name: CONVERSATION_UPDATED,
        data: event_data(&data),
    })
}

/// Logs a change the server made itself (no `by`) on each of (business, phone).
pub(super) async fn log_swept(
    conn: &mut AnyConnection,
    conversations: Vec<(String, String)>,
    action: &str,
    reason: &str,
) -> StoreResult<Vec<Event>> {
    let mut events = Vec::new();
    for (business_id, phone) in conversations {
        let key = ConversationKey { business_id, phone };
        let change = Change {
            action,
            by: None,
            reason: Some(reason),
        };
        let (_, drafts) = log_change(conn, &key, change).await?;
        events.extend(append_events(conn, &key.business_id, drafts).await?);
    }
    Ok(events)
}

impl Store {
    /// Sets a conversation's status (`snoozed_until` only with `snoozed`).
    pub async fn set_status(
        &self,
        key: &ConversationKey,
        status: &str,
        snoozed_until: Option<i64>,
        by: &Person,
    ) -> StoreResult<(ContactRow, Vec<Event>)> {
        let mut tx = self.begin_write().await?;
        // Locked, so of two members setting the same status at once the second sees the first's.
        lock_conversation(&mut tx, key).await?;
        let before = read_row(&mut tx, &key.business_id, &key.phone).await?;
        sqlx::query(
            "UPDATE contacts SET status = $1, snoozed_until = $2, status_at = $3 \
             WHERE business_id = $4 AND phone = $5",
        )
        .bind(status)
        .bind(snoozed_until)
        .bind(now_ms())
        .bind(&key.business_id)
        .bind(&key.phone)
        .execute(&mut *tx)
        .await?;
        // The status it has is no change to log (its time is still the member's, so a customer
        // message stored before stays answered by it).
        if before.status == status && before.snoozed_until == snoozed_until {
            tx.commit().await?;
            return Ok((before, Vec::new()));
        }
        let change = Change {
            action: "status",
            by: Some(by),
            reason: None,
        };
        let (row, drafts) = log_change(&mut tx, key, change).await?;
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok((row, events))
    }

    /// Assigns a conversation to `assignee` (or nobody). A `claim` succeeds only when the
    /// conversation is unassigned or already the assignee's: one conditional update decides, so
    /// of two agents claiming at once exactly one wins.
    pub async fn assign(
        &self,
        key: &ConversationKey,
        assignee: Option<&str>,
        claim: bool,
        by: &Person,
    ) -> StoreResult<Assigned> {
        let mut tx = self.begin_write().await?;
        // Locked, so `before` is still the conversation's when the update below runs: an
        // unassignment committed in between would otherwise make this change look like none.
        lock_conversation(&mut tx, key).await?;
        let before = read_row(&mut tx, &key.business_id, &key.phone).await?;
        if let Some(id) = assignee
            && !is_member(&mut tx, &key.business_id, id).await?
        {
            return Ok(Assigned::NotMember);
        }
        let now = now_ms();
        let updated = sqlx::query(
            "UPDATE contacts SET assignee_id = $1, assigned_at = $2 \
             WHERE business_id = $3 AND phone = $4 \
             AND ($5 = 0 OR assignee_id IS NULL OR assignee_id = $6)",
        )
        .bind(assignee)
        .bind(assignee.map(|_| now))
        .bind(&key.business_id)
        .bind(&key.phone)
        .bind(i64::from(claim))
        .bind(assignee.unwrap_or_default())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            let now = read_row(&mut tx, &key.business_id, &key.phone).await?;
            return Ok(Assigned::TakenBy(Person {
                id: now.assignee_id.unwrap_or_default(),
                name: now.assignee_name.unwrap_or_default(),
            }));
        }
        if before.assignee_id.as_deref() == assignee {
            tx.commit().await?;
            return Ok(Assigned::Done(Box::new(before), Vec::new()));
        }
        if let Some(id) = assignee {
            note_assignment(&mut tx, &key.business_id, id, now).await?;
        }
        let action = if assignee.is_some() {
            "assigned"
        } else {
            "unassigned"
        };
        let change = Change {
            action,
            by: Some(by),
            reason: None,
        };
        let (row, drafts) = log_change(&mut tx, key, change).await?;
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok(Assigned::Done(Box::new(row), events))
    }

    /// Stores a private note; each mentioned user gets a `mention` event on their own channel.
    pub async fn add_note(
        &self,
        key: &ConversationKey,
        text: &str,
        mentions: &[String],
        by: &Person,
    ) -> StoreResult<(MessageRow, Vec<Event>)> {
        let mut tx = self.begin_write().await?;
        // Locked, so a deletion of the conversation meanwhile takes the note with it or is seen.
        lock_conversation(&mut tx, key).await?;
        read_row(&mut tx, &key.business_id, &key.phone).await?;
        let content = json!({"text": text, "mentions": mentions});
        let (note, draft) = add_entry(&mut tx, key, NOTE, &content, &by.name).await?;
        let pnid = phone_number_id(&mut tx, &key.business_id).await?;
        let conversation_id = conversation_channel(&pnid, &key.phone);
        let mut drafts = vec![draft];
        for user in mentions {
            drafts.push(Draft {
                channels: vec![user_channel(user)],
                name: MENTION,
                data: event_data(&json!({
                    "conversation_id": conversation_id,
                    "note": note.to_json(&conversation_id),
                    "by": by,
                })),
            });
        }
        let events = append_events(&mut tx, &key.business_id, drafts).await?;
        tx.commit().await?;
        Ok((note, events))
    }

    /// The ids of the business's users with these usernames.
    pub async fn user_ids_by_username(
        &self,
        business_id: &str,
        usernames: &[String],
    ) -> StoreResult<Vec<String>> {
        let mut ids = Vec::new();
        for username in usernames {
            let found: Option<(String,)> =
                sqlx::query_as("SELECT id FROM users WHERE business_id = $1 AND username = $2")
                    .bind(business_id)
                    .bind(username)
                    .fetch_optional(&self.pool)
                    .await?;
            ids.extend(found.map(|(id,)| id));
        }
        Ok(ids)
    }

    /// The tab counts (mine, unassigned, all) for a status (`None`: every status), of the
    /// conversations that carry `label` (`None`: all).
    pub async fn tab_counts(
        &self,
        business_id: &str,
        user_id: &str,
        status: Option<&str>,
        label: Option<&str>,
    ) -> StoreResult<TabCounts> {
        let (all, mine, unassigned): (i64, Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), SUM(CASE WHEN c.assignee_id = $2 THEN 1 ELSE 0 END), \
             SUM(CASE WHEN c.assignee_id IS NULL THEN 1 ELSE 0 END) FROM contacts c \
             WHERE c.business_id = $1 AND ($3 = 'all' OR c.status = $3) \
             AND ($4 = '' OR EXISTS (SELECT 1 FROM conversation_labels cl \
             WHERE cl.business_id = c.business_id AND cl.phone = c.phone AND cl.label_id = $4))",
        )
        .bind(business_id)
        .bind(user_id)
        .bind(status.unwrap_or("all"))
        .bind(label.unwrap_or_default())
        .fetch_one(&self.pool)
        .await?;
        Ok(TabCounts {
            mine: mine.unwrap_or_default(),
            unassigned: unassigned.unwrap_or_default(),
            all,
        })
    }
}
