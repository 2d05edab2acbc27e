//! WebSocket sessions, Parley's and nchan's, each bound to a chosen loopback source address so
//! a run can open more connections than one source address has ports.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

use super::api::Api;

/// A session's socket: plain TCP, since every target is on loopback.
pub type Ws = WebSocketStream<TcpStream>;

/// The event a bulk job pushes while it runs (server/src/sender.rs).
pub const BULK_SEND_PROGRESS: &str = "\"bulk_send_progress\"";
/// How long a session waits for `ready` and `subscribed` before giving up.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

impl Api {
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

/// A Parley session taken up again after its connection was lost: waits for `ready`, then
/// subscribes to `channels` and asks for every event after `after` in one go, as the web client
/// does. The `subscribed` answers and the replayed events follow; the caller reads them all.
pub async fn parley_resume(
    api: &Api,
    token: &str,
    channels: &[String],
    after: i64,
    source: Option<IpAddr>,
) -> Result<Ws> {
    let url = api.ws_url(&format!("/api/ws?token={token}"));
    let mut ws = connect_ws(&url, api.socket_addr()?, source).await?;
    tokio::time::timeout(HANDSHAKE_TIMEOUT, wait_for(&mut ws, "\"ready\""))
        .await
        .context("session handshake timed out")??;
    let subscribes = channels
        .iter()
        .map(|channel| json!({"op": "subscribe", "channel": channel}));
    for op in subscribes.chain([json!({"op": "resume", "after": after})]) {
        ws.send(Message::Text(op.to_string().into())).await?;
    }
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
