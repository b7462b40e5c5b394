//! `ylemctl last-run KIND ID...`: an ID's last run by the one model of a
//! run (`ylem_client::runs::last`): the server's answer says which run is last, its own
//! entries say whether it finished and how. A run still going is
//! `running`, never a success.

use crate::cli::Format;
use crate::commands::kit::columns::{
    DURATION, ELAPSED, ENDED, EVIDENCE, EXECUTED_AT, IS_SUCCESSFUL, LAST_RUN, LAST_RUN_UUID,
    STARTED, TASKS, UUID, time_cell,
};
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::evidence_text;
use crate::commands::kit::exposition::{self, labels, last_samples, refused};
use crate::commands::kit::failure_read;
use crate::commands::kit::failure_text::{self, FailureText};
use crate::commands::kit::last_known::last;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::stats::args::LastRunArgs;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::output::prometheus::Sample;
use crate::output::{Cell, Column, Row, Shape};
use ylem_client::quirks::last_seen::NO_RUN_FOUND;
use ylem_client::runs::failure::Failure;
use ylem_client::runs::{Last, RunView};

/// An ID's last run, and `last_run`: `found` (finished), `running` (not
/// finished on evidence: `is_successful` null, the tasks so far),
/// `unsettled` (a workflow's run younger than the settle time), or
/// `not_found` (never ran, or unknown to the service). `executed_at` is the
/// server's, as its last-run answer gave it; the tool's own times are
/// `started` (the first task's start) and `ended` (the last task's end, for
/// a task or workflow the server's time), `duration` the sum of its task
/// durations, `elapsed` the wall clock between. With several IDs, `uuid`
/// leads and the error columns follow (`crate::commands::kit::ids::multi_columns`).
pub const COLUMNS: &[Column] = &[
    UUID,
    IS_SUCCESSFUL,
    EXECUTED_AT.aged(),
    DURATION,
    ELAPSED,
    STARTED,
    ENDED,
    TASKS,
    LAST_RUN,
    EVIDENCE,
    LAST_RUN_UUID,
];

/// Fill `r`; no run found gives empty fields and says so in `last_run`.
pub fn fill(r: &mut Row, id: uuid::Uuid, seen: &Last) {
    r.set(&UUID, Cell::Str(id.to_string()));
    match seen.last() {
        Some(run) => r
            .set(
                &IS_SUCCESSFUL,
                run.success().map_or(Cell::Null, Cell::Success),
            )
            .set(&EXECUTED_AT, run.executed_at.map_or(Cell::Null, time_cell))
            .set(&DURATION, Cell::Ms(run.duration_ms))
            .set(&ELAPSED, run.elapsed_ms().map_or(Cell::Null, Cell::Ms))
            .set(&STARTED, run.started.map_or(Cell::Null, time_cell))
            .set(&ENDED, time_cell(run.ended))
            .set(
                &TASKS,
                run.tasks.map_or(Cell::Null, |n| Cell::Int(n as i64)),
            )
            .set(&LAST_RUN, Cell::Str(word(run).into()))
            .set(
                &EVIDENCE,
                Cell::opt_str(run.evidence.as_ref().map(evidence_text::established)),
            )
            .set(&LAST_RUN_UUID, Cell::opt_str(run.run.clone())),
        None => r
            .set(&IS_SUCCESSFUL, Cell::Never)
            .set(&EXECUTED_AT, Cell::Never)
            .set(&DURATION, Cell::Never)
            .set(&ELAPSED, Cell::Never)
            .set(&STARTED, Cell::Never)
            .set(&ENDED, Cell::Never)
            .set(&TASKS, Cell::Never)
            .set(&LAST_RUN, Cell::Str("not_found".into()))
            .set(&EVIDENCE, Cell::Null)
            .set(&LAST_RUN_UUID, Cell::Null),
    };
}

/// `found` for a finished run; else what it is (`running`, `unsettled`).
fn word(run: &RunView) -> &'static str {
    match run.success() {
        Some(_) => "found",
        None => run.result,
    }
}

/// The last run: rows, or the Prometheus exposition.
pub const CONDUCT: Conduct = Conduct::client("last-run").measures();

pub const COMMAND: Entry = Entry {
    command: <LastRunArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: LastRunArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

pub async fn run(args: &LastRunArgs, ctx: &Context) -> Result<()> {
    if ctx.settings.format == Format::Prometheus {
        return prometheus(args, ctx).await;
    }
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let multi = ids.len() > 1;
    let finder = failure_read::finder(ctx, args.key.decrypt_key_file.as_deref())?;
    let machine = ctx.settings.machine_output();
    // The failure goes in before `last_run`.
    let base = failure_text::with_columns(COLUMNS, Some(&LAST_RUN), machine);
    let columns = match multi {
        true => crate::commands::kit::ids::multi_columns(ctx, &base),
        false => base,
    };
    let shape = if multi { Shape::List } else { Shape::Object };
    let mut p = ctx.printer(shape, &columns, multi)?;
    let api = ctx.api()?;
    let now = ctx.settings.now;
    let (mut failed, mut none, mut going) = (Vec::new(), Vec::new(), Vec::new());
    let mut going_runs: Vec<(uuid::Uuid, Option<String>)> = Vec::new();
    let res = crate::commands::kit::ids::for_each_id(
        ctx,
        &ids,
        |id| {
            let (api, finder) = (&api, &finder);
            async move {
                let seen = last(api, args.kind, id, now).await?;
                // A failed run's reason, from the entries already read.
                let fail = seen.last().and_then(|r| finder.of_run(args.kind, r));
                Ok((seen, fail))
            }
        },
        |id, got| {
            let (seen, fail) = match got {
                Ok(got) => got,
                // Empty values, then the error columns.
                Err(e) => {
                    return p.row(crate::commands::kit::ids::failed_row(ctx, &columns, id, e));
                }
            };
            match seen.last() {
                Some(r) if r.success() == Some(false) => {
                    failed.push(failed_text(id, fail.as_ref(), multi))
                }
                Some(r) if r.success().is_none() => {
                    going.push(going_text(id, r));
                    going_runs.push((id, r.run.clone()));
                }
                Some(_) => {}
                None => none.push(id.to_string()),
            }
            let mut r = Row::new(&columns);
            fill(&mut r, id, &seen);
            failure_text::fill(&mut r, fail.as_ref());
            p.row(r.into_cells())
        },
    )
    .await;
    crate::commands::kit::ids::close(p, &res, multi, "no last run", ctx)?;
    if !none.is_empty() {
        ctx.note(&format!("{}: {NO_RUN_FOUND}", none.join(", ")));
    }
    res?;
    if args.fail_on_failure && !failed.is_empty() {
        return Err(Error::new(
            Kind::RunFailed,
            format!("the last run failed: {}", failed.join("; ")),
        ));
    }
    // A run not finished on evidence is not vouched for: as `runs --run
    // --exit-status`, not finished is 8; with --running-ok it is no alert
    // (a cron job that lands mid-run), said as a note.
    if args.fail_on_failure && args.running_ok && !going.is_empty() {
        ctx.note(&format!(
            "the last run has not finished (not an alert with --running-ok): {}",
            going.join("; ")
        ));
    } else if args.fail_on_failure && !going.is_empty() {
        return Err(Error::new(
            Kind::Timeout,
            format!("the last run has not finished: {}", going.join("; ")),
        )
        .with_hint(going_hint(args.kind, &going_runs)));
    }
    // Nothing to vouch for is not a success: fail closed.
    if args.fail_on_failure && !none.is_empty() {
        return Err(Error::new(
            Kind::NotFound,
            format!("{}: {NO_RUN_FOUND}", none.join(", ")),
        )
        .with_hint("check the ID and its kind; a new entity has no run until it is started"));
    }
    Ok(())
}

/// `last-run -o prometheus`: each ID's last-run gauges.
async fn prometheus(args: &LastRunArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let api = ctx.api()?;
    let now = ctx.settings.now;
    let results = crate::commands::kit::fan_out::all(ctx.settings.concurrency, &ids, |id| {
        last(&api, args.kind, *id, now)
    })
    .await;
    let samples: Vec<Sample> = ids
        .iter()
        .zip(results)
        .map(|(&id, r)| {
            let l = labels(ctx, args.kind, id, None);
            match r {
                Err(e) => refused(ctx, &e, args.kind, id, l),
                // No run found: up, with no last-run series; a run going:
                // the last finished run's, and `ylem_run_in_progress 1`.
                Ok(seen) => Sample {
                    labels: l,
                    up: true,
                    ..last_samples(&seen)
                },
            }
        })
        .collect();
    exposition::write(ctx, &samples)
}

/// How to follow a last run still going: the command itself, with the IDs
/// filled in, when there is one pipeline run to follow.
fn going_hint(kind: ylem_client::Entity, runs: &[(uuid::Uuid, Option<String>)]) -> String {
    match (kind, runs) {
        (ylem_client::Entity::Pipeline, [(id, Some(run))]) => format!(
            "ask again later; 'ylemctl runs {id} --run {run} --wait' follows the run to its verdict"
        ),
        _ => {
            "ask again later; 'ylemctl runs PIPELINE --run RUN --wait' follows a run to its verdict"
                .to_string()
        }
    }
}

/// What `--fail-on-failure` says of a last run still going.
fn going_text(id: uuid::Uuid, r: &RunView) -> String {
    let what = match (&r.run, r.progress()) {
        (Some(run), Some(p)) => format!("run {run} {} ({p} so far)", r.result),
        _ => r.result.to_string(),
    };
    format!("{id}: {what}")
}

/// What `--fail-on-failure` says of one failed last run: the failed task
/// and its first message (`task notification (a87db346…): [4029 critical]
/// quota exceeded`), after the ID when several were asked.
fn failed_text(id: uuid::Uuid, fail: Option<&Failure>, multi: bool) -> String {
    match (fail, multi) {
        (Some(f), false) => f.summary(),
        (Some(f), true) => format!("{id}: {}", f.summary()),
        (None, _) => id.to_string(),
    }
}
