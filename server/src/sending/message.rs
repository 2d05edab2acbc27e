//! Free-form messages: text, or a file with an optional caption, sent only while the customer's
//! 24-hour reply window is open.

use parley_actors::conversation::{ConversationKey, OutgoingMessage};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::SendError;
use super::upload::{Kept, Upload};
use super::{Sending, Sent};
use crate::cloud::{CAPTION_MAX, TEXT_MAX};
use crate::customer::{CustomerKey, address};
use crate::media::check_upload;
use crate::outbox::UPLOAD_KEY;
use crate::store::now_ms;

/// How long after the customer's last message free-form messages may be sent.
const WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// A free-form message an agent sends.
pub struct MessageRequest {
    pub to: CustomerKey,
    /// The client's id for the message: a retry with the same id never sends twice.
    pub client_id: String,
    /// The number the client believes it sends from, checked against the business's.
    pub phone_number_id: Option<String>,
    pub text: Option<String>,
    pub caption: Option<String>,
    /// The kind the client says the file is (`image`, `video`, `audio`, `document`).
    pub claimed_kind: Option<String>,
    pub file: Option<Upload>,
    /// The `message_id` of the conversation's message this one answers (a quoted reply).
    pub reply_to: Option<String>,
}

impl Sending {
    /// Stores and sends a free-form message. Idempotent on the client id.
    pub async fn send_message(
        &self,
        business_id: &str,
        user_id: &str,
        request: MessageRequest,
    ) -> Result<Sent, SendError> {
        let phone = request.to.into_string();
        self.business_sending_from(
            business_id,
            request.phone_number_id.as_deref(),
            "phoneNumberId",
        )
        .await?;
        self.check_window(business_id, &phone).await?;
        let context = match &request.reply_to {
            Some(id) => Some(self.quoted(business_id, &phone, id).await?),
            None => None,
        };
        let sender = self.sender(business_id, user_id).await?;
        let caption = request
            .caption
            .or_else(|| request.text.clone().filter(|_| request.file.is_some()));
        let mut media_url = None;
        let (kind, content, payload) = match &request.file {
            Some(file) => {
                // Named after the client id, so a retried upload overwrites instead of piling up.
                let media_id = hex::encode(Sha256::digest(format!(
                    "{business_id}:{}",
                    request.client_id
                )))[..32]
                    .to_string();
                let checked = check_upload(&file.bytes, request.claimed_kind.as_deref())?;
                if caption
                    .as_ref()
                    .is_some_and(|c| c.chars().count() > CAPTION_MAX)
                {
                    return Err(SendError::Invalid(format!(
                        "caption is longer than {CAPTION_MAX} characters"
                    )));
                }
                let kept = self
                    .keep_upload(business_id, &media_id, file, checked)
                    .await?;
                let url = format!("/api/media/{media_id}");
                media_url = Some(url.clone());
                media_message(&phone, &media_id, &url, &kept, caption.as_deref())
            }
            None => {
                let text = request
                    .text
                    .ok_or_else(|| SendError::Invalid("text or file is required".into()))?;
                if text.chars().count() > TEXT_MAX {
                    return Err(SendError::Invalid(format!(
                        "text is longer than {TEXT_MAX} characters"
                    )));
                }
                let mut payload = json!({
                    "messaging_product": "whatsapp", "recipient_type": "individual",
                    "type": "text", "text": {"preview_url": true, "body": text},
                });
                address(&mut payload, &phone);
                ("text".to_string(), json!({"text": text}), payload)
            }
        };
        let (mut content, mut payload) = (content, payload);
        if let Some(context) = context {
            payload["context"] = json!({"message_id": context["id"]});
            content["context"] = context;
        }
        let key = ConversationKey {
            business_id: business_id.to_string(),
            phone,
        };
        let message = OutgoingMessage {
            client_id: request.client_id,
            kind,
            content,
            sender_name: sender.name,
            sent_by: sender.user_id,
            payload,
        };
        Ok(Sent {
            delivery: self.outbox.send(key, message).await?,
            media_url,
        })
    }
}

impl Sending {
    /// Free-form messages (replies, files, reactions) only while the customer's 24-hour window
    /// is open.
    pub(super) async fn check_window(
        &self,
        business_id: &str,
        phone: &str,
    ) -> Result<(), SendError> {
        let last_incoming = self.store.last_incoming_at(business_id, phone).await?;
        if last_incoming.is_none_or(|at| now_ms() - at > WINDOW_MS) {
            return Err(SendError::Invalid(
                "The 24-hour reply window with this customer is closed: they have not written \
                 in the last 24 hours. Send an approved template instead."
                    .into(),
            ));
        }
        Ok(())
    }

    /// The `context` of a reply to (or a reaction on) a message of the conversation; 404 when
    /// the conversation has no such message.
    pub(super) async fn quoted(
        &self,
        business_id: &str,
        phone: &str,
        message_id: &str,
    ) -> Result<Value, SendError> {
        self.store
            .reply_context(business_id, phone, message_id)
            .await?
            .ok_or_else(|| {
                SendError::NotFound(format!("message {message_id} is not in this conversation"))
            })
    }
}

/// (kind, what the inbox shows, the provider body) of a media message. The provider's media id
/// is filled in by the outbox once the file is uploaded.
fn media_message(
    phone: &str,
    media_id: &str,
    url: &str,
    kept: &Kept,
    caption: Option<&str>,
) -> (String, Value, Value) {
    let name = kept.kind.name();
    let mut body = json!({"id": ""});
    let mut shown = json!({"media_url": url, "mime_type": kept.mime, "filename": kept.filename});
    if name == "document" {
        body["filename"] = json!(kept.filename);
    }
    if name != "audio"
        && let Some(caption) = caption
    {
        body["caption"] = json!(caption);
    }
    if name == "audio" {
        shown["voice"] = json!(kept.mime == "audio/ogg");
    }
    let mut content = json!({ name: shown });
    if let Some(caption) = caption {
        content["caption"] = json!(caption);
    }
    let mut payload = json!({
        "messaging_product": "whatsapp", "recipient_type": "individual",
        "type": name, name: body,
        UPLOAD_KEY: {"media_id": media_id, "pointer": format!("/{name}/id")},
    });
    address(&mut payload, phone);
    (name.to_string(), content, payload)
}
