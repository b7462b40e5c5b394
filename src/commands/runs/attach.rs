//! `ylemctl runs PIPELINE --run RUN|latest --wait [--wait-timeout D]
//! [--exit-status]`: attach to a run that is already going (started by
//! another process, or by a `run --wait` stopped by SIGTERM) and follow it
//! to its verdict with `run --wait`'s watch, history look-up and rule
//! (`runs/wait.rs`, `ylem_client::runs::finished`), by the polling driver; then
//! show it whole, as `runs --run` does (`runs/one.rs`), with the wait's
//! verdict. A run
//! with no entry yet is waited for: the service cannot tell a run that has
//! not reported from no run at all.

use std::time::{Duration, Instant};

use chrono::Utc;
use uuid::Uuid;

use crate::commands::kit::conduct::{self, Conduct, Signals};
use crate::commands::kit::failure_read;
use crate::commands::kit::signals::Stop;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::runs::args::RunsArgs;
use crate::commands::runs::list::{self, fold};
use crate::commands::runs::one;
use crate::commands::runs::wait::{self, Found, Outcome};
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::time::{self, Window};
use ylem_client::RunKind;

/// How far before the run's first entry the wait's log window starts, and
/// past now it ends: the service's clock may differ from ours.
const PAD: chrono::Duration = chrono::Duration::minutes(10);

/// `runs` as a one-shot command; with `--wait`, stopped by Ctrl-C or
/// SIGTERM as `run --wait` is, naming the run it leaves going. One run
/// (`--run`, or `--wait`'s latest) takes `-o junit` too.
pub fn conduct(args: &RunsArgs) -> Conduct {
    let one = match args.run.is_some() || args.wait {
        // One run whole: one value for --jq.
        true => list::CONDUCT.reports().json(),
        false => list::CONDUCT,
    };
    match args.wait {
        true => Conduct {
            signals: Signals::InterruptOrTerminate,
            stopped,
            ..one.follows()
        },
        false => one,
    }
}

/// `runs`: following a run (`--wait`, here), one run whole (`--run`,
/// `one.rs`) or the list (`list.rs`).
pub const COMMAND: Entry = Entry {
    command: <RunsArgs as clap::CommandFactory>::command,
    declared: list::CONDUCT,
    conduct: |m| conduct(&wing::args(m)),
    run: |m, ctx, _| {
        let args: RunsArgs = wing::args(m);
        wing::done(async move {
            match (args.wait, args.run.is_some()) {
                (true, _) => run(&args, ctx).await,
                (false, true) => one::run(&args, ctx).await,
                (false, false) => list::run(&args, ctx).await,
            }
        })
    },
};

/// Ctrl-C (130) or SIGTERM (143) while waiting: the run goes on on the
/// server; say how to attach to it again.
fn stopped(ctx: &Context, stop: Stop) -> Error {
    let (kind, what) = conduct::stop_words(stop);
    let followed = ctx.started.lock().map(|s| s.clone()).unwrap_or_default();
    match followed.first() {
        Some((_, id, run)) => Error::new(
            kind,
            format!("{what}: stopped waiting; the run goes on on the server: {run}"),
        )
        .with_hint(format!(
            "follow it again with 'ylemctl runs {id} --run {run} --wait'"
        )),
        None => Error::new(kind, what),
    }
}

pub async fn run(args: &RunsArgs, ctx: &Context) -> Result<()> {
    let (id, spec) = one::pipeline_and_run(args, ctx)?;
    let wanted = match spec {
        "latest" => None,
        "latest-failed" => {
            return Err(Error::usage(
                "--wait follows a run to its verdict; a failed run has one already",
            )
            .with_hint("drop --wait, or name the run (--run RUN_UUID) or --run latest"));
        }
        r => Some(ctx.resolve_id(r)?.to_string()),
    };
    let finder = failure_read::finder(ctx, args.key.decrypt_key_file.as_deref())?;
    let window = ctx.window(&args.window)?;
    let api = ctx.api()?;
    if let Some(r) = &wanted {
        remember(ctx, id, r);
    }
    let named = wanted.is_some();
    let (run, found) = find(ctx, &api, id, wanted, &window).await?;
    if !named {
        remember(ctx, id, &run);
    }
    // The run's basis is read by the wait when the run's first entry is
    // seen (a run found here: the one `find` read, kept), and the run is
    // judged by it as `runs --run` judges it: the same rule, grace and
    // settle setting (`--poll` is only how often the wait looks).
    let pace = pace(args, ctx);
    let f = wait::attached(&api, id, &run, None, pace, &ctx.ui, found)
        .await
        .map_err(|e| e.context(format!("while following run {run}")))?;
    // The run whole, read once more over the wait's window, and judged as
    // `runs --run` judges it now (the wait's look may have come up to a
    // poll after the verdict): what is printed is that verdict, never one
    // of the wait's own.
    let w = Window {
        from: found.from,
        to: Utc::now() + PAD,
    };
    let mut runs = fold(&api, id, &w, Some(&run)).await?;
    let mut entries = std::mem::take(&mut runs.kept);
    crate::commands::kit::run_entries::say_over(ctx, &run, runs.kept_over);
    let rules = crate::commands::runs::list::rules_for(&api, id, runs.iter(), ctx).await;
    let judged = runs.judged_by_basis(rules, Utc::now().max(ctx.settings.now));
    let Some(j) = judged
        .into_iter()
        .find(|j| j.tally.id().eq_ignore_ascii_case(&run))
    else {
        return Err(never_reported(args.exit_status, pace.limit, id, &run));
    };
    crate::commands::runs::junit::execution_order(&mut entries);
    let fail = finder.of_entries(&entries);
    let basis = f.basis.clone().unwrap_or_default();
    let graph = ylem_client::runs::tally::listed_rule(&basis, None)
        .graph
        .map(|g| g.0);
    let task_set = one::TaskSet {
        graph: graph.as_deref(),
        types: Some(&basis.task_types),
    };
    one::show(ctx, &finder, &id, &j, &entries, fail.as_ref(), task_set)?;
    match (f.outcome, args.exit_status) {
        (Outcome::TimedOut, true) => Err(timed_out(pace.limit, id, &run, f.tasks_done)),
        (Outcome::TimedOut, false) => {
            ctx.note(&timed_out(pace.limit, id, &run, f.tasks_done).message);
            Ok(())
        }
        (_, true) => one::verdict(&j),
        (_, false) => Ok(()),
    }
}

/// The run being followed, named if the wait is stopped: it goes on.
fn remember(ctx: &Context, id: Uuid, run: &str) {
    if let Ok(mut s) = ctx.started.lock() {
        s.push((RunKind::Pipeline, id, run.to_string()));
    }
}

/// The run to follow and what the log shows of it now: a named run with no
/// entry in the window yet is waited for; `latest` is the newest run with
/// an entry in the window.
async fn find(
    ctx: &Context,
    api: &ylem_client::Client,
    id: Uuid,
    wanted: Option<String>,
    window: &Window,
) -> Result<(String, Found)> {
    let runs = fold(api, id, window, None).await?;
    let rules = crate::commands::runs::list::rules_for(api, id, runs.iter(), ctx).await;
    let judged = runs.judged_by_basis(rules, ctx.settings.now);
    let hit = judged.into_iter().find(|j| match &wanted {
        Some(r) => j.tally.id().eq_ignore_ascii_case(r),
        None => true,
    });
    match (hit, wanted) {
        (Some(j), _) => {
            let t = &j.tally;
            let now = ctx.settings.now;
            // `executed_at` is when a task ended: the run has been quiet
            // since its latest entry.
            let quiet = t
                .ended()
                .and_then(|l| (now - l).to_std().ok())
                .unwrap_or_default();
            let found = Found {
                from: t.started().map_or(now, |f| f.min(now)) - PAD,
                entries: t.entries as usize,
                quiet_since: Instant::now()
                    .checked_sub(quiet)
                    .unwrap_or_else(Instant::now),
            };
            ctx.note(&format!(
                "following run {} of pipeline {id} ({} so far)",
                t.id(),
                crate::count::count(t.entries, "task", "tasks")
            ));
            Ok((t.id(), found))
        }
        (None, Some(r)) => {
            ctx.note(&format!(
                "no entry of run {r} yet: waiting for it (it has not reported yet, or it is no run of pipeline {id}: the service cannot tell these apart)"
            ));
            Ok((r, Found::nothing()))
        }
        (None, None) => Err(one::not_found(&id, "latest", window, false)),
    }
}

/// The wait's pace, as `run --wait`'s: `--max-time`, when shorter than
/// `--wait-timeout`, ends it as a wait that ran out (8 with
/// `--exit-status`) rather than a cut.
fn pace(args: &RunsArgs, ctx: &Context) -> wait::Pace {
    let left = ctx
        .deadline
        .map(|d| d.saturating_duration_since(std::time::Instant::now()));
    wait::Pace {
        limit: left.map_or(args.wait_timeout, |l| l.min(args.wait_timeout)),
        poll: args.waiting.poll,
        progress: ctx.ui.shows_progress(),
        heartbeat: (!ctx.ui.stderr_tty && ctx.ui.shows(crate::ui::Level::Note))
            .then_some(args.waiting.heartbeat),
    }
}

fn human(d: Duration) -> String {
    time::human_ms(d.as_millis() as i64)
}

/// The wait ran out with the run unfinished (8 with `--exit-status`).
fn timed_out(limit: Duration, id: Uuid, run: &str, done: usize) -> Error {
    Error::new(
        Kind::Timeout,
        format!(
            "timed out waiting for run {run} after {} ({} had reported)",
            human(limit),
            crate::count::count(done, "task", "tasks")
        ),
    )
    .with_hint(format!(
        "the run goes on on the server: raise --wait-timeout, or follow it again with 'ylemctl runs {id} --run {run} --wait'"
    ))
}

/// No entry of the run by the end of the wait: not reported yet, or no run
/// of the pipeline. 8 with `--exit-status` (its end cannot be established),
/// else 4 as `runs --run` without `--wait`.
fn never_reported(exit_status: bool, limit: Duration, id: Uuid, run: &str) -> Error {
    let kind = match exit_status {
        true => Kind::Timeout,
        false => Kind::NotFound,
    };
    Error::new(
        kind,
        format!(
            "no entry of run {run} after waiting {}: it has not reported yet, or it is no run of pipeline {id} (the service cannot tell these apart)",
            human(limit)
        ),
    )
    .with_hint("check the run UUID and the pipeline; a run that is slow to start: raise --wait-timeout")
}
