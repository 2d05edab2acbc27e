//! Recipient files for bulk sends, parsed on the server, and the sample file.

use actix_multipart::Multipart;
use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpResponse, web};
use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::multipart::Form;
use crate::state::AppState;
use crate::templates::recipient_rows::{Reading, SkipReason, SkippedRow, skipped_csv};
use crate::templates::recipients::{FileType, SAMPLE_CSV, SAMPLE_FILE_NAME, parse};

/// Largest recipient file: far more than a million numbers.
const MAX_FILE: usize = 32 * 1024 * 1024;

/// `POST /api/recipients/parse` (parts `file`, optional `variables`: the template's variable
/// names, comma-separated) → `{fileName, count, numbers, variables, skipped}`.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/recipients/parse",
    tag = "templates",
    request_body(content = crate::api::described::RecipientsUpload, content_type = "multipart/form-data", description = "Part `file` (CSV or Excel), optional part `variables`"),
    responses((status = 200, description = "The recipients read", body = ParsedRecipients), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn parse_recipients(
    state: web::Data<AppState>,
    auth: Auth,
    payload: Multipart,
) -> ApiResult<HttpResponse> {
    let form = Form::read(payload, MAX_FILE).await?;
    let file = form
        .file("file")
        .ok_or_else(|| ApiError::Unprocessable("file is required".into()))?;
    if file.bytes.len() > MAX_FILE {
        return Err(ApiError::Unprocessable(
            "The recipient file must be at most 32 MB".into(),
        ));
    }
    let file_name = file.filename.clone().unwrap_or_default();
    let kind = FileType::of(&file_name, file.content_type.as_deref())
        .ok_or_else(|| ApiError::Unsupported("Unsupported file type".into()))?;
    let reading = Reading {
        region: state.store.business(&auth.business_id).await?.region(),
        variables: form
            .text("variables")
            .unwrap_or_default()
            .split(',')
            .map(|name| name.trim().to_string())
            .filter(|name| !name.is_empty())
            .collect(),
    };
    // Parsing 100,000 rows takes a while: off the async workers.
    let bytes = file.bytes.clone();
    let parsed = web::block(move || parse(kind, &bytes, reading))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    if parsed.numbers.is_empty() {
        return Err(ApiError::Unprocessable(format!(
            "No valid numbers found in {file_name}"
        )));
    }
    let count = |reason| parsed.skipped.iter().filter(|s| s.reason == reason).count();
    let skipped = Skipped {
        count: parsed.skipped.len(),
        invalid_number: count(SkipReason::InvalidNumber),
        duplicate: count(SkipReason::Duplicate),
        missing_variable: count(SkipReason::MissingVariable),
        rows: &parsed.skipped,
        csv: skipped_csv(&parsed.skipped),
    };
    Ok(HttpResponse::Ok().json(ParsedRecipients {
        file_name: &file_name,
        count: parsed.numbers.len(),
        numbers: &parsed.numbers,
        variables: &parsed.variables,
        skipped,
    }))
}

/// The recipients a file holds, and the rows it skipped.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParsedRecipients<'a> {
    file_name: &'a str,
    count: usize,
    /// Customer keys: digits with the country code, in file order.
    numbers: &'a [String],
    /// Each number's own template variables, by column name.
    variables: &'a BTreeMap<String, BTreeMap<String, String>>,
    skipped: Skipped<'a>,
}

/// The rows left out, and why.
#[derive(Serialize, ToSchema)]
pub struct Skipped<'a> {
    count: usize,
    invalid_number: usize,
    duplicate: usize,
    missing_variable: usize,
    rows: &'a [SkippedRow],
    /// The skipped rows as a CSV file's text.
    csv: String,
}

/// `GET /api/recipients/sample`: a download; it holds no business data, so no token is needed.
#[utoipa::path(
    get,
    path = "/api/recipients/sample",
    tag = "templates",
    responses((status = 200, description = "A sample recipients file", body = String, content_type = "text/csv"), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody))
)]
pub async fn recipients_sample() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(SAMPLE_FILE_NAME.into())],
        })
        .body(SAMPLE_CSV)
}
