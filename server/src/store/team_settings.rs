//! The business's team settings: the assignment mode and the claim timeout.

use serde::Serialize;

use super::Store;
use super::error::StoreResult;

/// The business's team settings.
#[derive(Serialize, utoipa::ToSchema)]
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
