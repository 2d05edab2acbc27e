//! Why a message was refused for good, in words for the agent: the provider's error told apart
//! into what the agent can act on (with the provider's details) and what is out of their reach.

use crate::provider::ProviderError;

/// Why a message was refused for good, in words for the agent.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The provider refused the message, for a reason the agent can act on; `details` is what
    /// the provider said beyond that (its `error_data.details`).
    #[error("{text}")]
    Rejected {
        text: String,
        details: Option<String>,
    },
    /// The provider could not be reached or is not set up.
    #[error("{0}")]
    Unreachable(String),
}

impl Refusal {
    /// The refusal in one line: its text, then the provider's details.
    pub fn in_full(&self) -> String {
        match self {
            Refusal::Rejected {
                text,
                details: Some(details),
            } => format!("{text}: {details}"),
            other => other.to_string(),
        }
    }
}

/// A refusal the agent sees, from the provider's error.
pub(crate) fn refusal(err: &ProviderError) -> Refusal {
    match err {
        ProviderError::Unauthorized(_)
        | ProviderError::NotConfigured
        | ProviderError::Network(_) => Refusal::Unreachable(err.to_string()),
        _ => Refusal::Rejected {
            text: err.to_string(),
            details: err.details().map(String::from),
        },
    }
}
