//! The finished runs of one pipeline in a window, as `export` hands them
//! on: judged by the one model (`runs`' rule, each run by its basis), a
//! failed one only once no new task came for the settle time (so its
//! trace holds every task), each with its task entries read once more
//! over its own span, bounded as `runs --run` reads them.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::commands::kit::failure_text::TaskText;
use crate::commands::kit::run_entries;
use crate::commands::kit::run_fold;
use crate::commands::kit::run_history;
use crate::context::Context;
use crate::error::Result;
use crate::time::Window;
use ylem_client::Client;
use ylem_client::export::{FinishedRun, TaskRun};
use ylem_client::runs::failure::Finder;
use ylem_client::runs::tally::rule_of;

/// A finished run before its entries are read: what the fold kept.
#[derive(Debug, Clone)]
pub struct Done {
    run: Uuid,
    failed: bool,
    started: DateTime<Utc>,
    ended: DateTime<Utc>,
    duration_ms: i64,
    completion: String,
}

/// What a look at one pipeline found.
#[derive(Debug, Default)]
pub struct Found {
    /// Its finished runs not skipped, oldest first; their entries are
    /// read a few runs at a time (`read`), so memory holds a delivery's.
    pub finished: Vec<Done>,
    /// Runs seen that have not finished yet.
    pub unfinished: usize,
    /// The earliest first-task start of those: a follower reads from there.
    pub earliest_unfinished: Option<DateTime<Utc>>,
}

/// The pipeline `id` over `window` at `now`; runs for which `skip` says
/// true (exported already) are left out.
pub async fn finished_runs(
    ctx: &Context,
    api: &Client,
    finder: &Finder,
    id: Uuid,
    window: &Window,
    skip: &dyn Fn(Uuid) -> bool,
) -> Result<Found> {
    let now = Utc::now();
    let runs = run_fold::fold(api, id, window, None, Some(finder)).await?;
    let rules = run_history::rules(api, id, runs.iter(), &ctx.ui).await;
    // A failed run's rule is the one of no history (`rule_of`): its quiet
    // time is --settle's, else that rule's settle time.
    let settle_failed = ctx.settle()?;
    let mut found = Found::default();
    let mut done = Vec::new();
    for j in runs.judged_by_basis(rules.clone(), now) {
        let t = &j.tally;
        if skip(t.run) {
            continue;
        }
        let quiet = t
            .ended()
            .map(|e| (now - e).to_std().unwrap_or_default())
            .unwrap_or_default();
        let settle = || settle_failed.unwrap_or_else(|| rule_of(&rules, t).settle.duration());
        let finished = match j.result {
            "succeeded" => true,
            "failed" => quiet >= settle(),
            _ => false,
        };
        match (finished, t.started(), t.ended()) {
            (true, Some(s), Some(e)) => done.push((j, s, e)),
            (_, s, _) => {
                found.unfinished += 1;
                let s = s.unwrap_or(now);
                found.earliest_unfinished = Some(found.earliest_unfinished.map_or(s, |x| x.min(s)));
            }
        }
    }
    // Oldest first: a follower's cursor then moves forward in order.
    done.sort_by_key(|(_, s, _)| *s);
    found.finished = done
        .into_iter()
        .map(|(j, started, ended)| Done {
            run: j.tally.run,
            failed: j.result == "failed",
            started,
            ended,
            duration_ms: j.tally.duration_ms,
            completion: match &j.evidence {
                Some(e) => e.name().to_string(),
                None => "failed_task".to_string(),
            },
        })
        .collect();
    Ok(found)
}

/// The runs of `done` with their entries, read over each run's own span
/// (one request a run), as exported.
pub async fn read(
    api: &Client,
    finder: &Finder,
    id: Uuid,
    name: &str,
    done: &[Done],
) -> Result<Vec<FinishedRun>> {
    let mut out = Vec::with_capacity(done.len());
    for d in done {
        let (tasks, failure, omitted) =
            tasks_of(api, id, d.run, d.started, d.ended, finder).await?;
        out.push(FinishedRun {
            pipeline: id,
            pipeline_name: name.to_string(),
            run: d.run,
            failed: d.failed,
            failure,
            started: d.started,
            ended: d.ended,
            duration_ms: d.duration_ms,
            completion: d.completion.clone(),
            tasks,
            omitted,
        });
    }
    Ok(out)
}

/// A run's task entries in the order they ran, its failure in words (the
/// earliest failed task's line, as `runs` shows it) and how many entries
/// were past the bound.
async fn tasks_of(
    api: &Client,
    id: Uuid,
    run: Uuid,
    started: DateTime<Utc>,
    ended: DateTime<Utc>,
    finder: &Finder,
) -> Result<(Vec<TaskRun>, Option<String>, usize)> {
    let pad = chrono::Duration::seconds(1);
    let w = Window {
        from: started - pad,
        to: ended + pad,
    };
    let (entries, over) = run_entries::read(api, id, &w, &run.to_string()).await?;
    let mut tasks: Vec<TaskRun> = entries
        .iter()
        .filter_map(|e| {
            Some(TaskRun {
                task: Uuid::try_parse(&e.task_uuid).ok()?,
                name: finder.name_of(&e.task_uuid).map(str::to_string),
                task_type: e.task_type.clone(),
                is_successful: e.is_successful,
                executed_at: e.executed_at.parsed()?,
                duration_ms: e.duration,
                metric: e.metric_value.clone(),
                message: (!e.is_successful).then(|| finder.task(e).messages().join("; ")),
            })
        })
        .collect();
    // The log is newest first; the spans go in the order the tasks ran.
    tasks.sort_by_key(|t| (t.started(), t.executed_at));
    // The earliest failed task is the run's failure, as `runs` says it.
    let failure = entries
        .iter()
        .filter(|e| !e.is_successful)
        .min_by_key(|e| e.executed_at.parsed())
        .map(|e| finder.task(e).line());
    Ok((tasks, failure, over))
}
