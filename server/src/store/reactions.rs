//! Reactions on a stored message: each side's one emoji shows in its content
//! (`reactions: {customer?, business?}`), and the `reacted` column keeps, per side, when its
//! reaction last changed and which reactions made at that time were applied. So a redelivered
//! reaction, or one older than the one applied (a removal that overtook its add on the way),
//! changes nothing.

use std::collections::BTreeMap;

use parley_actors::conversation::{Amendment, ConversationKey};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::AnyConnection;

use super::messages::MessageRow;

/// One side's newest reaction applied to a message.
#[derive(Default, Deserialize, Serialize)]
struct Applied {
    /// When it was made (ms).
    at: i64,
    /// The ids of the reactions made at that time and applied: the provider's times are whole
    /// seconds, so one reaction may follow another within one.
    ids: Vec<String>,
}

/// Puts the reaction `emoji` of `amendment`'s side on the stored message `row` (an empty one
/// takes it off), unless it was applied before or is older than the one applied. Answers whether
/// the content changed; the time is kept even when it did not (taking off what was not there).
pub(super) async fn react(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    row: &mut MessageRow,
    amendment: &Amendment,
    emoji: &str,
) -> Result<bool, sqlx::Error> {
    let stored: Option<String> = sqlx::query_scalar(
        "SELECT reacted FROM messages WHERE business_id = $1 AND message_id = $2",
    )
    .bind(&key.business_id)
    .bind(&row.message_id)
    .fetch_one(&mut *conn)
    .await?;
    let mut reacted: BTreeMap<String, Applied> = stored
        .and_then(|stored| serde_json::from_str(&stored).ok())
        .unwrap_or_default();
    let side = amendment.by.key();
    let applied = reacted.entry(side.to_string()).or_default();
    let at = amendment.timestamp_ms;
    if at < applied.at || (at == applied.at && applied.ids.contains(&amendment.id)) {
        return Ok(false);
    }
    if at > applied.at {
        *applied = Applied {
            at,
            ids: Vec::new(),
        };
    }
    applied.ids.push(amendment.id.clone());
    let changed = with_reaction(&row.content, side, emoji);
    if let Some(content) = &changed {
        row.content.clone_from(content);
    }
    let reacted =
        serde_json::to_string(&reacted).map_err(|err| sqlx::Error::Encode(Box::new(err)))?;
    sqlx::query(
        "UPDATE messages SET content = $1, reacted = $2 WHERE business_id = $3 AND message_id = $4",
    )
    .bind(&row.content)
    .bind(reacted)
    .bind(&key.business_id)
    .bind(&row.message_id)
    .execute(&mut *conn)
    .await?;
    Ok(changed.is_some())
}

/// The stored content with `reactions[side]` set to `emoji` (taken off when it is empty), or
/// `None` when that changes nothing.
fn with_reaction(stored: &str, side: &str, emoji: &str) -> Option<String> {
    let mut content: Value = serde_json::from_str(stored).ok()?;
    let reactions = content
        .as_object_mut()?
        .entry("reactions")
        .or_insert_with(|| Value::Object(Default::default()))
        .as_object_mut()?;
    let before = reactions.get(side).cloned();
    match emoji.is_empty() {
        true => reactions.remove(side),
        false => reactions.insert(side.to_string(), Value::from(emoji)),
    };
    if reactions.is_empty() {
        content.as_object_mut()?.remove("reactions");
    }
    let now = content.pointer(&format!("/reactions/{side}")).cloned();
    (now != before).then(|| content.to_string())
}
