//! Per-key token buckets: the provider's per-number throughput (80 messages/s by default), kept
//! by the sandbox to refuse and by the outbox to pace.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

struct Bucket {
    tokens: f64,
    refilled: Instant,
}

pub struct TokenBuckets {
    /// Tokens per second, also the burst size.
    rate: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl TokenBuckets {
    pub fn new(rate_per_second: f64) -> TokenBuckets {
        TokenBuckets {
            rate: rate_per_second.max(0.001),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token, or answers how long until one is there.
    pub fn try_take(&self, key: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let bucket = buckets.entry(key.to_string()).or_insert(Bucket {
            tokens: self.rate,
            refilled: now,
        });
        let elapsed = now.duration_since(bucket.refilled).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.rate).min(self.rate);
        bucket.refilled = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / self.rate))
        }
    }

    /// Waits for a token.
    pub async fn take(&self, key: &str) {
        while let Err(wait) = self.try_take(key) {
            tokio::time::sleep(wait).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refuses() {
        let buckets = TokenBuckets::new(3.0);
        assert!((0..3).all(|_| buckets.try_take("n").is_ok()));
        let wait = buckets.try_take("n").expect_err("over the rate");
        assert!(wait <= Duration::from_millis(334));
        assert!(buckets.try_take("other").is_ok());
    }
}
