//! The messaging provider: the WhatsApp Cloud API (or the sandbox that imitates it, reached
//! over HTTP through the same client).
//!
//! - `cloud`: the Cloud API client (the one implementation of `Provider`)

pub mod cloud;

use futures_util::future::BoxFuture;
use serde_json::Value;

use crate::cloud::graph::{GraphError, GraphErrorBody};
use crate::store::Business;

/// What a call to the provider needs of a business.
#[derive(Clone)]
pub struct Credentials {
    pub phone_number_id: String,
    pub access_token: String,
    /// The WhatsApp Business Account: templates live there.
    pub waba_id: String,
    /// The Meta app: media header examples are uploaded through it.
    pub app_id: String,
}

impl Credentials {
    /// The business's credentials, or a clear refusal when its profile lacks them.
    pub fn of(business: &Business) -> Result<Credentials, ProviderError> {
        match business.phone_number_id.as_deref() {
            Some(id) if !business.access_token.is_empty() => Ok(Credentials {
                phone_number_id: id.to_string(),
                access_token: business.access_token.clone(),
                waba_id: business.waba_id.clone(),
                app_id: business.app_id.clone(),
            }),
            _ => Err(ProviderError::NotConfigured),
        }
    }
}

/// The provider's error codes Parley acts on.
pub const RATE_LIMIT: i64 = 130429;
pub const WINDOW_CLOSED: i64 = 131047;
pub const PAYMENT: i64 = 131042;
pub const UNDELIVERABLE: i64 = 131026;

/// A failed provider call.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProviderError {
    #[error("The provider could not be reached: {0}")]
    Network(String),
    #[error("The provider's rate limit was hit ({RATE_LIMIT}): {0}")]
    RateLimited(String),
    #[error("The 24-hour customer service window is closed ({WINDOW_CLOSED}): {0}")]
    WindowClosed(String),
    #[error("Payment problem with the WhatsApp account ({PAYMENT}): {0}")]
    Payment(String),
    /// `details` is the Graph error's `error_data.details` when it says more than `message`.
    #[error("The recipient cannot receive this message ({code}): {message}")]
    InvalidRecipient {
        code: i64,
        message: String,
        details: Option<String>,
    },
    #[error("The provider refused the access token: {0}")]
    Unauthorized(String),
    /// `details` is the Graph error's `error_data.details` when it says more than `message`.
    #[error("The provider refused the request ({code}): {message}")]
    Rejected {
        code: i64,
        message: String,
        details: Option<String>,
    },
    #[error("The business profile has no phoneNumberId or access token")]
    NotConfigured,
}

impl ProviderError {
    /// Reads a Graph error body `{"error": {"message", "code", "error_data": {"details"}}}`.
    pub fn from_body(status: u16, body: GraphErrorBody) -> ProviderError {
        let GraphError {
            message,
            code,
            error_data,
        } = body.error;
        // A refusal the agent can act on keeps Meta's message and its details apart; the others
        // read best as the details alone.
        let (summary, details) = match (message, error_data.details) {
            (Some(message), Some(details)) if message != details => (message, Some(details)),
            (message, details) => (
                details.or(message).unwrap_or_else(|| "no details".into()),
                None,
            ),
        };
        let message = details.clone().unwrap_or_else(|| summary.clone());
        match code {
            RATE_LIMIT | 131056 | 4 | 80007 => ProviderError::RateLimited(message),
            WINDOW_CLOSED => ProviderError::WindowClosed(message),
            PAYMENT => ProviderError::Payment(message),
            UNDELIVERABLE | 131030 | 131049 | 131051 | 100 if status != 401 => {
                ProviderError::InvalidRecipient {
                    code,
                    message: summary,
                    details,
                }
            }
            190 => ProviderError::Unauthorized(message),
            _ if status == 401 => ProviderError::Unauthorized(message),
            _ if status >= 500 => ProviderError::Network(format!("HTTP {status}: {message}")),
            _ => ProviderError::Rejected {
                code,
                message: summary,
                details,
            },
        }
    }

    /// Worth another attempt later (the outbox retries these with backoff).
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            ProviderError::Network(_) | ProviderError::RateLimited(_)
        )
    }

    /// The provider's code, for the stored error.
    pub fn code(&self) -> i64 {
        match self {
            ProviderError::RateLimited(_) => RATE_LIMIT,
            ProviderError::WindowClosed(_) => WINDOW_CLOSED,
            ProviderError::Payment(_) => PAYMENT,
            ProviderError::InvalidRecipient { code, .. } | ProviderError::Rejected { code, .. } => {
                *code
            }
            ProviderError::Unauthorized(_) => 190,
            ProviderError::Network(_) | ProviderError::NotConfigured => 0,
        }
    }

    /// What the provider said beyond the error's text (its `error_data.details`).
    pub fn details(&self) -> Option<&str> {
        match self {
            ProviderError::InvalidRecipient { details, .. }
            | ProviderError::Rejected { details, .. } => details.as_deref(),
            _ => None,
        }
    }

    /// The error as stored on a failed message and pushed to agents; the details where a status
    /// webhook's error has them (`error_data.details`).
    pub fn to_json(&self) -> Value {
        let mut json = serde_json::json!({"code": self.code(), "title": self.to_string()});
        if let Some(details) = self.details() {
            json["error_data"] = serde_json::json!({ "details": details });
        }
        json
    }
}

/// The calls Parley makes to the provider.
pub trait Provider: Send + Sync + 'static {
    /// Sends a message body (`messaging_product`, `to`, `type`, …); answers the provider's id.
    fn send(
        &self,
        creds: &Credentials,
        body: Value,
    ) -> BoxFuture<'static, Result<String, ProviderError>>;
    /// Marks an inbound message read (blue ticks on the customer's phone).
    fn mark_read(
        &self,
        creds: &Credentials,
        message_id: &str,
    ) -> BoxFuture<'static, Result<(), ProviderError>>;
    /// Uploads a file; answers the media id to send it by.
    fn upload_media(
        &self,
        creds: &Credentials,
        bytes: Vec<u8>,
        mime_type: &str,
        filename: &str,
    ) -> BoxFuture<'static, Result<String, ProviderError>>;
    /// Looks a media id up and downloads it; answers the bytes and their type.
    fn download_media(
        &self,
        creds: &Credentials,
        media_id: &str,
    ) -> BoxFuture<'static, Result<(Vec<u8>, String), ProviderError>>;
    /// Submits a template for review; answers `{id, status, category}`.
    fn create_template(
        &self,
        creds: &Credentials,
        body: Value,
    ) -> BoxFuture<'static, Result<Value, ProviderError>>;
    /// Deletes every language of the named template from the account.
    fn delete_template(
        &self,
        creds: &Credentials,
        name: &str,
    ) -> BoxFuture<'static, Result<(), ProviderError>>;
    /// The account's templates (all pages).
    fn list_templates(
        &self,
        creds: &Credentials,
    ) -> BoxFuture<'static, Result<Vec<Value>, ProviderError>>;
    /// Uploads a template header example through the resumable upload; answers its handle.
    fn upload_handle(
        &self,
        creds: &Credentials,
        bytes: Vec<u8>,
        mime_type: &str,
    ) -> BoxFuture<'static, Result<String, ProviderError>>;
}
