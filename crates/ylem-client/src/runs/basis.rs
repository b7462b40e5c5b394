//! The basis a pipeline run is judged by: the history (`finished::History`:
//! expected task set, settle time, "as in the last N runs") depends only on
//! the pipeline and the run, never on what window a caller read. It is the
//! complete runs of the `BASIS_DAYS` days before the run's *anchor* (its
//! first task's start, to the minute), read with a log request of its own
//! over that period (to `BASIS_ENTRIES` entries, newest first:
//! `history.rs`) and taken as they stood at the anchor (a run that ended
//! less than 10 minutes before it may still be going: not evidence). Past
//! runs do not change, so a basis once read is the same for every command
//! and every process: the client keeps it (`api::kept`, in memory and the
//! caller's store).

use chrono::{DateTime, DurationRound, Utc};
use uuid::Uuid;

use crate::api::Client;
use crate::runs::finished::History;
use crate::time::Window;

/// How many days before a run's anchor its basis reaches: three daily runs.
pub(crate) const BASIS_DAYS: i64 = 3;
/// Bumped when what a basis holds changes: old kept ones are then unread.
const VERSION: u32 = 2;

/// The moment a run's basis ends at: its first task's start, to the minute
/// (so that a run, however its first entries are read, has one).
pub fn anchor_of(first: DateTime<Utc>) -> DateTime<Utc> {
    first
        .duration_trunc(chrono::Duration::minutes(1))
        .unwrap_or(first)
}

/// The period the basis of a run anchored at `anchor` is read over: the
/// `BASIS_DAYS` days before it (inclusive ranges; a run still going then is
/// read, and left out as still running).
pub fn period(anchor: DateTime<Utc>) -> Window {
    Window {
        from: anchor - chrono::Duration::days(BASIS_DAYS),
        to: anchor,
    }
}

/// The key pipeline `id`'s basis at `anchor` is kept under.
pub fn key(id: Uuid, anchor: DateTime<Utc>) -> String {
    format!("basis-v{VERSION}-{id}-{}", anchor.format("%Y%m%dT%H%M"))
}

/// The basis at `anchor` kept for `id`, if this client has it.
pub fn kept(api: &Client, id: Uuid, anchor: DateTime<Utc>) -> Option<History> {
    serde_json::from_str(&api.kept().get(&key(id, anchor))?).ok()
}

/// Keep `h` as the basis at `anchor` of `id`.
pub fn keep(api: &Client, id: Uuid, anchor: DateTime<Utc>, h: &History) {
    if let Ok(text) = serde_json::to_string(h) {
        api.kept().put(&key(id, anchor), &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_basis_is_the_three_days_before_the_runs_minute() {
        let early: DateTime<Utc> = "2026-03-10T10:20:05Z".parse().unwrap();
        let late: DateTime<Utc> = "2026-03-10T10:20:59.9Z".parse().unwrap();
        assert_eq!(anchor_of(early), anchor_of(late));
        let w = period(anchor_of(late));
        assert_eq!(w.from.to_rfc3339(), "2026-03-07T10:20:00+00:00");
        assert_eq!(w.to.to_rfc3339(), "2026-03-10T10:20:00+00:00");
        let id = Uuid::nil();
        assert_eq!(key(id, anchor_of(early)), key(id, anchor_of(late)));
    }

    #[test]
    fn a_history_reads_back_as_it_was_kept() {
        let h = History {
            runs: vec![vec!["a".into(), "b".into()]; 2],
            longest_gap: Some(std::time::Duration::from_millis(1500)),
            ..History::default()
        };
        let text = serde_json::to_string(&h).unwrap();
        assert_eq!(serde_json::from_str::<History>(&text).unwrap(), h);
    }
}
