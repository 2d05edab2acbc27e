//! Sending to customers: the rules every send follows before the outbox delivers it.
//!
//! - `message`: free-form messages (text or media), only inside the 24-hour reply window
//! - `template`: approved templates to one customer, shown in the inbox as they were sent
//! - `bulk`: durable bulk template jobs, paced at the provider's rate, resumed across nodes
//! - `upload`: an agent's file checked and kept before it is sent
//! - `reaction`: an agent's emoji on a message, sent straight to the provider

mod bulk;
mod message;
mod reaction;
mod template;
mod upload;

use std::path::PathBuf;
use std::sync::Arc;

use parley_actors::hub::EventBus;

pub use bulk::{BULK_SEND_PROGRESS, JobReport};
pub use message::MessageRequest;
pub use template::{Recipients, TemplateRequest, TemplateSent, rendered};
pub use upload::Upload;

use crate::media::MediaError;
use crate::outbox::{Delivery, Outbox, OutboxError};
use crate::provider::Provider;
use crate::refusal::Refusal;
use crate::store::{self, Business, Store};

/// Why a send was not made.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The request breaks a rule of sending (the window, a limit, a missing field).
    #[error("{0}")]
    Invalid(String),
    /// The client named a number that is not the business's.
    #[error("{0}")]
    Forbidden(String),
    /// No such template.
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Store(#[from] store::Error),
    #[error(transparent)]
    Media(#[from] MediaError),
    #[error(transparent)]
    Outbox(#[from] OutboxError),
    /// The provider refused a send made without the outbox (a reaction).
    #[error(transparent)]
    Refused(#[from] Refusal),
}

/// The sending service; cheap to clone (bulk jobs run on clones of it).
#[derive(Clone)]
pub struct Sending {
    store: Store,
    /// Delivers what was stored, with retries.
    outbox: Arc<Outbox>,
    /// For the template list, which is kept in step with the provider before a send.
    provider: Arc<dyn Provider>,
    /// Bulk progress is published to the business's sessions.
    bus: Arc<dyn EventBus>,
    /// This node's id: the holder of the bulk jobs it sends.
    node: String,
    /// Where uploaded files are kept.
    data_dir: PathBuf,
}

/// What a send came to: the delivery, and the URL of an uploaded file.
pub struct Sent {
    pub delivery: Delivery,
    pub media_url: Option<String>,
}

/// Who an outgoing message is from.
struct Sender {
    /// The name the inbox shows beside the message.
    name: String,
    /// The team member, kept for reports; `None` for bulk sends.
    user_id: Option<String>,
}

impl Sending {
    pub fn new(
        store: Store,
        outbox: Arc<Outbox>,
        provider: Arc<dyn Provider>,
        bus: Arc<dyn EventBus>,
        node: String,
        data_dir: PathBuf,
    ) -> Sending {
        Sending {
            store,
            outbox,
            provider,
            bus,
            node,
            data_dir,
        }
    }

    /// The business, when `phone_number_id` (if the client named one) is its number.
    async fn business_sending_from(
        &self,
        business_id: &str,
        phone_number_id: Option<&str>,
        field: &str,
    ) -> Result<Business, SendError> {
        let business = self.store.business(business_id).await?;
        if let Some(pnid) = phone_number_id
            && business.phone_number_id.as_deref() != Some(pnid)
        {
            return Err(SendError::Forbidden(format!(
                "{field} is not this business's number"
            )));
        }
        Ok(business)
    }

    /// This user as the sender of what they send.
    async fn sender(&self, business_id: &str, user_id: &str) -> Result<Sender, SendError> {
        Ok(Sender {
            name: self.store.user(business_id, user_id).await?.full_name(),
            user_id: Some(user_id.to_string()),
        })
    }
}
