//! Message templates as the provider reports them, and bulk template sends.

use serde::Serialize;
use serde_json::{Value, json};
use sqlx::FromRow;

use super::error::{Error, StoreResult};
use super::{Store, now_ms};

/// A template of the business.
#[derive(Clone, Debug, FromRow)]
pub struct TemplateRow {
    pub id: String,
    pub name: String,
    pub language: String,
    pub status: String,
    pub category: String,
    /// The provider's components array (JSON).
    pub components: String,
    /// Why the provider rejected, paused or disabled it, as its status webhook said.
    pub rejection_reason: Option<String>,
}

impl TemplateRow {
    /// The template as `GET /api/templates` shows it.
    pub fn to_json(&self) -> TemplateJson<'_> {
        TemplateJson {
            id: &self.id,
            name: &self.name,
            language: &self.language,
            status: &self.status,
            category: &self.category,
            components: serde_json::from_str(&self.components).unwrap_or(json!([])),
            reason: self.rejection_reason.as_deref(),
        }
    }
}

/// A template as the API shows it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TemplateJson<'a> {
    id: &'a str,
    name: &'a str,
    language: &'a str,
    /// `APPROVED`, `PENDING`, `REJECTED`, `PAUSED`, `DISABLED`, … as the provider says.
    status: &'a str,
    category: &'a str,
    /// The components array exactly as the provider gives it: free-form on purpose.
    components: Value,
    /// Why the provider rejected, paused or disabled it.
    reason: Option<&'a str>,
}

/// One recipient of a bulk send.
#[derive(Clone, Debug, FromRow)]
pub struct JobRecipient {
    pub position: i64,
    pub phone: String,
    /// `pending`, `success` or `error`.
    pub status: String,
    pub message_id: Option<String>,
    pub error: Option<String>,
    /// The recipient's own template variables (JSON: column name to value), if any.
    pub variables: Option<String>,
}

/// A bulk send as stored.
#[derive(Clone, Debug, FromRow)]
pub struct SendJob {
    pub business_id: String,
    pub id: String,
    pub template_name: String,
    pub language_code: String,
    /// The template message body with `to` left out (JSON).
    pub payload: String,
    pub sender_name: String,
    pub total: i64,
    pub finished_at: Option<i64>,
}

/// A template id as the store keeps it: Meta sends it as a string in lists and as an integer in
/// webhooks.
pub(super) fn template_id(value: Option<&Value>) -> String {
    value
        .map(|v| {
            v.as_str()
                .map(String::from)
                .unwrap_or_else(|| v.to_string())
        })
        .unwrap_or_default()
}

macro_rules! job_columns {
    () => {
        "business_id, id, template_name, language_code, payload, sender_name, total, finished_at"
    };
}

impl Store {
    /// Replaces what is known of these templates with the provider's word.
    pub async fn upsert_templates(
        &self,
        business_id: &str,
        templates: &[Value],
    ) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        for t in templates {
            let text = |key: &str| {
                t.get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let id = template_id(t.get("id"));
            if id.is_empty() {
                continue;
            }
            sqlx::query(
                "INSERT INTO templates (business_id, id, name, language, status, category, components, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (business_id, id) DO UPDATE SET \
                 name = excluded.name, language = excluded.language, status = excluded.status, \
                 category = excluded.category, components = excluded.components, updated_at = excluded.updated_at",
            )
            .bind(business_id)
            .bind(&id)
            .bind(text("name"))
            .bind(text("language"))
            .bind(text("status"))
            .bind(text("category"))
            .bind(t.get("components").cloned().unwrap_or(json!([])).to_string())
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The business's templates by name and language, in code point order on both backends:
    /// sorted here, not by Postgres's collation (see `labels::all_labels`).
    pub async fn templates(&self, business_id: &str) -> StoreResult<Vec<TemplateRow>> {
        let mut rows: Vec<TemplateRow> = sqlx::query_as(
            "SELECT id, name, language, status, category, components, rejection_reason FROM templates \
             WHERE business_id = $1",
        )
        .bind(business_id)
        .fetch_all(&self.pool)
        .await?;
        rows.sort_by(|a, b| (&a.name, &a.language).cmp(&(&b.name, &b.language)));
        Ok(rows)
    }

    /// Forgets every language of the named template.
    pub async fn delete_templates_named(&self, business_id: &str, name: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM templates WHERE business_id = $1 AND name = $2")
            .bind(business_id)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn template_by_name(
        &self,
        business_id: &str,
        name: &str,
        language: &str,
    ) -> StoreResult<Option<TemplateRow>> {
        Ok(sqlx::query_as(
            "SELECT id, name, language, status, category, components, rejection_reason FROM templates \
             WHERE business_id = $1 AND name = $2 AND language = $3",
        )
        .bind(business_id)
        .bind(name)
        .bind(language)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Stores a bulk send and its recipients in one transaction, leased to `node` until
    /// `lease_until`.
    pub async fn create_send_job(
        &self,
        job: &SendJob,
        recipients: &[(String, Option<String>)],
        node: &str,
        lease_until: i64,
    ) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query(concat!(
            "INSERT INTO send_jobs (",
            job_columns!(),
            ", created_at, lease_owner, lease_until) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        ))
        .bind(&job.business_id)
        .bind(&job.id)
        .bind(&job.template_name)
        .bind(&job.language_code)
        .bind(&job.payload)
        .bind(&job.sender_name)
        .bind(job.total)
        .bind(job.finished_at)
        .bind(now_ms())
        .bind(node)
        .bind(lease_until)
        .execute(&mut *tx)
        .await?;
        for (position, (phone, variables)) in recipients.iter().enumerate() {
            sqlx::query(
                "INSERT INTO send_job_recipients \
                 (business_id, job_id, position, phone, status, variables) \
                 VALUES ($1, $2, $3, $4, 'pending', $5)",
            )
            .bind(&job.business_id)
            .bind(&job.id)
            .bind(position as i64)
            .bind(phone)
            .bind(variables)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn send_job(&self, business_id: &str, job_id: &str) -> StoreResult<SendJob> {
        sqlx::query_as(concat!(
            "SELECT ",
            job_columns!(),
            " FROM send_jobs WHERE business_id = $1 AND id = $2"
        ))
        .bind(business_id)
        .bind(job_id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| Error::NotFound("No such send job".into()))
    }

    /// Leases to `node` every unfinished job whose lease has run out at `now` (its node stopped,
    /// or stalled) until `lease_until`; answers them. One statement, so two nodes never take
    /// the same job.
    pub async fn take_send_jobs(
        &self,
        node: &str,
        now: i64,
        lease_until: i64,
    ) -> StoreResult<Vec<SendJob>> {
        Ok(sqlx::query_as(concat!(
            "UPDATE send_jobs SET lease_owner = $1, lease_until = $2 \
             WHERE finished_at IS NULL AND lease_until < $3 RETURNING ",
            job_columns!()
        ))
        .bind(node)
        .bind(lease_until)
        .bind(now)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Renews `node`'s lease on a job until `lease_until`; false when another node holds it.
    pub async fn renew_send_job(
        &self,
        business_id: &str,
        job_id: &str,
        node: &str,
        lease_until: i64,
    ) -> StoreResult<bool> {
        let renewed = sqlx::query(
            "UPDATE send_jobs SET lease_until = $1 \
             WHERE business_id = $2 AND id = $3 AND lease_owner = $4",
        )
        .bind(lease_until)
        .bind(business_id)
        .bind(job_id)
        .bind(node)
        .execute(&self.pool)
        .await?;
        Ok(renewed.rows_affected() == 1)
    }

    pub async fn pending_recipients(
        &self,
        business_id: &str,
        job_id: &str,
        limit: i64,
    ) -> StoreResult<Vec<JobRecipient>> {
        Ok(sqlx::query_as(
            "SELECT position, phone, status, message_id, error, variables FROM send_job_recipients \
             WHERE business_id = $1 AND job_id = $2 AND status = 'pending' ORDER BY position LIMIT $3",
        )
        .bind(business_id)
        .bind(job_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    pub async fn job_recipients(
        &self,
        business_id: &str,
        job_id: &str,
    ) -> StoreResult<Vec<JobRecipient>> {
        Ok(sqlx::query_as(
            "SELECT position, phone, status, message_id, error, variables FROM send_job_recipients \
             WHERE business_id = $1 AND job_id = $2 ORDER BY position",
        )
        .bind(business_id)
        .bind(job_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// (success, errors) of a job's recipients so far.
    pub async fn job_counts(&self, business_id: &str, job_id: &str) -> StoreResult<(i64, i64)> {
        let (success, errors): (i64, i64) = sqlx::query_as(
            "SELECT COALESCE(SUM(CASE WHEN status = 'success' THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END), 0) \
             FROM send_job_recipients WHERE business_id = $1 AND job_id = $2",
        )
        .bind(business_id)
        .bind(job_id)
        .fetch_one(&self.pool)
        .await?;
        Ok((success, errors))
    }

    /// Stores where several recipients ended (status, message id, error), in one transaction.
    pub async fn set_recipient_results(
        &self,
        business_id: &str,
        job_id: &str,
        results: &[JobRecipient],
    ) -> StoreResult<()> {
        let mut tx = self.begin_write().await?;
        for result in results {
            sqlx::query(
                "UPDATE send_job_recipients SET status = $1, message_id = $2, error = $3 \
                 WHERE business_id = $4 AND job_id = $5 AND position = $6",
            )
            .bind(&result.status)
            .bind(&result.message_id)
            .bind(&result.error)
            .bind(business_id)
            .bind(job_id)
            .bind(result.position)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn finish_send_job(&self, business_id: &str, job_id: &str) -> StoreResult<()> {
        sqlx::query("UPDATE send_jobs SET finished_at = $1 WHERE business_id = $2 AND id = $3")
            .bind(now_ms())
            .bind(business_id)
            .bind(job_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A client message's current id, status and error (a bulk job checks on a queued send).
    pub async fn outgoing_status(
        &self,
        business_id: &str,
        client_id: &str,
    ) -> StoreResult<Option<(String, String, Option<String>)>> {
        Ok(sqlx::query_as("SELECT message_id, status, error FROM messages WHERE business_id = $1 AND client_id = $2")
            .bind(business_id)
            .bind(client_id)
            .fetch_optional(&self.pool)
            .await?)
    }
}
