//! `ylemctl status [ID|ALIAS...]`: a board with one row per entity (last
//! run, runs and failures in 24 h, a 7-day failure sparkline), worst first
//! in a table and in the order given for scripts; an ID the service refuses
//! is a row marked `unknown` with its error's kind (the reason on stderr,
//! said once for all the IDs it hit), never the end of the board; exit 0
//! unless no ID at all could be read. Health is that of the
//! last *finished* run (`ylem_client::runs::last`); a run still going is a marker beside
//! it (`last_run` in the table, `run_in_progress` in machine rows).

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::cli::Format;
use crate::commands::kit::columns::*;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::failure_read;
use crate::commands::kit::failure_text::{self, FailureText};
use crate::commands::kit::health::Health;
use crate::commands::kit::targets::{self, Target};
use crate::commands::kit::wing::{self, Entry};
use crate::commands::monitor::args::{StatusArgs, Targets};
use crate::commands::monitor::board::{Standing, fetch, report, said, sample};
use crate::context::Context;
use crate::error::Result;
use crate::output::prometheus::Sample;
use crate::output::{Cell, Column, Row, Shape};
use crate::time;
use ylem_client::runs::failure::Failure;

/// Machine rows: every field, in the order the IDs were given, then the
/// error columns (`crate::commands::kit::ids::multi_columns`).
pub const COLUMNS: &[Column] = &[
    NAME,
    KIND,
    UUID,
    STATUS,
    LAST_RUN_SUCCESSFUL,
    LAST_RUN_AT,
    LAST_RUN_AGE,
    RUNS_24H,
    FAILURES_24H,
    AVERAGE_DURATION,
    FAILURES_7D,
    RUN_IN_PROGRESS,
];

/// Whether the last run has not finished on evidence (machine rows).
const RUN_IN_PROGRESS: Column = Column::new("run_in_progress", "RUN_IN_PROGRESS");

/// The table: what a person scans, worst first; the failure last, where
/// it may be left out to fit.
const TABLE_COLUMNS: &[Column] = &[
    NAME,
    KIND,
    STATUS,
    LAST_RUN,
    AGE,
    RUNS_24H,
    FAILS_24H,
    AVG_DURATION,
    FAILS_7D,
    FAILURE,
];

/// What only machine rows carry, in a table when `--fields` names it, so
/// one `--fields` list works in every format (the others are the table's
/// columns under their machine names: `Column::also`).
const TABLE_EXTRA: &[Column] = &[
    UUID,
    LAST_RUN_AT,
    RUN_IN_PROGRESS,
    FAILED_TASK,
    FAILED_TASK_TYPE,
    ERROR_KIND,
    ERROR,
];

/// How an entity is doing (`kit::health`), from what the service said.
fn health(r: &Result<Standing>) -> Health {
    match r {
        Err(_) => Health::Unknown,
        Ok(f) => Health::of_last(&f.last, f.day.num_of_failures),
    }
}

/// The board: rows, or the Prometheus exposition.
pub const CONDUCT: Conduct = Conduct::client("status").measures();

pub const COMMAND: Entry = Entry {
    command: <StatusArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: StatusArgs = wing::args(m);
        wing::done(async move { run(&args.targets, ctx).await })
    },
};

pub async fn run(args: &Targets, ctx: &Context) -> Result<()> {
    let targets = targets::resolve(ctx, &args.ids)?;
    let format = ctx.settings.format;
    let table = format == Format::Table;
    if format == Format::Prometheus {
        let api = ctx.api()?;
        let results = crate::commands::kit::fan_out::all(ctx.settings.concurrency, &targets, |t| {
            fetch(ctx, &api, t, ctx.settings.now, None)
        })
        .await;
        report(ctx, &targets, &results);
        let samples: Vec<Sample> = targets
            .iter()
            .zip(&results)
            .map(|(t, r)| sample(t, r))
            .collect();
        return crate::commands::kit::exposition::write(ctx, &samples);
    }
    // The failure follows the facts (before the error columns of machine
    // rows), last in a table, where it may be left out to fit.
    let columns = match table {
        true => match ctx.settings.fields.is_some() {
            true => [TABLE_COLUMNS, TABLE_EXTRA].concat(),
            false => TABLE_COLUMNS.to_vec(),
        },
        false => crate::commands::kit::ids::multi_columns(
            ctx,
            &failure_text::with_columns(COLUMNS, None, true),
        ),
    };
    // On a narrow terminal, which entity, how it is doing and why stay
    // longest (the columns say so: `kit/columns.rs`).
    // One ID given: the object, as every command gives for one ID (the
    // table stays a board of one row); several, or every alias: an array.
    let shape = match args.ids.len() == 1 && targets.len() == 1 && !table {
        true => Shape::Object,
        false => Shape::List,
    };
    let mut p = ctx.printer(shape, &columns, true)?;
    let finder = failure_read::finder(ctx, None)?;
    let api = ctx.api()?;
    let forms = crate::commands::kit::date_form::forms(ctx);
    // A failed row's reason is fetched with its facts, within --concurrency.
    let (results, fails): (Vec<Result<Standing>>, Vec<Option<Failure>>) =
        crate::commands::kit::fan_out::all(ctx.settings.concurrency, &targets, |t| {
            let (api, finder, forms) = (&api, &finder, &forms);
            async move {
                let f = fetch(ctx, api, t, ctx.settings.now, Some(forms)).await?;
                let fail = f.last.judged().and_then(|r| finder.of_run(t.kind, r));
                Ok((f, fail))
            }
        })
        .await
        .into_iter()
        .map(|r| match r {
            Ok((f, fail)) => (Ok(f), fail),
            Err(e) => (Err(e), None),
        })
        .unzip();
    // Unknown rows are part of the board, each with its error's kind; the
    // errors are said once each with the IDs they hit (often one cause for
    // every ID: no service, no credentials that work). Only a board with
    // nothing known ends with an error: the worst, after the board.
    let none_known = results.iter().all(Result::is_err);
    let said = said(&targets, &results);
    if !none_known {
        for e in &said {
            ctx.report(e);
        }
    }
    let now = ctx.settings.now;
    let mut rows: Vec<(&Target, &Result<Standing>, Option<&Failure>)> = targets
        .iter()
        .zip(&results)
        .zip(&fails)
        .map(|((t, r), f)| (t, r, f.as_ref()))
        .collect();
    if table {
        rows.sort_by_key(|(_, r, _)| rank(r, now));
        for (t, r, f) in rows {
            let mut row = Row::new(&columns);
            table_row(&mut row, t, r, now, ctx.settings.tty.stdout);
            // The machine-only cells, where `--fields` asked for them.
            machine_extra(&mut row, t, r);
            failure_text::fill(&mut row, f);
            row.set(&FAILURE, Cell::opt_str(f.map(FailureText::summary)));
            if let Err(e) = r {
                crate::commands::kit::ids::set_error(ctx, &mut row, e);
            }
            p.row(row.into_cells())?;
        }
    } else {
        for (t, r, f) in rows {
            let mut row = Row::new(&columns);
            machine_row(&mut row, t, r, now);
            failure_text::fill(&mut row, f);
            if let Err(e) = r {
                crate::commands::kit::ids::set_error(ctx, &mut row, e);
            }
            p.row(row.into_cells())?;
        }
    }
    p.finish("", &ctx.ui)?;
    match none_known {
        true => crate::commands::kit::ids::worst_of(ctx, said),
        false => Ok(()),
    }
}

/// Worst first: by health, then more failures, then the oldest last run.
fn rank(r: &Result<Standing>, now: DateTime<Utc>) -> (Health, i64, i64) {
    let (failures, age) = match r {
        Ok(f) => (f.day.num_of_failures, age_ms(f, now).unwrap_or(0)),
        Err(_) => (0, 0),
    };
    (health(r), -failures, -age)
}

/// The age of the run the health is judged by (the last finished one).
fn age_ms(f: &Standing, now: DateTime<Utc>) -> Option<i64> {
    let at = f.last.judged()?.ended;
    Some((now - at).num_milliseconds().max(0))
}

fn machine_row(row: &mut Row, t: &Target, r: &Result<Standing>, now: DateTime<Utc>) {
    row.set(&NAME, Cell::opt_str(t.alias.clone()))
        .set(&KIND, Cell::Str(t.kind.to_string()))
        .set(&UUID, Cell::Str(t.uuid.to_string()))
        .set(&STATUS, Cell::Str(health(r).word().into()));
    let Ok(f) = r else {
        return;
    };
    let last = f.last.judged();
    row.set(
        &LAST_RUN_SUCCESSFUL,
        last.and_then(|l| l.success())
            .map(Cell::Bool)
            .unwrap_or(Cell::Null),
    )
    .set(
        &LAST_RUN_AT,
        last.map(|l| time_cell(l.ended)).unwrap_or(Cell::Never),
    )
    .set(&RUN_IN_PROGRESS, Cell::Bool(f.last.in_progress().is_some()))
    .set(
        &LAST_RUN_AGE,
        age_ms(f, now).map(Cell::Ms).unwrap_or(Cell::Null),
    )
    .set(
        &RUNS_24H,
        Cell::Int(f.day.num_of_successes + f.day.num_of_failures),
    )
    .set(&FAILURES_24H, Cell::Int(f.day.num_of_failures))
    .set(&AVERAGE_DURATION, Cell::Ms(f.day.average_duration))
    .set(&FAILURES_7D, Cell::Json(Value::from(f.week.clone())));
}

/// A table row's cells that only `--fields` shows (`TABLE_EXTRA`).
fn machine_extra(row: &mut Row, t: &Target, r: &Result<Standing>) {
    row.set(&UUID, Cell::Str(t.uuid.to_string()));
    if let Ok(f) = r {
        let last = f.last.judged();
        row.set(
            &LAST_RUN_AT,
            last.map(|l| time_cell(l.ended)).unwrap_or(Cell::Never),
        )
        .set(&RUN_IN_PROGRESS, Cell::Bool(f.last.in_progress().is_some()));
    }
}

fn table_row(row: &mut Row, t: &Target, r: &Result<Standing>, now: DateTime<Utc>, unicode: bool) {
    let name = t.alias.clone().unwrap_or_else(|| t.uuid.to_string());
    let health = health(r);
    // ok and failed get the table's green and red; an unknown row says
    // the kind of its error (the error itself is said once on stderr).
    let status = match (health, r) {
        (Health::Ok, _) => Cell::Success(true),
        (Health::Failed, _) => Cell::Success(false),
        (h, Err(e)) => Cell::Str(format!("{} ({})", h.word(), e.kind.name())),
        (h, Ok(_)) => Cell::Str(h.word().into()),
    };
    row.set(&NAME, Cell::Str(name))
        .set(&KIND, Cell::Str(t.kind.to_string()))
        .set(&STATUS, status);
    let Ok(f) = r else {
        return;
    };
    // The finished run's outcome, or the marker of one still going.
    let last = match (f.last.in_progress(), f.last.judged()) {
        (Some(going), _) => Cell::Str(match going.progress() {
            Some(p) => format!("running ({p})"),
            None => going.result.to_string(),
        }),
        (None, Some(l)) => l.success().map_or(Cell::Never, Cell::Success),
        (None, None) => Cell::Never,
    };
    row.set(&LAST_RUN, last)
        .set(
            &AGE,
            age_ms(f, now)
                .map(|ms| Cell::Str(format!("{} ago", time::human_ms(ms))))
                .unwrap_or(Cell::Null),
        )
        .set(
            &RUNS_24H,
            Cell::Int(f.day.num_of_successes + f.day.num_of_failures),
        )
        .set(&FAILS_24H, Cell::Int(f.day.num_of_failures))
        .set(&AVG_DURATION, Cell::Ms(f.day.average_duration))
        .set(&FAILS_7D, Cell::Str(sparkline(&f.week, unicode)));
}

/// Failures per day as bars scaled to the week's worst day (`▁` is none);
/// without a terminal, the counts.
pub fn sparkline(days: &[i64], unicode: bool) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    if !unicode {
        return days
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",");
    }
    let max = days.iter().copied().max().unwrap_or(0).max(1);
    days.iter()
        .map(|&d| match d {
            d if d <= 0 => BARS[0],
            d => BARS[(1 + (d * 6 + max - 1) / max).min(7) as usize],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparkline_scales_to_the_worst_day() {
        assert_eq!(sparkline(&[0, 0, 0, 0, 0, 0, 0], true), "▁▁▁▁▁▁▁");
        assert_eq!(sparkline(&[0, 1, 2, 4, 0, 0, 4], true), "▁▄▅█▁▁█");
        assert_eq!(sparkline(&[1, 0, 3], false), "1,0,3");
    }

    /// A narrow board keeps its name, health and failure longest (issue
    /// 36), and nothing else of its table's columns.
    #[test]
    fn a_narrow_board_keeps_name_health_and_failure() {
        let kept: Vec<&Column> = TABLE_COLUMNS.iter().filter(|c| c.keep.is_some()).collect();
        assert_eq!(kept, [&NAME, &STATUS, &FAILURE]);
    }
}
