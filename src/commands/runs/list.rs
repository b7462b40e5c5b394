//! `ylemctl runs PIPELINE... [WINDOW] [--failed] [--limit N]`: one row per
//! run of each pipeline's log, newest first, with its result by `run
//! --wait`'s rule and, for a failed run, why. The log is read as a stream
//! and folded into per-run totals (`ylem_client::runs::tally`); `--run` shows
//! one run whole (`runs/one.rs`, dispatched beside this).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::commands::kit::columns::*;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::evidence_text;
use crate::commands::kit::failure_text;
use crate::commands::runs::args::RunsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{Cell, Column, Printer, Row, Shape};
use crate::time::Window;
use ylem_client::api::Client;
use ylem_client::runs::failure::{FailedTask, Failure, Finder};
use ylem_client::runs::finished::Rule;
use ylem_client::runs::fold::{FirstFailed, Judged, RunFold};
use ylem_client::runs::tally::Runs;

/// A run's row; with several pipelines a leading `uuid` (the pipeline's,
/// as every command that takes several IDs has), and the failure's
/// columns after `evidence`.
pub const COLUMNS: &[Column] = &[
    UUID,
    RUN_UUID,
    RESULT,
    STARTED,
    ENDED,
    DURATION,
    ELAPSED,
    TASKS,
    TASKS_FAILED,
    COMPLETION,
    EVIDENCE,
];

/// What a table shows by default (a person scans result, time and why);
/// `--fields` picks any of the others, as machine formats carry them all.
const TABLE_DEFAULT: &[Column] = &[UUID, RUN_UUID, RESULT, STARTED, DURATION, TASKS, FAILURE];

/// Both `runs` and `runs --run`.
pub const CONDUCT: Conduct = Conduct::client("runs").streams();

pub async fn run(args: &RunsArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids(&args.pipelines)?;
    let finder =
        crate::commands::kit::failure_read::finder(ctx, args.key.decrypt_key_file.as_deref())?;
    let machine = ctx.settings.machine_output();
    let columns = failure_text::with_columns(COLUMNS, None, machine);
    let multi = ids.len() > 1;
    // A table without --fields shows its default columns, in their order.
    let fields: Option<Vec<String>> = match (&ctx.settings.fields, machine) {
        (None, false) => Some(
            TABLE_DEFAULT
                .iter()
                .filter(|c| multi || c.name != UUID.name)
                .map(|c| c.name.to_string())
                .collect(),
        ),
        _ => None,
    };
    // On a narrow terminal, which run, how it ended and why stay longest
    // (the columns say so: `kit/columns.rs`); its times go first.
    let mut p = match fields {
        Some(f) => ctx.printer_with_fields(Shape::List, &columns, multi, &f)?,
        None => ctx.printer(Shape::List, &columns, multi)?,
    };
    let window = ctx.window(&args.window)?;
    let api = ctx.api()?;
    // One pipeline at a time: each log may be large, and is held as totals.
    let mut first_error = None;
    let mut seen = 0;
    for id in &ids {
        match fold_with(&api, *id, &window, None, Some(&finder)).await {
            Ok(runs) => {
                let rules = rules_for(&api, *id, runs.iter(), ctx).await;
                seen += print(&mut p, &columns, args, &finder, id, runs, rules, ctx)?
            }
            Err(e) if multi => {
                ctx.report(&e.clone().context(format!("pipeline {id}")));
                first_error.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
    }
    p.finish(&empty_note(wanted(args), seen), &ctx.ui)?;
    first_error.map_or(Ok(()), Err)
}

/// The result `--result` or `--failed` keeps, if any.
fn wanted(args: &RunsArgs) -> Option<&'static str> {
    match (args.result, args.failed) {
        (Some(r), _) => Some(r.word()),
        (None, true) => Some("failed"),
        (None, false) => None,
    }
}

/// What an empty list says: no run at all, or none of the `seen` runs
/// with the result asked for.
fn empty_note(wanted: Option<&str>, seen: usize) -> String {
    match (wanted, seen) {
        (Some(w), n) if n > 0 => format!(
            "no {w} runs among {} in the window",
            crate::count::count(n, "run", "runs")
        ),
        _ => "no runs in the window".to_string(),
    }
}

/// The pipeline's log in the window, folded into per-run totals; the
/// entries of run `keep` (`runs --run R`) are kept whole too.
pub async fn fold(
    api: &Client,
    id: uuid::Uuid,
    window: &Window,
    keep: Option<&str>,
) -> Result<Runs<'static>> {
    fold_with(api, id, window, keep, None).await
}

/// `fold`, with each run's earliest failed entry read by `finder` as it
/// is folded (its output decoded once, and not kept).
async fn fold_with<'a>(
    api: &Client,
    id: uuid::Uuid,
    window: &Window,
    keep: Option<&str>,
    finder: Option<&'a Finder>,
) -> Result<Runs<'a>> {
    crate::commands::kit::run_fold::fold(api, id, window, keep, finder).await
}

/// The rules the runs are judged by: each run's basis (its pipeline's
/// complete runs of the 3 days before its start, `ylem_client::runs::basis`),
/// never the window's: the same run has the same verdict and evidence in
/// every command and with every `--since`. Kept once read, so a listing asks
/// one request per run without a failure (at most 31) the first time, none
/// after.
pub async fn rules_for<'r>(
    api: &Client,
    id: uuid::Uuid,
    runs: impl Iterator<Item = &'r RunFold>,
    ctx: &Context,
) -> BTreeMap<DateTime<Utc>, Rule> {
    crate::commands::kit::run_history::rules(api, id, runs, &ctx.ui).await
}

#[allow(clippy::too_many_arguments)]
fn print(
    p: &mut Printer,
    columns: &[Column],
    args: &RunsArgs,
    finder: &Finder,
    id: &uuid::Uuid,
    runs: Runs<'_>,
    rules: BTreeMap<DateTime<Utc>, Rule>,
    ctx: &Context,
) -> Result<usize> {
    let judged = runs.judged_by_basis(rules, ctx.settings.now);
    let wanted = wanted(args);
    let mut seen = 0;
    let keep = judged
        .inspect(|_| seen += 1)
        .filter(|j| wanted.is_none_or(|w| j.result == w))
        .take(args.limit.unwrap_or(usize::MAX));
    for j in keep {
        let fail = j
            .tally
            .first_failed
            .as_ref()
            .map(|f| Failure::Tasks(vec![failed_task(finder, f)]));
        let mut r = Row::new(columns);
        fill(&mut r, id, &j);
        failure_text::fill(&mut r, fail.as_ref());
        p.row(r.into_cells())?;
    }
    Ok(seen)
}

/// A run's earliest failed task as the failure shows it, named by its
/// alias when one names it.
fn failed_task(finder: &Finder, f: &FirstFailed) -> FailedTask {
    let task_uuid = f.task.to_string();
    FailedTask {
        name: finder.name_of(&task_uuid).map(str::to_string),
        task_uuid,
        task_type: f.task_type.to_string(),
        executed_at: f.executed_at.to_string(),
        duration: f.duration,
        detail: f.detail.clone(),
    }
}

/// Fill the cells of `COLUMNS` for one judged run: `started` its first
/// task's start, `ended` its last task's end, `duration` the sum of its
/// task durations, `elapsed` the wall clock between (`ylem_client::runs::fold`).
pub fn fill(r: &mut Row, id: &uuid::Uuid, j: &Judged) {
    let t = &j.tally;
    let time = |d: Option<chrono::DateTime<chrono::Utc>>| d.map(time_cell).unwrap_or(Cell::Null);
    let (completion, evidence) = match (&j.evidence, j.result) {
        (Some(e), _) => (e.name().to_string(), evidence_text::describe(e)),
        (None, "failed") => ("failed_task".into(), "a task reported a failure".into()),
        (None, _) => (
            "running".into(),
            format!(
                "{} so far; not complete on evidence",
                crate::count::count(t.entries, "task", "tasks")
            ),
        ),
    };
    r.set(&UUID, Cell::Str(id.to_string()))
        .set(&RUN_UUID, Cell::Str(t.id()))
        .set(&RESULT, Cell::Str(j.result.into()))
        .set(&STARTED, time(t.started()))
        .set(&ENDED, time(t.ended()))
        .set(&DURATION, Cell::Ms(t.duration_ms))
        .set(&ELAPSED, t.elapsed_ms().map(Cell::Ms).unwrap_or(Cell::Null))
        .set(&TASKS, Cell::Int(t.entries as i64))
        .set(&TASKS_FAILED, Cell::Int(t.failed as i64))
        .set(&COMPLETION, Cell::Str(completion))
        .set(&EVIDENCE, Cell::Str(evidence));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A narrow run list keeps each run, its result and its failure
    /// longest (issue 36), and the pipeline where several are listed;
    /// nothing else of its table. The columns are the ones the table
    /// takes by name from what `run` builds, as `--fields` would.
    #[test]
    fn a_narrow_run_list_keeps_run_result_and_failure() {
        let columns = failure_text::with_columns(COLUMNS, None, false);
        let shown = TABLE_DEFAULT.iter().map(|d| {
            columns
                .iter()
                .find(|c| c.name == d.name)
                .unwrap_or_else(|| panic!("{} in the rows' columns", d.name))
        });
        // Whole columns, so a run's UUID kept as a second one (as
        // `last-run`'s) would not do.
        let kept: Vec<Column> = shown.filter(|c| c.keep.is_some()).copied().collect();
        assert_eq!(kept, [UUID, RUN_UUID, RESULT, FAILURE]);
    }
}
