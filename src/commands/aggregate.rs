//! `ylemctl aggregate KIND ID`: statistics per period (endpoints 8-10),
//! sorted by `date_from`.

use crate::api::{DateForm, models::Aggregated};
use crate::cli::AggregateArgs;
use crate::cli::Format;
use crate::config::ConfigFile;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::{Cell, Shape, chart};
use crate::settings::{EnvCredentials, Settings};
use crate::time;

pub const COLUMNS: &[&str] = &[
    "date_from",
    "date_to",
    "num_of_successes",
    "num_of_failures",
    "average_duration",
];

pub fn row(a: Aggregated) -> Vec<Cell> {
    vec![
        Cell::Time(a.date_from.0),
        Cell::Time(a.date_to.0),
        Cell::Int(a.num_of_successes),
        Cell::Int(a.num_of_failures),
        Cell::Ms(a.average_duration),
    ]
}

pub async fn run(args: &AggregateArgs, ctx: &Context) -> Result<()> {
    let s = &ctx.settings;
    let id = ctx.resolve_id(&args.id)?;
    let count = args.count;
    let from = match &args.from {
        Some(f) => time::parse_date(f, s.now, s.zone)?,
        None => {
            let today = time::parse_date("today", s.now, s.zone)?;
            time::default_aggregate_from(today, args.period, count)
        }
    };
    if args.chart && s.format != Format::Table {
        return Err(Error::usage(
            "--chart draws for people: use it with the table format, not -o json/jsonl/csv",
        ));
    }
    let mut p = ctx.printer(Shape::List, COLUMNS, false)?;
    let api = ctx.api()?;
    // A profile remembers a server that wants the time, saving a 400 a call.
    let remembered = aggregate_date_time(ctx);
    let first = if remembered {
        DateForm::DateTime
    } else {
        DateForm::Date
    };
    let mut list = match api
        .aggregated_stats(args.kind, id, from, first, args.period, count)
        .await
    {
        // The open-source server wants a time in `date_from` and says so with
        // a 400 whose body reads `cannot parse "" as "15"`; ask once more in
        // the form it reads.
        Err(e) if !remembered && wants_date_time(&e) => {
            ctx.ui
                .verbose("the server refused a bare date; asking again with a time");
            let list = api
                .aggregated_stats(args.kind, id, from, DateForm::DateTime, args.period, count)
                .await?;
            remember_aggregate_date_time(s);
            list
        }
        other => other?,
    };
    list.sort_by_key(|a| a.date_from.parsed());
    if args.chart {
        if list.is_empty() {
            ctx.note("no runs in these periods");
            return Ok(());
        }
        let canvas = chart::Canvas {
            width: s.width,
            color: s.color,
            unicode: s.tty.stdout,
        };
        return ctx.write_out(chart::render(&list, args.period, canvas).as_bytes());
    }
    for a in list {
        p.row(row(a))?;
    }
    p.finish("no runs in these periods", &ctx.ui)
}

/// Whether the stored profile (in use, for the same base URL) remembers that
/// its server wants `YYYY-MM-DD 00:00:00` in aggregate requests.
fn aggregate_date_time(ctx: &Context) -> bool {
    let s = &ctx.settings;
    matches!(s.credentials, EnvCredentials::None)
        && ctx.profile().ok().is_some_and(|r| {
            r.profile.as_ref().is_some_and(|p| {
                p.aggregate_date_time && (s.base_url.is_none() || s.base_url == p.base_url)
            })
        })
}

/// Remember that the server wants a time in aggregate requests; best effort
/// (a config that cannot be written only costs one 400 next time).
fn remember_aggregate_date_time(s: &Settings) {
    if !matches!(s.credentials, EnvCredentials::None) || s.base_url.is_some() {
        return;
    }
    // Re-read under the lock: what this command loaded may be stale.
    if let Some(dir) = &s.config_dir {
        let _ = ConfigFile::update(dir, |c| {
            let Some(mut p) = c.profile(&s.profile)? else {
                return Ok((false, ()));
            };
            p.aggregate_date_time = true;
            c.set_profile(&s.profile, &p);
            Ok((true, ()))
        });
    }
}

/// The server's answer to a bare date where it wants a date and time.
fn wants_date_time(e: &Error) -> bool {
    e.http_status == Some(400)
        && e.server_body
            .as_deref()
            .is_some_and(|b| b.contains("cannot parse"))
}
