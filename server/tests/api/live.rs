//! Helpers for the inbox tests: a business with a webhook secret, signed webhooks in the Cloud
//! API's envelope, and WebSocket and SSE clients that read events.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use tokio_tungstenite::tungstenite::Message;

use crate::helpers::{Session, TestApp};

/// How long a test waits for an event before failing.
pub const EVENT_WAIT: Duration = Duration::from_secs(10);

/// A registered owner whose business can receive signed webhooks.
pub struct Business {
    pub session: Session,
    pub phone_number_id: String,
    pub app_secret: String,
}

/// A second handle on the app's database, and the id of the business `biz`.
pub async fn store_of(app: &TestApp, biz: &Business) -> (parley_server::store::Store, String) {
    let store = parley_server::store::Store::connect(&app.settings)
        .await
        .expect("store");
    let business_id = store
        .business_by_phone_number_id(&biz.phone_number_id)
        .await
        .expect("lookup")
        .expect("business")
        .business
        .id;
    (store, business_id)
}

impl TestApp {
    /// Registers an owner and sets the app secret webhooks are signed with.
    pub async fn business(&self, username: &str) -> Business {
        let session = self.register(username).await;
        let app_secret = format!("secret-of-{username}");
        let (status, profile) = self
            .call(
                reqwest::Method::PATCH,
                "/identity/users/profile",
                Some(json!({"appSecret": app_secret})),
                Some(&session.access),
            )
            .await;
        assert_eq!(status, 200, "{profile}");
        Business {
            session,
            phone_number_id: profile["phoneNumberId"].as_str().expect("pnid").to_string(),
            app_secret,
        }
    }

    /// Uploads `bytes` to the sandbox provider, where a customer's phone would have put them;
    /// answers the provider's media id.
    pub async fn provider_file(
        &self,
        biz: &Business,
        bytes: &[u8],
        mime_type: &str,
        filename: &str,
    ) -> String {
        let (_, profile) = self
            .get("/identity/users/profile", &biz.session.access)
            .await;
        let provider_token = profile["accessToken"].as_str().expect("token");
        let form = reqwest::multipart::Form::new()
            .text("messaging_product", "whatsapp")
            .text("type", mime_type.to_string())
            .part(
                "file",
                reqwest::multipart::Part::bytes(bytes.to_vec()).file_name(filename.to_string()),
            );
        let path = format!("/sandbox/v21.0/{}/media", biz.phone_number_id);
        let (status, uploaded) = self.post_form(&path, provider_token, form).await;
        assert_eq!(status, 200, "{uploaded}");
        uploaded["id"].as_str().expect("media id").to_string()
    }

    /// Posts a webhook body signed with `secret`; answers (status, body).
    pub async fn webhook(&self, body: &Value, secret: &str) -> (u16, Value) {
        self.webhook_text(body.to_string(), secret).await
    }

    /// Posts webhook text as written (JSON a `Value` cannot hold, say) signed with `secret`;
    /// answers (status, body).
    pub async fn webhook_text(&self, raw: String, secret: &str) -> (u16, Value) {
        let response = self
            .client
            .post(self.url("/webhook"))
            .header("Content-Type", "application/json")
            .header("X-Hub-Signature-256", sign(secret, raw.as_bytes()))
            .body(raw)
            .send()
            .await
            .expect("webhook sent");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }
}

pub fn sign(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("hmac key");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// The Cloud API envelope around `messages` from one customer.
pub fn inbound(pnid: &str, from: &str, name: &str, messages: Vec<Value>) -> Value {
    json!({"object": "whatsapp_business_account", "entry": [{"id": "waba", "changes": [{
    "field": "messages",
    "value": {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "15550000000", "phone_number_id": pnid},
        "contacts": [{"profile": {"name": name}, "wa_id": from}],
        "messages": messages,
    }}]}]})
}

/// The envelope around receipts.
pub fn receipts(pnid: &str, statuses: Vec<Value>) -> Value {
    json!({"object": "whatsapp_business_account", "entry": [{"id": "waba", "changes": [{
    "field": "messages",
    "value": {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "15550000000", "phone_number_id": pnid},
        "statuses": statuses,
    }}]}]})
}

pub fn text(from: &str, id: &str, body: &str) -> Value {
    json!({"from": from, "id": id, "timestamp": "1763700000", "type": "text", "text": {"body": body}})
}

pub struct WsClient {
    stream: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl WsClient {
    pub async fn connect(app: &TestApp, token: &str) -> WsClient {
        let url = format!(
            "{}/api/ws?token={token}",
            app.address.replacen("http", "ws", 1)
        );
        let (stream, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connects");
        let mut client = WsClient { stream };
        let ready = client.next_frame().await;
        assert_eq!(ready["event"], "ready", "{ready}");
        client
    }

    pub async fn send(&mut self, op: Value) {
        self.stream
            .send(Message::Text(op.to_string().into()))
            .await
            .expect("ws send");
    }

    /// Subscribes and waits for the acknowledgement, so later events cannot race it.
    pub async fn subscribe(&mut self, channel: &str) {
        self.send(json!({"op": "subscribe", "channel": channel}))
            .await;
        let ack = self.next_frame().await;
        assert_eq!(ack["event"], "subscribed", "{ack}");
    }

    /// The frames up to and with the `count`th `event`, or a panic after `EVENT_WAIT` without one.
    pub async fn frames_until(&mut self, event: &str, count: usize) -> Vec<Value> {
        let mut frames: Vec<Value> = Vec::new();
        while frames.iter().filter(|f| f["event"] == event).count() < count {
            frames.push(self.next_frame().await);
        }
        frames
    }

    /// The next JSON frame, or a panic after `EVENT_WAIT`.
    pub async fn next_frame(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(EVENT_WAIT, self.stream.next())
                .await
                .expect("no frame in time")
                .expect("socket open")
                .expect("frame");
            match message {
                Message::Text(text) => return serde_json::from_str(&text).expect("json frame"),
                Message::Close(frame) => panic!("socket closed: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// The close frame's reason, skipping other frames.
    pub async fn closed_reason(&mut self) -> String {
        loop {
            let message = tokio::time::timeout(EVENT_WAIT, self.stream.next())
                .await
                .expect("no close in time");
            match message {
                Some(Ok(Message::Close(Some(frame)))) => return frame.reason.to_string(),
                Some(Ok(Message::Close(None))) | None | Some(Err(_)) => return String::new(),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Closes from the client's side; answers whether the server answered with its close frame
    /// (a clean closing handshake rather than a dropped connection).
    pub async fn close_cleanly(&mut self) -> bool {
        self.stream.close(None).await.expect("close sent");
        loop {
            let message = tokio::time::timeout(EVENT_WAIT, self.stream.next())
                .await
                .expect("no answer in time");
            match message {
                Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return false,
            }
        }
    }

    /// Nothing arrives for `wait`.
    pub async fn assert_quiet(&mut self, wait: Duration) {
        if let Ok(Some(Ok(Message::Text(text)))) =
            tokio::time::timeout(wait, self.stream.next()).await
        {
            panic!("unexpected frame: {text}");
        }
    }
}

/// A server-sent events reader.
pub struct SseClient {
    stream:
        std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buffer: String,
}

/// One SSE event: id, name, data.
#[derive(Debug)]
pub struct SseEvent {
    pub id: Option<i64>,
    pub name: String,
    pub data: Value,
}

impl SseClient {
    pub async fn open(
        app: &TestApp,
        path: &str,
        token: &str,
        last_event_id: Option<i64>,
    ) -> SseClient {
        let mut request = app.client.get(app.url(&format!("{path}?token={token}")));
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().await.expect("sse opens");
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(
            response.headers()["content-type"].to_str().expect("type"),
            "text/event-stream"
        );
        let mut client = SseClient {
            stream: Box::pin(response.bytes_stream()),
            buffer: String::new(),
        };
        assert_eq!(client.next_event().await.name, "ready");
        client
    }

    /// The next event block (comments skipped).
    pub async fn next_event(&mut self) -> SseEvent {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = SseEvent {
                    id: None,
                    name: "message".into(),
                    data: Value::Null,
                };
                let mut seen = false;
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        event.id = v.parse().ok();
                        seen = true;
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        event.name = v.to_string();
                        seen = true;
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        event.data = serde_json::from_str(v).expect("json data");
                        seen = true;
                    }
                }
                if seen {
                    return event;
                }
                continue;
            }
            let chunk = tokio::time::timeout(EVENT_WAIT, self.stream.next())
                .await
                .expect("no SSE event in time")
                .expect("stream open")
                .expect("chunk");
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}
