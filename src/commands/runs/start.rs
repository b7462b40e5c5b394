//! `ylemctl run pipeline|workflow ID...`: start runs (endpoints 2 and 3).
//! A start is sent once per ID and never retried once it may have arrived.

use std::io::IsTerminal;
use std::sync::atomic::Ordering;

use crate::count::count;
use bytes::Bytes;
use uuid::Uuid;

use crate::cli::Format;
use crate::commands::kit::columns::*;
use crate::commands::kit::conduct::{self, Conduct, Signals};
use crate::commands::kit::evidence_text;
use crate::commands::kit::failure_text::{self, FailureText};
use crate::commands::kit::signals::Stop;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::runs::args::RunArgs;
use crate::commands::runs::junit;
use crate::commands::runs::wait::{self, Followed, Outcome};
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::output::{Cell, Column, Row, Shape};
use ylem_client::Client;
use ylem_client::api::models::{RunRecord, RunStart};
use ylem_client::runs::failure::{self, Failure};
use ylem_client::runs::finished::Rule;
use ylem_client::{Entity, RunKind};

/// One row per start, in every format: the entity, the run it started and
/// `outcome` (`started`); in JSON and JSON lines also `records`, the task
/// records the server answered with (`null` when it sent the run UUID
/// alone, as the real server does). One ID gives the object (a row in a
/// table), several an array; several IDs add the error columns
/// (`crate::commands::kit::ids::multi_columns`).
pub const START_COLUMNS: &[Column] = &[UUID, RUN_UUID, OUTCOME, RECORDS];

/// The server's task records of a start, as it sent them (times in their
/// normal form, `pipeline_run_uuid` as `workflow_run_uuid`).
fn records(start: &RunStart) -> Cell {
    let RunStart::Records(rs) = start else {
        return Cell::Null;
    };
    let time = |t: &Option<ylem_client::api::models::Timestamp>| t.as_ref().map(|t| t.0.clone());
    Cell::Json(serde_json::Value::Array(
        rs.iter()
            .map(|r: &RunRecord| {
                serde_json::json!({
                    "id": r.id,
                    "state": r.state,
                    "task_uuid": r.task_uuid,
                    "task_run_uuid": r.task_run_uuid,
                    "workflow_run_uuid": r.workflow_run_uuid,
                    "is_successful": r.is_successful,
                    "output": r.output,
                    "errors": r.errors.as_ref().filter(|e| !e.is_null()),
                    "created_at": time(&r.created_at),
                    "updated_at": time(&r.updated_at),
                })
            })
            .collect(),
    ))
}

/// A start is cut short by Ctrl-C; `--wait` is also stopped by SIGTERM,
/// as a supervisor stops it. Both, and `--max-time`, say where the runs
/// went.
pub const CONDUCT: Conduct = Conduct {
    stopped: interrupted,
    out_of_time,
    ..Conduct::client("run")
};

/// With `--wait`, a pipeline run's end is known: it takes `-o junit` too.
pub fn conduct(args: &RunArgs) -> Conduct {
    match (args.wait, args.kind) {
        (true, RunKind::Pipeline) => Conduct {
            signals: Signals::InterruptOrTerminate,
            starts_first: true,
            ..CONDUCT.reports().follows()
        },
        (true, RunKind::Workflow) => Conduct {
            signals: Signals::InterruptOrTerminate,
            starts_first: true,
            ..CONDUCT.follows()
        },
        (false, _) => CONDUCT,
    }
}

pub const COMMAND: Entry = Entry {
    command: <RunArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |m| conduct(&wing::args(m)),
    run: |m, ctx, _| {
        let args: RunArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

/// Ctrl-C (130) or SIGTERM (143): a run start it cut short may already have
/// reached the server, and a run being waited for goes on there: say how
/// to follow it.
fn interrupted(ctx: &Context, stop: Stop) -> Error {
    let (kind, what) = conduct::stop_words(stop);
    if ctx.settings.format == Format::Junit {
        interrupted_report(ctx, what);
    }
    match started_runs(ctx) {
        Some((runs, hint)) => Error::new(
            kind,
            format!("{what}: the run goes on on the server: {runs}"),
        )
        .with_hint(hint),
        None => Error::new(kind, what).with_hint(crate::client_error::MAY_HAVE_STARTED),
    }
}

/// `-o junit` stopped while waiting: the report of what is known, each
/// pipeline run started as a suite whose run had not ended (it goes on on
/// the server), so a CI job interrupted still has its report.
fn interrupted_report(ctx: &Context, what: &str) {
    let Ok(finder) = crate::commands::kit::failure_read::finder(ctx, None) else {
        return;
    };
    let started = ctx.started.lock().map(|s| s.clone()).unwrap_or_default();
    let suites: Vec<_> = started
        .iter()
        .filter(|(kind, _, _)| *kind == RunKind::Pipeline)
        .map(|(_, id, run)| {
            let end = junit::End::Open(format!(
                "{what} while waiting: the run had not ended and goes on on the server"
            ));
            let r = junit::Report {
                pipeline: *id,
                run,
                entries: &[],
                graph: None,
                types: None,
                end,
                evidence: None,
            };
            junit::suite(&finder, &r)
        })
        .collect();
    let _ = junit::print(ctx, &suites);
}

/// `--max-time` ran out: a run it knows started goes on on the server:
/// name it, and how to follow it, as Ctrl-C does.
fn out_of_time(ctx: &Context, limit: &str) -> Error {
    match started_runs(ctx) {
        Some((runs, hint)) => Error::network(format!(
            "out of time: the command's --max-time of {limit} ran out; the run goes on on the server: {runs}"
        ))
        .with_hint(hint),
        None => conduct::out_of_time_error(limit).with_hint(crate::client_error::MAY_HAVE_STARTED),
    }
}

/// The runs this command started, and how to follow them.
fn started_runs(ctx: &Context) -> Option<(String, String)> {
    let started = ctx.started.lock().map(|s| s.clone()).unwrap_or_default();
    if started.is_empty() {
        return None;
    }
    let runs: Vec<&str> = started.iter().map(|(_, _, r)| r.as_str()).collect();
    let follow: Vec<String> = started
        .iter()
        .map(|(kind, id, run)| match kind {
            // To its verdict (0 / 7 / 8), as this wait would have.
            RunKind::Pipeline => format!("ylemctl runs {id} --run {run} --wait"),
            RunKind::Workflow => format!("ylemctl last-run workflow {id}"),
        })
        .collect();
    Some((
        runs.join(", "),
        format!("follow it with '{}'", follow.join("', '")),
    ))
}

pub async fn run(args: &RunArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids_as(args.kind.entity(), &args.ids)?;
    refuse_duplicates(&args.ids, &ids)?;
    let input = match &args.rerun {
        Some(run) => crate::commands::runs::rerun::input(args, &ids, run, ctx).await?,
        None => input(args, ctx)?,
    };
    let input = input.as_ref();
    if args.wait {
        return run_and_wait(args, &ids, input, ctx).await;
    }
    let multi = ids.len() > 1;
    // The records are the machine formats' (a table or CSV cell of JSON
    // arrays helps nobody).
    let machine = matches!(ctx.settings.format, Format::Json | Format::Jsonl);
    let base: Vec<Column> = START_COLUMNS
        .iter()
        .copied()
        .filter(|c| machine || c.name != RECORDS.name)
        .collect();
    let columns = match multi {
        true => crate::commands::kit::ids::multi_columns(ctx, &base),
        false => base,
    };
    // One ID, the object (as every command gives for one ID); a table
    // keeps its row, which names the entity even for one ID.
    let shape = match multi || ctx.settings.format == Format::Table {
        true => Shape::List,
        false => Shape::Object,
    };
    let mut p = ctx.printer(shape, &columns, true)?;
    let api = ctx.api()?;
    let res = crate::commands::kit::ids::for_each_id(
        ctx,
        &ids,
        |id| crate::commands::runs::refused::start_run(ctx, &api, args.kind, id, input),
        |id, start| {
            let mut r = Row::new(&columns);
            r.set(&UUID, Cell::Str(id.to_string()));
            match start {
                Ok(start) => {
                    if let Some(run) = start.run_uuid() {
                        started(ctx, args.kind, id, run);
                    }
                    r.set(
                        &RUN_UUID,
                        Cell::opt_str(start.run_uuid().map(str::to_string)),
                    )
                    .set(&OUTCOME, Cell::Str("started".into()))
                    .set(&RECORDS, records(&start));
                }
                Err(e) => crate::commands::kit::ids::set_error(ctx, &mut r, e),
            }
            p.row(r.into_cells())
        },
    )
    .await;
    crate::commands::kit::ids::close(p, &res, multi, "", ctx)?;
    res
}

/// `--input`, read and checked before anything is sent; `None` without it.
fn input(args: &RunArgs, ctx: &Context) -> Result<Option<Bytes>> {
    let Some(value) = &args.input else {
        return Ok(None);
    };
    if args.kind == RunKind::Workflow {
        return Err(Error::usage(
            "--input is for pipelines: no server documents an input for workflow runs",
        )
        .with_hint("start the workflow without --input"));
    }
    let stdin = std::io::stdin();
    if matches!(value.as_str(), "-" | "@-") && stdin.is_terminal() {
        ctx.note("reading --input from standard input: end it with Ctrl-D");
    }
    crate::commands::runs::input::read(value, stdin.lock()).map(Some)
}

/// Remember a started run, so that Ctrl-C can say how to follow it.
fn started(ctx: &Context, kind: RunKind, id: Uuid, run: &str) {
    if let Ok(mut s) = ctx.started.lock() {
        s.push((kind, id, run.to_string()));
    }
}

/// One run per ID given: an ID given twice (itself, or an alias and its
/// UUID) would start two runs of one pipeline without a word, so it is
/// refused before anything is sent. Two runs are two commands.
fn refuse_duplicates(given: &[String], ids: &[Uuid]) -> Result<()> {
    for (i, id) in ids.iter().enumerate() {
        if let Some(j) = ids[..i].iter().position(|o| o == id) {
            let (a, b) = (&given[j], &given[i]);
            let named = match a == b {
                true => format!("'{a}' is given twice"),
                false => format!("'{a}' and '{b}' are the same ({id})"),
            };
            return Err(Error::usage(format!(
                "{named}: run starts one run per ID given, and starts nothing when one is repeated"
            ))
            .with_hint("give each ID once; to start two runs of one, run the command twice"));
        }
    }
    Ok(())
}

/// Start every run and follow it (at most `--concurrency` at once), print
/// one summary row each in the order given.
async fn run_and_wait(
    args: &RunArgs,
    ids: &[uuid::Uuid],
    input: Option<&Bytes>,
    ctx: &Context,
) -> Result<()> {
    if args.kind == RunKind::Workflow && args.expect_tasks.is_some() {
        return Err(Error::usage(
            "--expect-tasks counts a pipeline's task entries; workflows leave none",
        ));
    }
    // --wait-timeout limits the wait; --max-time, when shorter, ends it as
    // a timed-out wait (exit 8, with what was seen) rather than a cut.
    let left = ctx
        .deadline
        .map(|d| d.saturating_duration_since(std::time::Instant::now()));
    let pace = wait::Pace {
        limit: left.map_or(args.wait_timeout, |l| l.min(args.wait_timeout)),
        poll: args.waiting.poll,
        progress: ctx.ui.shows_progress() && ids.len() == 1,
        heartbeat: (!ctx.ui.stderr_tty && ctx.ui.shows(crate::ui::Level::Note))
            .then_some(args.waiting.heartbeat),
    };
    let multi = ids.len() > 1;
    // A failed run's row carries its failure, read from the entries the
    // wait has seen: no request more.
    let finder = crate::commands::kit::failure_read::finder(ctx, args.decrypt_key_file.as_deref())?;
    let machine = ctx.settings.machine_output();
    let base = failure_text::with_columns(WAIT_COLUMNS, None, machine);
    // One ID, one object; several, a row each (a failed start's with its
    // error).
    let (shape, columns) = match multi {
        true => (
            Shape::List,
            crate::commands::kit::ids::multi_columns(ctx, &base),
        ),
        false => (Shape::Object, base),
    };
    // `-o junit`: no rows; the report is written once every run has ended.
    let junit = ctx.settings.format == Format::Junit;
    let mut p = match junit {
        true => None,
        false => Some(ctx.printer(shape, &columns, multi)?),
    };
    let mut refused: Vec<(Uuid, Error)> = Vec::new();
    // Which of the two each ID went to, in the order given.
    let mut started_in_order: Vec<bool> = Vec::new();
    let api = &ctx.api()?;
    let mut followed = Vec::new();
    // A pipeline run's basis is read by its wait, once its first entry
    // says which it is (`wait::attached`): one history request a run.
    let res = crate::commands::kit::ids::for_each_id(
        ctx,
        ids,
        |id| start_and_wait(api, args, id, input, pace, ctx),
        |id, f| match f {
            Ok(f) => {
                let fail = match f.outcome {
                    Outcome::Failed => finder.of_entries(&f.failed_entries),
                    _ => None,
                }
                .or_else(|| unknown_failure(args.kind, &f));
                if let Some(p) = p.as_mut() {
                    let mut r = Row::new(&columns);
                    fill_wait(&mut r, id, &f);
                    failure_text::fill(&mut r, fail.as_ref());
                    p.row(r.into_cells())?;
                }
                followed.push((id, f, fail));
                started_in_order.push(true);
                Ok(())
            }
            Err(e) => match p.as_mut() {
                Some(p) => p.row(crate::commands::kit::ids::failed_row(ctx, &columns, id, e)),
                None => {
                    refused.push((id, e.clone()));
                    started_in_order.push(false);
                    Ok(())
                }
            },
        },
    )
    .await;
    match p {
        Some(p) => crate::commands::kit::ids::close(p, &res, multi, "", ctx)?,
        None if res.is_ok() || multi => {
            let order = started_in_order;
            report(ctx, api, args, &order, &followed, &refused, &finder).await?
        }
        None => {}
    }
    // Every failure is said, a line each with why under it; the exit code
    // is the worst.
    let mut errors: Vec<Error> = res.err().into_iter().collect();
    if multi {
        errors.extend(followed.iter().filter_map(|x| {
            let e = verdict(&[(x.0, x.1.clone())]).err()?;
            let e = e.context(format!("{} {}", args.kind, x.0));
            Some(with_failures(e, std::slice::from_ref(x)))
        }));
    } else {
        let runs: Vec<(Uuid, Followed)> =
            followed.iter().map(|(id, f, _)| (*id, f.clone())).collect();
        errors.extend(verdict(&runs).err().map(|e| with_failures(e, &followed)));
    }
    crate::commands::kit::ids::worst_of(ctx, errors)
}

/// `-o junit`: a suite per ID, in the order given: each followed run with
/// its entries read once more (the wait keeps only what its rule needs),
/// and a start that failed as a suite with its error.
#[allow(clippy::too_many_arguments)]
async fn report(
    ctx: &Context,
    api: &Client,
    args: &RunArgs,
    order: &[bool],
    followed: &[(Uuid, Followed, Option<Failure>)],
    refused: &[(Uuid, Error)],
    finder: &failure::Finder,
) -> Result<()> {
    let from = ctx.settings.now - chrono::Duration::minutes(10);
    let mut suites = Vec::new();
    let (mut runs, mut starts) = (followed.iter(), refused.iter());
    for &started in order {
        if !started {
            if let Some((id, e)) = starts.next() {
                suites.push(junit::refused(finder, *id, e));
            }
            continue;
        }
        let Some((id, f, _)) = runs.next() else { break };
        // A log that cannot be read again (a 5xx, a timeout after a long
        // wait) costs the report its passed tasks, not the report: the
        // run's suite from what the wait kept, the exit code the run's.
        let (mut entries, unread) = match junit::entries_of(api, *id, &f.run, from).await {
            Ok((entries, over)) => {
                crate::commands::kit::run_entries::say_over(ctx, &f.run, over);
                (entries, None)
            }
            Err(e) => {
                ctx.ui.warn(&format!(
                    "the JUnit report of run {} lists only its failed tasks: its log could not be read again ({e})",
                    crate::output::table::escape(&f.run)
                ));
                (f.failed_entries.clone(), Some(e))
            }
        };
        junit::execution_order(&mut entries);
        // The basis the wait judged the run by; a run the wait saw no entry
        // of (it ran out first) has none yet: the one of its start's
        // minute then names the tasks it has not reported.
        let read;
        let history = match &f.basis {
            Some(h) => Some(h),
            None => {
                let now = ctx.settings.now;
                read = crate::commands::kit::run_history::history(api, *id, now, &ctx.ui).await;
                Some(&read)
            }
        };
        let rule = history.map(|h| Rule::new(h, args.expect_tasks, api.settle()));
        let end = match f.outcome {
            Outcome::Succeeded => junit::End::Succeeded,
            Outcome::Failed => junit::End::Failed,
            Outcome::TimedOut => junit::End::Open(format!(
                "the run had not ended when --wait-timeout ran out ({} had reported)",
                count(f.tasks_done, "task", "tasks")
            )),
        };
        let r = junit::Report {
            pipeline: *id,
            run: &f.run,
            entries: &entries,
            // Which tasks did not run is told from the whole log only.
            graph: rule
                .as_ref()
                .and_then(|r| r.graph.as_ref())
                .map(|g| g.0.as_slice())
                .filter(|_| unread.is_none()),
            types: history.map(|h| &h.task_types),
            end,
            evidence: f.evidence.as_ref().map(evidence_text::describe),
        };
        suites.push(match &unread {
            None => junit::suite(finder, &r),
            Some(e) => junit::unread(finder, &r, f.elapsed.map_or(0, |d| d.as_millis() as i64), e),
        });
    }
    junit::print(ctx, &suites)
}

/// A failed workflow run leaves no log to read its reason from.
fn unknown_failure(kind: RunKind, f: &Followed) -> Option<Failure> {
    (kind == RunKind::Workflow && f.outcome == Outcome::Failed)
        .then(|| Failure::Unknown(failure::Unknown::Workflow))
}

/// `run failed: R` and, under it, a line per failed task: the terminal's
/// answer to "why".
fn with_failures(mut e: Error, followed: &[(Uuid, Followed, Option<Failure>)]) -> Error {
    if e.kind != Kind::RunFailed {
        return e;
    }
    for (_, f, fail) in followed {
        let Some(fail) = fail.as_ref().filter(|_| f.outcome == Outcome::Failed) else {
            continue;
        };
        for line in fail.lines() {
            let run = if followed.len() > 1 {
                format!("run {}: ", f.run)
            } else {
                String::new()
            };
            e.details.push(format!("{run}{line}"));
        }
    }
    e
}

/// Start one run and follow it until it finishes or time runs out.
async fn start_and_wait(
    api: &Client,
    args: &RunArgs,
    id: uuid::Uuid,
    input: Option<&Bytes>,
    pace: wait::Pace,
    ctx: &Context,
) -> Result<wait::Followed> {
    let kind = args.kind;
    let before = match kind {
        RunKind::Workflow => api
            .last_run(Entity::Workflow, id)
            .await?
            .and_then(|r| r.executed_at)
            .map(|t| t.0),
        RunKind::Pipeline => None,
    };
    let start = crate::commands::runs::refused::start_run(ctx, api, kind, id, input).await;
    ctx.follows_now.store(true, Ordering::SeqCst);
    let start = start?;
    let run = start.run_uuid().unwrap_or_default().to_string();
    ctx.note(&format!("started run {run} of {kind} {id}"));
    started(ctx, kind, id, &run);
    let ui = &ctx.ui;
    // The start's records list the initial tasks only: never a task total.
    match kind {
        RunKind::Pipeline => wait::pipeline(api, id, &run, args.expect_tasks, pace, ui).await,
        RunKind::Workflow => wait::workflow(api, id, &run, before, pace, ui).await,
    }
    .map_err(|e| e.context(format!("while following run {run}")))
}

/// The summary row of `run --wait`, one per followed run: `verdict` is
/// `succeeded`, `failed` or `timed_out`. With several IDs, the error
/// columns follow (`crate::commands::kit::ids::multi_columns`).
pub const WAIT_COLUMNS: &[Column] = &[
    UUID,
    WORKFLOW_RUN_UUID,
    VERDICT,
    TASKS_TOTAL,
    TASKS_DONE,
    TASKS_FAILED,
    DURATION,
    ELAPSED,
    COMPLETION,
    EVIDENCE,
];

/// Fill the summary row of a followed run.
pub fn fill_wait(r: &mut Row, id: Uuid, f: &Followed) {
    let status = match f.outcome {
        Outcome::Succeeded => "succeeded",
        Outcome::Failed => "failed",
        Outcome::TimedOut => "timed_out",
    };
    let (completion, evidence) = match (&f.evidence, f.outcome) {
        (Some(e), _) => (e.name().to_string(), evidence_text::describe(e)),
        // A workflow is followed through its statistics (`stats_only`).
        (None, Outcome::Failed) if !f.per_task => {
            let fact = ylem_client::runs::stats_only::Fact::Failed;
            (fact.name().into(), fact.text().unwrap_or_default().into())
        }
        (None, Outcome::Failed) => ("failed_task".into(), "a task reported a failure".into()),
        (None, _) => (
            "timed_out".into(),
            format!("{} had reported", count(f.tasks_done, "task", "tasks")),
        ),
    };
    // Without per-task entries (a workflow) there is nothing to count.
    let count = |n: usize| match f.per_task {
        true => Cell::Int(n as i64),
        false => Cell::Null,
    };
    r.set(&UUID, Cell::Str(id.to_string()))
        .set(&WORKFLOW_RUN_UUID, Cell::Str(f.run.clone()))
        .set(&VERDICT, Cell::Str(status.into()))
        .set(
            &TASKS_TOTAL,
            f.tasks_total
                .map(|n| Cell::Int(n as i64))
                .unwrap_or(Cell::Null),
        )
        .set(&TASKS_DONE, count(f.tasks_done))
        .set(&TASKS_FAILED, count(f.tasks_failed))
        .set(&DURATION, Cell::Ms(f.duration_ms))
        .set(
            &ELAPSED,
            f.elapsed
                .map_or(Cell::Null, |d| Cell::Ms(d.as_millis() as i64)),
        )
        .set(&COMPLETION, Cell::Str(completion))
        .set(&EVIDENCE, Cell::Str(evidence));
}

/// The exit error of `run --wait` for a set of followed runs: 7 if one failed, else 8 if
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
    let late: Vec<String> = all
        .iter()
        .filter(|(_, f)| f.outcome == Outcome::TimedOut)
        .map(|(id, f)| {
            let expected = f
                .tasks_total
                .map(|n| format!(" of {n} expected"))
                .unwrap_or_default();
            if f.per_task {
                format!(
                    "{} ({} had reported{expected}; follow it with 'ylemctl runs {id} --run {} --wait')",
                    f.run,
                    count(f.tasks_done, "task", "tasks"),
                    f.run
                )
            } else {
                f.run.clone()
            }
        })
        .collect();
    if !late.is_empty() {
        return Err(Error::new(
            Kind::Timeout,
            format!("timed out waiting for run: {}", late.join(", ")),
        )
        .with_hint("the run goes on on the server: raise --wait-timeout to wait longer"));
    }
    Ok(())
}
