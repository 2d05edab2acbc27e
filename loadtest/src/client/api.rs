//! Plain HTTP access to the target: JSON calls, multipart forms, nchan publishes.

use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::Value;
use url::Url;

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

    /// Sends `body` as JSON, with a bearer token when given; answers the status and the body
    /// (JSON when it parses, else its text, so a failed setup step can show what came back).
    pub async fn call(
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

    /// Publishes a raw body to an nchan channel; answers the HTTP status.
    pub async fn nchan_publish(&self, channel: &str, body: String) -> Result<u16> {
        let request = self
            .http
            .post(self.url(&format!("/pub/{channel}")))
            .body(body);
        status_answer(request, "Failed to publish to nchan").await
    }
}

/// Sends `request` and answers only its status; the body is read to its end so the connection
/// goes back to the pool.
pub(super) async fn status_answer(
    request: reqwest::RequestBuilder,
    failure: &'static str,
) -> Result<u16> {
    let response = request.send().await.context(failure)?;
    let status = response.status().as_u16();
    let _ = response.bytes().await;
    Ok(status)
}

async fn json_answer(path: &str, request: reqwest::RequestBuilder) -> Result<(u16, Value)> {
    let response = request
        .send()
        .await
        .with_context(|| format!("Failed to reach {path}"))?;
    let status = response.status().as_u16();
    Ok((status, response.json().await.unwrap_or(Value::Null)))
}
