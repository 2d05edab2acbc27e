//! Native push through Firebase Cloud Messaging (HTTP v1) to the Android and iOS apps: one
//! `messages:send` per registered device token, authorised by the service account's access
//! token. iOS devices are reached through FCM too (it forwards to APNs).

use std::time::Duration;

use anyhow::Context;
use serde_json::{Map, Value, json};

use super::google_token::GoogleToken;
use crate::config::FcmSettings;

/// One FCM request; a slow answer costs a send, never the worker.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long FCM keeps a notification for a device that is offline (as Web Push's TTL).
const TTL: &str = "86400s";

/// What FCM said of one device.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivered {
    Sent,
    /// The app was uninstalled or the token replaced: forget it.
    Unregistered,
}

/// What a native notification shows and carries.
pub struct NativeNotice<'a> {
    pub title: &'a str,
    pub body: &'a str,
    /// `conversation_id`, `preview` and the rest, every value a string (FCM's rule).
    pub data: &'a Map<String, Value>,
    /// Groups a conversation's notifications on the device.
    pub thread: &'a str,
}

/// The FCM sender of a configured Firebase project.
pub struct Fcm {
    token: GoogleToken,
    http: reqwest::Client,
    /// `{endpoint}/v1/projects/{project_id}/messages:send`.
    send_url: String,
}

impl Fcm {
    /// The sender when `push.fcm` is configured; `None` when it is left empty. Half a
    /// configuration is an error, so a typo never silently turns native push off.
    pub fn from_settings(settings: &FcmSettings) -> anyhow::Result<Option<Fcm>> {
        let file = settings.service_account_file.as_os_str();
        match (settings.project_id.is_empty(), file.is_empty()) {
            (true, true) => return Ok(None),
            (false, false) => {}
            _ => anyhow::bail!(
                "push.fcm needs both project_id and service_account_file \
                 (PARLEY_PUSH__FCM__PROJECT_ID, PARLEY_PUSH__FCM__SERVICE_ACCOUNT_FILE)"
            ),
        }
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(SEND_TIMEOUT)
            .build()
            .context("Failed to build the FCM client")?;
        let token = GoogleToken::from_file(&settings.service_account_file, http.clone())?;
        Ok(Some(Fcm {
            token,
            http,
            send_url: format!(
                "{}/v1/projects/{}/messages:send",
                settings.endpoint.trim_end_matches('/'),
                settings.project_id
            ),
        }))
    }

    /// Sends `notice` to one device.
    pub async fn send(&self, device: &str, notice: &NativeNotice<'_>) -> anyhow::Result<Delivered> {
        let message = json!({"message": {
            "token": device,
            "notification": {"title": notice.title, "body": notice.body},
            "data": notice.data,
            "android": {
                "priority": "high",
                "ttl": TTL,
                "notification": {"tag": notice.thread},
            },
            "apns": {
                "headers": {"apns-priority": "10"},
                "payload": {"aps": {"sound": "default", "thread-id": notice.thread}},
            },
        }});
        let access = self.token.access_token().await?;
        let response = self
            .http
            .post(&self.send_url)
            .bearer_auth(access)
            .json(&message)
            .send()
            .await
            .context("FCM is unreachable")?;
        let status = response.status();
        if status.is_success() {
            return Ok(Delivered::Sent);
        }
        let error: Value = response.json().await.unwrap_or_default();
        if status.as_u16() == 404 || unregistered(&error) {
            return Ok(Delivered::Unregistered);
        }
        if status.as_u16() == 401 {
            // The token was revoked or the clock is off: the next send fetches a new one.
            self.token.forget().await;
        }
        let why = error["error"]["status"].as_str().unwrap_or_default();
        anyhow::bail!("FCM answered {status} {why}")
    }
}

/// True when FCM's error names the token as no longer registered.
fn unregistered(error: &Value) -> bool {
    let error = &error["error"];
    error["status"] == "UNREGISTERED"
        || error["details"]
            .as_array()
            .is_some_and(|details| details.iter().any(|d| d["errorCode"] == "UNREGISTERED"))
}
