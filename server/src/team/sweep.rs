//! The inbox's timers: a sweep that reopens snoozed conversations whose time has come, frees
//! claimed ones whose customer has waited longer than the business's claim timeout, and applies
//! the edits, deletions and reactions that came before their message once it is stored.
//! It reads stored state, so nothing is lost in a restart; each change is one conditional update
//! or delete, so of several nodes sweeping at once exactly one makes each change.

use std::sync::Arc;
use std::time::Duration;

use parley_actors::hub::EventBus;

use crate::store::Store;

/// How often the sweep runs: a snooze wakes, a claim ends, or an early change is applied at most
/// this late.
const SWEEP_INTERVAL: Duration = Duration::from_secs(1);

/// Starts the sweep on this node.
pub fn spawn_team_sweep(store: Store, bus: Arc<dyn EventBus>) {
    actix_web::rt::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_INTERVAL);
        loop {
            tick.tick().await;
            for swept in [
                store.wake_snoozed().await,
                store.release_stale_claims().await,
                store.apply_early_amendments().await,
            ] {
                match swept {
                    Ok(events) => bus.publish(events),
                    Err(err) => tracing::warn!(error = %err, "team sweep failed"),
                }
            }
        }
    });
}
