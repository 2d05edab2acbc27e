//! Which business each change of a webhook is for, and the check that the business's app secret
//! signed the body: template decisions are routed by the account (WABA), everything else by the
//! business phone number.

use std::collections::{HashMap, HashSet};

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::cloud::{Change, Envelope};
use crate::error::{ApiError, ApiResult};
use crate::inbound::{Batch, SetsOff};
use crate::store::{Business, Store};

/// Reads the changes into a batch, each for its business; a change for an unknown number or
/// account is skipped. Refuses the whole body when a business's secret did not sign it, or,
/// when it names no business, when no business's secret did.
pub async fn batch(
    store: &Store,
    envelope: Envelope,
    body: &[u8],
    signature: &str,
) -> ApiResult<Batch> {
    // Looked up once per POST: by phone number id, or `waba:{id}` for an account.
    let mut businesses: HashMap<String, Option<Business>> = HashMap::new();
    let mut verified: HashSet<String> = HashSet::new();
    let mut batch = Batch::default();
    for entry in envelope.entry {
        let account = entry.id.unwrap_or_default();
        for change in entry.changes {
            let key = match (&change, change.phone_number_id()) {
                (Change::TemplateStatus(_), _) => format!("waba:{account}"),
                (_, Some(phone_number_id)) => phone_number_id.to_string(),
                (_, None) => continue,
            };
            let found = match businesses.get(&key) {
                Some(found) => found.clone(),
                None if matches!(change, Change::TemplateStatus(_)) => {
                    store.business_by_waba_id(&account).await?
                }
                None => store.business_by_phone_number_id(&key).await?.map(|a| {
                    let sets_off = SetsOff {
                        replies: a.active_replies > 0,
                        push: a.push_subscriptions > 0,
                    };
                    batch.sets_off(&a.business.id, sets_off);
                    a.business
                }),
            };
            businesses.insert(key.clone(), found.clone());
            let Some(business) = found else {
                tracing::warn!(key = %key, "webhook for an unknown number or account ignored");
                continue;
            };
            if !verified.contains(&business.id) {
                if business.app_secret.is_empty()
                    || !signature_matches(&business.app_secret, body, signature)
                {
                    return Err(ApiError::Forbidden("Invalid webhook signature".into()));
                }
                verified.insert(business.id.clone());
            }
            match change {
                Change::Messages(value) => batch.add_messages(&business.id, *value),
                Change::TemplateStatus(update) => batch.add_template_decision(&business.id, update),
                Change::Echoes(value) => batch.add_echoes(&business.id, *value),
                Change::UserIdUpdate(value) => batch.add_user_id_changes(&business.id, *value),
                Change::StateSync(value) => batch.add_state_sync(&business.id, *value),
                Change::Unknown { field, .. } => {
                    tracing::debug!(field = %field, "webhook change not acted on");
                }
            }
        }
    }
    // A body that names no business (no entry, or only numbers no business owns) is still
    // signed by the app's secret: one no business has set is refused as a wrong signature.
    if verified.is_empty() {
        let secrets = store.app_secrets().await?;
        if !(secrets.iter()).any(|secret| signature_matches(secret, body, signature)) {
            return Err(ApiError::Forbidden("Invalid webhook signature".into()));
        }
    }
    Ok(batch)
}

/// True when `header` is `sha256=<hex HMAC-SHA256 of body keyed with secret>` (constant time).
fn signature_matches(secret: &str, body: &[u8], header: &str) -> bool {
    let Some(hex_sig) = header.strip_prefix("sha256=") else {
        return false;
    };
    let Ok(expected) = hex::decode(hex_sig.trim()) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&expected).is_ok()
}
