//! `ylemctl aggregate KIND ID...`: statistics per period (endpoints 8-10),
//! sorted by `date_from`, every period whole (`--from` aligned to the start
//! of its period) and every requested period shown (empty ones as zeros,
//! marked `filled`).

use chrono::{Datelike, NaiveDate};

use crate::cli::Format;
use crate::commands::kit::columns::*;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::periods::fill_periods;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::stats::args::AggregateArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::{Cell, Column, Row, Shape, chart};
use crate::time;
use ylem_client::api::models::Aggregated;
use ylem_client::quirks::date_form::DateForms;

/// A period's statistics; `uuid` is shown with several IDs (which also
/// get the error columns, `crate::commands::kit::ids::multi_columns`).
pub const COLUMNS: &[Column] = &[
    UUID,
    DATE_FROM,
    DATE_TO,
    NUM_OF_SUCCESSES,
    NUM_OF_FAILURES,
    AVERAGE_DURATION,
    FILLED,
];

/// Fill a row; `filled`: the service returned nothing for this period.
pub fn fill(r: &mut Row, id: uuid::Uuid, a: Aggregated, filled: bool) {
    r.set(&UUID, Cell::Str(id.to_string()))
        .set(&DATE_FROM, Cell::Time(a.date_from.0))
        .set(&DATE_TO, Cell::Time(a.date_to.0))
        .set(&NUM_OF_SUCCESSES, Cell::Int(a.num_of_successes))
        .set(&NUM_OF_FAILURES, Cell::Int(a.num_of_failures))
        .set(&AVERAGE_DURATION, Cell::Ms(a.average_duration))
        .set(&FILLED, Cell::Bool(filled));
}

/// It has no time window: a user reaching for one is told what it takes.
pub const CONDUCT: Conduct = Conduct {
    flag_advice: |flag| match flag {
        "--since" | "--to" => Some(
            "aggregate takes --from and --count (and --period): e.g. --from 2024-01-01 --count 7",
        ),
        _ => None,
    },
    ..Conduct::client("aggregate")
};

pub const COMMAND: Entry = Entry {
    command: <AggregateArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: AggregateArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

pub async fn run(args: &AggregateArgs, ctx: &Context) -> Result<()> {
    let s = &ctx.settings;
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let from = first_period(args, ctx)?;
    if args.chart && s.format != Format::Table {
        return Err(Error::usage(
            "--chart draws for people: use it with the table format, not -o json/jsonl/csv",
        ));
    }
    let multi = ids.len() > 1;
    let columns = match multi {
        true => crate::commands::kit::ids::multi_columns(ctx, COLUMNS),
        false => COLUMNS.to_vec(),
    };
    let mut p = ctx.printer(Shape::List, &columns, multi)?;
    let api = ctx.api()?;
    let forms = crate::commands::kit::date_form::forms(ctx);
    let res = crate::commands::kit::ids::for_each_id(
        ctx,
        &ids,
        |id| fetch(ctx, &api, args, &forms, id, from),
        |id, rows| match rows {
            Ok(rows) if args.chart => draw(ctx, args, multi.then_some(id), rows),
            Ok(rows) => rows.into_iter().try_for_each(|(a, filled)| {
                let mut r = Row::new(&columns);
                fill(&mut r, id, a, filled);
                p.row(r.into_cells())
            }),
            Err(_) if args.chart => Ok(()),
            Err(e) => p.row(crate::commands::kit::ids::failed_row(ctx, &columns, id, e)),
        },
    )
    .await;
    let note = if args.chart {
        ""
    } else {
        "no runs in these periods"
    };
    crate::commands::kit::ids::close(p, &res, multi, note, ctx)?;
    res
}

/// The start of the first period: `--from` aligned to its period (said in
/// a note), else so that the last period is the current one.
fn first_period(args: &AggregateArgs, ctx: &Context) -> Result<NaiveDate> {
    let s = &ctx.settings;
    match &args.from {
        // A start inside a period would make the first and an extra last
        // bucket cover part of a period each, labelled as whole ones.
        Some(f) => {
            let asked = time::parse_date(f, s.now, s.zone)?;
            let aligned = time::period_start(asked, args.period);
            if aligned != asked {
                ctx.note(&format!(
                    "--from {asked} is inside a {}: starting at {aligned}, so every {} is whole",
                    args.period, args.period
                ));
            }
            check_range(aligned, args)?;
            Ok(aligned)
        }
        None => {
            let today = time::parse_date("today", s.now, s.zone)?;
            Ok(time::default_aggregate_from(today, args.period, args.count))
        }
    }
}

/// Refuse, before sending, periods past the year 9999: dates have four
/// digits on the wire and in every output (chrono would write a fifth,
/// `+10000-01-01`, another form).
fn check_range(from: NaiveDate, args: &AggregateArgs) -> Result<()> {
    let last = time::add_periods(from, args.period, i64::from(args.count) - 1);
    match last {
        Some(d) if d.year() <= 9999 => Ok(()),
        _ => Err(Error::usage(format!(
            "--from {from} --count {} reaches past the year 9999: dates have four digits",
            args.count
        ))
        .with_hint("give an earlier --from or a smaller --count")),
    }
}

/// One ID's periods, every one of them (`fill_periods`), in the date form
/// the server reads (learnt once for all the IDs).
async fn fetch(
    ctx: &Context,
    api: &ylem_client::Client,
    args: &AggregateArgs,
    forms: &DateForms<'_>,
    id: uuid::Uuid,
    from: NaiveDate,
) -> Result<Vec<(Aggregated, bool)>> {
    let count = args.count;
    let list = forms
        .ask(|form| async move {
            api.aggregated_stats(args.kind, id, from, form, args.period, count)
                .await
        })
        .await?;
    let mut warn = |w: String| ctx.ui.warn(&format!("{id}: {w}"));
    Ok(fill_periods(list, from, args.period, count, &mut warn))
}

/// `--chart`: one chart per ID, headed by the ID when there are several.
fn draw(
    ctx: &Context,
    args: &AggregateArgs,
    id: Option<uuid::Uuid>,
    rows: Vec<(Aggregated, bool)>,
) -> Result<()> {
    let s = &ctx.settings;
    if rows.iter().all(|(_, filled)| *filled) {
        ctx.note("no runs in these periods");
    }
    if let Some(id) = id {
        ctx.write_out(format!("{} {id}\n", args.kind).as_bytes())?;
    }
    let list: Vec<Aggregated> = rows.into_iter().map(|(a, _)| a).collect();
    let canvas = chart::Canvas {
        width: s.width,
        color: s.color,
        unicode: s.tty.stdout,
    };
    ctx.write_out(chart::render(&list, args.period, canvas).as_bytes())
}
