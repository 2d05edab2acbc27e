//! Web Push to the business's users' browsers, and FCM to their native apps, when a customer
//! writes (docs/API.md, "Push notifications"; docs/PUSH.md).
//!
//! The VAPID key is configured or generated once and kept in the data dir, like the JWT key. The
//! webhook only queues a notification (`Push::notify`, never waiting); a worker encrypts each one
//! per browser (RFC 8291, aes128gcm, by the `web-push` crate) and posts it with the app's HTTP
//! client, a few at a time, and sends it through FCM to each device of the native apps when FCM
//! is configured. Browsers their push service reports gone (404/410) and devices FCM reports
//! unregistered are forgotten.
//!
//! - `subscription`: reading the `PushSubscription` a browser sends, or a device's FCM token
//! - `fcm`: FCM HTTP v1 messages to the Android and iOS apps
//! - `google_token`: the service account's OAuth access token for FCM, cached
//! - `address`: push services live on public addresses: the checks, and a resolver that keeps
//!   the sender off private, loopback, link-local and metadata addresses

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use futures_util::StreamExt;
use parley_actors::conversation::{ConversationKey, InboundMessage};
use parley_actors::events::conversation_channel;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use web_push::{
    ContentEncoding, PartialVapidSignatureBuilder, SubscriptionInfo, Urgency,
    VapidSignatureBuilder, WebPushMessageBuilder, request_builder::build_request,
};

mod address;
mod fcm;
mod google_token;
mod subscription;

use fcm::{Delivered, Fcm, NativeNotice};
pub use subscription::{
    NATIVE_PLATFORMS, SubscriptionError, WEB, endpoint_of, parse_device_token, parse_subscription,
};

use crate::config::Settings;
use crate::metrics::{self, PushFailure};
use crate::store::{self, MessageRow, PushSubscription, Store, iso_time, preview};

/// Browsers re-register this long after their last registration (the spec's 7 days); the
/// subscribe call answers when.
pub const REFRESH_AFTER_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// Characters of the message text and of the contact name a notification carries (the payload
/// limit is ~4 KB).
pub const PREVIEW_CHARS: usize = 120;
const NAME_CHARS: usize = 80;
/// How long a push service keeps a notification for a browser that is offline.
const TTL_SECS: u32 = 24 * 60 * 60;
/// Notifications being delivered at once, and browsers posted to at once for each.
const CONCURRENT_NOTIFICATIONS: usize = 4;
const CONCURRENT_SENDS: usize = 8;
/// One push service request; a slow service costs a send, never the worker.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// One new customer message waiting to be pushed.
struct Notice {
    key: ConversationKey,
    message_id: String,
    kind: String,
    preview: String,
    timestamp_ms: i64,
    /// A note's mention goes to the mentioned user only: (user id, author's name).
    mention: Option<(String, String)>,
}

/// The queue in front of the sender; cheap to share.
pub struct Push {
    queue: mpsc::Sender<Notice>,
    /// The application server key as `PushManager.subscribe` takes it (base64url, 65 bytes).
    public_key: String,
    /// Notifications dropped because the queue was full.
    dropped: AtomicU64,
    /// FCM is configured: the native apps may subscribe.
    native: bool,
}

/// What the worker needs to deliver.
struct Sender {
    store: Store,
    /// Resolves push service names to public addresses only.
    http: reqwest::Client,
    /// The test-only opt-in: a local push service may be posted to.
    local: bool,
    vapid: PartialVapidSignatureBuilder,
    subject: String,
    /// The native apps' sender, when FCM is configured.
    fcm: Option<Fcm>,
}

impl Push {
    /// Loads (or creates) the VAPID key and starts the worker.
    pub fn start(settings: &Settings, store: Store) -> anyhow::Result<Push> {
        let private_hex = if settings.push.vapid_private_key.is_empty() {
            crate::secrets::load_or_create(&settings.server.data_dir, "vapid.key", 32)?
        } else {
            settings.push.vapid_private_key.clone()
        };
        let private = hex::decode(private_hex.trim()).context("The VAPID key is not hex")?;
        let vapid = VapidSignatureBuilder::from_base64_no_sub(&URL_SAFE_NO_PAD.encode(private))
            .map_err(|_| {
                anyhow::anyhow!(
                    "The VAPID key is not a P-256 private key (a generated vapid.key that fails \
                     this may be deleted to make a new one; browsers then subscribe again)"
                )
            })?;
        let public_key = URL_SAFE_NO_PAD.encode(vapid.get_public_key());
        let subject = match settings.push.subject.as_str() {
            "" => settings.server.public_url.clone(),
            subject => subject.to_string(),
        };
        let (queue, notices) = mpsc::channel(settings.push.queue_len.max(1));
        let http = address::push_client(settings.push.allow_http_endpoints)
            .context("Failed to build the push client")?;
        let fcm = Fcm::from_settings(&settings.push.fcm)?;
        let native = fcm.is_some();
        let sender = Arc::new(Sender {
            fcm,
            store,
            http,
            local: settings.push.allow_http_endpoints,
            vapid,
            subject,
        });
        actix_web::rt::spawn(run(sender, notices));
        Ok(Push {
            queue,
            public_key,
            dropped: AtomicU64::new(0),
            native,
        })
    }

    /// Notifications waiting for the sender.
    pub fn queued(&self) -> usize {
        self.queue.max_capacity() - self.queue.capacity()
    }

    pub fn public_key(&self) -> &str {
        &self.public_key
    }

    /// True when FCM is configured, so the native apps' devices can be notified.
    pub fn native_enabled(&self) -> bool {
        self.native
    }

    /// Queues a push for a new customer message; returns at once. A full queue drops it: a late
    /// or missing notification is better than a slow webhook.
    pub fn notify(&self, key: &ConversationKey, message: &InboundMessage) {
        let (text, caption) = preview(&message.content);
        let notice = Notice {
            key: key.clone(),
            message_id: message.provider_id.clone(),
            kind: message.kind.clone(),
            preview: shorten(text.or(caption).unwrap_or_default().trim(), PREVIEW_CHARS),
            timestamp_ms: message.timestamp_ms,
            mention: None,
        };
        self.enqueue(notice);
    }

    /// Queues a push of a private note to the user it mentions, as `notify` does.
    pub fn notify_mention(&self, key: &ConversationKey, note: &MessageRow, user: &str, by: &str) {
        let content: Value = serde_json::from_str(&note.content).unwrap_or_default();
        let text = content["text"].as_str().unwrap_or_default();
        self.enqueue(Notice {
            key: key.clone(),
            message_id: note.message_id.clone(),
            kind: note.kind.clone(),
            preview: shorten(text.trim(), PREVIEW_CHARS),
            timestamp_ms: note.sent_at,
            mention: Some((user.to_string(), by.to_string())),
        });
    }

    fn enqueue(&self, notice: Notice) {
        if self.queue.try_send(notice).is_err() {
            metrics::push_failed(PushFailure::Dropped);
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            if dropped % 1000 == 1 {
                tracing::warn!(dropped, "push queue full: notifications dropped");
            }
        }
    }
}

/// The Web Push payload as FCM data, whose values must all be strings and whose keys must not
/// be one FCM reserves: the message type is `kind`, a mention's author `mention_by`.
fn native_data(payload: &Value, mention_by: Option<&str>) -> serde_json::Map<String, Value> {
    let mut data: serde_json::Map<String, Value> = payload
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, value)| value.is_string())
        .map(|(key, value)| match key.as_str() {
            "message_type" => ("kind".to_string(), value.clone()),
            _ => (key.clone(), value.clone()),
        })
        .collect();
    if let Some(by) = mention_by {
        data.insert("mention_by".into(), by.into());
    }
    data
}

/// At most `max` characters, with an ellipsis when cut.
fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
        None => text.to_string(),
    }
}

async fn run(sender: Arc<Sender>, notices: mpsc::Receiver<Notice>) {
    futures_util::stream::unfold(notices, |mut notices| async move {
        notices.recv().await.map(|notice| (notice, notices))
    })
    .for_each_concurrent(CONCURRENT_NOTIFICATIONS, |notice| {
        let sender = sender.clone();
        async move {
            if let Err(err) = sender.deliver(notice).await {
                metrics::push_failed(PushFailure::NotDelivered);
                tracing::warn!(error = %err, "push notification not sent");
            }
        }
    })
    .await;
}

impl Sender {
    /// Posts one notification to every subscribed browser of the business.
    async fn deliver(&self, notice: Notice) -> Result<(), store::Error> {
        let business_id = &notice.key.business_id;
        let subscriptions = match &notice.mention {
            None => self.store.push_subscriptions(business_id).await?,
            Some((user, _)) => {
                self.store
                    .user_push_subscriptions(business_id, user)
                    .await?
            }
        };
        if subscriptions.is_empty() {
            return Ok(());
        }
        let business = self.store.business(business_id).await?;
        let phone = &notice.key.phone;
        let name = self.store.contact_name(business_id, phone).await?;
        let mut payload = json!({
            "conversation_id": conversation_channel(
                business.phone_number_id.as_deref().unwrap_or_default(),
                phone,
            ),
            "phone_number": phone,
            "name": match name.trim() {
                "" => phone.clone(),
                name => shorten(name, NAME_CHARS),
            },
            "preview": notice.preview,
            "message_type": notice.kind,
            "message_id": notice.message_id,
            "timestamp": iso_time(notice.timestamp_ms),
        });
        let data = native_data(&payload, notice.mention.as_ref().map(|(_, by)| by.as_str()));
        if let Some((_, by)) = &notice.mention {
            payload["mention"] = json!({"by": by});
        }
        let native = NativeNotice {
            title: payload["name"].as_str().unwrap_or_default(),
            body: match notice.preview.as_str() {
                "" => notice.kind.as_str(),
                preview => preview,
            },
            data: &data,
            thread: payload["conversation_id"].as_str().unwrap_or_default(),
        };
        let web_payload = payload.to_string();
        futures_util::stream::iter(subscriptions)
            .for_each_concurrent(CONCURRENT_SENDS, |subscription| {
                let (web_payload, native) = (web_payload.as_bytes(), &native);
                async move {
                    let sent = if subscription.platform == WEB {
                        self.send(business_id, &subscription, web_payload).await
                    } else {
                        self.send_native(business_id, &subscription, native).await
                    };
                    if let Err(err) = sent {
                        metrics::push_failed(PushFailure::NotDelivered);
                        tracing::warn!(error = %err, "push to one browser or device failed");
                    }
                }
            })
            .await;
        Ok(())
    }

    /// Sends through FCM to one device of a native app; forgets it when FCM says it is
    /// unregistered. Without FCM configured (it was, when the device subscribed) it waits.
    async fn send_native(
        &self,
        business_id: &str,
        device: &PushSubscription,
        notice: &NativeNotice<'_>,
    ) -> anyhow::Result<()> {
        let Some(fcm) = &self.fcm else {
            return Ok(());
        };
        if fcm.send(&device.endpoint, notice).await? == Delivered::Unregistered {
            tracing::info!(platform = %device.platform, "FCM token unregistered; removed");
            self.store
                .drop_expired_push_subscription(business_id, &device.endpoint)
                .await?;
        }
        Ok(())
    }

    /// Encrypts and posts to one browser; forgets it when its push service says it is gone.
    async fn send(
        &self,
        business_id: &str,
        subscription: &PushSubscription,
        payload: &[u8],
    ) -> anyhow::Result<()> {
        let info = SubscriptionInfo::new(
            subscription.endpoint.as_str(),
            &subscription.p256dh,
            &subscription.auth,
        );
        let endpoint = url::Url::parse(&subscription.endpoint).context("endpoint URL")?;
        let host = endpoint.host_str().unwrap_or_default().to_string();
        // An address in the URL is not resolved, so the resolver cannot refuse it.
        if let Some(why) = endpoint.host().and_then(|h| address::refusal(&h)) {
            anyhow::ensure!(self.local, "push endpoint refused: {host} {why}");
        }
        let mut signature = self.vapid.clone().add_sub_info(&info);
        signature.add_claim("sub", self.subject.as_str());
        // The audience is the endpoint's origin, port included (the library drops the port).
        signature.add_claim("aud", endpoint.origin().ascii_serialization());
        let mut message = WebPushMessageBuilder::new(&info);
        message.set_payload(ContentEncoding::Aes128Gcm, payload);
        message.set_ttl(TTL_SECS);
        message.set_urgency(Urgency::High);
        message.set_vapid_signature(signature.build().context("VAPID signature")?);
        let (parts, body) =
            build_request::<Vec<u8>>(message.build().context("encryption")?).into_parts();
        let mut request = self
            .http
            .post(&subscription.endpoint)
            .timeout(SEND_TIMEOUT)
            .body(body);
        for (name, value) in &parts.headers {
            // reqwest sets the length of the body itself.
            if name.as_str() != "content-length" {
                request = request.header(name.as_str(), value.as_bytes());
            }
        }
        let status = request
            .send()
            .await
            // The endpoint URL is a capability: it stays out of the logs.
            .map_err(reqwest::Error::without_url)
            .with_context(|| format!("push service {host} unreachable"))?
            .status();
        match status.as_u16() {
            200..=299 => Ok(()),
            404 | 410 => {
                tracing::info!(host = %host, "push subscription expired; removed");
                self.store
                    .drop_expired_push_subscription(business_id, &subscription.endpoint)
                    .await?;
                Ok(())
            }
            _ => anyhow::bail!("push service {host} answered {status}"),
        }
    }
}
