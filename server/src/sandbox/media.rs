//! Media as the Cloud API keeps it: uploads stored under `sandbox-media/` with a description
//! beside the bytes, looked up by id for a download URL, downloaded with the same token.

use actix_multipart::form::{MultipartForm, tempfile::TempFile, text::Text};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::graph::{graph_error, unsupported_request};
use super::{Sandbox, graph_id};
use crate::customer_file;
use crate::error::ApiResult;

/// A stored sandbox upload's description, kept next to its bytes.
#[derive(Serialize, Deserialize)]
struct MediaInfo {
    mime_type: String,
    sha256: String,
    file_size: String,
    phone_number_id: String,
}

#[derive(MultipartForm)]
pub struct Upload {
    file: TempFile,
    #[multipart(rename = "type")]
    kind: Option<Text<String>>,
    messaging_product: Option<Text<String>>,
}

/// `POST /sandbox/{version}/{phone_number_id}/media`.
pub async fn upload(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    form: MultipartForm<Upload>,
) -> ApiResult<HttpResponse> {
    let (_, phone_number_id) = path.into_inner();
    if let Err(response) = sandbox.authorized(&req, &phone_number_id).await {
        return Ok(response);
    }
    let form = form.into_inner();
    if form.messaging_product.as_ref().map(|t| t.as_str()) != Some("whatsapp") {
        return Ok(graph_error(
            400,
            100,
            "(#100) Invalid parameter",
            "messaging_product must be whatsapp",
        ));
    }
    let bytes = tokio::fs::read(form.file.file.path())
        .await
        .map_err(anyhow::Error::from)?;
    let mime_type = form
        .kind
        .map(|t| t.into_inner())
        .or_else(|| form.file.content_type.map(|m| m.to_string()))
        .unwrap_or_else(|| "application/octet-stream".into());
    let id = graph_id();
    let info = MediaInfo {
        mime_type,
        sha256: hex::encode(Sha256::digest(&bytes)),
        file_size: bytes.len().to_string(),
        phone_number_id,
    };
    tokio::fs::create_dir_all(&sandbox.media_dir)
        .await
        .map_err(anyhow::Error::from)?;
    tokio::fs::write(sandbox.media_dir.join(&id), &bytes)
        .await
        .map_err(anyhow::Error::from)?;
    let sidecar = serde_json::to_vec(&info).map_err(anyhow::Error::from)?;
    tokio::fs::write(sandbox.media_dir.join(format!("{id}.json")), sidecar)
        .await
        .map_err(anyhow::Error::from)?;
    Ok(HttpResponse::Ok().json(json!({ "id": id })))
}

impl Sandbox {
    async fn media_info(&self, media_id: &str) -> Option<MediaInfo> {
        if !media_id.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let raw = tokio::fs::read(self.media_dir.join(format!("{media_id}.json")))
            .await
            .ok()?;
        serde_json::from_slice(&raw).ok()
    }

    /// A stored upload, when the bearer token is its number's access token.
    async fn owned_media(
        &self,
        req: &HttpRequest,
        media_id: &str,
    ) -> Result<MediaInfo, HttpResponse> {
        let Some(info) = self.media_info(media_id).await else {
            return Err(unsupported_request(req.method().as_str(), media_id));
        };
        self.authorized(req, &info.phone_number_id).await?;
        Ok(info)
    }
}

/// A media object's short-lived download URL (`GET /{media-id}`).
pub(super) async fn media_object(
    sandbox: &Sandbox,
    req: &HttpRequest,
    media_id: &str,
) -> HttpResponse {
    let info = match sandbox.owned_media(req, media_id).await {
        Ok(info) => info,
        Err(response) => return response,
    };
    HttpResponse::Ok().json(json!({
        "messaging_product": "whatsapp",
        "url": format!("{}/sandbox/files/{media_id}", sandbox.self_url),
        "mime_type": info.mime_type,
        "sha256": info.sha256,
        "file_size": info.file_size,
        "id": media_id,
    }))
}

/// `GET /sandbox/files/{media_id}`: the bytes, with the same bearer token, answered as every
/// customer file is.
pub async fn download(
    sandbox: web::Data<Sandbox>,
    req: HttpRequest,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let media_id = path.into_inner();
    let info = match sandbox.owned_media(&req, &media_id).await {
        Ok(info) => info,
        Err(response) => return Ok(response),
    };
    let bytes = tokio::fs::read(sandbox.media_dir.join(&media_id))
        .await
        .map_err(anyhow::Error::from)?;
    let mut response = HttpResponse::Ok().body(bytes);
    customer_file::protect(&mut response, &info.mime_type, "");
    Ok(response)
}
