//! Delivers outgoing messages. Each is in the store (message and outbox entry) before the
//! provider is called; an attempt that fails in a way worth retrying is tried again with
//! backoff, paced to the provider's per-number rate, across restarts, until it is accepted or
//! the attempts run out and it is marked failed with the provider's error. The provider's answer
//! is journaled the moment it arrives (`send_line`, `answer_journal`), so a crash before the
//! store records it does not make the outbox send that message again.

use std::sync::Arc;
use std::time::Duration;

use parley_actors::conversation::{
    ConversationKey, Conversations, Outgoing, OutgoingMessage, OutgoingState, SendOutcome, Sent,
};
use parley_actors::error::StoreError;
use serde_json::Value;

use crate::config::OutboxSettings;
use crate::media::{MediaError, store_file};
use crate::metrics;
use crate::provider::{Credentials, Provider, ProviderError};
use crate::rate::TokenBuckets;
use crate::refusal::{Refusal, refusal};
use crate::send_line::SendLine;
use crate::store::{self, MediaFile, OutboxItem, Store, now_ms};

/// The key under which a payload names a stored file still to be uploaded to the provider, and
/// the JSON pointer where its media id goes.
pub const UPLOAD_KEY: &str = "parley_upload";

/// What sending a message came to, for the caller.
#[derive(Debug)]
pub enum Delivery {
    /// The provider took it; its id.
    Accepted(String),
    /// Stored; the outbox keeps trying (id is still the client's).
    Queued { id: String, reason: String },
    /// Refused for good, with what to tell the agent.
    Refused(Refusal),
}

/// Why the outbox could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error(transparent)]
    Store(#[from] store::Error),
    /// The conversation actor did not record the message or its outcome.
    #[error("the conversation did not record it: {0}")]
    Conversation(#[from] StoreError),
    #[error("outbox entry vanished")]
    Vanished,
    /// The business has no provider credentials to fetch media with.
    #[error("{0}")]
    NotConfigured(String),
    /// The provider has no such media (any more).
    #[error("Media not available: {0}")]
    MediaUnavailable(String),
    #[error(transparent)]
    Media(#[from] MediaError),
    /// The journals of the provider's answers could not be read.
    #[error("send answer journal: {0}")]
    Journal(#[from] std::io::Error),
}

/// What one attempt came to.
#[derive(Debug)]
pub enum Attempt {
    Accepted(String),
    /// Failed for now; the entry waits for its next attempt.
    Retrying(ProviderError),
    Failed(ProviderError),
}

pub struct Outbox {
    store: Store,
    provider: Arc<dyn Provider>,
    conversations: Conversations,
    /// Paces sends per phone number id.
    pacing: TokenBuckets,
    settings: OutboxSettings,
    data_dir: std::path::PathBuf,
    /// Where messages are sent, their answers journaled from their arrival until the store
    /// has them.
    line: SendLine,
}

impl Outbox {
    pub fn new(
        store: Store,
        provider: Arc<dyn Provider>,
        conversations: Conversations,
        settings: OutboxSettings,
        data_dir: std::path::PathBuf,
        line: SendLine,
    ) -> Outbox {
        Outbox {
            line,
            pacing: TokenBuckets::new(settings.rate_per_second),
            store,
            provider,
            conversations,
            settings,
            data_dir,
        }
    }

    /// Uploads a stored file the payload names (`{"parley_upload": {"media_id", "pointer"}}`) and
    /// puts the provider's media id where the pointer says.
    async fn resolve_upload(
        &self,
        creds: &Credentials,
        business_id: &str,
        payload: &mut Value,
    ) -> Result<(), ProviderError> {
        let Some(upload) = payload
            .as_object_mut()
            .and_then(|map| map.remove(UPLOAD_KEY))
        else {
            return Ok(());
        };
        let gone = |why: String| ProviderError::Rejected {
            code: 0,
            message: why,
            details: None,
        };
        let (Some(local_id), Some(pointer)) = (
            upload.get("media_id").and_then(Value::as_str),
            upload.get("pointer").and_then(Value::as_str),
        ) else {
            return Err(gone("malformed upload reference".into()));
        };
        let file = self
            .store
            .media(business_id, local_id)
            .await
            .ok()
            .flatten()
            .ok_or_else(|| gone("the file to send is gone".into()))?;
        let bytes = tokio::fs::read(self.data_dir.join(&file.path))
            .await
            .map_err(|e| gone(format!("the file to send is unreadable: {e}")))?;
        let media_id = self
            .provider
            .upload_media(creds, bytes, &file.mime_type, &file.filename)
            .await?;
        let slot = payload
            .pointer_mut(pointer)
            .ok_or_else(|| gone(format!("no {pointer} in the message")))?;
        *slot = Value::String(media_id);
        Ok(())
    }

    /// One attempt at an entry the caller holds the lease of.
    pub async fn attempt(&self, item: OutboxItem) -> Result<Attempt, OutboxError> {
        let key = ConversationKey {
            business_id: item.business_id.clone(),
            phone: item.phone.clone(),
        };
        let business = self.store.business(&item.business_id).await?;
        let mut payload: Value = serde_json::from_str(&item.payload).unwrap_or(Value::Null);
        let sent = match Credentials::of(&business) {
            Ok(creds) => {
                self.pacing.take(&creds.phone_number_id).await;
                match self
                    .resolve_upload(&creds, &business.id, &mut payload)
                    .await
                {
                    Ok(()) => self.line.send(&creds, payload, &item).await,
                    Err(err) => Err(err),
                }
            }
            Err(err) => Err(err),
        };
        let (outcome, attempt) = match sent {
            Ok(provider_id) => (
                SendOutcome::Accepted {
                    client_id: item.client_id.clone(),
                    provider_id: provider_id.clone(),
                },
                Attempt::Accepted(provider_id),
            ),
            Err(err)
                if err.retryable() && item.attempts + 1 < self.settings.max_attempts as i64 =>
            {
                let backoff = self
                    .settings
                    .first_retry_ms
                    .saturating_mul(1 << item.attempts.min(16))
                    .min(self.settings.max_retry_ms);
                tracing::warn!(client_id = %item.client_id, attempts = item.attempts + 1, error = %err, "send will be retried");
                metrics::outbox_retry();
                self.store
                    .reschedule_outbox(&item, now_ms() + backoff as i64)
                    .await?;
                return Ok(Attempt::Retrying(err));
            }
            Err(err) => (
                SendOutcome::Failed {
                    client_id: item.client_id.clone(),
                    error: err.to_json(),
                },
                Attempt::Failed(err),
            ),
        };
        self.conversations
            .ask(&key, Sent(outcome))
            .await
            .and_then(|r| r)?;
        if let Attempt::Accepted(_) = attempt {
            self.line.journal().recorded();
        }
        Ok(attempt)
    }

    /// Records the answers that processes gone before their store had them left in their
    /// journals (those whose entry is still in the outbox), then removes those journals. Run
    /// at start-up before any attempt, and at every poll for other nodes' crashes.
    pub async fn adopt_orphans(&self) -> Result<(), OutboxError> {
        for orphan in self.line.journal().orphans()? {
            let mut adopted = 0;
            for answer in &orphan.answers {
                let waiting = self
                    .store
                    .outbox_item(&answer.business_id, &answer.client_id)
                    .await?;
                if waiting.is_none() {
                    continue;
                }
                let key = ConversationKey {
                    business_id: answer.business_id.clone(),
                    phone: answer.phone.clone(),
                };
                let outcome = SendOutcome::Accepted {
                    client_id: answer.client_id.clone(),
                    provider_id: answer.provider_id.clone(),
                };
                self.conversations
                    .ask(&key, Sent(outcome))
                    .await
                    .and_then(|r| r)?;
                adopted += 1;
            }
            if adopted > 0 {
                tracing::info!(
                    adopted,
                    "recorded the provider's answers a crash left unstored"
                );
            }
            orphan.done();
        }
        Ok(())
    }

    /// Stores a message through its conversation actor, then makes the first attempt at once.
    /// Idempotent on the client id: a repeat answers where the first one stands.
    pub async fn send(
        &self,
        key: ConversationKey,
        message: OutgoingMessage,
    ) -> Result<Delivery, OutboxError> {
        let client_id = message.client_id.clone();
        let recorded = self
            .conversations
            .ask(&key, Outgoing(message))
            .await
            .and_then(|r| r)?;
        match recorded {
            OutgoingState::Created => {
                let item = self
                    .store
                    .outbox_item(&key.business_id, &client_id)
                    .await?
                    .ok_or(OutboxError::Vanished)?;
                Ok(match self.attempt(item).await? {
                    Attempt::Accepted(id) => Delivery::Accepted(id),
                    Attempt::Retrying(err) => Delivery::Queued {
                        id: client_id,
                        reason: err.to_string(),
                    },
                    Attempt::Failed(err) => Delivery::Refused(refusal(&err)),
                })
            }
            OutgoingState::Existing {
                message_id,
                status,
                error,
            } => Ok(match status.as_str() {
                "failed" => {
                    let said = |pointer: &str| {
                        let error = error.as_ref()?;
                        error
                            .pointer(pointer)
                            .and_then(Value::as_str)
                            .map(String::from)
                    };
                    Delivery::Refused(Refusal::Rejected {
                        text: said("/title")
                            .unwrap_or_else(|| "The message could not be sent".into()),
                        details: said("/error_data/details"),
                    })
                }
                "sending" | "pending" => Delivery::Queued {
                    id: message_id,
                    reason: "the first attempt is still under way".into(),
                },
                _ => Delivery::Accepted(message_id),
            }),
        }
    }

    /// Runs forever: picks up due entries (retries, and sends a crash left behind).
    pub async fn run(self: Arc<Self>) {
        let mut tick = tokio::time::interval(Duration::from_millis(self.settings.poll_ms.max(10)));
        loop {
            tick.tick().await;
            if let Err(err) = self.adopt_orphans().await {
                tracing::warn!(error = %err, "send answer journals not read");
            }
            let due = match self.store.claim_due_outbox(100).await {
                Ok(due) => due,
                Err(err) => {
                    tracing::warn!(error = %err, "outbox poll failed");
                    continue;
                }
            };
            let attempts = due.into_iter().map(|item| {
                let outbox = self.clone();
                async move {
                    if let Err(err) = outbox.attempt(item).await {
                        tracing::warn!(error = %err, "outbox attempt failed");
                    }
                }
            });
            futures_util::future::join_all(attempts).await;
        }
    }

    /// A media file of the business: the one kept, or else fetched from the provider now and
    /// kept (`keep_inbound_media`).
    pub async fn fetch_inbound_media(
        &self,
        business_id: &str,
        media_id: &str,
    ) -> Result<MediaFile, OutboxError> {
        match self.store.media(business_id, media_id).await? {
            Some(file) => Ok(file),
            None => self.keep_inbound_media(business_id, media_id).await,
        }
    }

    /// Keeps a media file from the provider (`GET /{media-id}` then the short-lived URL), so it
    /// stays viewable after the provider's URL expires.
    pub async fn keep_inbound_media(
        &self,
        business_id: &str,
        media_id: &str,
    ) -> Result<MediaFile, OutboxError> {
        let business = self.store.business(business_id).await?;
        let creds =
            Credentials::of(&business).map_err(|e| OutboxError::NotConfigured(e.to_string()))?;
        let (bytes, mime) = self
            .provider
            .download_media(&creds, media_id)
            .await
            .map_err(|e| OutboxError::MediaUnavailable(e.to_string()))?;
        let mime =
            crate::media::cloud_type(&bytes).map_or(mime, |(sniffed, _)| sniffed.to_string());
        store_file(
            &self.store,
            &self.data_dir,
            business_id,
            media_id,
            &bytes,
            &mime,
            "",
        )
        .await
        .map_err(OutboxError::from)
    }
}
