//! What reports read: message counts per quarter hour, the history of the conversations active
//! in a range, and who handled them. The numbers are computed by `crate::reports`.

use parley_actors::conversation::NOTICE_KIND;
use serde_json::Value;

use super::Store;
use super::error::StoreResult;
use super::team_auto::REOPEN_REASON;

/// Messages are counted per quarter hour (UTC): every time zone's offset is a whole number of
/// quarter hours, so local hour and day buckets are unions of these slots. (The SQL below spells
/// it out as 900000.)
const SLOT_MS: i64 = 15 * 60 * 1000;

/// How many messages went one way in one quarter hour.
pub struct SlotCount {
    /// Start of the quarter hour (Unix ms).
    pub start: i64,
    pub incoming: bool,
    pub count: i64,
}

/// One step of a conversation's history as reports read it.
pub enum Step {
    /// A customer's message.
    Customer,
    /// A message a team member sent (by their user id).
    Member(String),
    /// A status change (`open`, `pending`, `resolved`, `snoozed`) a member made, or the
    /// server's other changes (waking a snooze).
    Status(String),
    /// The server reopened the conversation because its customer wrote: the moment a customer
    /// message arrived while the conversation was resolved or snoozed.
    Reopened,
}

/// A timeline row as read: conversation, time (none for a customer's first message where the
/// customer has not written), direction, sender, an activity entry's content.
type TimelineEntry = (String, Option<i64>, String, Option<String>, String);

/// A step with its conversation and time.
pub struct TimelineRow {
    pub phone: String,
    pub at: i64,
    pub step: Step,
}

impl Store {
    /// Incoming and outgoing messages (not failed ones) of `[from, to)` per quarter hour.
    pub async fn message_slots(
        &self,
        business_id: &str,
        from: i64,
        to: i64,
    ) -> StoreResult<Vec<SlotCount>> {
        let rows: Vec<(i64, String, i64)> = sqlx::query_as(
            "SELECT sent_at / 900000, direction, COUNT(*) FROM messages \
             WHERE business_id = $1 AND sent_at >= $2 AND sent_at < $3 \
             AND direction IN ('incoming', 'outgoing') AND status <> 'failed' AND kind <> $4 \
             GROUP BY sent_at / 900000, direction",
        )
        .bind(business_id)
        .bind(from)
        .bind(to)
        .bind(NOTICE_KIND)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(slot, direction, count)| SlotCount {
                start: slot * SLOT_MS,
                incoming: direction == "incoming",
                count,
            })
            .collect())
    }

    /// Members' messages and status changes before `to` of every conversation with any entry
    /// in `[from, to)`, with its customer's first message before `to`, by conversation and time:
    /// what happened before the range decides whether a message in it opens a conversation. A
    /// customer's later messages change nothing in the walk, so they are not read: on a long
    /// history they are most of its rows. The team's rows come from `messages_team`, which
    /// holds no customer message.
    pub async fn report_timeline(
        &self,
        business_id: &str,
        from: i64,
        to: i64,
    ) -> StoreResult<Vec<TimelineRow>> {
        // SQLite without statistics would find the range's conversations by a scan of the
        // business's whole history (`messages_conversation` covers the read); the range's own
        // index reads only the range.
        let by_time = self.backend.indexed_by("messages_business_time");
        let sql = format!(
            "WITH active AS (SELECT DISTINCT phone FROM messages{by_time} \
                             WHERE business_id = $1 AND sent_at >= $2 AND sent_at < $3) \
             SELECT phone, sent_at, direction, sent_by, \
             CASE WHEN direction = 'internal' THEN content ELSE '' END FROM messages \
             WHERE business_id = $1 AND sent_at < $3 AND direction IN ('outgoing', 'internal') \
             AND ((direction = 'outgoing' AND sent_by IS NOT NULL) \
                  OR (direction = 'internal' AND kind = 'activity')) \
             AND phone IN (SELECT phone FROM active) \
             UNION ALL \
             SELECT phone, (SELECT MIN(m.sent_at) FROM messages m WHERE m.business_id = $1 \
                            AND m.phone = active.phone AND m.direction = 'incoming' \
                            AND m.kind <> $4 AND m.sent_at < $3), \
             'incoming', NULL, '' FROM active \
             ORDER BY 1, 2"
        );
        // Only the backend's index hint is formatted in; the values are bound.
        let rows: Vec<TimelineEntry> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(business_id)
            .bind(from)
            .bind(to)
            .bind(NOTICE_KIND)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(phone, at, direction, sent_by, content)| {
                // A conversation whose customer has not written before `to` has no first message.
                let at = at?;
                let step = match (direction.as_str(), sent_by) {
                    ("incoming", _) => Step::Customer,
                    ("outgoing", Some(user)) => Step::Member(user),
                    _ => status_step(&content)?,
                };
                Some(TimelineRow { phone, at, step })
            })
            .collect())
    }

    /// Per team member: how many conversations they sent a message in during `[from, to)`.
    pub async fn handled_counts(
        &self,
        business_id: &str,
        from: i64,
        to: i64,
    ) -> StoreResult<Vec<(String, i64)>> {
        Ok(sqlx::query_as(
            "SELECT sent_by, COUNT(DISTINCT phone) FROM messages \
             WHERE business_id = $1 AND sent_at >= $2 AND sent_at < $3 \
             AND direction = 'outgoing' AND sent_by IS NOT NULL GROUP BY sent_by",
        )
        .bind(business_id)
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Everyone on the team (the owner and the agents), oldest first: (user id, full name).
    pub async fn members(&self, business_id: &str) -> StoreResult<Vec<(String, String)>> {
        let rows: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT id, first_name, last_name FROM users WHERE business_id = $1 \
             ORDER BY created_at, id",
        )
        .bind(business_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, first, last)| (id, format!("{first} {last}").trim().to_string()))
            .collect())
    }
}

/// The step an activity entry records, if it is a status change.
fn status_step(content: &str) -> Option<Step> {
    let entry: Value = serde_json::from_str(content).ok()?;
    let activity = entry.get("activity")?;
    if activity.get("action")? != "status" {
        return None;
    }
    if activity.get("reason").and_then(Value::as_str) == Some(REOPEN_REASON) {
        return Some(Step::Reopened);
    }
    Some(Step::Status(activity.get("status")?.as_str()?.to_string()))
}
