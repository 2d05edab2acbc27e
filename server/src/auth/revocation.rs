//! Revocation at once: a user's tokens are refused from the next request and their live
//! sessions close, on every node.

use std::sync::Arc;

use parley_actors::hub::{EventBus, Revocation};

use super::token_versions::TokenVersions;
use crate::store::{Store, StoreResult};

/// Ends users' access: tells this node's token versions and, through the bus, every node.
#[derive(Clone)]
pub struct Revocations {
    store: Store,
    versions: Arc<TokenVersions>,
    bus: Arc<dyn EventBus>,
}

impl Revocations {
    pub fn new(store: Store, versions: Arc<TokenVersions>, bus: Arc<dyn EventBus>) -> Revocations {
        Revocations {
            store,
            versions,
            bus,
        }
    }

    /// Announces that the user's tokens before `version` are void (`None`: the account was
    /// deleted), so they are refused from the next request and their live sessions close.
    pub fn announce(&self, business_id: &str, user_id: &str, version: Option<i64>) {
        let revocation = Revocation {
            business_id: business_id.to_string(),
            user_id: user_id.to_string(),
            version,
        };
        self.versions.revoked(&revocation);
        self.bus.revoke(revocation);
    }

    /// Raises the user's token version and revokes their refresh tokens, then announces it.
    pub async fn end_sessions(&self, business_id: &str, user_id: &str) -> StoreResult<()> {
        let version = self.store.end_sessions(user_id).await?;
        self.announce(business_id, user_id, Some(version));
        Ok(())
    }
}
