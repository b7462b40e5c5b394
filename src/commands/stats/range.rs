//! `ylemctl stats KIND ID... [WINDOW]`: consolidated statistics (endpoints 5-7).

use crate::cli::Format;
use crate::commands::kit::columns::*;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::exposition::{self, duration_label, labels, refused};
use crate::commands::kit::wing::{self, Entry};
use crate::commands::stats::args::StatsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::prometheus::{Sample, ServerLastRun};
use crate::output::{Cell, Column, Row, Shape};
use crate::time::Window;
use ylem_client::api::models::RangeStats;
use ylem_client::{Client, Entity, quirks::last_seen};

/// The statistics of an ID (`uuid` shown with several IDs, which also get
/// the error columns: `crate::commands::kit::ids::multi_columns`).
pub const COLUMNS: &[Column] = &[
    UUID,
    NUM_OF_SUCCESSES,
    NUM_OF_FAILURES,
    AVERAGE_DURATION,
    IS_LAST_RUN_SUCCESSFUL,
    LAST_RUN_EXECUTED_AT,
    LAST_RUN_DURATION,
];

/// A row; "never ran" is a null `last_run_executed_at`, and the server's
/// placeholder last-run values of something that never ran (`false`, `0`)
/// are "never" too: `null` in JSON, empty in CSV, `never` in a table,
/// rather than a "failed" that never happened.
fn never_unless(ran: bool, c: Cell) -> Cell {
    if ran { c } else { Cell::Never }
}

/// Fill `r` with the statistics of `id`.
pub fn fill(r: &mut Row, id: uuid::Uuid, s: RangeStats) {
    let ran = s.last_run_executed_at.is_some();
    r.set(&UUID, Cell::Str(id.to_string()))
        .set(&NUM_OF_SUCCESSES, Cell::Int(s.num_of_successes))
        .set(&NUM_OF_FAILURES, Cell::Int(s.num_of_failures))
        .set(&AVERAGE_DURATION, Cell::Ms(s.average_duration))
        .set(
            &IS_LAST_RUN_SUCCESSFUL,
            never_unless(ran, Cell::Success(s.is_last_run_successful)),
        )
        .set(
            &LAST_RUN_EXECUTED_AT,
            s.last_run_executed_at
                .map(|t| Cell::Time(t.0))
                .unwrap_or(Cell::Never),
        )
        .set(
            &LAST_RUN_DURATION,
            never_unless(ran, Cell::Ms(s.last_run_duration)),
        );
}

/// Measures over a time range: rows, or the Prometheus exposition.
pub const CONDUCT: Conduct = Conduct::client("stats").measures();

pub const COMMAND: Entry = Entry {
    command: <StatsArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: StatsArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

pub async fn run(args: &StatsArgs, ctx: &Context) -> Result<()> {
    if ctx.settings.format == Format::Prometheus {
        return prometheus(args, ctx).await;
    }
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let window = ctx.window(&args.window)?;
    let multi = ids.len() > 1;
    let columns = match multi {
        true => crate::commands::kit::ids::multi_columns(ctx, COLUMNS),
        false => COLUMNS.to_vec(),
    };
    let shape = if multi { Shape::List } else { Shape::Object };
    let mut p = ctx.printer(shape, &columns, multi)?;
    let api = ctx.api()?;
    let mut never = Vec::new();
    let res = crate::commands::kit::ids::for_each_id(
        ctx,
        &ids,
        // Authorised before shown: an empty window's last run is confirmed.
        |id| range_stats_checked(&api, args.kind, id, &window),
        |id, s| match s {
            Ok(s) => {
                if s.num_of_successes == 0
                    && s.num_of_failures == 0
                    && s.last_run_executed_at.is_none()
                {
                    never.push(id.to_string());
                }
                let mut r = Row::new(&columns);
                fill(&mut r, id, s);
                p.row(r.into_cells())
            }
            Err(e) => p.row(crate::commands::kit::ids::failed_row(ctx, &columns, id, e)),
        },
    )
    .await;
    crate::commands::kit::ids::close(p, &res, multi, "no statistics", ctx)?;
    // The server answers an unknown UUID, or one of another kind, with
    // these same zeros.
    if !never.is_empty() {
        ctx.note(&format!(
            "{}: no run ever; the ID may be unknown to the service or of another kind than {}",
            never.join(", "),
            args.kind
        ));
    }
    res
}

/// Range statistics authorised before shown (`last_seen::range_stats_checked`),
/// their errors in our words.
async fn range_stats_checked(
    api: &Client,
    kind: Entity,
    id: uuid::Uuid,
    w: &Window,
) -> Result<RangeStats> {
    Ok(last_seen::range_stats_checked(api, kind, id, w).await?)
}

/// `stats -o prometheus`: each ID's measures over the window, labelled
/// with it.
async fn prometheus(args: &StatsArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let window = ctx.window(&args.window)?;
    let label = window_label(&window, ctx.settings.now);
    let api = ctx.api()?;
    let results = crate::commands::kit::fan_out::all(ctx.settings.concurrency, &ids, |id| {
        range_stats_checked(&api, args.kind, *id, &window)
    })
    .await;
    let samples: Vec<Sample> = ids
        .iter()
        .zip(results)
        .map(|(&id, r)| {
            let l = labels(ctx, args.kind, id, Some(label.clone()));
            match r {
                Err(e) => refused(ctx, &e, args.kind, id, l),
                Ok(s) => {
                    let at = s.last_run_executed_at.as_ref().and_then(|t| t.parsed());
                    // The server's last-run figures are not a run judged
                    // finished: they go under names of their own, so
                    // `ylem_last_run_timestamp_seconds` means one thing in
                    // every command (the judged run's end).
                    let server_last_run = at.map(|t| ServerLastRun {
                        executed_at: t.timestamp(),
                        duration_ms: s.last_run_duration,
                        successful: s.is_last_run_successful,
                    });
                    Sample {
                        labels: l,
                        up: true,
                        runs: Some(s.num_of_successes + s.num_of_failures),
                        failures: Some(s.num_of_failures),
                        average_duration_ms: Some(s.average_duration),
                        server_last_run,
                        ..Sample::default()
                    }
                }
            }
        })
        .collect();
    exposition::write(ctx, &samples)
}

/// The window's label: its length when it ends now (`24h`, `7d`), else
/// its bounds as an ISO 8601 interval.
fn window_label(w: &Window, now: chrono::DateTime<chrono::Utc>) -> String {
    if (now - w.to).num_seconds().abs() <= 1 {
        duration_label((w.to - w.from).num_seconds().max(0) as u64)
    } else {
        format!(
            "{}/{}",
            w.from.format("%Y-%m-%dT%H:%M:%SZ"),
            w.to.format("%Y-%m-%dT%H:%M:%SZ")
        )
    }
}
