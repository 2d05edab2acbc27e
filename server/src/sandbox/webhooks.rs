//! Webhooks the sandbox posts back to this server's `/webhook`, signed with the business's app
//! secret exactly as Meta signs them, so they take the same path as real ones.

use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use super::Sandbox;
use crate::store::Business;

fn sign(secret: &str, body: &[u8]) -> String {
    // A key of any length is valid for HMAC.
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap_or_else(|_| unreachable!());
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// The Cloud API envelope around one change value.
fn envelope(business: &Business, value: Value) -> Value {
    let mut value = value;
    value["messaging_product"] = json!("whatsapp");
    value["metadata"] = json!({
        "display_phone_number": business.phone_number,
        "phone_number_id": business.phone_number_id,
    });
    json!({"object": "whatsapp_business_account", "entry": [{
        "id": business.waba_id,
        "changes": [{"field": "messages", "value": value}],
    }]})
}

impl Sandbox {
    /// Posts a signed `messages` webhook for `business` to this server, as the provider would.
    pub(super) async fn post_webhook(
        &self,
        business: &Business,
        value: Value,
    ) -> Result<u16, String> {
        self.post_signed(business, envelope(business, value)).await
    }

    /// Posts a whole webhook body (any field), signed.
    pub(super) async fn post_signed(
        &self,
        business: &Business,
        body: Value,
    ) -> Result<u16, String> {
        let body = body.to_string();
        let response = self
            .http
            .post(format!("{}/webhook", self.self_url))
            .header("Content-Type", "application/json")
            .header(
                "X-Hub-Signature-256",
                sign(&business.app_secret, body.as_bytes()),
            )
            .body(body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        Ok(response.status().as_u16())
    }
}
