//! `ylemctl last-run KIND ID...`: statistics of the last run (endpoints 11-13).

use crate::api::models::LastRun;
use crate::cli::LastRunArgs;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::output::{Cell, Shape};

pub const COLUMNS: &[&str] = &["uuid", "is_successful", "executed_at", "duration"];

/// A row; `None` (never ran) gives empty fields.
pub fn row(id: uuid::Uuid, r: Option<LastRun>) -> Vec<Cell> {
    match r {
        Some(r) if r.executed_at.is_some() => vec![
            Cell::Str(id.to_string()),
            Cell::Success(r.is_successful),
            r.executed_at
                .map(|t| Cell::Time(t.0))
                .unwrap_or(Cell::Never),
            Cell::Ms(r.duration),
        ],
        _ => vec![
            Cell::Str(id.to_string()),
            Cell::Never,
            Cell::Never,
            Cell::Never,
        ],
    }
}

pub async fn run(args: &LastRunArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids(&args.ids)?;
    let multi = ids.len() > 1;
    let mut p = ctx.printer(
        if multi { Shape::List } else { Shape::Object },
        COLUMNS,
        multi,
    )?;
    let api = ctx.api()?;
    let mut failed = Vec::new();
    let res = super::for_each_id(
        ctx,
        &ids,
        |id| api.last_run(args.kind, id),
        |id, r| {
            if r.as_ref()
                .is_some_and(|r| !r.is_successful && r.executed_at.is_some())
            {
                failed.push(id);
            }
            p.row(row(id, r))
        },
    )
    .await;
    super::close(p, &res, multi, "no last run", ctx)?;
    res?;
    if args.fail_on_failure && !failed.is_empty() {
        let ids: Vec<String> = failed.iter().map(|u| u.to_string()).collect();
        return Err(Error::new(
            Kind::RunFailed,
            format!("the last run failed: {}", ids.join(", ")),
        ));
    }
    Ok(())
}
