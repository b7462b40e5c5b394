//! `run --wait`: following a started run until it finishes. Pipelines are
//! followed through their log (an entry appears as each task finishes; there
//! is no "run finished" marker), workflows through last-run statistics.

use std::time::{Duration, Instant};

use chrono::Utc;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use uuid::Uuid;

use crate::api::{self, Api};
use crate::error::{Error, Kind, Result};
use crate::output::Cell;
use crate::time;

/// How a followed run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Succeeded,
    Failed,
    TimedOut,
}

/// What was seen of one run.
#[derive(Debug, Clone)]
pub struct Followed {
    pub run: String,
    pub outcome: Outcome,
    pub tasks_total: Option<usize>,
    pub tasks_done: usize,
    pub tasks_failed: usize,
    pub duration_ms: i64,
    pub elapsed: Duration,
    /// Whether task counts were seen (not for workflows, followed by statistics).
    pub per_task: bool,
}

pub const COLUMNS: &[&str] = &[
    "uuid",
    "workflow_run_uuid",
    "status",
    "tasks_total",
    "tasks_done",
    "tasks_failed",
    "duration",
    "elapsed",
];

pub fn row(id: Uuid, f: &Followed) -> Vec<Cell> {
    let status = match f.outcome {
        Outcome::Succeeded => "succeeded",
        Outcome::Failed => "failed",
        Outcome::TimedOut => "timed_out",
    };
    vec![
        Cell::Str(id.to_string()),
        Cell::Str(f.run.clone()),
        Cell::Str(status.into()),
        f.tasks_total
            .map(|n| Cell::Int(n as i64))
            .unwrap_or(Cell::Null),
        if f.per_task {
            Cell::Int(f.tasks_done as i64)
        } else {
            Cell::Null
        },
        if f.per_task {
            Cell::Int(f.tasks_failed as i64)
        } else {
            Cell::Null
        },
        Cell::Ms(f.duration_ms),
        Cell::Ms(f.elapsed.as_millis() as i64),
    ]
}

/// The exit error for a set of followed runs: 7 if one failed, else 8 if
/// one timed out.
pub fn verdict(all: &[(Uuid, Followed)]) -> Result<()> {
    let list = |o: Outcome| -> Vec<String> {
        all.iter()
            .filter(|(_, f)| f.outcome == o)
            .map(|(_, f)| f.run.clone())
            .collect()
    };
    let failed = list(Outcome::Failed);
    if !failed.is_empty() {
        return Err(Error::new(
            Kind::RunFailed,
            format!("run failed: {}", failed.join(", ")),
        ));
    }
    let late = list(Outcome::TimedOut);
    if !late.is_empty() {
        return Err(Error::new(
            Kind::Timeout,
            format!("timed out waiting for run: {}", late.join(", ")),
        )
        .with_hint("the run goes on: follow it with 'ylemctl logs' or raise --timeout"));
    }
    Ok(())
}

/// Settings of a wait.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    pub limit: Duration,
    pub poll: Duration,
    pub progress: bool,
}

/// Grows from 1 s to the poll interval, and further (to a minute) while the
/// service is failing, so a struggling service is not hammered.
fn next_pause(current: Duration, pace: &Pace, failing: bool) -> Duration {
    let cap = if failing {
        pace.poll.max(Duration::from_secs(60))
    } else {
        pace.poll
    };
    (current * 2).min(cap).max(Duration::from_millis(100))
}

/// Transient failures are waited out; anything else ends the wait.
fn transient(e: &Error) -> bool {
    matches!(e.kind, Kind::Network | Kind::Server)
}

fn spinner(on: bool, what: &str) -> ProgressBar {
    if !on {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{spinner} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    pb.set_message(what.to_string());
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

/// Follow a pipeline run through the pipeline's log.
pub async fn pipeline(
    api: &Api,
    id: Uuid,
    run: &str,
    tasks: Option<usize>,
    pace: Pace,
) -> Result<Followed> {
    let started = Instant::now();
    // The window is wide on both sides: the service's clock may differ from ours.
    let from = Utc::now() - chrono::Duration::minutes(10);
    let pb = spinner(
        pace.progress,
        &format!("run {run}: waiting for the first task"),
    );
    let mut pause = Duration::from_millis(500).min(pace.poll);
    let (mut seen, mut last_count) = (Vec::new(), usize::MAX);
    // When the number of entries last changed: "stopped arriving" means
    // for a whole --poll interval, however short the pauses still are.
    let mut changed_at = Instant::now();
    loop {
        if started.elapsed() >= pace.limit {
            pb.finish_and_clear();
            return Ok(summary(run, Outcome::TimedOut, tasks, &seen, started));
        }
        tokio::time::sleep(pause.min(pace.limit.saturating_sub(started.elapsed()))).await;
        let window = time::Window {
            from,
            to: Utc::now() + chrono::Duration::minutes(10),
        };
        let failing = match entries(api, id, &window, run).await {
            Ok(list) => {
                if list.len() != last_count {
                    changed_at = Instant::now();
                }
                let stable = changed_at.elapsed() >= pace.poll;
                last_count = list.len();
                seen = list;
                let failed = seen.iter().filter(|e| !e.0).count();
                pb.set_message(format!(
                    "run {run}: {}/{} tasks, {failed} failed, {}",
                    seen.len(),
                    tasks.map(|n| n.to_string()).unwrap_or_else(|| "?".into()),
                    time::human_ms(started.elapsed().as_millis() as i64)
                ));
                // Done when every task reported; without a task count (the
                // object-form start), or after a failure (later tasks may
                // never run), when entries stopped arriving for one poll.
                let all = tasks.is_some_and(|n| seen.len() >= n);
                if all || (stable && !seen.is_empty() && (tasks.is_none() || failed > 0)) {
                    pb.finish_and_clear();
                    let outcome = if failed > 0 {
                        Outcome::Failed
                    } else {
                        Outcome::Succeeded
                    };
                    return Ok(summary(run, outcome, tasks, &seen, started));
                }
                false
            }
            Err(e) if transient(&e) => true,
            Err(e) => {
                pb.finish_and_clear();
                return Err(e);
            }
        };
        pause = next_pause(pause, &pace, failing);
    }
}

/// (is_successful, duration) of the entries of `run` in the window.
async fn entries(api: &Api, id: Uuid, w: &time::Window, run: &str) -> Result<Vec<(bool, i64)>> {
    let mut s = api.pipeline_logs(id, w).await?;
    let mut out = Vec::new();
    while let Some(e) = api::next_entry(&mut s, Some(run), false).await? {
        out.push((e.is_successful, e.duration));
    }
    Ok(out)
}

fn summary(
    run: &str,
    outcome: Outcome,
    tasks: Option<usize>,
    seen: &[(bool, i64)],
    started: Instant,
) -> Followed {
    Followed {
        run: run.to_string(),
        outcome,
        tasks_total: tasks,
        tasks_done: seen.len(),
        tasks_failed: seen.iter().filter(|e| !e.0).count(),
        duration_ms: seen.iter().map(|e| e.1).sum(),
        elapsed: started.elapsed(),
        per_task: true,
    }
}

/// Follow a workflow run through last-run statistics: done when a run newer
/// than `before` appears and stays unchanged for one poll.
pub async fn workflow(
    api: &Api,
    id: Uuid,
    run: &str,
    before: Option<String>,
    pace: Pace,
) -> Result<Followed> {
    let kind = crate::kinds::Entity::Workflow;
    let started = Instant::now();
    let pb = spinner(pace.progress, &format!("workflow run {run}: waiting"));
    let mut pause = Duration::from_millis(500).min(pace.poll);
    let mut last = None;
    let mut changed_at = Instant::now();
    loop {
        if started.elapsed() >= pace.limit {
            pb.finish_and_clear();
            return Ok(workflow_summary(run, Outcome::TimedOut, None, started));
        }
        tokio::time::sleep(pause.min(pace.limit.saturating_sub(started.elapsed()))).await;
        let failing = match api.last_run(kind, id).await {
            Ok(r) => {
                let now = r.and_then(|r| Some((r.executed_at?.0, r.is_successful, r.duration)));
                let newer = now.as_ref().is_some_and(|n| Some(&n.0) != before.as_ref());
                if now != last {
                    changed_at = Instant::now();
                }
                // The statistics change while the run's tasks report: done
                // when they have stayed the same for a whole --poll.
                if newer && changed_at.elapsed() >= pace.poll {
                    pb.finish_and_clear();
                    let (_, ok, ms) = now.unwrap_or_default();
                    let outcome = if ok {
                        Outcome::Succeeded
                    } else {
                        Outcome::Failed
                    };
                    return Ok(workflow_summary(run, outcome, Some(ms), started));
                }
                pb.set_message(format!(
                    "workflow run {run}: {}, {}",
                    if newer { "reporting" } else { "waiting" },
                    time::human_ms(started.elapsed().as_millis() as i64)
                ));
                last = now;
                false
            }
            Err(e) if transient(&e) => true,
            Err(e) => {
                pb.finish_and_clear();
                return Err(e);
            }
        };
        pause = next_pause(pause, &pace, failing);
    }
}

fn workflow_summary(run: &str, outcome: Outcome, ms: Option<i64>, started: Instant) -> Followed {
    Followed {
        run: run.to_string(),
        outcome,
        tasks_total: None,
        tasks_done: 0,
        tasks_failed: usize::from(outcome == Outcome::Failed),
        duration_ms: ms.unwrap_or(0),
        elapsed: started.elapsed(),
        per_task: false,
    }
}
