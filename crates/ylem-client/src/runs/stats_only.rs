//! What can be known of a workflow's or a task's runs from statistics
//! alone, in one place. They have no log endpoint: the service says only
//! how many runs (and failed runs) a window holds and what its last run
//! was (its time, whether it succeeded, its duration). Every command that
//! states such a run or counts them (`last-run`, `check`, `status`, the
//! exporter, `watch`'s board and event stream) takes its facts from here,
//! so counts and verdicts agree:
//!
//! - **Counts** are the window's statistics (`num_of_successes +
//!   num_of_failures`, `num_of_failures`), never runs counted as seen.
//!   Runs per hour are not known (no hourly statistics): none are shown.
//! - **The last run's verdict at `now`**: `failed` when the statistics say
//!   so (`statistics_failed`); a task is one entry, finished when reported
//!   (`task_reported`); a workflow's success counts once it has stayed the
//!   last run for the settle time after its time (`statistics_settled`),
//!   before that it is `unsettled`.
//! - **Its times**: `ended` is the statistics' time; a task started
//!   `duration` before it (`elapsed` = `duration`); a workflow's time is
//!   its last row's, not a start, so its start and elapsed are not known.
//!
//! Pure: no I/O, no clock.

use chrono::{DateTime, Utc};

use crate::api::models::RangeStats;
use crate::kinds::Entity;
#[cfg(test)]
use crate::runs::finished::DEFAULT_SETTLE;
use crate::runs::finished::Settle;
pub use crate::runs::view::Fact;
use crate::runs::view::{Established, RunView};

/// A window's runs and failed runs, as its statistics count them.
pub fn counts(s: &RangeStats) -> (i64, i64) {
    (
        s.num_of_successes.max(0) + s.num_of_failures.max(0),
        s.num_of_failures.max(0),
    )
}

/// The last run of a workflow or a task, as the statistics gave it: it
/// ended at `at`, succeeded or not, took `duration_ms`; judged at `now`
/// with the settle setting (`setting`, else `DEFAULT_SETTLE`): a
/// workflow's success counts once it has been the last run for that long
/// after its own time. Every caller that judges such a run (a wait for a
/// workflow run included) calls this with the same setting.
pub fn last_run(
    kind: Entity,
    ok: bool,
    at: DateTime<Utc>,
    duration_ms: i64,
    now: DateTime<Utc>,
    setting: Option<std::time::Duration>,
) -> RunView {
    let settle = Settle::for_workflow(setting);
    let young = (now - at).to_std().unwrap_or_default() < settle.duration();
    let fact = match (ok, kind) {
        (false, _) => Fact::Failed,
        (true, Entity::Workflow) if young => Fact::Unsettled,
        (true, Entity::Workflow) => Fact::Settled(settle),
        (true, _) => Fact::TaskReported,
    };
    let result = match fact {
        Fact::Failed => "failed",
        Fact::Unsettled => "unsettled",
        Fact::Settled(_) | Fact::TaskReported => "succeeded",
    };
    // A task started `duration` before it ended; a duration no time can
    // hold (a hostile 9e18) gives no start rather than a panic.
    let started = (kind == Entity::Task)
        .then(|| {
            chrono::Duration::try_milliseconds(duration_ms.max(0))
                .and_then(|d| at.checked_sub_signed(d))
        })
        .flatten();
    RunView {
        run: None,
        result,
        evidence: Some(Established::Statistics(fact)),
        ended: at,
        executed_at: Some(at),
        started,
        duration_ms: duration_ms.max(0),
        tasks: None,
        expected: None,
        failed: Vec::new(),
    }
}

/// When a workflow's success at `at` counts with the settle setting
/// `setting` (a task's and a failure at once).
pub fn settles_at(
    kind: Entity,
    ok: bool,
    at: DateTime<Utc>,
    setting: Option<std::time::Duration>,
) -> DateTime<Utc> {
    match (kind, ok) {
        (Entity::Workflow, true) => {
            let settle = Settle::for_workflow(setting).duration();
            at + chrono::Duration::from_std(settle).unwrap_or_default()
        }
        _ => at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    #[test]
    fn a_task_is_final_when_reported_a_workflow_after_the_settle_time() {
        let t = last_run(Entity::Task, true, at(0), 2000, at(1), None);
        assert_eq!(t.result, "succeeded");
        assert_eq!(t.elapsed_ms(), Some(2000));
        assert_eq!(
            t.evidence,
            Some(Established::Statistics(Fact::TaskReported))
        );
        let w = last_run(Entity::Workflow, true, at(0), 2000, at(1), None);
        assert_eq!(
            (w.result, w.started, w.elapsed_ms()),
            ("unsettled", None, None)
        );
        let settle = DEFAULT_SETTLE.as_secs() as i64;
        let w = last_run(Entity::Workflow, true, at(0), 2000, at(settle), None);
        assert_eq!(w.result, "succeeded");
        assert_eq!(
            w.evidence,
            Some(Established::Statistics(Fact::Settled(Settle::Default(
                DEFAULT_SETTLE
            ))))
        );
        assert_eq!(settles_at(Entity::Workflow, true, at(0), None), at(settle));
        let f = last_run(Entity::Workflow, false, at(0), 2000, at(0), None);
        assert_eq!(f.evidence, Some(Established::Statistics(Fact::Failed)));
        assert_eq!(f.result, "failed");
    }

    #[test]
    fn the_settle_setting_replaces_a_workflows_default() {
        let given = Some(std::time::Duration::from_secs(15));
        let w = last_run(Entity::Workflow, true, at(0), 2000, at(14), given);
        assert_eq!(w.result, "unsettled");
        let w = last_run(Entity::Workflow, true, at(0), 2000, at(15), given);
        assert_eq!(w.result, "succeeded");
        assert_eq!(
            w.evidence,
            Some(Established::Statistics(Fact::Settled(Settle::Given(
                std::time::Duration::from_secs(15)
            ))))
        );
        assert_eq!(settles_at(Entity::Workflow, true, at(0), given), at(15));
    }

    #[test]
    fn counts_are_the_windows_statistics() {
        let s = RangeStats {
            num_of_successes: 5,
            num_of_failures: 3,
            average_duration: 0,
            is_last_run_successful: true,
            last_run_executed_at: None,
            last_run_duration: 0,
        };
        assert_eq!(counts(&s), (8, 3));
    }
}
