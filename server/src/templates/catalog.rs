//! The business's templates kept in step with the provider: the list synced before it is shown
//! or sent, and new templates submitted for review.

use serde_json::{Value, json};

use crate::provider::{Credentials, Provider, ProviderError};
use crate::store;
use crate::store::{Store, TemplateRow};

/// Why a template was not submitted.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// The provider refused the template; the text says why.
    #[error("{0}")]
    Rejected(String),
    /// The provider is not set up or could not be reached.
    #[error("{0}")]
    Unreachable(String),
    #[error(transparent)]
    Store(#[from] store::Error),
}

/// Fetches the account's templates from the provider into the store, forgetting those it no
/// longer lists; answers the stored list. When the provider cannot be reached the last known
/// list is answered.
pub async fn sync_templates(
    store: &Store,
    provider: &dyn Provider,
    business_id: &str,
) -> Result<Vec<TemplateRow>, store::Error> {
    let business = store.business(business_id).await?;
    if let Ok(creds) = Credentials::of(&business) {
        let listed_at = store::now_ms();
        match provider.list_templates(&creds).await {
            Ok(list) => {
                store
                    .replace_templates(business_id, &list, listed_at)
                    .await?
            }
            Err(err) => {
                tracing::warn!(error = %err, "template sync failed; answering the cached list")
            }
        }
    }
    store.templates(business_id).await
}

/// The provider's refusal of a template call, told apart from its being out of reach.
fn refusal(err: ProviderError) -> CatalogError {
    match err {
        ProviderError::Rejected { .. } | ProviderError::InvalidRecipient { .. } => {
            CatalogError::Rejected(match err.details() {
                Some(details) => format!("{err}: {details}"),
                None => err.to_string(),
            })
        }
        other => CatalogError::Unreachable(other.to_string()),
    }
}

/// Deletes a template of the business (every language of it) at the provider, then from the
/// store. `Ok(false)` when the business has no template of that name.
pub async fn remove_template(
    store: &Store,
    provider: &dyn Provider,
    business_id: &str,
    name: &str,
) -> Result<bool, CatalogError> {
    if !store
        .templates(business_id)
        .await?
        .iter()
        .any(|t| t.name == name)
    {
        return Ok(false);
    }
    let business = store.business(business_id).await?;
    let creds = Credentials::of(&business).map_err(|e| CatalogError::Unreachable(e.to_string()))?;
    provider
        .delete_template(&creds, name)
        .await
        .map_err(refusal)?;
    store.delete_templates_named(business_id, name).await?;
    Ok(true)
}

/// Submits a template that passed the form's rules: a media header's file is uploaded for its
/// handle (replacing the placeholder), the template goes to the provider for review, and the
/// store keeps it PENDING until the decision arrives by webhook.
pub async fn submit_template(
    store: &Store,
    provider: &dyn Provider,
    business_id: &str,
    mut template: Value,
    header_file: Option<(Vec<u8>, String)>,
) -> Result<Value, CatalogError> {
    let business = store.business(business_id).await?;
    let creds = Credentials::of(&business).map_err(|e| CatalogError::Unreachable(e.to_string()))?;
    if let Some((bytes, mime)) = header_file {
        let handle = provider
            .upload_handle(&creds, bytes, &mime)
            .await
            .map_err(|e| CatalogError::Unreachable(e.to_string()))?;
        for component in template
            .get_mut("components")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if component
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.eq_ignore_ascii_case("HEADER"))
            {
                component["example"] = json!({"header_handle": [handle]});
            }
        }
    }
    let answer = provider
        .create_template(&creds, template.clone())
        .await
        .map_err(refusal)?;
    let mut stored = template;
    stored["id"] = answer.get("id").cloned().unwrap_or(Value::Null);
    stored["status"] = answer.get("status").cloned().unwrap_or(json!("PENDING"));
    store
        .upsert_templates(business_id, std::slice::from_ref(&stored))
        .await?;
    Ok(answer)
}
