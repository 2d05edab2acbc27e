//! Simulated customers: they greet a new business, sometimes answer what they read, and write
//! in on demand (`/sandbox/customers/inject`, for demos and tests).

use actix_web::{HttpResponse, web};
use rand::Rng;
use serde::Deserialize;
use serde_json::{Value, json};

use super::access::SignedIn;
use super::identity::{Addressee, Customer, is_bsuid};
use super::{Sandbox, wamid};
use crate::customer::CustomerKey;
use crate::error::{ApiError, ApiResult, non_blank};
use crate::store::now_ms;

const CUSTOMER_NAMES: [&str; 5] = [
    "Sheena Nelson",
    "Omar Haddad",
    "Lucía Gómez",
    "Wei Chen",
    "Amara Okafor",
];
const CUSTOMER_LINES: [&str; 6] = [
    "Hi! Is my order on its way?",
    "Thanks, that helps a lot.",
    "Can I change the delivery address?",
    "What are your opening hours?",
    "Perfect 👍",
    "مرحبا، هل المنتج متوفر؟",
];

/// A customer's message as the webhook carries it.
fn customer_message(customer: &Customer, message: Value) -> Value {
    let mut message = message;
    customer.stamp_sender(&mut message);
    message["id"] = json!(wamid());
    message["timestamp"] = json!((now_ms() / 1000).to_string());
    json!({"contacts": [customer.contact()], "messages": [message]})
}

fn text(line: &str) -> Value {
    json!({"type": "text", "text": {"body": line}})
}

impl Sandbox {
    /// A new business's first customers writing in, so the inbox is alive at once.
    pub async fn welcome(&self, business_id: &str) {
        for i in 0..self.settings.simulated_customers {
            tokio::time::sleep(self.pause(1500)).await;
            let Ok(business) = self.store.business(business_id).await else {
                return;
            };
            let customer = Customer {
                phone: Some(format!("1555010{:04}", i)),
                name: CUSTOMER_NAMES[i % CUSTOMER_NAMES.len()].to_string(),
                ..Customer::default()
            };
            let line = CUSTOMER_LINES[i % CUSTOMER_LINES.len()];
            let message = customer_message(&customer, text(line));
            if let Err(err) = self.post_webhook(&business, message).await {
                tracing::warn!(error = %err, "sandbox customer could not write in");
            }
        }
    }

    /// After reading a message, the customer answers now and then (`reply_probability`), named
    /// as they wrote in: a username customer without their phone.
    pub(super) async fn maybe_answer(&self, business_id: &str, to: &Addressee) {
        if !rand::thread_rng().gen_bool(self.settings.reply_probability.clamp(0.0, 1.0)) {
            return;
        }
        tokio::time::sleep(self.pause(self.settings.read_delay_ms)).await;
        if let Ok(business) = self.store.business(business_id).await {
            let line = CUSTOMER_LINES[rand::thread_rng().gen_range(0..CUSTOMER_LINES.len())];
            let mut customer =
                self.customer(business.phone_number_id.as_deref().unwrap_or_default(), to);
            if let Ok(name) = self.store.contact_name(business_id, to.key()).await
                && !name.is_empty()
            {
                customer.name = name;
            }
            let message = customer_message(&customer, text(line));
            let _ = self.post_webhook(&business, message).await;
        }
    }
}

#[derive(Deserialize)]
pub struct InjectRequest {
    phone_number_id: Option<String>,
    /// The customer's phone; absent for a username customer whose phone Meta withholds.
    from: Option<String>,
    /// The customer's business-scoped user id (`US.…`).
    user_id: Option<String>,
    /// `@name`, for a customer who took a username (with `user_id`).
    username: Option<String>,
    name: Option<String>,
    text: Option<String>,
    /// A whole Cloud API message object (`type` and its body) instead of `text`.
    message: Option<Value>,
}

impl InjectRequest {
    /// Who writes in: a phone customer (`from`, maybe with `user_id`), or a username customer
    /// (`user_id` without `from`).
    fn customer(&self) -> ApiResult<Customer> {
        let phone = non_blank(&self.from)
            .map(|from| CustomerKey::parse(&from).map(CustomerKey::into_string))
            .transpose()?;
        let user_id = non_blank(&self.user_id);
        if let Some(user_id) = user_id.as_deref().filter(|id| !is_bsuid(id)) {
            return Err(ApiError::Unprocessable(format!(
                "'{user_id}' is not a business-scoped user id: two capital letters, a dot, then letters and digits"
            )));
        }
        if phone.is_none() && user_id.is_none() {
            return Err(ApiError::Unprocessable(
                "from or user_id is required".into(),
            ));
        }
        let username = non_blank(&self.username);
        if username.is_some() && user_id.is_none() {
            return Err(ApiError::Unprocessable(
                "a customer with a username needs a user_id".into(),
            ));
        }
        Ok(Customer {
            phone,
            user_id,
            username,
            name: non_blank(&self.name).unwrap_or_default(),
        })
    }
}

/// `POST /sandbox/customers/inject`: a simulated customer writes in (for demos and tests), by
/// phone or as a username customer without one. The caller must be signed in to the business
/// that owns the number.
pub async fn inject(
    sandbox: web::Data<Sandbox>,
    caller: SignedIn,
    body: web::Json<InjectRequest>,
) -> ApiResult<HttpResponse> {
    let business = sandbox.store.business(&caller.business_id).await?;
    let phone_number_id = body
        .phone_number_id
        .clone()
        .or(business.phone_number_id.clone())
        .unwrap_or_default();
    if business.phone_number_id.as_deref() != Some(phone_number_id.as_str()) {
        return Err(ApiError::Forbidden(
            "That phone number belongs to another business".into(),
        ));
    }
    let customer = body.customer()?;
    let message = match (&body.message, &body.text) {
        (Some(message), _) => message.clone(),
        (None, Some(line)) => text(line),
        (None, None) => {
            return Err(ApiError::Unprocessable(
                "text or message is required".into(),
            ));
        }
    };
    sandbox.meet(&phone_number_id, &customer);
    let value = customer_message(&customer, message);
    let id = value.pointer("/messages/0/id").cloned().unwrap_or_default();
    let status = sandbox
        .post_webhook(&business, value)
        .await
        .map_err(|e| ApiError::Unavailable(format!("webhook not delivered: {e}")))?;
    Ok(HttpResponse::Ok().json(json!({"id": id, "webhook_status": status})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_username_customer_writes_in_without_a_phone() {
        let customer = Customer {
            phone: None,
            user_id: Some("US.13491208655302741918".into()),
            username: Some("@realsheenanelson".into()),
            name: "Sheena Nelson".into(),
        };
        let value = customer_message(&customer, text("Another color?"));
        assert_eq!(
            value["contacts"],
            json!([{"profile": {"name": "Sheena Nelson", "username": "@realsheenanelson"},
                    "user_id": "US.13491208655302741918"}])
        );
        let message = &value["messages"][0];
        assert_eq!(message["from_user_id"], "US.13491208655302741918");
        assert!(message.get("from").is_none(), "{message}");
        assert_eq!(message["text"]["body"], "Another color?");
    }

    #[test]
    fn a_phone_customer_with_a_user_id_is_named_both_ways() {
        let customer = Customer {
            phone: Some("16505551234".into()),
            user_id: Some("US.1349".into()),
            ..Customer::default()
        };
        let value = customer_message(&customer, text("hi"));
        assert_eq!(value["contacts"][0]["wa_id"], "16505551234");
        assert_eq!(value["contacts"][0]["user_id"], "US.1349");
        assert_eq!(value["messages"][0]["from"], "16505551234");
        assert_eq!(value["messages"][0]["from_user_id"], "US.1349");
    }
}
