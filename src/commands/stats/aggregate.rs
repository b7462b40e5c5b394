//! `ylemctl aggregate KIND ID...`: statistics per period (endpoints 8-10),
//! sorted by `date_from`, every period whole (`--from` aligned to the start
//! of its period) and every requested period shown (empty ones as zeros,
//! marked `filled`).

use chrono::{NaiveDate, NaiveTime};

use crate::api::models::{Aggregated, Timestamp};
use crate::cli::AggregateArgs;
use crate::cli::Format;
use crate::commands::kit::columns::*;
use crate::commands::kit::conduct::Rules;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::kinds::Period;
use crate::output::{Cell, Column, Row, Shape, chart};
use crate::service::date_form::DateForms;
use crate::time;

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

/// Every one of the `count` periods from `start`: the service's bucket, or
/// zeros marked `true` where it left the period out (an outage is a zero
/// bar, not a missing one). A bucket of the service that starts elsewhere
/// is kept, in order, never dropped.
pub fn fill_periods(
    mut list: Vec<Aggregated>,
    start: NaiveDate,
    period: Period,
    count: u32,
) -> Vec<(Aggregated, bool)> {
    let stamp =
        |d: NaiveDate| Timestamp(time::normalize_server_time_owned(format!("{d} 00:00:00")));
    let mut out: Vec<(Aggregated, bool)> = Vec::new();
    for i in 0..i64::from(count) {
        let (Some(from), Some(next)) = (
            time::add_periods(start, period, i),
            time::add_periods(start, period, i + 1),
        ) else {
            break;
        };
        let at = from.and_time(NaiveTime::MIN).and_utc();
        if let Some(k) = list.iter().position(|a| a.date_from.parsed() == Some(at)) {
            out.push((list.remove(k), false));
            continue;
        }
        let to = (next.and_time(NaiveTime::MIN) - chrono::Duration::seconds(1)).to_string();
        let zero = Aggregated {
            date_from: stamp(from),
            date_to: Timestamp(time::normalize_server_time_owned(to)),
            num_of_successes: 0,
            num_of_failures: 0,
            average_duration: 0,
        };
        out.push((zero, true));
    }
    out.extend(list.into_iter().map(|a| (a, false)));
    out.sort_by_key(|(a, _)| a.date_from.parsed());
    out
}

/// It has no time window: a user reaching for one is told what it takes.
pub const RULES: Rules = Rules {
    flag_advice: |flag| match flag {
        "--since" | "--to" => Some(
            "aggregate takes --from and --count (and --period): e.g. --from 2024-01-01 --count 7",
        ),
        _ => None,
    },
    ..Rules::client("aggregate")
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
        |id| fetch(&api, args, &forms, id, from),
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
            Ok(aligned)
        }
        None => {
            let today = time::parse_date("today", s.now, s.zone)?;
            Ok(time::default_aggregate_from(today, args.period, args.count))
        }
    }
}

/// One ID's periods, every one of them (`fill_periods`), in the date form
/// the server reads (learnt once for all the IDs).
async fn fetch(
    api: &crate::api::Api,
    args: &AggregateArgs,
    forms: &DateForms<'_>,
    id: uuid::Uuid,
    from: NaiveDate,
) -> Result<Vec<(Aggregated, bool)>> {
    let count = args.count;
    let list = forms
        .ask(|form| api.aggregated_stats(args.kind, id, from, form, args.period, count))
        .await?;
    Ok(fill_periods(list, from, args.period, count))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(from: &str, to: &str, ok: i64) -> Aggregated {
        Aggregated {
            date_from: Timestamp(time::normalize_server_time_owned(from.into())),
            date_to: Timestamp(time::normalize_server_time_owned(to.into())),
            num_of_successes: ok,
            num_of_failures: 0,
            average_duration: 10,
        }
    }

    #[test]
    fn every_period_is_shown_and_empty_ones_are_marked() {
        let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let list = vec![bucket("2024-03-01 00:00:00", "2024-03-31 23:59:59", 2)];
        let rows = fill_periods(list, start, Period::Month, 3);
        let shown: Vec<(&str, &str, bool)> = rows
            .iter()
            .map(|(a, f)| (a.date_from.0.as_str(), a.date_to.0.as_str(), *f))
            .collect();
        assert_eq!(
            shown,
            [
                ("2024-01-01T00:00:00Z", "2024-01-31T23:59:59Z", true),
                ("2024-02-01T00:00:00Z", "2024-02-29T23:59:59Z", true),
                ("2024-03-01T00:00:00Z", "2024-03-31T23:59:59Z", false),
            ]
        );
        assert_eq!(rows[2].0.num_of_successes, 2);
    }

    #[test]
    fn a_bucket_that_starts_elsewhere_is_kept() {
        let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        let odd = vec![bucket("2024-01-15 00:00:00", "2024-02-14 23:59:59", 1)];
        let rows = fill_periods(odd, start, Period::Month, 1);
        assert_eq!(rows.len(), 2);
        assert!(rows[0].1 && !rows[1].1);
    }
}
