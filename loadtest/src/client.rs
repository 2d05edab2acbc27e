//! Talking to the server: setup through the public API, signed webhooks, WebSocket sessions
//! bound to a chosen loopback source address, the latency marker, and reading a process's RSS.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use url::Url;

pub type Ws = WebSocketStream<TcpStream>;

/// The event a bulk job pushes while it runs (server/src/sender.rs).
pub const BULK_SEND_PROGRESS: &str = "\"bulk_send_progress\"";
/// Password of every account a run creates.
const PASSWORD: &str = "loadtest-password";
/// The smallest files the inbox shows as what they are (the server sniffs their first bytes).
const JPEG: &[u8] = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xFF\xD9";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";
/// How long a session waits for `ready` and `subscribed` before giving up.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// Unix time in nanoseconds; markers carry it so latency counts from the scheduled send time.
pub fn unix_nanos() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// The text a measured message carries: `lt:<step>:<index>:<scheduled unix nanos>`.
pub fn marker(step: u32, index: u64, scheduled_nanos: u64) -> String {
    format!("lt:{step}:{index}:{scheduled_nanos}")
}

/// Finds a marker anywhere in a frame (a JSON event or nchan's raw body).
pub fn parse_marker(frame: &str) -> Option<(u32, u64, u64)> {
    let start = frame.find("lt:")? + 3;
    let mut parts = frame[start..].splitn(3, ':');
    let step = parts.next()?.parse().ok()?;
    let index = parts.next()?.parse().ok()?;
    let rest = parts.next()?;
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    Some((step, index, rest[..end].parse().ok()?))
}

/// Phone number of simulated customer `n`.
pub fn customer_phone(n: usize) -> String {
    format!("1999{n:07}")
}

/// A registered business the run drives.
#[derive(Clone, Debug)]
pub struct Business {
    pub phone_number_id: String,
    pub app_secret: String,
    pub owner_token: String,
    /// Agents' access tokens; sessions use them round robin (the owner's when there are none).
    pub agent_tokens: Vec<String>,
    /// Media the simulated customers send: an image and a document uploaded to the sandbox, so
    /// Parley fetches and keeps each once, as it would a real customer's file.
    pub image_id: String,
    pub document_id: String,
}

impl Business {
    /// The token for session or sender `n`.
    pub fn token(&self, n: usize) -> &str {
        if self.agent_tokens.is_empty() {
            &self.owner_token
        } else {
            &self.agent_tokens[n % self.agent_tokens.len()]
        }
    }

    /// The conversation channel of customer `n`.
    pub fn channel(&self, n: usize) -> String {
        format!("{}_{}", self.phone_number_id, customer_phone(n))
    }
}

/// HTTP access to the target.
#[derive(Clone)]
pub struct Api {
    pub base: Url,
    pub http: reqwest::Client,
}

impl Api {
    pub fn new(base: Url, pool: usize) -> Result<Self> {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(pool)
            .timeout(Duration::from_secs(60))
            .tcp_nodelay(true)
            .no_proxy()
            .build()
            .context("Failed to build the HTTP client")?;
        Ok(Self { base, http })
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base.as_str().trim_end_matches('/'), path)
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
        token: Option<&str>,
    ) -> Result<(u16, Value)> {
        let mut request = self.http.request(method, self.url(path)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request
            .send()
            .await
            .with_context(|| format!("Failed to reach {path}"))?;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap_or_default();
        Ok((
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        ))
    }

    /// Posts a multipart form with a bearer token; answers the status and the JSON body.
    pub async fn form(
        &self,
        path: &str,
        token: &str,
        form: reqwest::multipart::Form,
    ) -> Result<(u16, Value)> {
        let request = self.http.post(self.url(path)).multipart(form);
        json_answer(path, request.bearer_auth(token)).await
    }

    /// GETs `path` with a bearer token; answers the status and the JSON body.
    pub async fn get(&self, path: &str, token: &str) -> Result<(u16, Value)> {
        json_answer(path, self.http.get(self.url(path)).bearer_auth(token)).await
    }

    /// Registers an owner, sets an app secret and creates `agents` agents who log in.
    pub async fn setup_business(&self, run_id: &str, agents: usize) -> Result<Business> {
        let owner = format!("lt{run_id}");
        let (status, body) = self
            .call(
                reqwest::Method::POST,
                "/identity/auth/register",
                json!({"firstName": "Load", "lastName": "Test", "username": owner,
                       "email": format!("{owner}@loadtest.invalid"), "password": PASSWORD}),
                None,
            )
            .await?;
        if status != 201 {
            bail!("register answered {status}: {body}");
        }
        let owner_token = access_token(&body)?;
        let app_secret = format!("loadtest-secret-{run_id}");
        let (status, profile) = self
            .call(
                reqwest::Method::PATCH,
                "/identity/users/profile",
                json!({"appSecret": app_secret}),
                Some(&owner_token),
            )
            .await?;
        if status != 200 {
            bail!("setting the app secret answered {status}: {profile}");
        }
        let phone_number_id = profile["phoneNumberId"]
            .as_str()
            .ok_or_else(|| anyhow!("profile has no phoneNumberId: {profile}"))?
            .to_string();
        let provider_token = profile["accessToken"]
            .as_str()
            .ok_or_else(|| anyhow!("profile has no accessToken: {profile}"))?;
        let image_id = self
            .upload_media(&phone_number_id, provider_token, JPEG, "image/jpeg")
            .await?;
        let document_id = self
            .upload_media(&phone_number_id, provider_token, PDF, "application/pdf")
            .await?;
        let mut agent_tokens = Vec::with_capacity(agents);
        for n in 0..agents {
            let username = format!("{owner}a{n}");
            let (status, body) = self
                .call(
                    reqwest::Method::POST,
                    "/identity/users/agents",
                    json!({"firstName": "Agent", "lastName": format!("{n}"),
                           "username": username,
                           "email": format!("{username}@loadtest.invalid"),
                           "password": PASSWORD}),
                    Some(&owner_token),
                )
                .await?;
            if !(200..300).contains(&status) {
                bail!("creating agent {n} answered {status}: {body}");
            }
            let (status, body) = self
                .call(
                    reqwest::Method::POST,
                    "/identity/auth/login",
                    json!({"emailOrUsername": username, "password": PASSWORD}),
                    None,
                )
                .await?;
            if status != 200 {
                bail!("agent {n} login answered {status}: {body}");
            }
            agent_tokens.push(access_token(&body)?);
        }
        Ok(Business {
            phone_number_id,
            app_secret,
            owner_token,
            agent_tokens,
            image_id,
            document_id,
        })
    }

    /// Uploads a file to the sandbox provider as the business would (Cloud API media upload);
    /// answers its media id.
    async fn upload_media(
        &self,
        phone_number_id: &str,
        provider_token: &str,
        bytes: &'static [u8],
        mime: &str,
    ) -> Result<String> {
        let form = reqwest::multipart::Form::new()
            .text("messaging_product", "whatsapp")
            .text("type", mime.to_string())
            .part(
                "file",
                reqwest::multipart::Part::bytes(bytes)
                    .file_name("loadtest")
                    .mime_str(mime)?,
            );
        let path = format!("/sandbox/v21.0/{phone_number_id}/media");
        let (status, body) = self.form(&path, provider_token, form).await?;
        match body["id"].as_str() {
            Some(id) if status == 200 => Ok(id.to_string()),
            _ => bail!("media upload answered {status}: {body}"),
        }
    }

    /// Posts a signed webhook; answers the HTTP status.
    pub async fn webhook(&self, body: String, secret: &str) -> Result<u16> {
        let response = self
            .http
            .post(self.url("/webhook"))
            .header("Content-Type", "application/json")
            .header("X-Hub-Signature-256", sign(secret, body.as_bytes()))
            .body(body)
            .send()
            .await
            .context("Failed to post a webhook")?;
        let status = response.status().as_u16();
        let _ = response.bytes().await;
        Ok(status)
    }

    /// Publishes a raw body to an nchan channel; answers the HTTP status.
    pub async fn nchan_publish(&self, channel: &str, body: String) -> Result<u16> {
        let response = self
            .http
            .post(self.url(&format!("/pub/{channel}")))
            .body(body)
            .send()
            .await
            .context("Failed to publish to nchan")?;
        let status = response.status().as_u16();
        let _ = response.bytes().await;
        Ok(status)
    }

    /// The WebSocket URL of a Parley session or an nchan subscriber.
    pub fn ws_url(&self, path_and_query: &str) -> String {
        let mut url = self.base.clone();
        // unwrap: http → ws is always a valid scheme change.
        #[allow(clippy::unwrap_used)]
        url.set_scheme("ws").unwrap();
        format!("{}{}", url.as_str().trim_end_matches('/'), path_and_query)
    }

    /// The socket address of the target (localhost resolves to 127.0.0.1).
    pub fn socket_addr(&self) -> Result<SocketAddr> {
        let port = self.base.port_or_known_default().unwrap_or(80);
        let ip = match self.base.host() {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
            _ => IpAddr::V4(Ipv4Addr::LOCALHOST),
        };
        Ok(SocketAddr::new(ip, port))
    }
}

async fn json_answer(path: &str, request: reqwest::RequestBuilder) -> Result<(u16, Value)> {
    let response = request
        .send()
        .await
        .with_context(|| format!("Failed to reach {path}"))?;
    let status = response.status().as_u16();
    Ok((status, response.json().await.unwrap_or(Value::Null)))
}

fn access_token(body: &Value) -> Result<String> {
    Ok(body["accessToken"]
        .as_str()
        .ok_or_else(|| anyhow!("no accessToken in {body}"))?
        .to_string())
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

/// Opens a WebSocket to `url` from `source` (a loopback address) to `addr`.
pub async fn connect_ws(url: &str, addr: SocketAddr, source: Option<IpAddr>) -> Result<Ws> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    if let Some(ip) = source {
        socket
            .bind(SocketAddr::new(ip, 0))
            .with_context(|| format!("Failed to bind {ip}"))?;
    }
    let stream = socket.connect(addr).await.context("TCP connect failed")?;
    stream.set_nodelay(true)?;
    let (ws, _) = tokio_tungstenite::client_async(url, stream)
        .await
        .context("WebSocket handshake failed")?;
    Ok(ws)
}

/// A Parley session: waits for `ready`, subscribes to `channels`, waits for each `subscribed`.
pub async fn parley_session(
    api: &Api,
    token: &str,
    channels: &[String],
    source: Option<IpAddr>,
) -> Result<Ws> {
    let url = api.ws_url(&format!("/api/ws?token={token}"));
    let mut ws = connect_ws(&url, api.socket_addr()?, source).await?;
    tokio::time::timeout(HANDSHAKE_TIMEOUT, async {
        wait_for(&mut ws, "\"ready\"").await?;
        for channel in channels {
            let op = json!({"op": "subscribe", "channel": channel}).to_string();
            ws.send(Message::Text(op.into())).await?;
        }
        for _ in channels {
            wait_for(&mut ws, "\"subscribed\"").await?;
        }
        anyhow::Ok(())
    })
    .await
    .context("session handshake timed out")??;
    Ok(ws)
}

/// An nchan subscriber on `channel`.
pub async fn nchan_session(api: &Api, channel: &str, source: Option<IpAddr>) -> Result<Ws> {
    let url = api.ws_url(&format!("/sub/{channel}"));
    connect_ws(&url, api.socket_addr()?, source).await
}

async fn wait_for(ws: &mut Ws, needle: &str) -> Result<()> {
    while let Some(frame) = ws.next().await {
        if let Message::Text(text) = frame?
            && text.as_str().contains(needle)
        {
            return Ok(());
        }
    }
    bail!("connection closed while waiting for {needle}")
}

/// Sum of VmRSS of the given processes, in bytes.
pub fn rss_bytes(pids: &[u32]) -> Option<u64> {
    let mut total = 0;
    for pid in pids {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        total += kib * 1024;
    }
    Some(total)
}
