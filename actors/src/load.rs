//! Whether this process is busy, from the CPU time it used between two samples of
//! `/proc/self/stat`. The hub merges hand-overs to sessions only while it is.

use std::time::{Duration, Instant};

/// How often the hub samples the process's CPU use.
pub(crate) const LOAD_SAMPLE: Duration = Duration::from_millis(100);
/// Share of the process's cores in use from which it counts as busy, and below which it no
/// longer does (apart, so merging, which lowers the load, does not switch itself off).
const BUSY_FROM: f64 = 0.75;
const BUSY_UNTIL: f64 = 0.5;
/// Linux reports process CPU time in `/proc` in these units per second (`USER_HZ`).
const CLOCK_TICKS_PER_SEC: f64 = 100.0;

/// The process's load as last sampled.
pub(crate) struct Load {
    /// Whether the last two samples counted as busy.
    busy: bool,
    /// The previous sample: when, and the CPU time used until then (in clock ticks).
    last: Option<(Instant, u64)>,
    /// Reads the CPU time used so far (`cpu_ticks`; none in tests that fix `busy`).
    clock: fn() -> Option<u64>,
    /// The cores the process may run on (its CPU affinity and cgroup quota), read once.
    cores: f64,
}

impl Default for Load {
    fn default() -> Load {
        Load {
            busy: false,
            last: None,
            clock: cpu_ticks,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
        }
    }
}

impl Load {
    /// A load that stays as given: samples read no clock.
    #[cfg(test)]
    pub fn fixed(busy: bool) -> Load {
        Load {
            busy,
            clock: || None,
            ..Load::default()
        }
    }

    pub fn busy(&self) -> bool {
        self.busy
    }

    pub fn sample(&mut self) {
        let Some(ticks) = (self.clock)() else {
            return; // Not Linux: never busy, events go out at once.
        };
        let now = Instant::now();
        if let Some((then, before)) = self.last.replace((now, ticks)) {
            let secs = now.duration_since(then).as_secs_f64();
            let used =
                ticks.saturating_sub(before) as f64 / CLOCK_TICKS_PER_SEC / secs / self.cores;
            self.busy = used >= if self.busy { BUSY_UNTIL } else { BUSY_FROM };
        }
    }
}

/// User plus system CPU time of this process so far, from `/proc/self/stat` (fields 14 and 15;
/// the ones after the parenthesised command name, which may hold spaces, start at field 3).
fn cpu_ticks() -> Option<u64> {
    stat_cpu_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

fn stat_cpu_ticks(stat: &str) -> Option<u64> {
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_is_user_plus_system_ticks_after_the_command_name() {
        // The command name may hold spaces and parentheses; fields 14 and 15 follow it.
        let stat = "42 (a (b) c) S 1 42 42 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 9 0";
        assert_eq!(stat_cpu_ticks(stat), Some(300));
        assert_eq!(stat_cpu_ticks("42 (truncated"), None);
        assert!(
            cpu_ticks().is_some(),
            "/proc/self/stat is readable on Linux"
        );
    }
}
