//! What the board shows of one entity, built from what the watch knows
//! (`entity.rs`) at each refresh: its row, and when something shown in it
//! last changed (highlighted a while on the board).

use std::time::Instant;

use chrono::{DateTime, Utc};

use crate::commands::kit::health::Health;
use crate::commands::watch::entity::{Runs, Watched};
use crate::commands::watch::rows::{EntityRow, FailureLine, FinishedRun, RunningRun};
use ylem_client::runs::failure::Finder;
use ylem_client::runs::fleet::{Finished, Latest};

/// The entity's row at `now`; `changed_at` moves when anything else in it
/// changed since the last refresh.
pub fn row(w: &mut Watched, finder: &Finder, now: DateTime<Utc>) -> EntityRow {
    let t = &w.target;
    let (latest, (runs_per_hour, failures_per_hour), running) = match &w.runs {
        Runs::Pipeline(Some(p)) => (
            p.latest().clone(),
            p.per_hour(now),
            p.runs_going().into_iter().last().map(|g| RunningRun {
                run_uuid: g.run,
                tasks: g.tasks,
                expected: g.expected,
                started: g.started,
            }),
        ),
        Runs::Pipeline(None) => (Latest::default(), (vec![0; 24], vec![0; 24]), None),
        // No hourly statistics: no bars (`stats_only`), the counts below.
        Runs::Statistics(s) => (
            s.latest().clone(),
            (Vec::new(), Vec::new()),
            s.going().map(|g| RunningRun {
                run_uuid: None,
                tasks: 0,
                expected: None,
                started: g.time(),
            }),
        ),
    };
    // As `status` words it: an entity that could not be read is unknown
    // (the rest of its row is what was last known).
    let health = match (&w.error, &w.glance) {
        (Some(_), _) => Health::Unknown,
        (_, None) => Health::Never,
        (_, Some(g)) => Health::judge(
            g.at.is_some(),
            latest.finished.as_ref().map(|f| f.verdict == "succeeded"),
            w.day.as_ref().map_or(0, |d| d.num_of_failures),
        ),
    };
    let unread =
        w.error.is_some() && (w.glance.is_none() || matches!(w.runs, Runs::Pipeline(None)));
    let mut row = EntityRow {
        unread,
        kind: t.kind.as_str(),
        id: t.uuid.to_string(),
        alias: t.alias.clone(),
        health: health.word(),
        last: latest.finished.as_ref().and_then(finished_run),
        running,
        runs_per_hour,
        failures_per_hour,
        counts: match (&w.runs, &w.day) {
            (Runs::Statistics(_), Some(d)) => {
                let (n, f) = ylem_client::runs::stats_only::counts(d);
                Some((n.min(u32::MAX as i64) as u32, f.min(u32::MAX as i64) as u32))
            }
            (Runs::Statistics(_), None) => Some((0, 0)),
            _ => None,
        },
        failure: latest.failed.as_ref().and_then(|f| failure_line(f, finder)),
        changed_at: None,
        error: w.error.as_ref().map(|e| {
            (
                e.kind.name().to_string(),
                ylem_client::text::escape(&crate::redact::scrub(&e.message)).into_owned(),
            )
        }),
    };
    row.changed_at = match &w.shown {
        Some(before) if same(before, &row) => before.changed_at,
        Some(_) => Some(Instant::now()),
        None => None,
    };
    w.shown = Some(row.clone());
    row
}

/// Whether two rows show the same thing (their highlight aside).
fn same(a: &EntityRow, b: &EntityRow) -> bool {
    let mut a = a.clone();
    a.changed_at = b.changed_at;
    a == *b
}

fn finished_run(f: &Finished) -> Option<FinishedRun> {
    Some(FinishedRun {
        run_uuid: f.run.clone(),
        result: f.verdict,
        ended: f.ended?,
        duration_ms: f.duration_ms,
        elapsed_ms: f.elapsed_ms,
    })
}

/// A failed run's first failed task (alias or type, and its UUID) and its first
/// message, escaped for the terminal.
pub fn failure_line(f: &Finished, finder: &Finder) -> Option<FailureLine> {
    use crate::commands::kit::failure_text::TaskText;
    let first = f.failed.first()?;
    let task = finder.task(&first.to_owned_entry());
    Some(FailureLine {
        run_uuid: f.run.clone(),
        task: ylem_client::text::escape(task.name.as_deref().unwrap_or(&task.task_type))
            .into_owned(),
        task_uuid: ylem_client::text::escape(&task.task_uuid).into_owned(),
        message: task.messages().into_iter().next().unwrap_or_default(),
    })
}
