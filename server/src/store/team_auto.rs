//! The changes the server makes to conversations itself (no member did them): reopening on a
//! customer's message, waking snoozes, ending stale claims, freeing a removed agent's
//! conversations, and round-robin assignment. Each is one conditional update, so of several
//! nodes doing the same at once exactly one changes each conversation.

use parley_actors::conversation::ConversationKey;
use parley_actors::events::Event;

use super::error::StoreResult;
use super::team::{log_swept, note_assignment};
use super::{Backend, Params, Store, key_list, now_ms};

/// The reason logged when a customer's message reopens their conversation.
pub(super) const REOPEN_REASON: &str = "customer_message";

/// A conversation a customer's message reopens or assigns, as it stood when read.
pub struct Standing {
    /// The customer's key.
    pub phone: String,
    /// `open`, `resolved` or `snoozed`.
    pub status: String,
    /// Whether a member holds the conversation.
    pub assigned: bool,
    /// Whether the business assigns conversations by round robin.
    pub assigning: bool,
}

impl Store {
    /// Of these conversations of a business, the ones a customer's message changes: resolved
    /// or snoozed ones, and, when the business assigns by round robin, open ones nobody holds.
    /// One read for a webhook's conversations and the business's assignment mode, so the
    /// common case (open and held, or no round robin) costs one query.
    pub async fn awaiting_team(
        &self,
        business_id: &str,
        phones: &[&str],
    ) -> StoreResult<Vec<Standing>> {
        if phones.is_empty() {
            return Ok(Vec::new());
        }
        let mut conn = self.pool.acquire().await?;
        let sql = format!(
            "SELECT c.phone, c.status, c.assignee_id, b.assignment_mode FROM contacts c \
             JOIN businesses b ON b.id = c.business_id \
             WHERE c.business_id = $1 AND {} \
             AND (c.status IN ('resolved', 'snoozed') OR (b.assignment_mode = 'round_robin' \
             AND c.status = 'open' AND c.assignee_id IS NULL))",
            Params::of(&conn).one_of("c.phone", 2),
        );
        // Only the list's text is formatted in; the values are bound.
        let rows: Vec<(String, String, Option<String>, String)> =
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(business_id)
                .bind(key_list(phones)?)
                .fetch_all(&mut *conn)
                .await?;
        let found = rows
            .into_iter()
            .map(|(phone, status, assignee, mode)| Standing {
                phone,
                status,
                assigned: assignee.is_some(),
                assigning: mode == "round_robin",
            })
            .collect();
        Ok(found)
    }

    /// Reopens a resolved or snoozed conversation its customer wrote to, when the message was
    /// stored (`stored_at`, Unix ms) no earlier than the status was set: a member who resolved it
    /// after the message keeps it resolved. Answers the events, none when nothing changed.
    pub async fn reopen(&self, key: &ConversationKey, stored_at: i64) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let reopened: Vec<(String, String)> = sqlx::query_as(
            "UPDATE contacts SET status = 'open', snoozed_until = NULL, status_at = $3 \
             WHERE business_id = $1 AND phone = $2 AND status IN ('resolved', 'snoozed') \
             AND COALESCE(status_at, 0) <= $4 RETURNING business_id, phone",
        )
        .bind(&key.business_id)
        .bind(&key.phone)
        .bind(now_ms())
        .bind(stored_at)
        .fetch_all(&mut *tx)
        .await?;
        let events = log_swept(&mut tx, reopened, "status", REOPEN_REASON).await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Unassigns every conversation a removed user held.
    pub async fn release_assignee(
        &self,
        business_id: &str,
        user_id: &str,
    ) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let released: Vec<(String, String)> = sqlx::query_as(
            "UPDATE contacts SET assignee_id = NULL, assigned_at = NULL \
             WHERE business_id = $1 AND assignee_id = $2 RETURNING business_id, phone",
        )
        .bind(business_id)
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?;
        let events = log_swept(&mut tx, released, "unassigned", "agent_removed").await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Reopens every snoozed conversation whose time has come. The update picks the rows, so of
    /// several nodes sweeping at once each row is woken by exactly one.
    pub async fn wake_snoozed(&self) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        let woken: Vec<(String, String)> = sqlx::query_as(
            "UPDATE contacts SET status = 'open', snoozed_until = NULL, status_at = $1 \
             WHERE status = 'snoozed' AND snoozed_until <= $1 RETURNING business_id, phone",
        )
        .bind(now_ms())
        .fetch_all(&mut *tx)
        .await?;
        let events = log_swept(&mut tx, woken, "status", "snooze_ended").await?;
        tx.commit().await?;
        Ok(events)
    }

    /// Frees each open conversation whose customer has waited longer than the business's claim
    /// timeout for an answer since they wrote or it was claimed, whichever is later. Reads only
    /// the open, assigned conversations (`contacts_claimed`).
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

    /// Assigns an open, unassigned conversation to the least busy of `candidates` (agents of
    /// the business): fewest open conversations, then the longest since their last assignment.
    /// Answers the events, none when nothing changed.
    pub async fn assign_round_robin(
        &self,
        key: &ConversationKey,
        candidates: &[String],
    ) -> StoreResult<Vec<Event>> {
        let mut tx = self.begin_write().await?;
        // Each candidate's row stays locked on Postgres until the assignment is committed, so an
        // agent removed meanwhile is either no candidate or removed after, with the
        // conversations they hold then released.
        let lock = Backend::of(&tx).row_lock(false);
        let sql = format!(
            "SELECT (SELECT COUNT(*) FROM contacts c WHERE c.business_id = u.business_id \
             AND c.assignee_id = u.id AND c.status = 'open'), \
             (SELECT a.assigned_at FROM last_assignments a WHERE a.business_id = u.business_id \
             AND a.user_id = u.id) FROM users u \
             WHERE u.business_id = $1 AND u.id = $2 AND u.role = 'agent'{lock}"
        );
        let mut best: Option<(i64, i64, &String)> = None;
        for user in candidates {
            // Only the backend's lock clause is formatted in; the values are bound.
            let load: Option<(i64, Option<i64>)> =
                sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
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
        let now = now_ms();
        let updated = sqlx::query(
            "UPDATE contacts SET assignee_id = $1, assigned_at = $2 WHERE business_id = $3 \
             AND phone = $4 AND assignee_id IS NULL AND status = 'open'",
        )
        .bind(chosen)
        .bind(now)
        .bind(&key.business_id)
        .bind(&key.phone)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            return Ok(Vec::new());
        }
        note_assignment(&mut tx, &key.business_id, chosen, now).await?;
        let conversation = vec![(key.business_id.clone(), key.phone.clone())];
        let events = log_swept(&mut tx, conversation, "assigned", "round_robin").await?;
        tx.commit().await?;
        Ok(events)
    }
}
