//! `run --wait`: waiting for a started run until it finishes, by the
//! polling driver (`ylem_client::runs::poll`: pauses, transient errors, the time limit)
//! over a small watch per kind of run, with a spinner. Pipelines are followed through their log (an entry appears as each task finishes; there
//! is no "run finished" marker), workflows through last-run statistics.

use std::time::{Duration, Instant};

use chrono::Utc;
use indicatif::{ProgressBar, ProgressStyle};
use uuid::Uuid;

use crate::count::{count, noun};
use crate::error::{Error, Result};
use crate::time;
use crate::ui::Ui;
use ylem_client::api::models::LogEntry;
use ylem_client::api::{self, Client};
use ylem_client::runs::finished::{Evidence, History, Rule, Settle, Verdict};
use ylem_client::runs::history::lookup;
use ylem_client::runs::poll::{self, Ended, Look};
use ylem_client::runs::seen::Seen;
use ylem_client::runs::stats_only;

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
    /// The run's wall clock, first task's start to last task's end; `None`
    /// for a workflow (statistics give no start: never the wait's time).
    pub elapsed: Option<Duration>,
    /// Whether task counts were seen (not for workflows, followed by statistics).
    pub per_task: bool,
    /// How success was established.
    pub evidence: Option<Evidence>,
    /// The run's failed task entries as last seen (read by `failure`).
    pub failed_entries: Vec<LogEntry>,
    /// The basis the run was judged by (a pipeline's, once read): its task
    /// set and task types, for a report.
    pub basis: Option<History>,
}

/// At most this many failed entries of a run are kept for its failure.
const FAILED_KEPT: usize = 32;

/// Settings of a wait.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    pub limit: Duration,
    pub poll: Duration,
    pub progress: bool,
    /// Without a spinner (stderr not a terminal, as in CI logs), a note at
    /// this interval says the wait goes on, so a long wait is not silent.
    pub heartbeat: Option<Duration>,
}

/// What one look at a run found.
enum Progress {
    /// Not finished; the spinner's new text.
    Pending(String),
    Done(Followed),
}

/// One way of watching a run: what to say before the first look, how to
/// look once, and what was seen when time ran out.
trait Watch {
    fn waiting(&self) -> String;
    async fn look(&mut self, started: Instant) -> Result<Progress>;
    fn timed_out(&self, started: Instant) -> Followed;
}

/// A watch as the polling driver's step, showing its progress: on the
/// spinner, or (stderr not a terminal) a note now and then.
struct Shown<'u, W> {
    watch: W,
    started: Instant,
    pb: ProgressBar,
    heartbeat: Option<Duration>,
    last_beat: Instant,
    ui: &'u Ui,
}

impl<W: Watch> poll::Step for Shown<'_, W> {
    type Done = Followed;
    type Error = Error;

    async fn look(&mut self) -> Result<Look<Followed>> {
        let msg = match self.watch.look(self.started).await? {
            Progress::Done(f) => return Ok(Look::Done(f)),
            Progress::Pending(msg) => msg,
        };
        if let Some(every) = self.heartbeat
            && self.last_beat.elapsed() >= every
        {
            self.last_beat = Instant::now();
            let waited = time::human_ms(self.started.elapsed().as_millis() as i64);
            self.ui.note(&format!("still waiting ({waited}): {msg}"));
        }
        self.pb.set_message(msg);
        // A run's progress is no reason to look sooner: the pauses grow
        // from the first to --poll whatever the tasks do.
        Ok(Look::Pending {
            changed: false,
            again: false,
        })
    }
}

/// Wait for a run by the polling driver: first look after half a second,
/// then pauses doubling up to --poll (to a minute while the service
/// fails), until the watch decides or the wait's limit runs out. Stop
/// requests are the runner's (`run --wait` declares them), for every run
/// of the command at once.
async fn wait_for(watch: impl Watch, pace: Pace, ui: &Ui) -> Result<Followed> {
    let started = Instant::now();
    let pb = spinner(pace.progress, ui, &watch.waiting());
    let first = Duration::from_millis(500).min(pace.poll);
    let pacing = poll::Pacing {
        first_look: first,
        first,
        longest: pace.poll,
    };
    let until = poll::Until::<std::convert::Infallible> {
        limit: Some(tokio::time::Instant::now() + pace.limit),
        // --wait-timeout ends a look at a log that never ends too.
        cut_looks: true,
        stop: None,
    };
    let mut shown = Shown {
        watch,
        started,
        pb,
        heartbeat: pace.heartbeat,
        last_beat: started,
        ui,
    };
    let ended = poll::drive(&mut shown, pacing, until).await;
    shown.pb.finish_and_clear();
    match ended? {
        Ended::Done(f) => Ok(f),
        // No stop request is handed to the driver here (the runner has
        // it), so only the limit ends a wait early.
        Ended::OutOfTime | Ended::Stopped(_) => Ok(shown.watch.timed_out(started)),
    }
}

fn spinner(on: bool, ui: &Ui, what: &str) -> ProgressBar {
    if !on {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(None, ui.progress_target());
    pb.set_style(
        ProgressStyle::with_template("{spinner} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    pb.set_message(what.to_string());
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

/// Follow a pipeline run through the pipeline's log until its rule
/// decides: the rule every command judges it by (its basis, the client's
/// settle setting, `finished::GRACE`), with `expect_tasks` when given.
pub async fn pipeline(
    api: &Client,
    id: Uuid,
    run: &str,
    expect_tasks: Option<usize>,
    pace: Pace,
    ui: &Ui,
) -> Result<Followed> {
    attached(api, id, run, expect_tasks, pace, ui, Found::nothing()).await
}

/// A run as the log showed it before the watch began (`runs P --run R
/// --wait` attaches to a run started elsewhere): where its entries start,
/// how many there were, and since when none had come, so a run quiet for
/// long is judged as `runs --run` judges it, not quiet from the attach.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub from: chrono::DateTime<Utc>,
    pub entries: usize,
    pub quiet_since: Instant,
}

impl Found {
    /// A run just started, or not reported yet: no entry before the watch.
    pub fn nothing() -> Found {
        Found {
            // Wide on both sides: the service's clock may differ from ours.
            from: Utc::now() - chrono::Duration::minutes(10),
            entries: 0,
            quiet_since: Instant::now(),
        }
    }
}

/// Follow a pipeline run found in the log (`found`) until its rule
/// decides. Its basis is read once, when the run's first entry is seen
/// (anchored at its first task: `basis::anchor_of`), so a wait costs one
/// history request however its minute and the run's differ, and none when
/// another command kept that basis.
pub async fn attached(
    api: &Client,
    id: Uuid,
    run: &str,
    expect_tasks: Option<usize>,
    pace: Pace,
    ui: &Ui,
    found: Found,
) -> Result<Followed> {
    let step = PipelineRun {
        api,
        id,
        run,
        // Until the basis is read: no entry yet, so nothing to decide.
        rule: Rule::new(&History::default(), expect_tasks, api.settle()),
        from: found.from,
        seen: Seen::default(),
        failed: Vec::new(),
        duration_ms: 0,
        elapsed_ms: 0,
        changed_at: Instant::now(),
        found: Some((found.entries, found.quiet_since)),
        based: None,
        basis: None,
        misses: 0,
        ui,
    };
    wait_for(step, pace, ui).await
}

struct PipelineRun<'a> {
    api: &'a Client,
    id: Uuid,
    run: &'a str,
    rule: Rule,
    from: chrono::DateTime<Utc>,
    /// The run's entries at the last look, counted (`Seen`: bounded
    /// against a server that sends entries without end), not kept.
    seen: Seen,
    /// The failed ones among them, whole: their outputs say why.
    failed: Vec<LogEntry>,
    /// The sum of its task durations (the run's duration, as statistics
    /// give it) and the wall clock from its first task's start to its last
    /// task's end (`ylem_client::runs::fold`'s meaning).
    duration_ms: i64,
    elapsed_ms: i64,
    /// When the number of entries last changed: the rule's quiet time.
    changed_at: Instant,
    /// The entries known before the first look and since when they were
    /// quiet, until the count first changes.
    found: Option<(usize, Instant)>,
    /// The anchor of the basis the rule was made from, once the run's
    /// first entry is seen (`basis::anchor_of` its first task's start);
    /// `None` until a look-up answers (one that fails is asked again at
    /// the next look).
    based: Option<chrono::DateTime<Utc>>,
    /// That basis, as read.
    basis: Option<History>,
    /// Basis look-ups that failed (said, and asked again at the next look).
    misses: u32,
    /// Where the `--expect-tasks` contradiction and a failed look-up are said.
    ui: &'a Ui,
}

impl Watch for PipelineRun<'_> {
    fn waiting(&self) -> String {
        format!("run {}: waiting for the first task", self.run)
    }

    async fn look(&mut self, started: Instant) -> Result<Progress> {
        let window = time::Window {
            from: self.from,
            to: Utc::now() + chrono::Duration::minutes(10),
        };
        let mut s = self.api.pipeline_logs(self.id, &window).await?;
        let (mut seen, mut failed, mut ms) = (Seen::default(), Vec::new(), 0);
        let mut span: Option<(chrono::DateTime<Utc>, chrono::DateTime<Utc>)> = None;
        while let Some(e) = api::next_entry(&mut s, Some(self.run), false).await? {
            // Saturating and checked: a server's 9e18 must not panic the wait.
            ms = e.duration.max(0).saturating_add(ms);
            if let Some(at) = e.executed_at.parsed() {
                let start = chrono::Duration::try_milliseconds(e.duration.max(0))
                    .and_then(|d| at.checked_sub_signed(d))
                    .unwrap_or(at);
                span = Some(span.map_or((start, at), |(a, b)| (a.min(start), b.max(at))));
            }
            seen.add(&e.task_uuid, e.is_successful);
            // A failure is read from a bounded few, each output bounded
            // (`tally::summary`): never the whole log's outputs.
            if !e.is_successful && failed.len() < FAILED_KEPT {
                let mut e = e;
                ylem_client::runs::tally::cut_output(&mut e.output);
                failed.push(e);
            }
        }
        self.failed = failed;
        if seen.len() != self.seen.len() {
            // The entries known before the watch are as quiet as they were.
            self.changed_at = match self.found.take() {
                Some((n, since)) if n == seen.len() => since,
                _ => Instant::now(),
            };
        }
        self.seen = seen;
        self.duration_ms = ms;
        self.elapsed_ms = span.map_or(0, |(a, b)| (b - a).num_milliseconds().max(0));
        if let Some((start, _)) = span {
            self.anchor_at(start).await;
        }
        let quiet = self.changed_at.elapsed();
        match self.seen.decide(&self.rule, quiet) {
            Verdict::Failed { .. } => Ok(Progress::Done(self.summary(Outcome::Failed, None))),
            Verdict::Succeeded(ev) => {
                Ok(Progress::Done(self.summary(Outcome::Succeeded, Some(ev))))
            }
            Verdict::Pending => Ok(Progress::Pending(self.progress(quiet, started))),
        }
    }

    fn timed_out(&self, _started: Instant) -> Followed {
        self.summary(Outcome::TimedOut, None)
    }
}

impl PipelineRun<'_> {
    /// The rule made from the basis anchored at the run's first task's
    /// start (`start`), as `runs --run` judges the run (the same grace and
    /// settle setting: `--poll` is only how often the wait looks): once, and
    /// again only if an earlier entry moves the anchor (kept: no request
    /// when another command read it). The `--expect-tasks` contradiction
    /// is said once, when the first basis is read.
    async fn anchor_at(&mut self, start: chrono::DateTime<Utc>) {
        let at = ylem_client::runs::basis::anchor_of(start);
        if self.based == Some(at) {
            return;
        }
        match lookup(self.api, self.id, start).await {
            Ok(h) => {
                self.rule = Rule::new(&h, self.rule.expect_tasks, self.api.settle());
                if self.based.is_none()
                    && let Some(w) = crate::commands::kit::evidence_text::contradiction(&self.rule)
                {
                    self.ui.warn(&w);
                }
                self.based = Some(at);
                self.basis = Some(h);
            }
            Err(e) => {
                self.misses += 1;
                crate::commands::kit::run_history::missed(self.id, self.ui, &e, self.misses);
            }
        }
    }

    /// How the wait will decide, as it goes: `run R: 2/4 tasks (as in the
    /// last 6 runs; ...), 12s` or `run R: 2 tasks, none new for 5s of 30s, 12s`.
    fn progress(&self, quiet: Duration, started: Instant) -> String {
        let done = self.seen.len();
        let tasks = match (&self.rule.graph, self.rule.expect_tasks) {
            (_, Some(n)) => format!("{done}/{n} {} (--expect-tasks)", noun(n, "task", "tasks")),
            (Some((g, runs)), None) => format!(
                "{done}/{} {} (as in the last {}; else settles after {})",
                g.len(),
                noun(g.len(), "task", "tasks"),
                count(*runs, "run", "runs"),
                time::human_ms(self.rule.settle.duration().as_millis() as i64)
            ),
            (None, None) if done == 0 => "waiting for the first task".into(),
            (None, None) => format!(
                "{}, none new for {} of {}",
                count(done, "task", "tasks"),
                time::human_ms(quiet.as_millis() as i64),
                time::human_ms(self.rule.settle.duration().as_millis() as i64)
            ),
        };
        format!(
            "run {}: {tasks}, {}",
            self.run,
            time::human_ms(started.elapsed().as_millis() as i64)
        )
    }

    fn summary(&self, outcome: Outcome, evidence: Option<Evidence>) -> Followed {
        Followed {
            run: self.run.to_string(),
            outcome,
            tasks_total: self.rule.expected_total(),
            tasks_done: self.seen.len(),
            tasks_failed: self.seen.failed(),
            duration_ms: self.duration_ms,
            elapsed: Some(Duration::from_millis(self.elapsed_ms as u64)),
            per_task: true,
            evidence,
            failed_entries: self.failed.clone(),
            basis: self.basis.clone(),
        }
    }
}

/// Follow a workflow run through last-run statistics: done when a run newer
/// than `before` appears and is judged by `stats_only` with the client's
/// settle setting, as `last-run` and every command judge it (failed at
/// once; succeeded once it has stayed the last run for the settle time
/// after its own time): statistics are the only evidence a workflow leaves.
pub async fn workflow(
    api: &Client,
    id: Uuid,
    run: &str,
    before: Option<String>,
    pace: Pace,
    ui: &Ui,
) -> Result<Followed> {
    let step = WorkflowRun {
        api,
        id,
        run,
        before,
        settle: Settle::for_workflow(api.settle()),
        last: None,
    };
    wait_for(step, pace, ui).await
}

struct WorkflowRun<'a> {
    api: &'a Client,
    id: Uuid,
    run: &'a str,
    /// `executed_at` of the last run before ours.
    before: Option<String>,
    settle: Settle,
    /// (executed_at, is_successful, duration) at the last look.
    last: Option<(String, bool, i64)>,
}

impl Watch for WorkflowRun<'_> {
    fn waiting(&self) -> String {
        format!("workflow run {}: waiting", self.run)
    }

    async fn look(&mut self, started: Instant) -> Result<Progress> {
        let kind = ylem_client::Entity::Workflow;
        let r = self.api.last_run(kind, self.id).await?;
        let now = r.and_then(|r| Some((r.executed_at?.0, r.is_successful, r.duration)));
        let newer = now
            .as_ref()
            .is_some_and(|n| Some(&n.0) != self.before.as_ref());
        // Judged as every command judges a workflow's run (`stats_only`),
        // with --settle: a failure at once, a success once it has stayed
        // the last run for the settle time after its own time.
        let judged = now.as_ref().filter(|_| newer).and_then(|(at, ok, ms)| {
            let at = ylem_client::time::parse_server_time(at)?;
            let now = chrono::Utc::now();
            let setting = self.api.settle();
            Some(stats_only::last_run(kind, *ok, at, *ms, now, setting))
        });
        if let Some(v) = judged.filter(|v| v.success().is_some()) {
            let (outcome, evidence) = match v.success() {
                Some(true) => {
                    let ev = Evidence::Statistics {
                        settle: self.settle,
                    };
                    (Outcome::Succeeded, Some(ev))
                }
                _ => (Outcome::Failed, None),
            };
            return Ok(Progress::Done(workflow_summary(
                self.run,
                outcome,
                Some(v.duration_ms),
                evidence,
            )));
        }
        self.last = now;
        Ok(Progress::Pending(format!(
            "workflow run {}: {}, {}",
            self.run,
            if newer { "reporting" } else { "waiting" },
            time::human_ms(started.elapsed().as_millis() as i64)
        )))
    }

    fn timed_out(&self, _started: Instant) -> Followed {
        workflow_summary(self.run, Outcome::TimedOut, None, None)
    }
}

fn workflow_summary(
    run: &str,
    outcome: Outcome,
    ms: Option<i64>,
    evidence: Option<Evidence>,
) -> Followed {
    Followed {
        run: run.to_string(),
        outcome,
        tasks_total: None,
        tasks_done: 0,
        tasks_failed: usize::from(outcome == Outcome::Failed),
        duration_ms: ms.unwrap_or(0),
        // The wait's own time is not the run's (`stats_only`).
        elapsed: None,
        per_task: false,
        evidence,
        failed_entries: Vec::new(),
        basis: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, Kind};

    /// Answers from a script, one per look.
    struct Scripted(Vec<Result<Option<Outcome>>>);

    impl Watch for Scripted {
        fn waiting(&self) -> String {
            String::new()
        }
        async fn look(&mut self, _started: Instant) -> Result<Progress> {
            match self.0.remove(0)? {
                Some(o) => Ok(Progress::Done(workflow_summary("r", o, None, None))),
                None => Ok(Progress::Pending(String::new())),
            }
        }
        fn timed_out(&self, _started: Instant) -> Followed {
            workflow_summary("r", Outcome::TimedOut, None, None)
        }
    }

    fn pace(limit: Duration) -> Pace {
        Pace {
            limit,
            poll: Duration::from_millis(1),
            progress: false,
            heartbeat: None,
        }
    }

    #[tokio::test]
    async fn transient_errors_are_waited_out_and_others_end_the_wait() {
        let ui = Ui::default();
        let script = vec![
            Err(Error::network("down")),
            Err(Error::server("503")),
            Ok(None),
            Ok(Some(Outcome::Failed)),
        ];
        let f = wait_for(Scripted(script), pace(Duration::from_secs(3600)), &ui)
            .await
            .unwrap();
        assert_eq!(f.outcome, Outcome::Failed);
        let script = vec![Ok(None), Err(Error::auth("rejected")), Ok(None)];
        let e = wait_for(Scripted(script), pace(Duration::from_secs(3600)), &ui)
            .await
            .unwrap_err();
        assert_eq!(e.kind, Kind::Auth);
    }

    #[tokio::test]
    async fn the_time_limit_ends_the_wait_as_timed_out() {
        let f = wait_for(Scripted(vec![]), pace(Duration::ZERO), &Ui::default())
            .await
            .unwrap();
        assert_eq!(f.outcome, Outcome::TimedOut);
    }
}
