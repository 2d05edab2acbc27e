//! Sends: the checks the Cloud API makes (shape, 24-hour window, approved templates, rate),
//! then the receipts of an accepted message, and the log of what was accepted.

use std::collections::{HashMap, VecDeque};

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use super::graph::graph_error;
use super::identity::{Addressee, Customer};
use super::{Sandbox, wamid};
use crate::error::ApiResult;
use crate::store::{Business, now_ms};
use crate::templates::rules::variables;

/// Accepted sends remembered per number, for the inspection endpoint.
const SENT_LOG_LEN: usize = 10_000;
/// The Cloud API's refusal of a business-scoped user id for this kind of message.
const BSUID_NOT_SUPPORTED: i64 = 131062;
/// How long the customer-service window stays open after the customer writes.
const WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// The accepted messages of earlier runs, newest last (at most `SENT_LOG_LEN` per number).
pub(super) fn read_sent_log(path: &std::path::Path) -> HashMap<String, VecDeque<Value>> {
    let mut sent: HashMap<String, VecDeque<Value>> = HashMap::new();
    let Ok(raw) = std::fs::read_to_string(path) else {
        return sent;
    };
    for line in raw
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        let number = line["phone_number_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        push_bounded(sent.entry(number).or_default(), line["message"].clone());
    }
    sent
}

fn push_bounded(log: &mut VecDeque<Value>, message: Value) {
    if log.len() == SENT_LOG_LEN {
        log.pop_front();
    }
    log.push_back(message);
}

impl Sandbox {
    /// Keeps an accepted message, in memory and appended to `sandbox-sent.jsonl`, so what the
    /// "provider" received can be counted across restarts of the server.
    fn remember(&self, phone_number_id: &str, body: Value) {
        let line = json!({"phone_number_id": phone_number_id, "message": body});
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.media_dir.with_file_name("sandbox-sent.jsonl"))
            .and_then(|mut file| {
                std::io::Write::write_all(&mut file, format!("{line}\n").as_bytes())
            });
        if let Err(err) = appended {
            tracing::warn!(error = %err, "sandbox sent log not written");
        }
        let mut sent = self.sent.lock().unwrap_or_else(|p| p.into_inner());
        push_bounded(sent.entry(phone_number_id.to_string()).or_default(), body);
    }

    /// `sent`, `delivered` and `read` for an accepted message, then maybe an answer.
    async fn play_receipts(&self, business_id: &str, id: &str, to: &Addressee) {
        let steps = [
            ("sent", self.settings.sent_delay_ms),
            ("delivered", self.settings.delivered_delay_ms),
            ("read", self.settings.read_delay_ms),
        ];
        for (status, delay) in steps {
            tokio::time::sleep(self.pause(delay)).await;
            let Ok(business) = self.store.business(business_id).await else {
                return;
            };
            let customer =
                self.customer(business.phone_number_id.as_deref().unwrap_or_default(), to);
            let receipt = receipt(status, id, to, customer.user_id.as_deref());
            let mut value = json!({"statuses": [receipt]});
            if let Some(contact) = receipt_contact(status, &customer) {
                value["contacts"] = json!([contact]);
            }
            if let Err(err) = self.post_webhook(&business, value).await {
                tracing::warn!(error = %err, "sandbox receipt not delivered");
            }
        }
        self.maybe_answer(business_id, to).await;
    }
}

/// A status webhook's entry: a send to a phone names it in `recipient_id` (and the BSUID in
/// `recipient_user_id` when known); a send to a BSUID names only the BSUID.
fn receipt(status: &str, id: &str, to: &Addressee, user_id: Option<&str>) -> Value {
    let mut receipt = json!({
        "id": id,
        "status": status,
        "timestamp": (now_ms() / 1000).to_string(),
        "conversation": {"id": format!("sandbox-{}", to.key()), "origin": {"type": "service"}},
        "pricing": {"billable": true, "pricing_model": "PMP", "category": "service"},
    });
    if let Addressee::Phone(phone) = to {
        receipt["recipient_id"] = json!(phone);
    }
    if let Some(user_id) = user_id {
        receipt["recipient_user_id"] = json!(user_id);
    }
    receipt
}

/// The `contacts` entry beside a receipt for a customer with a BSUID, as Meta sends it: the
/// customer as a message of theirs names them, without the username on a `sent` receipt.
fn receipt_contact(status: &str, customer: &Customer) -> Option<Value> {
    customer.user_id.as_ref()?;
    let mut contact = customer.contact();
    if status == "sent"
        && let Some(profile) = contact["profile"].as_object_mut()
    {
        profile.remove("username");
    }
    Some(contact)
}

/// When a template send gives its body another number of parameters than the approved body has
/// variables, Meta's `error_data.details` for it (code 132000).
fn parameter_mismatch(template: &Value, body: &Value) -> Option<String> {
    let components = template["components"].as_array()?;
    let text = components
        .iter()
        .find(|c| c["type"] == "BODY")?
        .get("text")?
        .as_str()?;
    let mut expected = variables(text);
    expected.sort();
    expected.dedup();
    let given = body
        .pointer("/template/components")
        .and_then(Value::as_array)
        .and_then(|sent| sent.iter().find(|c| c["type"] == "body"))
        .and_then(|c| c["parameters"].as_array())
        .map_or(0, Vec::len);
    (given != expected.len()).then(|| {
        format!(
            "body: number of localizable_params ({given}) does not match the expected number of \
             params ({})",
            expected.len()
        )
    })
}

/// Why the Cloud API would refuse this send, as its error answer.
async fn refusal(
    sandbox: &Sandbox,
    business: &Business,
    to: &Addressee,
    body: &Value,
) -> ApiResult<Option<HttpResponse>> {
    let kind = body.get("type").and_then(Value::as_str).unwrap_or("text");
    if body.get("messaging_product").and_then(Value::as_str) != Some("whatsapp") {
        return Ok(Some(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "messaging_product must be whatsapp",
        )));
    }
    if body.get(kind).is_none() {
        return Ok(Some(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            &format!("the {kind} object is missing"),
        )));
    }
    if kind == "template" {
        let name = body
            .pointer("/template/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let language = body
            .pointer("/template/language/code")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let template = sandbox
            .template(&business.waba_id, name, language)
            .unwrap_or_default();
        if template["status"] != "APPROVED" {
            return Ok(Some(graph_error(
                404,
                132001,
                "(#132001) Template name does not exist in the translation",
                &format!("template name ({name}) does not exist in {language} or is not approved"),
            )));
        }
        if let Some(details) = parameter_mismatch(&template, body) {
            return Ok(Some(graph_error(
                400,
                132000,
                "(#132000) Number of parameters does not match the expected number of params",
                &details,
            )));
        }
        if matches!(to, Addressee::User(_)) && template["category"] == "AUTHENTICATION" {
            return Ok(Some(graph_error(
                400,
                BSUID_NOT_SUPPORTED,
                "(#131062) Business-scoped user ID recipients not supported",
                "Authentication templates cannot be sent to a business-scoped user id.",
            )));
        }
    } else {
        let last = sandbox
            .store
            .last_incoming_at(&business.id, to.key())
            .await?;
        if last.is_none_or(|at| now_ms() - at > WINDOW_MS) {
            return Ok(Some(graph_error(
                400,
                crate::provider::WINDOW_CLOSED,
                "Re-engagement message",
                "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
            )));
        }
    }
    Ok(None)
}

/// `POST /sandbox/{version}/{phone_number_id}/messages`: send, or mark an inbound message read.
pub async fn messages(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Json<Value>,
) -> ApiResult<HttpResponse> {
    let (_, phone_number_id) = path.into_inner();
    let business = match sandbox.authorized(&req, &phone_number_id).await {
        Ok(b) => b,
        Err(response) => return Ok(response),
    };
    let body = body.into_inner();
    if body.get("status").and_then(Value::as_str) == Some("read") {
        return Ok(HttpResponse::Ok().json(json!({"success": true})));
    }
    let Some(to) = Addressee::of(&body) else {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "to must be a phone number, or recipient a business-scoped user id",
        ));
    };
    if let Some(response) = refusal(&sandbox, &business, &to, &body).await? {
        return Ok(response);
    }
    if sandbox.buckets.try_take(&phone_number_id).is_err() {
        return Ok(graph_error(
            429,
            crate::provider::RATE_LIMIT,
            "(#130429) Rate limit hit",
            "Cloud API message throughput has been reached.",
        ));
    }
    let id = wamid();
    let contact = to.answer_contact(&body);
    sandbox.remember(&phone_number_id, json!({"id": id, "body": body}));
    let (player, business_id, message_id) = (sandbox.clone(), business.id, id.clone());
    actix_web::rt::spawn(async move {
        player.play_receipts(&business_id, &message_id, &to).await;
    });
    Ok(HttpResponse::Ok().json(json!({
        "messaging_product": "whatsapp",
        "contacts": [contact],
        "messages": [{"id": id}],
    })))
}

#[derive(Deserialize)]
pub struct SentQuery {
    phone_number_id: String,
}

/// `GET /sandbox/sent?phone_number_id=`: what the sandbox accepted for a number (bearer: the
/// number's access token), so tests and demos can see exactly what reached the "provider".
pub async fn sent(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    query: web::Query<SentQuery>,
) -> ApiResult<HttpResponse> {
    if let Err(response) = sandbox.authorized(&req, &query.phone_number_id).await {
        return Ok(response);
    }
    let sent = sandbox.sent.lock().unwrap_or_else(|p| p.into_inner());
    let messages: Vec<Value> = sent
        .get(&query.phone_number_id)
        .map(|log| log.iter().cloned().collect())
        .unwrap_or_default();
    Ok(HttpResponse::Ok().json(json!({ "messages": messages })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_names_the_phone_only_for_a_send_to_a_phone() {
        let user = Addressee::User("US.1349".into());
        let to_user = receipt("read", "wamid.1", &user, Some("US.1349"));
        assert!(to_user.get("recipient_id").is_none(), "{to_user}");
        assert_eq!(to_user["recipient_user_id"], "US.1349");

        let phone = Addressee::Phone("16505551234".into());
        let known = receipt("sent", "wamid.2", &phone, Some("US.1349"));
        assert_eq!(known["recipient_id"], "16505551234");
        assert_eq!(known["recipient_user_id"], "US.1349");
        let unknown = receipt("sent", "wamid.3", &phone, None);
        assert!(unknown.get("recipient_user_id").is_none(), "{unknown}");
    }

    #[test]
    fn a_receipt_for_a_customer_with_a_bsuid_names_them_with_the_username_once_delivered() {
        let mut customer = Customer {
            phone: Some("16505551234".into()),
            user_id: Some("US.1349".into()),
            username: Some("@sheena".into()),
            name: "Sheena".into(),
        };
        let sent = receipt_contact("sent", &customer).expect("a contact");
        assert_eq!(sent["user_id"], "US.1349");
        assert_eq!(sent["wa_id"], "16505551234");
        assert!(sent["profile"].get("username").is_none(), "{sent}");
        let read = receipt_contact("read", &customer).expect("a contact");
        assert_eq!(read["profile"]["username"], "@sheena");
        customer.user_id = None;
        assert_eq!(receipt_contact("delivered", &customer), None);
    }
}
