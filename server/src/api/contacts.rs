//! Contacts: add, rename or move to a new number, import, delete.

use actix_multipart::Multipart;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::customer_path::customer;
use crate::auth::extract::Auth;
use crate::contact_file;
use crate::customer::CustomerKey;
use crate::error::{ApiError, ApiResult, SUCCESS, non_blank, required};
use crate::multipart::Form;
use crate::names::{self, required_name};
use crate::phone::Region;
use crate::state::AppState;
use crate::store::ImportCounts;

/// Most contacts one import call may carry.
const MAX_IMPORT: usize = 10_000;
/// Largest contact file (10,000 cards with photos left out are well under this).
const MAX_FILE: usize = 5 * 1024 * 1024;

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ContactForm {
    name: Option<String>,
    phone_number: Option<String>,
    new_phone_number: Option<String>,
}

/// `POST /api/contacts/add` {name, phone_number}.
#[utoipa::path(
    post,
    path = "/api/contacts/add",
    tag = "contacts",
    responses((status = 201, description = "The contact", body = ContactSaved), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn add_contact(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<ContactForm>,
) -> ApiResult<HttpResponse> {
    let name = required_name(&body.name, "name")?;
    let region = state.store.business(&auth.business_id).await?.region();
    let phone =
        CustomerKey::typed(&required(&body.phone_number, "phone_number")?, region)?.into_string();
    let events = state
        .store
        .add_contact(&auth.business_id, &phone, &name)
        .await?;
    state.bus.publish(events);
    Ok(HttpResponse::Created().json(ContactSaved::new(phone, name)))
}

/// A contact as added or updated.
#[derive(Serialize, ToSchema)]
pub struct ContactSaved {
    /// Always `success`.
    status: &'static str,
    /// Its customer key (the new one after a renumbering).
    phone_number: String,
    name: String,
}

impl ContactSaved {
    fn new(phone_number: String, name: String) -> Self {
        ContactSaved {
            status: "success",
            phone_number,
            name,
        }
    }
}

/// `POST /api/users/update` {name, phone_number, new_phone_number?}.
#[utoipa::path(
    post,
    path = "/api/users/update",
    tag = "contacts",
    responses((status = 200, description = "The contact", body = ContactSaved), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn update_contact(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<ContactForm>,
) -> ApiResult<HttpResponse> {
    let name = required_name(&body.name, "name")?;
    let written = required(&body.phone_number, "phone_number")?;
    let phone = customer(&state, &auth.business_id, &written)
        .await?
        .into_string();
    let region = state.store.business(&auth.business_id).await?.region();
    let new_phone = non_blank(&body.new_phone_number)
        .map(|p| CustomerKey::typed(&p, region).map(CustomerKey::into_string))
        .transpose()?;
    let events = state
        .store
        .update_contact(&auth.business_id, &phone, &name, new_phone.as_deref())
        .await?;
    state.bus.publish(events);
    Ok(HttpResponse::Ok().json(ContactSaved::new(new_phone.unwrap_or(phone), name)))
}

#[derive(Deserialize, utoipa::ToSchema)]
pub struct ImportForm {
    /// Read entry by entry, so one that is no contact (`null`, a number, a numeric
    /// `phone_number`) is skipped instead of refusing the list.
    #[schema(value_type = Option<Vec<ContactForm>>)]
    contacts: Option<Vec<serde_json::Value>>,
}

/// `POST /api/contacts/import` → {added, updated, unchanged, skipped}: JSON
/// {contacts: [{name, phone_number}]}, or a multipart form whose `file` is a vCard or CSV file.
/// Either way, entries without a valid name and number are skipped and counted.
#[utoipa::path(
    post,
    path = "/api/contacts/import",
    tag = "contacts",
    request_body(content((crate::api::contacts::ImportForm = "application/json"), (crate::api::described::FileUpload = "multipart/form-data")), description = "A JSON list, or a CSV, Excel or vCard file"),
    responses((status = 200, description = "What the import changed", body = Imported), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn import_contacts(
    state: web::Data<AppState>,
    auth: Auth,
    req: HttpRequest,
    payload: web::Payload,
) -> actix_web::Result<HttpResponse> {
    let multipart = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("multipart/"));
    let region = state
        .store
        .business(&auth.business_id)
        .await
        .map_err(ApiError::from)?
        .region();
    let (valid, skipped) = if multipart {
        let form = Form::read(Multipart::new(req.headers(), payload), MAX_FILE)
            .await
            .map_err(ApiError::from)?;
        file_contacts(&form, region)?
    } else {
        let body = web::Json::<ImportForm>::from_request(&req, &mut payload.into_inner()).await?;
        json_contacts(&body, region)?
    };
    let (counts, events) = state
        .store
        .import_contacts(&auth.business_id, &valid)
        .await
        .map_err(ApiError::from)?;
    state.bus.publish(events);
    Ok(HttpResponse::Ok().json(Imported { counts, skipped }))
}

/// What an import changed, and how many entries it skipped.
#[derive(Serialize, ToSchema)]
pub struct Imported {
    #[serde(flatten)]
    counts: ImportCounts,
    /// Entries without a valid name and number.
    skipped: usize,
}

/// The (phone, name) pairs of a JSON import (a device's address book), and how many entries
/// were skipped for a missing or invalid name or number: one odd contact never costs the rest.
fn json_contacts(
    body: &ImportForm,
    region: Option<Region>,
) -> ApiResult<(Vec<(String, String)>, usize)> {
    let contacts = body
        .contacts
        .as_ref()
        .ok_or_else(|| ApiError::Unprocessable("contacts is required".into()))?;
    check_count(contacts.len())?;
    let valid: Vec<(String, String)> = contacts
        .iter()
        .filter_map(|entry| {
            let contact = ContactForm::deserialize(entry).ok()?;
            let name = required_name(&contact.name, "name").ok()?;
            let written = required(&contact.phone_number, "phone_number").ok()?;
            let phone = CustomerKey::typed(&written, region).ok()?.into_string();
            Some((phone, name))
        })
        .collect();
    let skipped = contacts.len() - valid.len();
    Ok((valid, skipped))
}

/// The (phone, name) pairs of an uploaded file, and how many entries were skipped for a
/// missing or invalid name or number.
fn file_contacts(form: &Form, region: Option<Region>) -> ApiResult<(Vec<(String, String)>, usize)> {
    // A named part without bytes is a chosen file that is empty (a form without a file has an
    // unnamed one), which `contact_file::read` tells as such.
    let file = form
        .file("file")
        .or_else(|| {
            form.part("file").filter(|part| {
                part.filename
                    .as_deref()
                    .is_some_and(|name| !name.is_empty())
            })
        })
        .ok_or_else(|| ApiError::Unprocessable("file is required".into()))?;
    if file.bytes.len() > MAX_FILE {
        return Err(ApiError::PayloadTooLarge(format!(
            "file is larger than {} MB",
            MAX_FILE / (1024 * 1024)
        )));
    }
    let read = contact_file::read(
        file.filename.as_deref().unwrap_or_default(),
        file.content_type.as_deref(),
        &file.bytes,
    )
    .map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    check_count(read.len())?;
    let total = read.len();
    let valid: Vec<(String, String)> = read
        .into_iter()
        .filter_map(|entry| {
            let phone = CustomerKey::typed(&entry.phone, region).ok()?;
            let name = names::name("name", &entry.name).ok()?;
            (!name.is_empty()).then(|| (phone.into_string(), name))
        })
        .collect();
    let skipped = total - valid.len();
    Ok((valid, skipped))
}

fn check_count(count: usize) -> ApiResult<()> {
    if count > MAX_IMPORT {
        return Err(ApiError::Unprocessable(format!(
            "At most {MAX_IMPORT} contacts per import"
        )));
    }
    Ok(())
}

/// `DELETE /api/contacts/delete/{phone}`.
#[utoipa::path(
    delete,
    path = "/api/contacts/delete/{phone}",
    tag = "contacts",
    params(("phone" = String, Path)),
    responses((status = 200, description = "Deleted", body = crate::error::Success), (status = "4XX", description = "Refused: `{detail, message, code}`", body = crate::error::ErrorBody)),
    security(("bearer" = []))
)]
pub async fn delete_contact(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let phone = customer(&state, &auth.business_id, &path)
        .await?
        .into_string();
    let events = (state.store)
        .delete_contact(&auth.business_id, &phone)
        .await?;
    state.bus.publish(events);
    Ok(HttpResponse::Ok().json(SUCCESS))
}
