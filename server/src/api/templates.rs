//! Template creation: the form's rules enforced on the server before the provider sees anything.

use actix_multipart::Multipart;
use actix_web::HttpResponse;
use serde_json::Value;

use super::multipart::Form;
use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::templates::media::{HEADER_DOCUMENT_MAX, HeaderFile, sniff};
use crate::templates::rules::check_template;

/// `POST /api/create-template`: part `template` (the JSON), part `file` for a media header.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
pub async fn create_template(auth: Auth, payload: Multipart) -> ApiResult<HttpResponse> {
    let form = Form::read(payload, HEADER_DOCUMENT_MAX as usize).await?;
    let raw = form
        .text("template")
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| ApiError::Unprocessable("The template part is required".into()))?;
    let template: Value = serde_json::from_str(&raw)
        .map_err(|_| ApiError::Unprocessable("The template part is not valid JSON".into()))?;
    let file = form.file("file");
    let header_file = file.map(|f| HeaderFile {
        kind: sniff(&f.bytes),
        size: f.size(),
    });
    check_template(&template, header_file.as_ref())
        .map_err(|failure| ApiError::Unprocessable(failure.message))?;
    // The valid template goes to the provider next (upload the header file for its handle, then
    // `POST /{waba-id}/message_templates`); that call is wired with the provider client.
    Err(ApiError::NotImplemented(
        "Template submission is not wired to the provider yet".into(),
    ))
}
