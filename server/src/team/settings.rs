//! The business's team settings: how new conversations are assigned, and how long a claim holds
//! while a customer waits for an answer.

use serde_json::Value;

use super::TeamError;

/// The assignment modes: by hand, or to the least busy connected agent.
pub const ASSIGNMENT_MODES: [&str; 2] = ["manual", "round_robin"];
/// The longest claim timeout: one week, in minutes.
pub const MAX_CLAIM_TIMEOUT_MINUTES: i64 = 7 * 24 * 60;

/// A checked change of the settings; `None` keeps a value.
#[derive(Default)]
pub struct SettingsChange {
    pub assignment_mode: Option<String>,
    pub claim_timeout_minutes: Option<i64>,
}

impl SettingsChange {
    /// Checks the profile's fields: a known mode, a whole number of minutes in 0–10080.
    pub fn check(
        assignment_mode: Option<&str>,
        claim_timeout_minutes: Option<&Value>,
    ) -> Result<SettingsChange, TeamError> {
        if let Some(mode) = assignment_mode
            && !ASSIGNMENT_MODES.contains(&mode)
        {
            return Err(TeamError::Invalid(
                "assignment_mode must be manual or round_robin".into(),
            ));
        }
        let timeout = match claim_timeout_minutes {
            None => None,
            Some(value) => Some(
                value
                    .as_i64()
                    .filter(|m| (0..=MAX_CLAIM_TIMEOUT_MINUTES).contains(m))
                    .ok_or_else(|| {
                        TeamError::Invalid(format!(
                            "claim_timeout_minutes must be a whole number from 0 to \
                             {MAX_CLAIM_TIMEOUT_MINUTES}"
                        ))
                    })?,
            ),
        };
        Ok(SettingsChange {
            assignment_mode: assignment_mode.map(String::from),
            claim_timeout_minutes: timeout,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.assignment_mode.is_none() && self.claim_timeout_minutes.is_none()
    }
}
