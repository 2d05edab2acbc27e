//! Saving and deleting automated replies: the reply row, its new files and its flow steps, each
//! save in one transaction.

use serde_json::Value;
use sqlx::AnyConnection;

use super::error::{Error, StoreResult};
use super::outbox::{MediaFile, insert_media_file};
use super::replies::not_found;
use super::{FlowStep, Reply, Store, is_unique_violation, now_ms, trigger_key};

impl Store {
    /// Creates (`create`) or replaces a reply, its new files and, when given, its flow steps, in
    /// one transaction. A default reply takes the default from any other; a trigger already in
    /// use is a 409.
    pub async fn save_reply(
        &self,
        business_id: &str,
        reply: &Reply,
        steps: Option<&[FlowStep]>,
        files: &[MediaFile],
        create: bool,
    ) -> StoreResult<Reply> {
        let mut tx = self.begin_write().await?;
        let now = now_ms();
        for file in files {
            insert_media_file(&mut tx, business_id, file, now).await?;
        }
        if reply.is_default {
            sqlx::query(
                "UPDATE automated_replies SET is_default = 0 \
                 WHERE business_id = $1 AND id <> $2 AND is_default = 1",
            )
            .bind(business_id)
            .bind(&reply.id)
            .execute(&mut *tx)
            .await?;
        }
        let written = write_reply(&mut tx, business_id, reply, now, create)
            .await
            .map_err(|err| {
                if is_unique_violation(&err) {
                    Error::Conflict(format!(
                        "An automated reply with the trigger \"{}\" already exists",
                        reply.trigger.trim()
                    ))
                } else {
                    err.into()
                }
            })?;
        if written == 0 {
            return Err(not_found());
        }
        if let Some(steps) = steps {
            sqlx::query("DELETE FROM reply_flow_steps WHERE business_id = $1 AND reply_id = $2")
                .bind(business_id)
                .bind(&reply.id)
                .execute(&mut *tx)
                .await?;
            for (position, step) in steps.iter().enumerate() {
                insert_step(&mut tx, business_id, &reply.id, position as i64, step).await?;
            }
        }
        tx.commit().await?;
        self.forget_routes();
        self.reply(business_id, &reply.id).await
    }

    /// Deletes a reply with its steps and cooldown memory; its files stay in `media`, since
    /// messages already sent may show them.
    pub async fn delete_reply(&self, business_id: &str, id: &str) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM reply_flow_steps WHERE business_id = $1 AND reply_id = $2")
            .bind(business_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM reply_deliveries WHERE business_id = $1 AND reply_id = $2")
            .bind(business_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let done = sqlx::query("DELETE FROM automated_replies WHERE business_id = $1 AND id = $2")
            .bind(business_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(not_found());
        }
        tx.commit().await?;
        Ok(())
    }
}

/// Inserts or updates the reply row; answers the rows written.
async fn write_reply(
    conn: &mut AnyConnection,
    business_id: &str,
    reply: &Reply,
    now: i64,
    create: bool,
) -> Result<u64, sqlx::Error> {
    let buttons = serde_json::to_string(&reply.quick_reply_buttons).unwrap_or_else(|_| "[]".into());
    let interactive = reply.interactive.as_ref().map(Value::to_string);
    let media_id = reply.media.as_ref().map(|m| m.id.clone());
    let media_type = reply.media.as_ref().map(|m| m.media_type.clone());
    let query = if create {
        sqlx::query(
            "INSERT INTO automated_replies (trigger_text, trigger_key, kind, response_text, \
             caption, is_active, is_default, cooldown_hours, quick_reply_buttons, media_id, \
             media_type, interactive, updated_at, match_mode, business_id, id, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )
    } else {
        sqlx::query(
            "UPDATE automated_replies SET trigger_text = $1, trigger_key = $2, kind = $3, \
             response_text = $4, caption = $5, is_active = $6, is_default = $7, \
             cooldown_hours = $8, quick_reply_buttons = $9, media_id = $10, media_type = $11, \
             interactive = $12, updated_at = $13, match_mode = $14 \
             WHERE business_id = $15 AND id = $16",
        )
    };
    let query = query
        .bind(reply.trigger.trim())
        .bind(trigger_key(&reply.trigger))
        .bind(&reply.kind)
        .bind(&reply.response_text)
        .bind(&reply.caption)
        .bind(i64::from(reply.is_active))
        .bind(i64::from(reply.is_default))
        .bind(reply.cooldown_hours)
        .bind(buttons)
        .bind(media_id)
        .bind(media_type)
        .bind(interactive)
        .bind(now)
        .bind(reply.match_mode.as_str())
        .bind(business_id)
        .bind(&reply.id);
    // Only a new row has a creation time to write.
    let query = if create { query.bind(now) } else { query };
    Ok(query.execute(&mut *conn).await?.rows_affected())
}

async fn insert_step(
    conn: &mut AnyConnection,
    business_id: &str,
    reply_id: &str,
    position: i64,
    step: &FlowStep,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO reply_flow_steps (business_id, reply_id, trigger_text, position, \
         response_text, caption, quick_reply_buttons, media_id, media_type) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(business_id)
    .bind(reply_id)
    .bind(step.trigger.trim())
    .bind(position)
    .bind(&step.response_text)
    .bind(&step.caption)
    .bind(serde_json::to_string(&step.quick_reply_buttons).unwrap_or_else(|_| "[]".into()))
    .bind(step.media.as_ref().map(|m| m.id.clone()))
    .bind(step.media.as_ref().map(|m| m.media_type.clone()))
    .execute(&mut *conn)
    .await?;
    Ok(())
}
