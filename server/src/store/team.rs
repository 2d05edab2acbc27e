//! Team workflow in the store: a conversation's status and assignee (each change logged as an
//! activity entry of its history with a `conversation_updated` event), private notes, the tab
//! counts, and the snooze sweep.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::{
    CONVERSATION_UPDATED, Event, MENTION, NOTIFICATIONS, conversation_channel, event_data,
    user_channel,
};
use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::contacts::{ContactRow, phone_number_id, read_row};
use super::error::StoreResult;
use super::events::{Draft, append_events};
use super::internal::{ACTIVITY, NOTE, add_entry};
use super::messages::MessageRow;
use super::{Store, iso_time, now_ms};

/// A member of the team as events and entries name them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Person {
    pub id: String,
    pub name: String,
}

/// The answer of an assignment.
pub enum Assigned {
    /// Done (or nothing to change): the conversation's row and the events to publish.
    Done(ContactRow, Vec<Event>),
    /// A claim met a conversation someone else holds.
    TakenBy(Person),
}

/// The three tabs' counts for one status filter.
#[derive(Serialize)]
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

/// Logs a change: the activity entry in the history, then `conversation_updated`.
async fn log_change(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    change: Change<'_>,
) -> StoreResult<(ContactRow, Vec<Draft>)> {
    let row = read_row(conn, &key.business_id, &key.phone).await?;
    let assignee = row.assignee_id.as_ref().map(|id| Person {
        id: id.clone(),
        name: row.assignee_name.clone().unwrap_or_default(),
    });
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
    let pnid = phone_number_id(conn, &key.business_id).await?;
    let mut data = json!({
        "conversation_id": conversation_channel(&pnid, &key.phone),
        "phone_number": key.phone,
        "status": row.status,
        "snoozed_until": snoozed_until,
        "assignee": assignee,
        "by": change.by,
    });
    if let Some(reason) = change.reason {
        data["reason"] = json!(reason);
    }
    let updated = Draft {
        channels: vec![NOTIFICATIONS.into()],
        name: CONVERSATION_UPDATED,
        data: event_data(&data),
    };
    Ok((row, vec![entry, updated]))
}

/// Logs a change the server made itself (no `by`) on each of (business, phone).
async fn log_swept(
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
        read_row(&mut tx, &key.business_id, &key.phone).await?;
        sqlx::query(
            "UPDATE contacts SET status = $1, snoozed_until = $2 \
             WHERE business_id = $3 AND phone = $4",
        )
        .bind(status)
        .bind(snoozed_until)
        .bind(&key.business_id)
        .bind(&key.phone)
        .execute(&mut *tx)
        .await?;
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
        let before = read_row(&mut tx, &key.business_id, &key.phone).await?;
        let updated = sqlx::query(
            "UPDATE contacts SET assignee_id = $1, assigned_at = $2 \
             WHERE business_id = $3 AND phone = $4 \
             AND ($5 = 0 OR assignee_id IS NULL OR assignee_id = $6)",
        )
        .bind(assignee)
        .bind(assignee.map(|_| now_ms()))
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
            return Ok(Assigned::Done(before, Vec::new()));
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
        Ok(Assigned::Done(row, events))
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

    /// The tab counts (mine, unassigned, all) for a status (`None`: every status).
    pub async fn tab_counts(
        &self,
        business_id: &str,
        user_id: &str,
        status: Option<&str>,
    ) -> StoreResult<TabCounts> {
        let (all, mine, unassigned): (i64, Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), SUM(CASE WHEN assignee_id = $2 THEN 1 ELSE 0 END), \
             SUM(CASE WHEN assignee_id IS NULL THEN 1 ELSE 0 END) FROM contacts \
             WHERE business_id = $1 AND ($3 = 'all' OR status = $3)",
        )
        .bind(business_id)
        .bind(user_id)
        .bind(status.unwrap_or("all"))
        .fetch_one(&self.pool)
        .await?;
        Ok(TabCounts {
            mine: mine.unwrap_or_default(),
            unassigned: unassigned.unwrap_or_default(),
            all,
        })
    }

    /// Reopens a resolved or snoozed conversation its customer wrote to; answers the events,
    /// none when it was neither.
    pub async fn reopen(&self, key: &ConversationKey) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let reopened: Vec<(String, String)> = sqlx::query_as(
            "UPDATE contacts SET status = 'open', snoozed_until = NULL WHERE business_id = $1 \
             AND phone = $2 AND status IN ('resolved', 'snoozed') RETURNING business_id, phone",
        )
        .bind(&key.business_id)
        .bind(&key.phone)
        .fetch_all(&mut *tx)
        .await?;
        let events = log_swept(&mut tx, reopened, "status", "customer_message").await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Reopens every snoozed conversation whose time has come. The update picks the rows, so of
    /// several nodes sweeping at once each row is woken by exactly one.
    pub async fn wake_snoozed(&self) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let woken: Vec<(String, String)> = sqlx::query_as(
            "UPDATE contacts SET status = 'open', snoozed_until = NULL \
             WHERE status = 'snoozed' AND snoozed_until <= $1 RETURNING business_id, phone",
        )
        .bind(now_ms())
        .fetch_all(&mut *tx)
        .await?;
        let events = log_swept(&mut tx, woken, "status", "snooze_ended").await?;
        tx.commit().await?;
        Ok(events)
    }
}

impl Store {
    /// Frees each open conversation whose customer has waited longer than the business's claim
    /// timeout for an answer since they wrote or it was claimed, whichever is later.
    pub async fn release_stale_claims(&self) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let released: Vec<(String, String)> = sqlx::query_as(
            "UPDATE contacts SET assignee_id = NULL, assigned_at = NULL \
             WHERE assignee_id IS NOT NULL AND status = 'open' AND last_incoming_at IS NOT NULL \
             AND EXISTS (SELECT 1 FROM businesses b WHERE b.id = contacts.business_id \
               AND b.claim_timeout_minutes > 0 AND b.claim_timeout_minutes * 60000 + \
               CASE WHEN contacts.last_incoming_at > COALESCE(contacts.assigned_at, 0) \
               THEN contacts.last_incoming_at ELSE contacts.assigned_at END <= $1) \
             AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.business_id = contacts.business_id \
               AND m.phone = contacts.phone AND m.direction = 'outgoing' \
               AND m.sent_at >= contacts.last_incoming_at) \
             RETURNING business_id, phone",
        )
        .bind(now_ms())
        .fetch_all(&mut *tx)
        .await?;
        let events = log_swept(&mut tx, released, "unassigned", "claim_timeout").await?;
        tx.commit().await?;
        Ok(events)
    }
}

impl Store {
    /// Assigns an open, unassigned conversation to the least busy of `candidates` (agents of
    /// the business): fewest open conversations, then the longest since their last assignment.
    /// Answers the events, none when nothing changed.
    pub async fn assign_round_robin(
        &self,
        key: &ConversationKey,
        candidates: &[String],
    ) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let mut best: Option<(i64, i64, &String)> = None;
        for user in candidates {
            let load: Option<(i64, Option<i64>)> = sqlx::query_as(
                "SELECT (SELECT COUNT(*) FROM contacts c WHERE c.business_id = u.business_id \
                 AND c.assignee_id = u.id AND c.status = 'open'), \
                 (SELECT MAX(c.assigned_at) FROM contacts c WHERE c.business_id = u.business_id \
                 AND c.assignee_id = u.id) FROM users u \
                 WHERE u.business_id = $1 AND u.id = $2 AND u.role = 'agent'",
            )
            .bind(&key.business_id)
            .bind(user)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some((open, last)) = load {
                let rank = (open, last.unwrap_or_default(), user);
                if best.as_ref().is_none_or(|b| rank < *b) {
                    best = Some(rank);
                }
            }
        }
        let Some((_, _, chosen)) = best else {
            return Ok(Vec::new());
        };
        let updated = sqlx::query(
            "UPDATE contacts SET assignee_id = $1, assigned_at = $2 WHERE business_id = $3 \
             AND phone = $4 AND assignee_id IS NULL AND status = 'open'",
        )
        .bind(chosen)
        .bind(now_ms())
        .bind(&key.business_id)
        .bind(&key.phone)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            return Ok(Vec::new());
        }
        let conversation = vec![(key.business_id.clone(), key.phone.clone())];
        let events = log_swept(&mut tx, conversation, "assigned", "round_robin").await?;
        tx.commit().await?;
        Ok(events)
    }
}

/// The business's team settings.
#[derive(Serialize)]
pub struct TeamSettings {
    /// `manual` or `round_robin`.
    pub assignment_mode: String,
    /// 0 = claims never time out.
    pub claim_timeout_minutes: i64,
}

impl Store {
    pub async fn team_settings(&self, business_id: &str) -> StoreResult<TeamSettings> {
        let (assignment_mode, claim_timeout_minutes): (String, i64) = sqlx::query_as(
            "SELECT assignment_mode, claim_timeout_minutes FROM businesses WHERE id = $1",
        )
        .bind(business_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(TeamSettings {
            assignment_mode,
            claim_timeout_minutes,
        })
    }

    /// Changes the given settings; `None` keeps one.
    pub async fn update_team_settings(
        &self,
        business_id: &str,
        assignment_mode: Option<&str>,
        claim_timeout_minutes: Option<i64>,
    ) -> StoreResult<()> {
        sqlx::query(
            "UPDATE businesses SET assignment_mode = COALESCE($1, assignment_mode), \
             claim_timeout_minutes = COALESCE($2, claim_timeout_minutes) WHERE id = $3",
        )
        .bind(assignment_mode)
        .bind(claim_timeout_minutes)
        .bind(business_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
