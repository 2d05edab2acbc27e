//! The latency marker: measured messages carry their scheduled send time in their text, so
//! the receiving side can tell how long each took without a clock shared over the wire.

use std::time::{SystemTime, UNIX_EPOCH};

/// Unix time in nanoseconds; markers carry it so latency counts from the scheduled send time.
pub fn unix_nanos() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// The text a measured message carries: `lt:<step>:<index>:<scheduled unix nanos>`.
pub fn marker(step: u32, index: u64, scheduled_nanos: u64) -> String {
    format!("lt:{step}:{index}:{scheduled_nanos}")
}

/// Finds a marker anywhere in a frame (a JSON event or nchan's raw body).
pub fn parse_marker(frame: &str) -> Option<(u32, u64, u64)> {
    let start = frame.find("lt:")? + 3;
    let mut parts = frame[start..].splitn(3, ':');
    let step = parts.next()?.parse().ok()?;
    let index = parts.next()?.parse().ok()?;
    let rest = parts.next()?;
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    Some((step, index, rest[..end].parse().ok()?))
}
