//! `ylemctl runs PIPELINE --run RUN|latest|latest-failed [--exit-status]`:
//! one run whole (its result and evidence, its task entries in execution
//! order, its failure with every message), and with `--exit-status` the
//! verdict of any run as the exit code: 0 succeeded on evidence, 7 failed,
//! 8 not finished (still running, or its end cannot be established, or no
//! entry of it yet). `--wait` is `runs/attach.rs`, which shows the run as here.

use crate::commands::kit::columns::{
    DURATION, ENTRIES, EXECUTED_AT, IS_SUCCESSFUL, TASK, TASK_TYPE, TASKS_EXPECTED,
};
use crate::commands::kit::failure_text;
use crate::commands::kit::failure_text::FailureText;
use crate::commands::runs::args::RunsArgs;
use crate::commands::runs::junit;
use crate::commands::runs::list::{COLUMNS, fill, fold};
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::output::{Cell, Column, Row, Shape};
use crate::time::Window;
use ylem_client::api::Client;
use ylem_client::api::models::LogEntry;
use ylem_client::runs::failure::{Failure, Finder};
use ylem_client::runs::fold::{Judged, RunFold};
use ylem_client::runs::tally::rule_of;

/// The header's fields after `COLUMNS` and the failure: the task count the
/// history expects, and (machine formats) the entries.
const MORE: &[Column] = &[TASKS_EXPECTED, ENTRIES];

/// An entry of the run, in the table under the header: `task` is the
/// task's alias when one names it, else its UUID.
// A task entry's success is `is_successful` (header RESULT), as in `logs`:
// `result` is a run's (succeeded, failed, running).
const ENTRY_COLUMNS: &[Column] = &[EXECUTED_AT, TASK, TASK_TYPE, IS_SUCCESSFUL, DURATION];

/// The one pipeline `--run` names a run of, and which run (`latest` when
/// not said); shared with `runs --run R --wait`.
pub fn pipeline_and_run<'a>(args: &'a RunsArgs, ctx: &Context) -> Result<(uuid::Uuid, &'a str)> {
    let [pipeline] = args.pipelines.as_slice() else {
        return Err(Error::usage("--run shows one run: name one pipeline"));
    };
    let id = ctx.resolve_id(pipeline)?;
    Ok((id, args.run.as_deref().unwrap_or("latest")))
}

pub async fn run(args: &RunsArgs, ctx: &Context) -> Result<()> {
    let (id, spec) = pipeline_and_run(args, ctx)?;
    let wanted = match spec {
        "latest" | "latest-failed" => None,
        r => Some(ctx.resolve_id(r)?.to_string()),
    };
    let finder =
        crate::commands::kit::failure_read::finder(ctx, args.key.decrypt_key_file.as_deref())?;
    let window = ctx.window(&args.window)?;
    let api = ctx.api()?;
    let mut runs = fold(&api, id, &window, wanted.as_deref()).await?;
    let kept = std::mem::take(&mut runs.kept);
    let over = runs.kept_over;
    // The run's basis, never the window's (a named run: its day's only).
    let named = |t: &RunFold| {
        wanted
            .as_deref()
            .is_none_or(|w| t.id().eq_ignore_ascii_case(w))
    };
    let rules =
        crate::commands::runs::list::rules_for(&api, id, runs.iter().filter(|t| named(t)), ctx)
            .await;
    let judged = runs.judged_by_basis(rules.clone(), ctx.settings.now);
    let found = judged.into_iter().find(|j| match (&wanted, spec) {
        (Some(r), _) => j.tally.id().eq_ignore_ascii_case(r),
        (None, "latest-failed") => j.result == "failed",
        _ => true,
    });
    let Some(j) = found else {
        return Err(not_found(&id, spec, &window, args.exit_status));
    };
    // `-o junit`: the task set the run is judged by, and its task types,
    // which only the basis look-up keeps (kept: no request more).
    // A failed run is judged by no basis (a failed task decides it), yet
    // its report names the tasks it did not reach: its basis's.
    let looked_up = match (ctx.settings.format, j.tally.started().or(j.tally.ended())) {
        (crate::cli::Format::Junit, Some(first)) => {
            Some(crate::commands::kit::run_history::history(&api, id, first, &ctx.ui).await)
        }
        _ => None,
    };
    let graph = rule_of(&rules, &j.tally)
        .graph
        .as_ref()
        .map(|g| g.0.clone())
        .or_else(|| {
            let h = looked_up.as_ref()?;
            ylem_client::runs::tally::listed_rule(h, None)
                .graph
                .map(|g| g.0)
        });
    let (mut entries, over) = match wanted {
        Some(_) => (kept, over),
        None => entries_of(&api, id, &j).await?,
    };
    crate::commands::kit::run_entries::say_over(ctx, &j.tally.id(), over);
    junit::execution_order(&mut entries);
    let fail = finder.of_entries(&entries);
    let task_set = TaskSet {
        graph: graph.as_deref(),
        types: looked_up.as_ref().map(|h| &h.task_types),
    };
    show(ctx, &finder, &id, &j, &entries, fail.as_ref(), task_set)?;
    if args.exit_status {
        return verdict(&j);
    }
    Ok(())
}

/// What `-o junit` knows of the pipeline's tasks beyond the run's: the
/// task set its recent complete runs had, and each task's type.
#[derive(Clone, Copy, Default)]
pub struct TaskSet<'a> {
    pub graph: Option<&'a [String]>,
    pub types: Option<&'a std::collections::BTreeMap<String, String>>,
}

/// The entries of a run found by `latest`: one more request, narrow (the
/// run's own span), so the first pass keeps totals only.
async fn entries_of(api: &Client, id: uuid::Uuid, j: &Judged) -> Result<(Vec<LogEntry>, usize)> {
    let t = &j.tally;
    let (Some(from), Some(to)) = (t.started(), t.ended()) else {
        return Ok((Vec::new(), 0));
    };
    let pad = chrono::Duration::seconds(1);
    let w = Window {
        from: from - pad,
        to: to + pad,
    };
    crate::commands::kit::run_entries::read(api, id, &w, &t.id()).await
}

/// No run of `spec` in the window. A named run with no entry may not have
/// reported yet (a run just started) or be no run of the pipeline: the
/// service cannot tell these apart, so both are said, with `--wait` that
/// waits for the first; with `--exit-status` that is "its end cannot be
/// established" (8), not "not found".
pub fn not_found(id: &uuid::Uuid, spec: &str, w: &Window, exit_status: bool) -> Error {
    let window = format!(
        "the window {} .. {} UTC",
        w.from.format("%Y-%m-%d %H:%M:%S"),
        w.to.format("%Y-%m-%d %H:%M:%S")
    );
    let widen = "widen the window with --since (e.g. --since 7d) or --from/--to";
    let (what, kind) = match spec {
        "latest" => (format!("no run in {window}"), Kind::NotFound),
        "latest-failed" => (format!("no failed run in {window}"), Kind::NotFound),
        r => {
            let kind = if exit_status {
                Kind::Timeout
            } else {
                Kind::NotFound
            };
            let e = Error::new(
                kind,
                format!(
                    "no entry of run {r} in {window}: it has not reported yet (a run just started), or it is no run of pipeline {id} in this window (the service cannot tell these apart)"
                ),
            );
            return e.with_hint(format!(
                "wait for it with 'ylemctl runs {id} --run {r} --wait', or {widen}"
            ));
        }
    };
    Error::new(kind, what).with_hint(widen)
}

/// The run whole: its row, then (table) its entries and its failure.
pub fn show(
    ctx: &Context,
    finder: &Finder,
    id: &uuid::Uuid,
    j: &Judged,
    entries: &[LogEntry],
    fail: Option<&Failure>,
    task_set: TaskSet,
) -> Result<()> {
    if ctx.settings.format == crate::cli::Format::Junit {
        let end = match j.result {
            "succeeded" => junit::End::Succeeded,
            "failed" => junit::End::Failed,
            _ => junit::End::Open(
                "the run has not ended on evidence: still running, or its end cannot be established yet".into(),
            ),
        };
        let run = j.tally.id();
        let report = junit::Report {
            pipeline: *id,
            run: &run,
            entries,
            graph: task_set.graph,
            types: task_set.types,
            end,
            evidence: j
                .evidence
                .as_ref()
                .map(crate::commands::kit::evidence_text::describe),
        };
        return junit::print(ctx, &[junit::suite(finder, &report)]);
    }
    let machine = ctx.settings.machine_output();
    let mut columns = failure_text::with_columns(COLUMNS, None, machine);
    // The entries are the table's below, not a field of the header.
    columns.extend(MORE.iter().filter(|c| machine || c.name != ENTRIES.name));
    let mut r = Row::new(&columns);
    fill(&mut r, id, j);
    failure_text::fill(&mut r, fail);
    r.set(
        &TASKS_EXPECTED,
        j.expected.map_or(Cell::Null, |n| Cell::Int(n as i64)),
    )
    .set(
        &ENTRIES,
        Cell::Json(entries.iter().map(entry_json).collect()),
    );
    let mut p = ctx.printer(Shape::Object, &columns, false)?;
    p.row(r.into_cells())?;
    p.finish("", &ctx.ui)?;
    if machine {
        return Ok(());
    }
    // The entries are in execution order already: on a narrow terminal
    // their times go before the task that ran and its result (the columns
    // say so: `kit/columns.rs`).
    let mut t = ctx.printer(Shape::List, ENTRY_COLUMNS, true)?;
    for e in entries {
        let mut r = Row::new(ENTRY_COLUMNS);
        r.set(&EXECUTED_AT, Cell::Time(e.executed_at.0.clone()))
            .set(
                &TASK,
                Cell::Str(
                    finder
                        .name_of(&e.task_uuid)
                        .map_or_else(|| e.task_uuid.clone(), str::to_string),
                ),
            )
            .set(&TASK_TYPE, Cell::Str(e.task_type.clone()))
            .set(&IS_SUCCESSFUL, Cell::Success(e.is_successful))
            .set(&DURATION, Cell::Ms(e.duration));
        t.row(r.into_cells())?;
    }
    t.finish("", &ctx.ui)?;
    if let Some(f) = fail {
        let lines: String = f.lines().iter().map(|l| format!("{l}\n")).collect();
        ctx.write_out(lines.as_bytes())?;
    }
    Ok(())
}

fn entry_json(e: &LogEntry) -> serde_json::Value {
    serde_json::json!({
        "task_uuid": e.task_uuid,
        "task_type": e.task_type,
        "is_successful": e.is_successful,
        "duration": e.duration,
        "executed_at": e.executed_at.0,
    })
}

/// `--exit-status`: 0 only for a run that succeeded on evidence.
pub fn verdict(j: &Judged) -> Result<()> {
    match j.result {
        "succeeded" => Ok(()),
        "failed" => Err(Error::new(
            Kind::RunFailed,
            format!("run {} failed", j.tally.id()),
        )),
        _ => Err(Error::new(
            Kind::Timeout,
            format!(
                "run {} has not finished: still running, or its end cannot be established yet",
                j.tally.id()
            ),
        )
        .with_hint("ask again later; a run is complete on evidence (its pipeline's task set, or no new task for the settle time)")),
    }
}
