//! Token versions. Access tokens carry their user's token version; a request is refused
//! (`token_revoked`) once the user's version has moved past it or the account is gone. Each node
//! keeps the versions it has read in memory, so the check costs no query once a user is known;
//! a revocation (`revocation`) updates the node that made it and reaches the others as a notice
//! (see `cluster`).

use std::collections::HashMap;
use std::sync::RwLock;

use parley_actors::hub::Revocation;

use super::error::{AuthError, AuthResult};
use crate::store::Store;

/// Users remembered per node before the memory starts over (each is re-read once).
const MAX_KNOWN: usize = 100_000;

/// What a node knows of a user's tokens. Ordered as things happen: versions only rise, and an
/// account once gone stays gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Known {
    Version(i64),
    Gone,
}

impl From<Option<i64>> for Known {
    fn from(version: Option<i64>) -> Known {
        version.map_or(Known::Gone, Known::Version)
    }
}

/// The token versions this node has read or been told of, by user id.
#[derive(Default)]
pub struct TokenVersions {
    known: RwLock<HashMap<String, Known>>,
}

impl TokenVersions {
    /// Ok while a token of `version` is current for the user.
    pub async fn check(&self, store: &Store, user_id: &str, version: i64) -> AuthResult<()> {
        let cached = self.get(user_id);
        // A token newer than what this node holds means a notice was missed: read again.
        let known = match cached {
            Some(known) if known >= Known::Version(version) => known,
            _ => self.learn(user_id, store.token_version(user_id).await?.into()),
        };
        if known == Known::Version(version) {
            Ok(())
        } else {
            Err(AuthError::Revoked)
        }
    }

    /// Takes in a revocation made here or told by another node.
    pub fn revoked(&self, revocation: &Revocation) {
        self.learn(&revocation.user_id, revocation.version.into());
    }

    /// Forgets everything: after notices may have been missed (the listener reconnected).
    pub fn forget_all(&self) {
        self.write().clear();
    }

    fn get(&self, user_id: &str) -> Option<Known> {
        // Poisoned only by a panic while holding it; the map is still whole (single inserts).
        self.known
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(user_id)
            .copied()
    }

    /// Keeps the later of what is known and `known` (a read racing a revocation never undoes
    /// it); answers what is kept.
    fn learn(&self, user_id: &str, known: Known) -> Known {
        let mut map = self.write();
        if map.len() >= MAX_KNOWN && !map.contains_key(user_id) {
            map.clear();
        }
        let kept = map.entry(user_id.to_string()).or_insert(known);
        *kept = (*kept).max(known);
        *kept
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Known>> {
        self.known
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revocation_is_never_undone_by_an_older_read() {
        let versions = TokenVersions::default();
        assert_eq!(versions.learn("u", Known::Version(2)), Known::Version(2));
        assert_eq!(versions.learn("u", Known::Version(1)), Known::Version(2));
        assert_eq!(versions.learn("u", Known::Gone), Known::Gone);
        assert_eq!(versions.learn("u", Known::Version(3)), Known::Gone);
    }
}
