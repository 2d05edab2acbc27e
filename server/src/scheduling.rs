//! How the server's threads are scheduled: as batch threads (Linux's `SCHED_BATCH`), so that a
//! thread woken for a small piece of work does not preempt the thread running on its core.
//!
//! Each row and each answer a database connection hands back wakes the task waiting for it. On a
//! busy core the woken runtime thread preempted the SQLite worker mid-statement for every row
//! (two context switches, then the worker's caches refilled) and took the rest a row at a time;
//! as a batch thread it runs when the worker waits or its slice ends, and takes what is ready.
//! The niceness is kept (docs/decisions/0049-batch-threads.md).

/// Makes the calling thread a batch thread, its niceness kept; threads it starts afterwards
/// inherit the policy. Called first thing when the server starts, so that every thread is one.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn run_as_batch() -> std::io::Result<()> {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: `param` is a valid `sched_param` that outlives the call, which only reads it;
    // pid 0 is the calling thread. SCHED_BATCH takes priority 0 and leaves the niceness as it is.
    let set = unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) };
    if set == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere the scheduler has no batch policy; threads keep their default one.
#[cfg(not(target_os = "linux"))]
pub fn run_as_batch() -> std::io::Result<()> {
    Ok(())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::run_as_batch;

    /// The calling thread's scheduling policy.
    #[allow(unsafe_code)]
    fn policy() -> i32 {
        // SAFETY: pid 0 is the calling thread; the call takes no pointer.
        unsafe { libc::sched_getscheduler(0) }
    }

    /// The calling thread's niceness.
    #[allow(unsafe_code)]
    fn niceness() -> i32 {
        // SAFETY: PRIO_PROCESS with 0 names the calling thread; the call takes no pointer.
        unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }
    }

    /// Raises the calling thread's niceness (allowed to anyone).
    #[allow(unsafe_code)]
    fn be_nicer(niceness: i32) {
        // SAFETY: as above.
        assert_eq!(
            unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, niceness) },
            0
        );
    }

    #[test]
    fn a_thread_becomes_a_batch_thread_with_its_niceness_and_passes_it_on() {
        std::thread::spawn(|| {
            be_nicer(niceness().max(5));
            let before = niceness();
            assert_eq!(policy(), libc::SCHED_OTHER);
            run_as_batch().expect("any thread may become a batch thread");
            assert_eq!(policy(), libc::SCHED_BATCH);
            assert_eq!(niceness(), before);
            let started = std::thread::spawn(|| (policy(), niceness()));
            assert_eq!(started.join().expect("joined"), (libc::SCHED_BATCH, before));
        })
        .join()
        .expect("the checks passed");
    }
}
