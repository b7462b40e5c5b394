//! An entity's last run by the one model (`fold.rs`), for stating it
//! and judging an entity's health. The server's last-run answer (its
//! latest task row) says which run is last; for a pipeline one log request
//! over that run's window then folds and judges it: a run not finished on
//! evidence is `running`, never a success. The same request is the check
//! that the answer may be shown: its window holds the run, so the server
//! checks the organisation there (403: an access error). A workflow leaves
//! no log: its last run younger than the settle time is `unsettled`.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::models::{LastRun, LogEntry};
use crate::api::{self, Client};
use crate::error::{Error, Result};
use crate::kinds::Entity;
use crate::quirks::last_seen::{LastSeen, confirm, last_seen};
use crate::runs::fold::{Judged, RunFold, judge};
use crate::runs::history;
use crate::runs::tally::{Runs, rule_of};
use crate::runs::view::{Established, RunView};
use crate::time::Window;

/// How far back a recent last run's log is read, for the last finished run
/// before a run still going (the rule's history is the run's basis).
const HISTORY_DAYS: i64 = 3;
/// At most this many entries are read of that window (newest first): the
/// last runs and enough history, a bounded read however busy the pipeline.
const HISTORY_ENTRIES: usize = 2000;

/// What is known of an entity's last run.
#[derive(Debug, Clone)]
pub enum Last {
    /// Never ran, or unknown to the service (it answers both alike).
    NoRunFound,
    /// The last run, and when it has not finished, the last finished run
    /// before it if the same answer held one.
    Ran {
        /// The last run.
        last: Box<RunView>,
        /// The last finished run before it, when the last has not finished.
        finished: Option<Box<RunView>>,
    },
}

impl Last {
    /// The last run, when there is one.
    pub fn last(&self) -> Option<&RunView> {
        match self {
            Last::Ran { last, .. } => Some(last),
            Last::NoRunFound => None,
        }
    }

    /// The run a health is judged by: the last run when it has finished,
    /// else the last finished one, when known.
    pub fn judged(&self) -> Option<&RunView> {
        match self {
            Last::Ran { last, .. } if last.success().is_some() => Some(last),
            Last::Ran { finished, .. } => finished.as_deref(),
            Last::NoRunFound => None,
        }
    }

    /// The last run, when it has not finished.
    pub fn in_progress(&self) -> Option<&RunView> {
        self.last().filter(|l| l.success().is_none())
    }
}

/// Why an entity's last run is not known.
#[derive(Debug)]
pub enum NotKnown {
    /// Learnt from range statistics over a window without its rows (not
    /// checked against the organisation), and no window holding it
    /// confirmed it: an access error, as the statistics would be.
    Unconfirmed(Error),
    /// A request failed.
    Failed(Error),
}

impl From<Error> for NotKnown {
    fn from(e: Error) -> NotKnown {
        NotKnown::Failed(e)
    }
}

/// The last run of `id` by the model: the last-run answer (or, after its
/// 403, range statistics, confirmed), then for a pipeline one log request.
pub async fn last(
    api: &Client,
    kind: Entity,
    id: Uuid,
    now: DateTime<Utc>,
) -> std::result::Result<Last, NotKnown> {
    let (run, checked) = match last_seen(api, kind, id, now).await? {
        LastSeen::NoRunFound => return Ok(Last::NoRunFound),
        LastSeen::Ran { run, checked } => (run, checked),
    };
    let at = run
        .executed_at
        .as_ref()
        .and_then(|t| t.parsed())
        .ok_or_else(|| NotKnown::Failed(Error::server("unreadable last-run time")))?;
    if kind == Entity::Pipeline {
        // The log over a window that holds the run confirms it too.
        return pipeline(api, id, &run, at, now, checked).await;
    }
    if !checked {
        confirm(api, kind, id, at).await?;
    }
    Ok(Last::Ran {
        last: Box::new(from_statistics(api, kind, &run, at, now)),
        finished: None,
    })
}

/// A task's or workflow's last run, as statistics give it (`stats_only`),
/// by the client's settle setting.
fn from_statistics(
    api: &Client,
    kind: Entity,
    r: &LastRun,
    at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> RunView {
    let settle = api.settle();
    crate::runs::stats_only::last_run(kind, r.is_successful, at, r.duration, now, settle)
}

/// The window a last run's log is read over. One second around it holds
/// the run whole (the log gives every entry of each run with one inside),
/// and is all it takes when the latest entry failed: a failed entry is a
/// failed run. A success needs the history the rule learns from, whatever
/// its age (a run quiet for an hour may be waiting on a two-hour query):
/// the history look-up's window, ending at the run, read newest first.
fn window_of(at: DateTime<Utc>, now: DateTime<Utc>, failed: bool) -> (Window, bool) {
    let second = chrono::Duration::seconds(1);
    match failed {
        true => (
            Window {
                from: at - second,
                to: at + second,
            },
            false,
        ),
        false => (
            Window {
                from: at - chrono::Duration::days(HISTORY_DAYS),
                to: now.max(at) + chrono::Duration::minutes(10),
            },
            true,
        ),
    }
}

/// The log over `w` folded, each run's failed entries kept; a wide window
/// is read to `HISTORY_ENTRIES` entries at most.
async fn fold(api: &Client, id: Uuid, w: &Window, wide: bool) -> Result<Runs<'static>> {
    let mut runs = Runs::default();
    runs.keep_failed = true;
    let mut s = api.pipeline_logs(id, w).await?;
    let mut decode = |cx: &mut Runs, b: &[u8], part| {
        let Some((e, n)) = api::decode_entry(b, part)? else {
            return Ok(None);
        };
        Ok(Some((cx.add(&e), n)))
    };
    let mut read = 0;
    while let Some(run) = s
        .next_with(
            &mut runs,
            &mut |_| Ok::<_, crate::error::Error>(()),
            &mut decode,
        )
        .await?
    {
        read += 1;
        if wide && read >= HISTORY_ENTRIES {
            // The oldest run read may be cut short: not evidence.
            runs.remove(run);
            break;
        }
    }
    Ok(runs)
}

/// A pipeline's last run: the log over its window folded and judged, the
/// server's last run first, and when it is still going, the last finished
/// run the same answer held.
async fn pipeline(
    api: &Client,
    id: Uuid,
    r: &LastRun,
    at: DateTime<Utc>,
    now: DateTime<Utc>,
    checked: bool,
) -> std::result::Result<Last, NotKnown> {
    let (w, wide) = window_of(at, now, !r.is_successful);
    let mut runs = fold(api, id, &w, wide).await?;
    let failed = std::mem::take(&mut runs.failed);
    // The server's last run first: among runs whose last task ended in the
    // answer's second (which the spec's times cannot tell apart), the one
    // whose duration so far is the answer's; then the latest last task, the
    // latest start, and the one the log (newest first) listed first.
    let second = chrono::Duration::seconds(1);
    let key = |(i, t): &(usize, &RunFold)| {
        let same_second = t.ended().is_some_and(|e| e >= at && e < at + second);
        (
            same_second && t.duration_ms == r.duration,
            t.ended(),
            t.started(),
            std::cmp::Reverse(*i),
        )
    };
    // Newest first; each run judged by its own basis (its day's:
    // `basis.rs`), the same whatever window this read and whatever command
    // asks. Only the runs looked at are judged: the last, and when it is
    // still going, those before it up to the first finished one (so a
    // basis is asked for those days only, once kept, none).
    let mut folds: Vec<(usize, RunFold)> = runs
        .into_folds()
        .filter(|t| t.entries > 0)
        .enumerate()
        .collect();
    folds.sort_by_key(|(i, t)| std::cmp::Reverse(key(&(*i, t))));
    let mut views = Vec::new();
    for (_, t) in folds {
        let rules = history::rules_of(api, id, std::iter::once(&t), |_| {}).await;
        let j = judge(rule_of(&rules, &t), t, now);
        let f = failed.get(&j.tally.run).cloned().unwrap_or_default();
        let Some(v) = view_of(j, f) else { continue };
        let done = v.success().is_some();
        views.push(v);
        if done {
            break;
        }
    }
    // The first is the server's last run: its `executed_at` is the answer's.
    if let Some(v) = views.first_mut() {
        v.executed_at = Some(at);
    }
    let mut views = views.into_iter();
    let Some(last) = views.next() else {
        // An answer the server did not check, and no window that holds the
        // run to check it with: never shown.
        if !checked {
            return Err(NotKnown::Unconfirmed(unconfirmed(id)));
        }
        return Ok(Last::Ran {
            last: Box::new(unseen(r, at)),
            finished: None,
        });
    };
    let finished = match last.success() {
        Some(_) => None,
        None => views.find(|v| v.success().is_some()).map(Box::new),
    };
    Ok(Last::Ran {
        last: Box::new(last),
        finished,
    })
}

/// A last run the log did not hold (a server whose log lags its
/// statistics): failed if the server says so, else not vouched for.
fn unseen(r: &LastRun, at: DateTime<Utc>) -> RunView {
    RunView {
        run: None,
        result: if r.is_successful {
            "unsettled"
        } else {
            "failed"
        },
        evidence: Some(Established::Said(
            "the run is not in the log: not confirmed from its entries",
        )),
        ended: at,
        executed_at: Some(at),
        started: None,
        duration_ms: r.duration.max(0),
        tasks: None,
        expected: None,
        failed: Vec::new(),
    }
}

/// The error of `NotKnown::Unconfirmed`.
fn unconfirmed(id: Uuid) -> Error {
    Error::auth(format!(
        "pipeline {id}: its last run could not be confirmed: the log over its time is empty"
    ))
}

/// The view of a judged run, with its failed entries; `None` for a run
/// with no entry.
fn view_of(j: Judged, failed: Vec<LogEntry>) -> Option<RunView> {
    let t = &j.tally;
    let evidence = match (&j.evidence, j.result) {
        (Some(e), _) => Established::Rule(e.clone()),
        (None, "failed") => Established::FailedTask,
        (None, _) => Established::SoFar(t.entries),
    };
    Some(RunView {
        run: Some(t.id()),
        result: j.result,
        evidence: Some(evidence),
        ended: t.ended()?,
        executed_at: None,
        started: t.started(),
        duration_ms: t.duration_ms,
        tasks: Some(t.entries as usize),
        expected: j.expected,
        failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_read_over_one_second_a_success_of_any_age_with_history() {
        let now: DateTime<Utc> = "2026-01-01T12:00:00Z".parse().unwrap();
        let recent = now - chrono::Duration::minutes(1);
        let (w, wide) = window_of(recent, now, true);
        assert!(!wide, "a failure is settled");
        assert_eq!((w.to - w.from).num_seconds(), 2);
        for at in [recent, now - chrono::Duration::hours(2)] {
            let (w, wide) = window_of(at, now, false);
            assert!(wide);
            assert!(w.from <= at - chrono::Duration::days(HISTORY_DAYS));
            assert!(w.to > now);
        }
    }
}
