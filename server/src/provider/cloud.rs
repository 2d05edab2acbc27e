//! The WhatsApp Cloud API client over `reqwest`. The sandbox is reached through this same code,
//! only with another base URL.

use futures_util::future::BoxFuture;
use reqwest::multipart;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;

use super::{Credentials, Provider, ProviderError};
use crate::cloud::graph::{Created, MarkRead, MediaInfo, SendAnswer, TemplatePage, UploadHandle};

pub struct CloudClient {
    http: reqwest::Client,
    /// e.g. `https://graph.facebook.com` or `http://127.0.0.1:8080/sandbox`.
    base_url: String,
    /// e.g. `v21.0`.
    version: String,
}

impl CloudClient {
    pub fn new(http: reqwest::Client, base_url: &str, version: &str) -> CloudClient {
        CloudClient {
            http,
            base_url: base_url.trim_end_matches('/').to_string(),
            version: version.to_string(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!(
            "{}/{}/{}",
            self.base_url,
            self.version,
            path.trim_start_matches('/')
        )
    }
}

/// Reads a Graph answer: `T` on success, a typed error from the error body otherwise.
async fn answer<T: DeserializeOwned>(
    response: reqwest::Result<reqwest::Response>,
) -> Result<T, ProviderError> {
    let response = response.map_err(|e| ProviderError::Network(e.to_string()))?;
    let status = response.status();
    let body: Value = response
        .json()
        .await
        .map_err(|e| ProviderError::Network(format!("unreadable answer: {e}")))?;
    if status.is_success() {
        return serde_json::from_value(body)
            .map_err(|e| ProviderError::Network(format!("unreadable answer: {e}")));
    }
    let error = serde_json::from_value(body).unwrap_or_default();
    Err(ProviderError::from_body(status.as_u16(), error))
}

impl Provider for CloudClient {
    fn send(
        &self,
        creds: &Credentials,
        body: Value,
    ) -> BoxFuture<'static, Result<String, ProviderError>> {
        let request = self
            .http
            .post(self.url(&format!("{}/messages", creds.phone_number_id)))
            .bearer_auth(&creds.access_token)
            .json(&body)
            .send();
        Box::pin(async move {
            let body: SendAnswer = answer(request.await).await?;
            body.message_id()
                .ok_or_else(|| ProviderError::Network("answer without a message id".into()))
        })
    }

    fn mark_read(
        &self,
        creds: &Credentials,
        message_id: &str,
    ) -> BoxFuture<'static, Result<(), ProviderError>> {
        let request = self
            .http
            .post(self.url(&format!("{}/messages", creds.phone_number_id)))
            .bearer_auth(&creds.access_token)
            .json(&MarkRead::new(message_id))
            .send();
        Box::pin(async move { answer::<IgnoredAny>(request.await).await.map(|_| ()) })
    }

    fn upload_media(
        &self,
        creds: &Credentials,
        bytes: Vec<u8>,
        mime_type: &str,
        filename: &str,
    ) -> BoxFuture<'static, Result<String, ProviderError>> {
        let part = multipart::Part::bytes(bytes)
            .file_name(filename.to_string())
            .mime_str(mime_type);
        let url = self.url(&format!("{}/media", creds.phone_number_id));
        let token = creds.access_token.clone();
        let http = self.http.clone();
        let mime = mime_type.to_string();
        Box::pin(async move {
            let part = part.map_err(|e| ProviderError::Rejected {
                code: 0,
                message: format!("bad media type: {e}"),
                details: None,
            })?;
            let form = multipart::Form::new()
                .text("messaging_product", "whatsapp")
                .text("type", mime)
                .part("file", part);
            let body: Created = answer(
                http.post(url)
                    .bearer_auth(token)
                    .multipart(form)
                    .send()
                    .await,
            )
            .await?;
            body.id
                .ok_or_else(|| ProviderError::Network("upload answer without an id".into()))
        })
    }

    fn download_media(
        &self,
        creds: &Credentials,
        media_id: &str,
    ) -> BoxFuture<'static, Result<(Vec<u8>, String), ProviderError>> {
        let lookup = self
            .http
            .get(self.url(media_id))
            .bearer_auth(&creds.access_token)
            .send();
        let http = self.http.clone();
        let token = creds.access_token.clone();
        Box::pin(async move {
            let info: MediaInfo = answer(lookup.await).await?;
            let url = info
                .url
                .ok_or_else(|| ProviderError::Network("media lookup without a url".into()))?;
            let mime = info
                .mime_type
                .unwrap_or_else(|| "application/octet-stream".into());
            // The URL is short-lived and needs the same bearer token.
            let response = http
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .map_err(|e| ProviderError::Network(e.to_string()))?;
            let bytes = response
                .bytes()
                .await
                .map_err(|e| ProviderError::Network(e.to_string()))?;
            Ok((bytes.to_vec(), mime))
        })
    }

    fn create_template(
        &self,
        creds: &Credentials,
        body: Value,
    ) -> BoxFuture<'static, Result<Value, ProviderError>> {
        let request = self
            .http
            .post(self.url(&format!("{}/message_templates", creds.waba_id)))
            .bearer_auth(&creds.access_token)
            .json(&body)
            .send();
        Box::pin(async move { answer(request.await).await })
    }

    fn delete_template(
        &self,
        creds: &Credentials,
        name: &str,
    ) -> BoxFuture<'static, Result<(), ProviderError>> {
        let request = self
            .http
            .delete(self.url(&format!("{}/message_templates", creds.waba_id)))
            .bearer_auth(&creds.access_token)
            .query(&[("name", name)])
            .send();
        Box::pin(async move { answer::<IgnoredAny>(request.await).await.map(|_| ()) })
    }

    fn list_templates(
        &self,
        creds: &Credentials,
    ) -> BoxFuture<'static, Result<Vec<Value>, ProviderError>> {
        let first = self.url(&format!("{}/message_templates?limit=100", creds.waba_id));
        let http = self.http.clone();
        let token = creds.access_token.clone();
        Box::pin(async move {
            let mut templates = Vec::new();
            let mut next = Some(first);
            // Bounded: no account has more than a few thousand templates.
            for _ in 0..50 {
                let Some(url) = next.take() else { break };
                let page: TemplatePage =
                    answer(http.get(url).bearer_auth(&token).send().await).await?;
                templates.extend(page.data);
                next = page.paging.next;
            }
            Ok(templates)
        })
    }

    fn upload_handle(
        &self,
        creds: &Credentials,
        bytes: Vec<u8>,
        mime_type: &str,
    ) -> BoxFuture<'static, Result<String, ProviderError>> {
        let start = self
            .http
            .post(self.url(&format!("{}/uploads", creds.app_id)))
            .bearer_auth(&creds.access_token)
            .query(&[
                ("file_length", bytes.len().to_string()),
                ("file_type", mime_type.to_string()),
            ])
            .send();
        let http = self.http.clone();
        let token = creds.access_token.clone();
        let base = self.url("");
        Box::pin(async move {
            let session: Created = answer(start.await).await?;
            let upload_id = session
                .id
                .ok_or_else(|| ProviderError::Network("upload session without an id".into()))?;
            let done: UploadHandle = answer(
                http.post(format!("{base}{upload_id}"))
                    .header("Authorization", format!("OAuth {token}"))
                    .header("file_offset", "0")
                    .body(bytes)
                    .send()
                    .await,
            )
            .await?;
            done.h
                .ok_or_else(|| ProviderError::Network("upload answer without a handle".into()))
        })
    }
}
