//! The snooze timer: a sweep that reopens snoozed conversations whose time has come. It reads
//! the stored times, so a snooze survives a restart; the sweep's one conditional update lets
//! exactly one node wake each conversation.

use std::sync::Arc;
use std::time::Duration;

use parley_actors::hub::EventBus;

use crate::store::Store;

/// How often due snoozes are looked for: a snooze wakes at most this late.
const SWEEP_INTERVAL: Duration = Duration::from_secs(1);

/// Starts the sweep on this node.
pub fn spawn_snooze_sweep(store: Store, bus: Arc<dyn EventBus>) {
    actix_web::rt::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_INTERVAL);
        loop {
            tick.tick().await;
            match store.wake_snoozed().await {
                Ok(events) => bus.publish(events),
                Err(err) => tracing::warn!(error = %err, "snooze sweep failed"),
            }
        }
    });
}
