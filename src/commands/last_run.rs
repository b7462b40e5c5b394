//! `ylemctl last-run KIND ID...`: statistics of the last run (endpoints
//! 11-13), with the real server's 403 told apart (`last_seen`).

use super::last_seen::{LastSeen, NO_RUN_FOUND, last_seen};
use crate::cli::LastRunArgs;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::output::{Cell, Shape};

/// With several IDs, also `error`: a failed ID keeps its row, its `status`
/// the error's kind.
pub const MULTI_COLUMNS: &[&str] = &[
    "uuid",
    "is_successful",
    "executed_at",
    "duration",
    "status",
    "error",
];

/// One ID's last run: all but `error`.
pub const COLUMNS: &[&str] = MULTI_COLUMNS.split_at(5).0;

/// A row; no run found gives empty fields and says so in `status`.
pub fn row(id: uuid::Uuid, seen: &LastSeen) -> Vec<Cell> {
    match seen.run() {
        Some(r) => vec![
            Cell::Str(id.to_string()),
            Cell::Success(r.is_successful),
            r.executed_at
                .as_ref()
                .map(|t| Cell::Time(t.0.clone()))
                .unwrap_or(Cell::Never),
            Cell::Ms(r.duration),
            Cell::Str("ran".into()),
        ],
        None => vec![
            Cell::Str(id.to_string()),
            Cell::Never,
            Cell::Never,
            Cell::Never,
            Cell::Str("no_run_found".into()),
        ],
    }
}

pub async fn run(args: &LastRunArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids(&args.ids)?;
    let multi = ids.len() > 1;
    let mut p = ctx
        .printer(
            if multi { Shape::List } else { Shape::Object },
            if multi { MULTI_COLUMNS } else { COLUMNS },
            multi,
        )?
        .aged();
    let api = ctx.api()?;
    let now = ctx.settings.now;
    let (mut failed, mut none) = (Vec::new(), Vec::new());
    let res = super::for_each_id(
        ctx,
        &ids,
        |id| last_seen(&api, args.kind, id, now),
        |id, seen| {
            let seen = match seen {
                Ok(seen) => seen,
                // Empty values up to `status`, which holds the error's kind.
                Err(e) => return p.row(super::failed_row(id, COLUMNS.len() - 1, e)),
            };
            match seen.run() {
                Some(r) if !r.is_successful => failed.push(id.to_string()),
                Some(_) => {}
                None => none.push(id.to_string()),
            }
            let mut r = row(id, &seen);
            if multi {
                r.push(Cell::Null);
            }
            p.row(r)
        },
    )
    .await;
    super::close(p, &res, multi, "no last run", ctx)?;
    if !none.is_empty() {
        ctx.note(&format!("{}: {NO_RUN_FOUND}", none.join(", ")));
    }
    res?;
    if args.fail_on_failure && !failed.is_empty() {
        return Err(Error::new(
            Kind::RunFailed,
            format!("the last run failed: {}", failed.join(", ")),
        ));
    }
    // Nothing to vouch for is not a success: fail closed.
    if args.fail_on_failure && !none.is_empty() {
        return Err(Error::new(
            Kind::NotFound,
            format!("{}: {NO_RUN_FOUND}", none.join(", ")),
        )
        .with_hint("check the ID and its kind; a new entity has no run until it is started"));
    }
    Ok(())
}
