//! The business a run drives, registered through the public API: its owner, agents, app
//! secret and the media its simulated customers send.

use anyhow::{Result, anyhow, bail};
use serde_json::{Value, json};

use super::api::Api;

/// Password of every account a run creates.
const PASSWORD: &str = "loadtest-password";
/// The smallest files the inbox shows as what they are (the server sniffs their first bytes).
const JPEG: &[u8] = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xFF\xD9";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";

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

impl Api {
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
}

fn access_token(body: &Value) -> Result<String> {
    Ok(body["accessToken"]
        .as_str()
        .ok_or_else(|| anyhow!("no accessToken in {body}"))?
        .to_string())
}
