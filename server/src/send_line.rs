//! The outbox's sends to the provider, made on a thread of their own through an HTTP client of
//! their own. The main thread also runs the conversation actors and the store's answers; when
//! it is busy, an answer that waited there for its turn was an answer a crash could lose. Here
//! the answer is read and journaled as soon as it arrives, and only then handed back.

use std::sync::{Arc, OnceLock};

use serde_json::Value;
use tokio::runtime::Handle;

use crate::answer_journal::{Answer, AnswerJournal};
use crate::provider::{Credentials, Provider, ProviderError};
use crate::store::OutboxItem;

/// The send thread's runtime, one per process (the tests run many servers in one).
static SEND_THREAD: OnceLock<Handle> = OnceLock::new();

fn send_thread() -> std::io::Result<Handle> {
    if let Some(handle) = SEND_THREAD.get() {
        return Ok(handle.clone());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let handle = runtime.handle().clone();
    std::thread::Builder::new()
        .name("parley-send".into())
        .spawn(move || runtime.block_on(std::future::pending::<()>()))?;
    // Another server of the process may have started one meanwhile; its thread idles on.
    Ok(SEND_THREAD.get_or_init(|| handle).clone())
}

pub struct SendLine {
    thread: Handle,
    /// A client used only from the send thread, so its connections are driven there too.
    provider: Arc<dyn Provider>,
    journal: Arc<AnswerJournal>,
}

impl SendLine {
    pub fn start(provider: Arc<dyn Provider>, journal: AnswerJournal) -> std::io::Result<SendLine> {
        Ok(SendLine {
            thread: send_thread()?,
            provider,
            journal: Arc::new(journal),
        })
    }

    pub fn journal(&self) -> &AnswerJournal {
        &self.journal
    }

    /// Sends one outbox entry's message; an accepted one is journaled before it is answered.
    pub async fn send(
        &self,
        creds: &Credentials,
        payload: Value,
        item: &OutboxItem,
    ) -> Result<String, ProviderError> {
        let request = self.provider.send(creds, payload);
        let journal = self.journal.clone();
        let (business_id, client_id, phone) = (
            item.business_id.clone(),
            item.client_id.clone(),
            item.phone.clone(),
        );
        let sent = self.thread.spawn(async move {
            let sent = request.await;
            if let Ok(provider_id) = &sent {
                journal.append(&Answer {
                    business_id,
                    client_id,
                    phone,
                    provider_id: provider_id.clone(),
                });
            }
            sent
        });
        sent.await
            .unwrap_or_else(|err| Err(ProviderError::Network(format!("send task: {err}"))))
    }
}
