//! The provider's webhook: the verification handshake, and inbound messages and receipts in the
//! Cloud API's envelope. A POST is answered 200 only once everything in it is persisted (the
//! provider redelivers anything else, and redeliveries are deduplicated by message id).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::future::join_all;
use hmac::{Hmac, Mac};
use parley_actors::conversation::{
    ConversationKey, Inbound, InboundMessage, OutgoingMessage, Receipt, StatusUpdate,
};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::customer::CustomerKey;
use crate::error::{ApiError, ApiResult};
use crate::outbox::Delivery;
use crate::replies::engine::{InboundKind, choose_reply};
use crate::state::AppState;
use crate::store::Business;

/// Largest webhook body accepted (the provider batches up to 1000 updates).
pub const MAX_BODY: usize = 16 * 1024 * 1024;

#[derive(Deserialize)]
pub struct Handshake {
    #[serde(rename = "hub.mode")]
    mode: Option<String>,
    #[serde(rename = "hub.verify_token")]
    verify_token: Option<String>,
    #[serde(rename = "hub.challenge")]
    challenge: Option<String>,
}

/// `GET /webhook`: echoes the challenge when the verify token is one of a business's.
pub async fn verify(
    state: web::Data<AppState>,
    query: web::Query<Handshake>,
) -> ApiResult<HttpResponse> {
    let token = query.verify_token.as_deref().unwrap_or_default();
    if query.mode.as_deref() == Some("subscribe")
        && !token.is_empty()
        && state.store.verify_token_exists(token).await?
    {
        return Ok(HttpResponse::Ok()
            .content_type("text/plain")
            .body(query.challenge.clone().unwrap_or_default()));
    }
    Err(ApiError::Forbidden("Webhook verification failed".into()))
}

/// True when `header` is `sha256=<hex HMAC-SHA256 of body keyed with secret>` (constant time).
pub fn signature_matches(secret: &str, body: &[u8], header: &str) -> bool {
    let Some(hex_sig) = header.strip_prefix("sha256=") else {
        return false;
    };
    let Ok(expected) = hex::decode(hex_sig.trim()) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&expected).is_ok()
}

/// The work one webhook POST carries, grouped by business.
#[derive(Default)]
struct Batch {
    messages: Vec<(ConversationKey, Arc<InboundMessage>)>,
    statuses: Vec<(ConversationKey, StatusUpdate)>,
    /// Template review decisions: (business, the change's value).
    templates: Vec<(String, Value)>,
}

/// `POST /webhook`.
pub async fn receive(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> ApiResult<HttpResponse> {
    let signature = req
        .headers()
        .get("X-Hub-Signature-256")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::Unauthorized("Missing X-Hub-Signature-256 header".into()))?
        .to_string();
    let payload: Value = serde_json::from_slice(&body)
        .map_err(|e| ApiError::BadRequest(format!("Webhook body is not JSON: {e}")))?;
    let entries = payload
        .get("entry")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::BadRequest("Webhook body has no entry array".into()))?;

    let mut businesses: HashMap<String, Option<Business>> = HashMap::new();
    // Per business: whether new messages may set off an automated reply, and a push.
    let mut sets_off: HashMap<String, (bool, bool)> = HashMap::new();
    let mut batch = Batch::default();
    let mut verified: HashSet<String> = HashSet::new();
    for entry in entries {
        let account = entry.get("id").and_then(Value::as_str).unwrap_or_default();
        for change in entry
            .get("changes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let value = change.get("value").unwrap_or(&Value::Null);
            let templates = change.get("field").and_then(Value::as_str)
                == Some("message_template_status_update");
            // Template decisions are about the account (WABA); everything else about a number.
            let (key, found) = if templates {
                let key = format!("waba:{account}");
                match businesses.get(&key) {
                    Some(found) => (key, found.clone()),
                    None => (key, state.store.business_by_waba_id(account).await?),
                }
            } else {
                let Some(pnid) = value
                    .pointer("/metadata/phone_number_id")
                    .and_then(Value::as_str)
                else {
                    continue;
                };
                match businesses.get(pnid) {
                    Some(found) => (pnid.to_string(), found.clone()),
                    None => {
                        let found = state.store.business_by_phone_number_id(pnid).await?;
                        let found = found.map(|a| {
                            let reactions = (a.active_replies > 0, a.push_subscriptions > 0);
                            sets_off.insert(a.business.id.clone(), reactions);
                            a.business
                        });
                        (pnid.to_string(), found)
                    }
                }
            };
            businesses.insert(key.clone(), found.clone());
            let Some(business) = found else {
                tracing::warn!(key = %key, "webhook for an unknown number or account ignored");
                continue;
            };
            if !verified.contains(&business.id) {
                if business.app_secret.is_empty()
                    || !signature_matches(&business.app_secret, &body, &signature)
                {
                    return Err(ApiError::Forbidden("Invalid webhook signature".into()));
                }
                verified.insert(business.id.clone());
            }
            if templates {
                batch.templates.push((business.id.clone(), value.clone()));
            } else {
                collect(&business.id, value, &mut batch)?;
            }
        }
    }

    for (business_id, update) in &batch.templates {
        let events = state.store.template_decided(business_id, update).await?;
        state.bus.publish(events);
    }
    let media: Vec<(String, String)> = batch
        .messages
        .iter()
        .filter_map(|(key, m)| {
            let id = m
                .content
                .pointer(&format!("/{}/media_id", m.kind))?
                .as_str()?;
            Some((key.business_id.clone(), id.to_string()))
        })
        .collect();
    let messages = batch.messages.into_iter().map(|(key, message)| {
        let conversations = state.conversations.clone();
        async move {
            let new = conversations.ask(&key, Inbound(message.clone())).await?;
            new.map(|new| new.then_some((key, message)))
        }
    });
    let statuses = batch.statuses.into_iter().map(|(key, update)| {
        let conversations = state.conversations.clone();
        async move { conversations.ask(&key, Receipt(update)).await? }
    });
    let (messages, statuses) = futures_util::join!(join_all(messages), join_all(statuses));
    let failed = |e| ApiError::Internal(anyhow::anyhow!("webhook not persisted: {e}"));
    for outcome in statuses {
        outcome.map_err(failed)?;
    }
    for outcome in messages {
        // Only a message seen for the first time is answered, so redeliveries never double up.
        if let Some((key, message)) = outcome.map_err(failed)? {
            let (replies, push) = sets_off.get(&key.business_id).copied().unwrap_or_default();
            if push {
                state.push.notify(&key, &message);
            }
            if replies {
                let state = state.clone();
                actix_web::rt::spawn(async move {
                    if let Err(err) = auto_reply(&state, key, &message).await {
                        tracing::warn!(error = %err, "automated reply not sent");
                    }
                });
            }
        }
    }
    // Media is kept now, while the provider still has it (its URLs expire); a failure here is
    // retried when someone opens the file.
    for (business_id, media_id) in media {
        let outbox = state.outbox.clone();
        actix_web::rt::spawn(async move {
            if let Err(err) = outbox.fetch_inbound_media(&business_id, &media_id).await {
                tracing::warn!(error = %err, "inbound media not fetched yet");
            }
        });
    }
    Ok(HttpResponse::Ok().json(json!({"status": "success"})))
}

fn text_of(value: &Value, pointer: &str) -> Option<String> {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .map(String::from)
}

/// Digits only: the provider sends no `+`, clients sometimes do.
fn timestamp_ms(value: &Value) -> i64 {
    value
        .get("timestamp")
        .and_then(|t| {
            t.as_str()
                .and_then(|s| s.parse::<i64>().ok())
                .or(t.as_i64())
        })
        .map_or_else(crate::store::now_ms, |secs| secs * 1000)
}

/// Reads one `value` of a `messages` change into the batch.
fn collect(business_id: &str, value: &Value, batch: &mut Batch) -> ApiResult<()> {
    let names: HashMap<String, String> = value
        .get("contacts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| Some((text_of(c, "/wa_id")?, text_of(c, "/profile/name")?)))
        .collect();
    for message in value
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(from), Some(id)) = (text_of(message, "/from"), text_of(message, "/id")) else {
            return Err(ApiError::BadRequest("A message lacks from or id".into()));
        };
        let from = CustomerKey::from_provider(&from).into_string();
        let (kind, content) = message_content(message);
        batch.messages.push((
            ConversationKey {
                business_id: business_id.to_string(),
                phone: from.clone(),
            },
            Arc::new(InboundMessage {
                provider_id: id,
                timestamp_ms: timestamp_ms(message),
                kind,
                content,
                contact_name: names.get(&from).cloned(),
            }),
        ));
    }
    for status in value
        .get("statuses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(id), Some(state), Some(recipient)) = (
            text_of(status, "/id"),
            text_of(status, "/status"),
            text_of(status, "/recipient_id"),
        ) else {
            return Err(ApiError::BadRequest(
                "A status lacks id, status or recipient_id".into(),
            ));
        };
        batch.statuses.push((
            ConversationKey {
                business_id: business_id.to_string(),
                phone: CustomerKey::from_provider(&recipient).into_string(),
            },
            StatusUpdate {
                message_id: id,
                status: state,
                timestamp_ms: timestamp_ms(status),
                error: status.pointer("/errors/0").cloned(),
            },
        ));
    }
    Ok(())
}

/// The sender of automated replies, as the inbox shows it.
pub const AUTOMATED_SENDER: &str = "Automated reply";

/// Answers a new inbound message with the business's automated reply, if one applies
/// (docs/AUTOMATED_REPLIES.md). The reply goes through the conversation's actor and the outbox
/// like any other message, after the message it answers.
async fn auto_reply(
    state: &AppState,
    key: ConversationKey,
    message: &InboundMessage,
) -> ApiResult<()> {
    let replies = state.store.replies(&key.business_id).await?;
    if !replies.iter().any(|r| r.is_active) {
        return Ok(());
    }
    let text = |pointer: &str| {
        message
            .content
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let inbound = match (message.kind.as_str(), text("/interactive/type")) {
        ("text", _) => InboundKind::Text(text("/text")),
        ("interactive", "button_reply") => InboundKind::Button {
            id: text("/interactive/id"),
            title: text("/interactive/title"),
        },
        ("interactive", "list_reply") => InboundKind::ListRow {
            id: text("/interactive/id"),
            title: text("/interactive/title"),
        },
        ("button", _) => InboundKind::Button {
            id: text("/payload"),
            title: text("/text"),
        },
        _ => InboundKind::Other,
    };
    let steps = state.store.all_flow_steps(&key.business_id).await?;
    let last_sent = state
        .store
        .reply_deliveries(&key.business_id, &key.phone)
        .await?;
    let now = crate::store::now_ms();
    let Some(choice) = choose_reply(&replies, &steps, &inbound, &last_sent, now) else {
        return Ok(());
    };
    let reply = choice.answer.message(&key.phone);
    state
        .store
        .record_reply_delivery(&key.business_id, &choice.reply_id, &key.phone, now)
        .await?;
    let outgoing = OutgoingMessage {
        client_id: format!("auto:{}", message.provider_id),
        kind: reply.kind,
        content: reply.content,
        sender_name: AUTOMATED_SENDER.into(),
        payload: reply.payload,
    };
    if let Delivery::Refused(err) = state.outbox.send(key, outgoing).await? {
        tracing::warn!(error = %err, "automated reply refused by the provider");
    }
    Ok(())
}

/// The stored kind and content of an inbound message (see docs/API.md for the shapes).
pub fn message_content(message: &Value) -> (String, Value) {
    let kind = message
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("unsupported")
        .to_string();
    let body = message.get(&kind).cloned().unwrap_or(Value::Null);
    let mut content = match kind.as_str() {
        "text" => json!({"text": body.get("body")}),
        "image" | "video" | "audio" | "document" | "sticker" => {
            let media_id = body.get("id").and_then(Value::as_str).unwrap_or_default();
            let mut media = json!({
                "media_id": media_id,
                "media_url": format!("/api/media/{media_id}"),
                "mime_type": body.get("mime_type"),
            });
            for extra in ["filename", "voice", "animated", "sha256"] {
                if let Some(v) = body.get(extra) {
                    media[extra] = v.clone();
                }
            }
            let mut content = json!({ kind.clone(): media });
            if let Some(caption) = body.get("caption") {
                content["caption"] = caption.clone();
            }
            content
        }
        "location" => json!({"location": body}),
        "interactive" => {
            let reply_type = body.get("type").and_then(Value::as_str).unwrap_or_default();
            let reply = body.get(reply_type).cloned().unwrap_or(Value::Null);
            json!({
                "text": reply.get("title"),
                "interactive": {
                    "type": reply_type,
                    "id": reply.get("id"),
                    "title": reply.get("title"),
                    "description": reply.get("description"),
                },
            })
        }
        "button" => json!({"text": body.get("text"), "payload": body.get("payload")}),
        "order" => json!({"text": body.get("text"), "order": body}),
        "reaction" => json!({"reaction": body}),
        "system" => json!({"text": body.get("body"), "system": body}),
        _ => json!({"text": null, "errors": message.get("errors"), "raw": message}),
    };
    if let Some(context) = message.get("context") {
        content["context"] = context.clone();
    }
    (kind, content)
}
