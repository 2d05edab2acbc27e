//! Recipient files for bulk sends, parsed on the server, and the sample file.

use actix_multipart::Multipart;
use actix_web::HttpResponse;
use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use serde_json::json;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::multipart::Form;
use crate::templates::recipients::{FileType, SAMPLE_CSV, SAMPLE_FILE_NAME, parse};

/// Largest recipient file: far more than a million numbers.
const MAX_FILE: usize = 32 * 1024 * 1024;

/// `POST /api/recipients/parse` (part `file`) → `{fileName, numbers, invalid_rows}`.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
pub async fn parse_recipients(auth: Auth, payload: Multipart) -> ApiResult<HttpResponse> {
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
    // Parsing 100,000 rows takes tens of milliseconds: off the async workers all the same.
    let bytes = file.bytes.clone();
    let parsed = actix_web::web::block(move || parse(kind, &bytes))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    if parsed.numbers.is_empty() {
        return Err(ApiError::Unprocessable(format!(
            "No valid numbers found in {file_name}"
        )));
    }
    Ok(HttpResponse::Ok().json(json!({
        "fileName": file_name,
        "count": parsed.numbers.len(),
        "numbers": parsed.numbers,
        "invalid_rows": parsed.invalid_rows,
    })))
}

/// `GET /api/recipients/sample`: a download; it holds no business data, so no token is needed.
pub async fn recipients_sample() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(SAMPLE_FILE_NAME.into())],
        })
        .body(SAMPLE_CSV)
}
