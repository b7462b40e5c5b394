//! `ylemctl stats KIND ID... [WINDOW]`: consolidated statistics (endpoints 5-7).

use crate::api::models::RangeStats;
use crate::cli::StatsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{Cell, Shape};

/// The statistics of an ID (`uuid` shown with several IDs, which also get
/// the error columns: `super::multi_columns`).
pub const COLUMNS: &[&str] = &[
    "uuid",
    "num_of_successes",
    "num_of_failures",
    "average_duration",
    "is_last_run_successful",
    "last_run_executed_at",
    "last_run_duration",
];

/// A row; "never ran" is a null `last_run_executed_at`, and the server's
/// placeholder last-run values of something that never ran (`false`, `0`)
/// are "never" too: `null` in JSON, empty in CSV, `never` in a table,
/// rather than a "failed" that never happened.
fn never_unless(ran: bool, c: Cell) -> Cell {
    if ran { c } else { Cell::Never }
}

pub fn row(id: uuid::Uuid, s: RangeStats) -> Vec<Cell> {
    let ran = s.last_run_executed_at.is_some();
    vec![
        Cell::Str(id.to_string()),
        Cell::Int(s.num_of_successes),
        Cell::Int(s.num_of_failures),
        Cell::Ms(s.average_duration),
        never_unless(ran, Cell::Success(s.is_last_run_successful)),
        s.last_run_executed_at
            .map(|t| Cell::Time(t.0))
            .unwrap_or(Cell::Never),
        never_unless(ran, Cell::Ms(s.last_run_duration)),
    ]
}

pub async fn run(args: &StatsArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let window = ctx.window(&args.window)?;
    let multi = ids.len() > 1;
    let columns = match multi {
        true => super::multi_columns(ctx, COLUMNS),
        false => COLUMNS.to_vec(),
    };
    let shape = if multi { Shape::List } else { Shape::Object };
    let mut p = ctx.printer(shape, &columns, multi)?.aged();
    let api = ctx.api()?;
    let mut never = Vec::new();
    let res = super::for_each_id(
        ctx,
        &ids,
        |id| api.range_stats(args.kind, id, &window),
        |id, s| match s {
            Ok(s) => {
                if s.num_of_successes == 0
                    && s.num_of_failures == 0
                    && s.last_run_executed_at.is_none()
                {
                    never.push(id.to_string());
                }
                let mut r = row(id, s);
                if multi {
                    r.extend(super::error_cells(ctx, None));
                }
                p.row(r)
            }
            Err(e) => p.row(super::failed_row(ctx, id, COLUMNS.len(), e)),
        },
    )
    .await;
    super::close(p, &res, multi, "no statistics", ctx)?;
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
