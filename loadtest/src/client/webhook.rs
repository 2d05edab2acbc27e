//! Signed Cloud API webhooks: what a customer's message looks like when it reaches Parley.

use anyhow::Result;
use hmac::{Hmac, Mac};
use serde_json::json;
use sha2::Sha256;

use super::api::{Api, status_answer};
use super::business::{Business, customer_phone};
use super::marker::unix_nanos;

impl Api {
    /// Posts a signed webhook; answers the HTTP status.
    pub async fn webhook(&self, body: String, secret: &str) -> Result<u16> {
        let request = self
            .http
            .post(self.url("/webhook"))
            .header("Content-Type", "application/json")
            .header("X-Hub-Signature-256", sign(secret, body.as_bytes()))
            .body(body);
        status_answer(request, "Failed to post a webhook").await
    }
}

/// `sha256=<hex HMAC-SHA256(body, secret)>`.
pub fn sign(secret: &str, body: &[u8]) -> String {
    // unwrap: HMAC accepts keys of any length.
    #[allow(clippy::unwrap_used)]
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// One inbound message: from customer `customer`, provider id `wamid`, carrying `text`.
pub struct Inbound {
    pub customer: usize,
    pub wamid: String,
    pub text: String,
}

/// A Cloud API webhook envelope; message types rotate through text, image, interactive,
/// button, document and location, each carrying the marker where Parley shows it.
pub fn webhook_body(business: &Business, messages: &[Inbound]) -> String {
    let now = (unix_nanos() / 1_000_000_000).to_string();
    let mut contacts = Vec::with_capacity(messages.len());
    let mut items = Vec::with_capacity(messages.len());
    for m in messages {
        let from = customer_phone(m.customer);
        contacts
            .push(json!({"profile": {"name": format!("Customer {}", m.customer)}, "wa_id": from}));
        let mut item = json!({"from": from, "id": m.wamid, "timestamp": now});
        let seed = m.wamid.bytes().map(usize::from).sum::<usize>();
        let kind = match seed % 6 {
            0 => {
                item["image"] = json!({"caption": m.text, "mime_type": "image/jpeg",
                                       "sha256": "00", "id": business.image_id});
                "image"
            }
            1 => {
                item["interactive"] = json!({"type": "button_reply",
                    "button_reply": {"id": "b1", "title": m.text}});
                "interactive"
            }
            2 => {
                item["button"] = json!({"payload": "p", "text": m.text});
                "button"
            }
            3 => {
                item["document"] = json!({"caption": m.text, "filename": "f.pdf",
                    "mime_type": "application/pdf", "sha256": "00", "id": business.document_id});
                "document"
            }
            4 => {
                item["location"] = json!({"latitude": 37.44, "longitude": -122.16,
                                          "name": m.text});
                "location"
            }
            _ => {
                item["text"] = json!({"body": m.text});
                "text"
            }
        };
        item["type"] = json!(kind);
        items.push(item);
    }
    json!({"object": "whatsapp_business_account", "entry": [{"id": "0", "changes": [{
        "field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550000000", "phone_number_id": business.phone_number_id},
            "contacts": contacts, "messages": items}}]}]})
    .to_string()
}
