//! Revocation at once: a user's tokens are refused from the next request and their live
//! sessions close, on every node.

use parley_actors::hub::Revocation;

use crate::error::ApiResult;
use crate::state::AppState;

/// Ends a user's access everywhere: their tokens are refused from the next request and their
/// live sessions close on every node. `version` is the user's new token version, `None` when the
/// account was deleted.
pub fn announce(state: &AppState, business_id: &str, user_id: &str, version: Option<i64>) {
    let revocation = Revocation {
        business_id: business_id.to_string(),
        user_id: user_id.to_string(),
        version,
    };
    state.token_versions.revoked(&revocation);
    state.bus.revoke(revocation);
}

/// Raises the user's token version and revokes their refresh tokens, then announces it.
pub async fn end_sessions(state: &AppState, business_id: &str, user_id: &str) -> ApiResult<()> {
    let version = state.store.end_sessions(user_id).await?;
    announce(state, business_id, user_id, Some(version));
    Ok(())
}
