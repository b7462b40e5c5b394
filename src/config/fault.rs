//! A test's kill switch at the write points of the local state (debug
//! builds only): with `YLEM_TEST_KILL_AT=N` the process sends itself
//! SIGKILL at its Nth write point, as a crash or `kill -9` would stop it
//! there, so the tests can prove every prefix of a login, an alias change,
//! a logout or a token renewal leaves whole state. And the total cap on
//! the waits a service asks for (`Retry-After`, 2 minutes) set lower with
//! `YLEM_TEST_MAX_ASKED_WAITS_MS=N`, so a test sees waits add up past it in
//! seconds through the same accounting. A release build reads neither
//! variable: no switch, the cap as shipped.

/// One write point: the state on disk is whatever the writes so far made it.
pub fn point() {
    #[cfg(all(debug_assertions, unix))]
    imp::point();
}

/// The total cap on asked waits a test set (debug builds only); `None`
/// keeps the transport's default.
pub fn max_asked_waits() -> Option<std::time::Duration> {
    #[cfg(debug_assertions)]
    {
        std::env::var("YLEM_TEST_MAX_ASKED_WAITS_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(std::time::Duration::from_millis)
    }
    #[cfg(not(debug_assertions))]
    {
        None
    }
}

#[cfg(all(debug_assertions, unix))]
mod imp {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static AT: OnceLock<Option<usize>> = OnceLock::new();
    static SEEN: AtomicUsize = AtomicUsize::new(0);

    pub fn point() {
        let at = *AT.get_or_init(|| {
            std::env::var("YLEM_TEST_KILL_AT")
                .ok()
                .and_then(|v| v.parse().ok())
        });
        let Some(at) = at else { return };
        if SEEN.fetch_add(1, Ordering::SeqCst) + 1 == at {
            // SIGKILL from outside, as `kill -9` sends it: nothing of ours
            // runs after it (no destructor removes a temp file).
            let pid = std::process::id().to_string();
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid])
                .status();
            // The signal is on its way; never go on writing meanwhile.
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        }
    }
}
