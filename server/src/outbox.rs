//! Delivers outgoing messages. Each is in the store (message and outbox entry) before the
//! provider is called; an attempt that fails in a way worth retrying is tried again with
//! backoff, paced to the provider's per-number rate, across restarts, until it is accepted or
//! the attempts run out and it is marked failed with the provider's error.

use std::sync::Arc;
use std::time::Duration;

use parley_actors::conversation::{ConversationKey, Conversations, SendOutcome, Sent};
use serde_json::Value;

use crate::config::OutboxSettings;
use crate::error::{ApiError, ApiResult};
use crate::media::store_file;
use crate::provider::{Credentials, Provider, ProviderError};
use crate::rate::TokenBuckets;
use crate::store::{OutboxItem, Store, now_ms};

/// The key under which a payload names a stored file still to be uploaded to the provider.
pub const UPLOAD_KEY: &str = "parley_upload";

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
}

impl Outbox {
    pub fn new(
        store: Store,
        provider: Arc<dyn Provider>,
        conversations: Conversations,
        settings: OutboxSettings,
        data_dir: std::path::PathBuf,
    ) -> Outbox {
        Outbox {
            pacing: TokenBuckets::new(settings.rate_per_second),
            store,
            provider,
            conversations,
            settings,
            data_dir,
        }
    }

    /// Uploads a stored file named by the payload, and puts the provider's media id in its place.
    async fn resolve_upload(
        &self,
        creds: &Credentials,
        business_id: &str,
        payload: &mut Value,
    ) -> Result<(), ProviderError> {
        let Some(upload) = payload
            .get(UPLOAD_KEY)
            .and_then(Value::as_str)
            .map(String::from)
        else {
            return Ok(());
        };
        let kind = payload
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let file = self
            .store
            .media(business_id, &upload)
            .await
            .ok()
            .flatten()
            .ok_or_else(|| ProviderError::Rejected {
                code: 0,
                message: "the file to send is gone".into(),
            })?;
        let bytes = tokio::fs::read(self.data_dir.join(&file.path))
            .await
            .map_err(|e| ProviderError::Rejected {
                code: 0,
                message: format!("the file to send is unreadable: {e}"),
            })?;
        let media_id = self
            .provider
            .upload_media(creds, bytes, &file.mime_type, &file.filename)
            .await?;
        payload[kind.as_str()]["id"] = Value::String(media_id);
        if let Some(map) = payload.as_object_mut() {
            map.remove(UPLOAD_KEY);
        }
        Ok(())
    }

    /// One attempt at an entry the caller holds the lease of.
    pub async fn attempt(&self, item: OutboxItem) -> ApiResult<Attempt> {
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
                    Ok(()) => self.provider.send(&creds, payload).await,
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
            .and_then(|r| r)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("send outcome not recorded: {e}")))?;
        Ok(attempt)
    }

    /// Runs forever: picks up due entries (retries, and sends a crash left behind).
    pub async fn run(self: Arc<Self>) {
        let mut tick = tokio::time::interval(Duration::from_millis(self.settings.poll_ms.max(10)));
        loop {
            tick.tick().await;
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

    /// Keeps a media file from the provider (`GET /{media-id}` then the short-lived URL), so it
    /// stays viewable after the provider's URL expires.
    pub async fn fetch_inbound_media(
        &self,
        business_id: &str,
        media_id: &str,
    ) -> ApiResult<crate::store::MediaFile> {
        if let Some(file) = self.store.media(business_id, media_id).await? {
            return Ok(file);
        }
        let business = self.store.business(business_id).await?;
        let creds = Credentials::of(&business).map_err(|e| ApiError::Unavailable(e.to_string()))?;
        let (bytes, mime) = self
            .provider
            .download_media(&creds, media_id)
            .await
            .map_err(|e| ApiError::NotFound(format!("Media not available: {e}")))?;
        let mime = crate::media::sniff(&bytes).map_or(mime, |(sniffed, _)| sniffed.to_string());
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
    }
}
