//! Contacts: add, rename or move to a new number, import, delete.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

use crate::auth::extract::Auth;
use crate::customer::CustomerKey;
use crate::error::{ApiError, ApiResult, non_blank, required};
use crate::names::required_name;
use crate::state::AppState;

/// Most contacts one import call may carry.
const MAX_IMPORT: usize = 10_000;

#[derive(Deserialize)]
pub struct ContactForm {
    name: Option<String>,
    phone_number: Option<String>,
    new_phone_number: Option<String>,
}

/// `POST /api/contacts/add` {name, phone_number}.
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
    Ok(HttpResponse::Created()
        .json(json!({"status": "success", "phone_number": phone, "name": name})))
}

/// `POST /api/users/update` {name, phone_number, new_phone_number?}.
pub async fn update_contact(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<ContactForm>,
) -> ApiResult<HttpResponse> {
    let name = required_name(&body.name, "name")?;
    let phone = CustomerKey::parse(&required(&body.phone_number, "phone_number")?)
        .map(CustomerKey::into_string)?;
    let region = state.store.business(&auth.business_id).await?.region();
    let new_phone = non_blank(&body.new_phone_number)
        .map(|p| CustomerKey::typed(&p, region).map(CustomerKey::into_string))
        .transpose()?;
    let events = state
        .store
        .update_contact(&auth.business_id, &phone, &name, new_phone.as_deref())
        .await?;
    state.bus.publish(events);
    Ok(HttpResponse::Ok().json(json!({
        "status": "success",
        "phone_number": new_phone.unwrap_or(phone),
        "name": name,
    })))
}

#[derive(Deserialize)]
pub struct ImportForm {
    contacts: Option<Vec<ContactForm>>,
}

/// `POST /api/contacts/import` {contacts: [{name, phone_number}]} → {added, updated, unchanged}.
pub async fn import_contacts(
    state: web::Data<AppState>,
    auth: Auth,
    body: web::Json<ImportForm>,
) -> ApiResult<HttpResponse> {
    let contacts = body
        .contacts
        .as_ref()
        .ok_or_else(|| ApiError::Unprocessable("contacts is required".into()))?;
    if contacts.len() > MAX_IMPORT {
        return Err(ApiError::Unprocessable(format!(
            "At most {MAX_IMPORT} contacts per import"
        )));
    }
    let region = state.store.business(&auth.business_id).await?.region();
    let mut valid = Vec::with_capacity(contacts.len());
    for (index, contact) in contacts.iter().enumerate() {
        let name = required_name(&contact.name, &format!("contacts[{index}].name"))?;
        let phone = CustomerKey::typed(
            &required(
                &contact.phone_number,
                &format!("contacts[{index}].phone_number"),
            )?,
            region,
        )
        .map(CustomerKey::into_string)
        .map_err(|e| ApiError::Unprocessable(format!("contacts[{index}]: {e}")))?;
        valid.push((phone, name));
    }
    let (counts, events) = state
        .store
        .import_contacts(&auth.business_id, &valid)
        .await?;
    state.bus.publish(events);
    Ok(HttpResponse::Ok().json(json!({
        "added": counts.added,
        "updated": counts.updated,
        "unchanged": counts.unchanged,
    })))
}

/// `DELETE /api/contacts/delete/{phone}`.
pub async fn delete_contact(
    state: web::Data<AppState>,
    auth: Auth,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let phone = CustomerKey::parse(&path).map(CustomerKey::into_string)?;
    state
        .store
        .delete_contact(&auth.business_id, &phone)
        .await?;
    Ok(HttpResponse::Ok().json(json!({"status": "success"})))
}
