//! Template creation (the form's rules enforced on the server before the provider sees
//! anything) and deletion.

use actix_multipart::Multipart;
use actix_web::{HttpResponse, web};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::extract::Auth;
use crate::error::{ApiError, ApiResult};
use crate::media::sniff;
use crate::multipart::Form;
use crate::state::AppState;
use crate::templates::catalog::{remove_template, submit_template};
use crate::templates::media::{HEADER_DOCUMENT_MAX, HeaderFile};
use crate::templates::rules::check_template;

/// `POST /api/create-template`: part `template` (the JSON), part `file` for a media header.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    post,
    path = "/api/create-template",
    tag = "templates",
    request_body(content = crate::api::described::TemplateUpload, content_type = "multipart/form-data", description = "Part `template` (the JSON) and part `file` for a media header"),
    responses((status = 200, description = "The provider's answer", body = TemplateSubmitted), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn create_template(
    state: web::Data<AppState>,
    auth: Auth,
    payload: Multipart,
) -> ApiResult<HttpResponse> {
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
    let header = file.map(|f| {
        let mime =
            crate::media::cloud_type(&f.bytes).map_or("application/octet-stream", |(m, _)| m);
        (f.bytes.clone(), mime.to_string())
    });
    let result = submit_template(
        &state.store,
        state.provider.as_ref(),
        &auth.business_id,
        template,
        header,
    )
    .await?;
    Ok(HttpResponse::Ok().json(TemplateSubmitted { result }))
}

/// A submitted template.
#[derive(Serialize, ToSchema)]
pub struct TemplateSubmitted {
    /// The provider's answer as it gave it (`id`, `status`, `category`): free-form on purpose.
    result: Value,
}

/// `DELETE /api/templates/{name}`: every language of the template, at the provider and here.
#[tracing::instrument(skip_all, fields(business_id = %auth.business_id))]
#[utoipa::path(
    delete,
    path = "/api/templates/{name}",
    tag = "templates",
    params(("name" = String, Path, description = "The template")),
    responses((status = 200, description = "Deleted in every language", body = TemplateDeleted), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn delete_template(
    state: web::Data<AppState>,
    auth: Auth,
    name: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let name = name.into_inner();
    if !remove_template(
        &state.store,
        state.provider.as_ref(),
        &auth.business_id,
        &name,
    )
    .await?
    {
        return Err(ApiError::NotFound(format!("No template named {name}")));
    }
    Ok(HttpResponse::Ok().json(TemplateDeleted {
        message: "Template deleted",
        name,
    }))
}

/// A deleted template.
#[derive(Serialize, ToSchema)]
pub struct TemplateDeleted {
    /// Always `Template deleted`.
    message: &'static str,
    name: String,
}
