//! The open-loop publisher: message `k` is scheduled at `start + k / rate` and carries that
//! time, so a server that falls behind shows the queueing in the latency instead of slowing the
//! generator down.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::ProgressBar;
use tokio::sync::Semaphore;

use crate::client::unix_nanos;

/// Calls `publish(k, scheduled_unix_nanos)` for `k` in `0..count` at `rate` per second, with
/// at most `inflight` calls running; returns once every call has finished.
pub(super) async fn open_loop<F, Fut>(
    rate: f64,
    count: u64,
    inflight: usize,
    bar: &ProgressBar,
    publish: F,
) -> Result<()>
where
    F: Fn(u64, u64) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let permits = Arc::new(Semaphore::new(inflight));
    let start = Instant::now();
    let wall = unix_nanos();
    let mut k = 0;
    while k < count {
        let due = ((start.elapsed().as_secs_f64() * rate) as u64 + 1).min(count);
        while k < due {
            let scheduled = wall + (k as f64 * 1e9 / rate) as u64;
            let permit = permits.clone().acquire_owned().await?;
            let call = publish(k, scheduled);
            tokio::spawn(async move {
                call.await;
                drop(permit);
            });
            k += 1;
        }
        bar.set_position(k);
        if k < count {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    let _all = permits.acquire_many(inflight as u32).await?;
    Ok(())
}
