//! Keeping the files of customers' messages and echoes while the provider still has them (its
//! URLs expire). The group-commit writer hands over the files of each committed batch; one read
//! per business tells which are kept already, and each of the others is fetched. A failure is
//! retried when someone opens the file.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::{Arc, Mutex};

use crate::outbox::Outbox;
use crate::store::{NewMedia, Store};

/// Most committed batches read together.
const BATCHES_PER_READ: usize = 64;

/// Runs while the writer does: takes every batch handed over while the previous read ran and
/// fetches the files neither kept nor being fetched already.
pub async fn keep_media(store: Store, outbox: Arc<Outbox>, mut batches: NewMedia) {
    let fetching: Arc<Mutex<HashSet<(String, String)>>> = Arc::default();
    let mut queued = Vec::new();
    while batches.recv_many(&mut queued, BATCHES_PER_READ).await > 0 {
        let mut wanted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (business_id, media_id) in queued.drain(..).flatten() {
            wanted.entry(business_id).or_default().insert(media_id);
        }
        for (business_id, ids) in wanted {
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            let kept = match store.kept_media(&business_id, &ids).await {
                Ok(kept) => kept,
                Err(err) => {
                    tracing::warn!(error = %err, "inbound media not looked up");
                    continue;
                }
            };
            for media_id in ids.into_iter().filter(|id| !kept.contains(*id)) {
                let file = (business_id.clone(), media_id.to_string());
                if !fetching
                    .lock()
                    .is_ok_and(|mut set| set.insert(file.clone()))
                {
                    continue;
                }
                let (outbox, fetching) = (outbox.clone(), fetching.clone());
                actix_web::rt::spawn(async move {
                    if let Err(err) = outbox.keep_inbound_media(&file.0, &file.1).await {
                        tracing::warn!(error = %err, "inbound media not fetched yet");
                    }
                    if let Ok(mut set) = fetching.lock() {
                        set.remove(&file);
                    }
                });
            }
        }
    }
}
