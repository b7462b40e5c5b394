//! The basis a pipeline run is judged by: the history (`finished::History`:
//! expected task set, settle time, "as in the last N runs") depends only on
//! the pipeline and the run, never on what window a caller read. It is the
//! complete runs of the `BASIS_DAYS` whole UTC days before the day of the
//! run's first task, read with a log request of its own over that period
//! (to `BASIS_ENTRIES` entries, newest first: `history.rs`) and taken as
//! they stood at the period's end. Past runs do not change, so a basis once
//! read is the same for every run of that day, every command and every
//! process: the client keeps it (`api::kept`, in memory and the caller's
//! store).

use chrono::{DateTime, NaiveDate, Utc};
use uuid::Uuid;

use crate::api::Client;
use crate::runs::finished::History;
use crate::time::Window;

/// How many whole days before a run's day its basis reaches: three daily runs.
pub const BASIS_DAYS: i64 = 3;
/// Bumped when what a basis holds changes: old kept ones are then unread.
const VERSION: u32 = 1;

/// The day a run's basis is named by: the UTC day of its first task's start.
pub fn day_of(first: DateTime<Utc>) -> NaiveDate {
    first.date_naive()
}

/// The start of `day` (UTC): the end of its basis's period, and the moment
/// the runs of the period are taken as they stood.
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    day.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc()
}

/// The period the basis of `day`'s runs is read over: the `BASIS_DAYS`
/// days before it, to its first second (inclusive ranges; a run still
/// going then is read, and left out as still running).
pub fn period(day: NaiveDate) -> Window {
    let end = day_start(day);
    Window {
        from: end - chrono::Duration::days(BASIS_DAYS),
        to: end,
    }
}

/// The key pipeline `id`'s basis for `day`'s runs is kept under.
pub fn key(id: Uuid, day: NaiveDate) -> String {
    format!("basis-v{VERSION}-{id}-{day}")
}

/// The basis kept for `day`'s runs of `id`, if this client has it.
pub fn kept(api: &Client, id: Uuid, day: NaiveDate) -> Option<History> {
    serde_json::from_str(&api.kept().get(&key(id, day))?).ok()
}

/// Keep `h` as the basis of `day`'s runs of `id`.
pub fn keep(api: &Client, id: Uuid, day: NaiveDate, h: &History) {
    if let Ok(text) = serde_json::to_string(h) {
        api.kept().put(&key(id, day), &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_basis_is_the_three_days_before_the_runs_day_whatever_its_hour() {
        let early: DateTime<Utc> = "2026-03-10T00:00:05Z".parse().unwrap();
        let late: DateTime<Utc> = "2026-03-10T23:59:59Z".parse().unwrap();
        assert_eq!(day_of(early), day_of(late));
        let w = period(day_of(late));
        assert_eq!(w.from.to_rfc3339(), "2026-03-07T00:00:00+00:00");
        assert_eq!(w.to.to_rfc3339(), "2026-03-10T00:00:00+00:00");
        let id = Uuid::nil();
        assert_eq!(key(id, day_of(early)), key(id, day_of(late)));
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
