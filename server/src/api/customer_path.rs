//! The customer a request names, under the key their conversation is kept under now.

use crate::customer::CustomerKey;
use crate::error::ApiResult;
use crate::state::AppState;

/// The customer `raw` (a phone's digits or a BSUID, from a path or a form) names for the
/// business: a BSUID whose customer WhatsApp has since named by phone names the phone's
/// conversation.
pub async fn customer(state: &AppState, business_id: &str, raw: &str) -> ApiResult<CustomerKey> {
    let key = CustomerKey::parse(raw)?;
    Ok(state.store.customer_key(business_id, key).await?)
}
