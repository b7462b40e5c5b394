//! The watch's one clock: the wall time read once at the start, carried
//! forward by the process's monotonic clock. What a watch treats as new or
//! already told is decided by run identity and the server's own times; its
//! windows and settle times are intervals of this clock, so a wall clock
//! set back or forward while it runs (NTP stepping, a suspended laptop
//! whose clock is fixed up later, a hand) neither re-announces old runs nor
//! repeats ones already told.

use std::sync::OnceLock;
use std::time::Instant;

use chrono::{DateTime, Utc};

static START: OnceLock<(DateTime<Utc>, Instant)> = OnceLock::new();

/// Now, as the watch counts it: the wall time at the first call plus the
/// monotonic time since.
pub fn now() -> DateTime<Utc> {
    let (wall, mono) = *START.get_or_init(|| (Utc::now(), Instant::now()));
    let elapsed = chrono::Duration::from_std(mono.elapsed()).unwrap_or(chrono::Duration::MAX);
    wall.checked_add_signed(elapsed).unwrap_or(wall)
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_never_goes_back() {
        let a = super::now();
        let b = super::now();
        assert!(b >= a);
    }
}
