//! The target's memory, read from /proc so a run can charge each session its share.

/// Sum of VmRSS of the given processes, in bytes.
pub fn rss_bytes(pids: &[u32]) -> Option<u64> {
    let mut total = 0;
    for pid in pids {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        total += kib * 1024;
    }
    Some(total)
}
