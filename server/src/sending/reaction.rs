//! An agent's reaction: an emoji on a message of the conversation (an empty one takes it off).
//! It is a free-form message for the provider (the 24-hour window applies) but no message in
//! the inbox: it is sent straight away, not through the outbox, and then shown on the message.

use serde_json::json;

use super::{SendError, Sending};
use crate::customer::{CustomerKey, address};
use crate::provider::Credentials;
use crate::refusal::refusal;

/// How long an emoji may be: one emoji, possibly with modifiers and joiners.
const EMOJI_MAX: usize = 16;

impl Sending {
    /// Sends the reaction to the provider; answers the provider's id of the reaction.
    pub async fn send_reaction(
        &self,
        business_id: &str,
        to: &CustomerKey,
        message_id: &str,
        emoji: &str,
    ) -> Result<String, SendError> {
        if emoji.chars().count() > EMOJI_MAX || emoji.chars().any(char::is_alphanumeric) {
            return Err(SendError::Invalid("emoji must be a single emoji".into()));
        }
        let phone = to.as_str();
        // The message first: a key the business holds no message under is not found, whatever
        // its window.
        self.quoted(business_id, phone, message_id).await?;
        self.check_window(business_id, phone).await?;
        let business = self.store.business(business_id).await?;
        let creds = Credentials::of(&business).map_err(|err| refusal(&err))?;
        let mut payload = json!({
            "messaging_product": "whatsapp", "recipient_type": "individual",
            "type": "reaction", "reaction": {"message_id": message_id, "emoji": emoji},
        });
        address(&mut payload, phone);
        let id = self
            .provider
            .send(&creds, payload)
            .await
            .map_err(|err| refusal(&err))?;
        Ok(id)
    }
}
