//! `ylemctl last-run KIND ID...`: statistics of the last run (endpoints
//! 11-13), with the real server's 403 told apart (`last_seen`).

use super::columns::{DURATION, EXECUTED_AT, IS_SUCCESSFUL, LAST_RUN, UUID};
use super::failure::{Failure, Finder};
use super::failure_text;
use super::last_seen::{LastSeen, NO_RUN_FOUND, last_seen};
use super::rules::Rules;
use crate::cli::LastRunArgs;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::output::{Cell, Column, Row, Shape};

/// An ID's last run, and `last_run`: `found`, or `not_found` (never ran,
/// or unknown to the service). With several IDs, `uuid` leads and the
/// error columns follow (`super::multi_columns`).
pub const COLUMNS: &[Column] = &[UUID, IS_SUCCESSFUL, EXECUTED_AT.aged(), DURATION, LAST_RUN];

/// Fill `r`; no run found gives empty fields and says so in `last_run`.
pub fn fill(r: &mut Row, id: uuid::Uuid, seen: &LastSeen) {
    r.set(&UUID, Cell::Str(id.to_string()));
    match seen.run() {
        Some(run) => r
            .set(&IS_SUCCESSFUL, Cell::Success(run.is_successful))
            .set(
                &EXECUTED_AT,
                run.executed_at
                    .as_ref()
                    .map(|t| Cell::Time(t.0.clone()))
                    .unwrap_or(Cell::Never),
            )
            .set(&DURATION, Cell::Ms(run.duration))
            .set(&LAST_RUN, Cell::Str("found".into())),
        None => r
            .set(&IS_SUCCESSFUL, Cell::Never)
            .set(&EXECUTED_AT, Cell::Never)
            .set(&DURATION, Cell::Never)
            .set(&LAST_RUN, Cell::Str("not_found".into())),
    };
}

/// The last run: rows, or the Prometheus exposition.
pub const RULES: Rules = Rules::client("last-run").measures();

pub async fn run(args: &LastRunArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids_as(args.kind, &args.ids)?;
    let multi = ids.len() > 1;
    let finder = Finder::new(ctx, args.decrypt_key_file.as_deref())?;
    let machine = ctx.settings.machine_output();
    // The failure goes in before `last_run`.
    let base = failure_text::with_columns(COLUMNS, Some(&LAST_RUN), machine);
    let columns = match multi {
        true => super::multi_columns(ctx, &base),
        false => base,
    };
    let shape = if multi { Shape::List } else { Shape::Object };
    let mut p = ctx.printer(shape, &columns, multi)?;
    let api = ctx.api()?;
    let now = ctx.settings.now;
    let (mut failed, mut none) = (Vec::new(), Vec::new());
    let res = super::for_each_id(
        ctx,
        &ids,
        |id| {
            let (api, finder) = (&api, &finder);
            async move {
                let seen = last_seen(api, args.kind, id, now).await?;
                // A failed last run's reason: one narrow log request, and
                // none for a run that succeeded.
                let fail = finder.of_last(api, args.kind, id, seen.run()).await;
                Ok((seen, fail))
            }
        },
        |id, got| {
            let (seen, fail) = match got {
                Ok(got) => got,
                // Empty values, then the error columns.
                Err(e) => return p.row(super::failed_row(ctx, &columns, id, e)),
            };
            match seen.run() {
                Some(r) if !r.is_successful => failed.push(failed_text(id, fail.as_ref(), multi)),
                Some(_) => {}
                None => none.push(id.to_string()),
            }
            let mut r = Row::new(&columns);
            fill(&mut r, id, &seen);
            failure_text::fill(&mut r, fail.as_ref());
            p.row(r.into_cells())
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
            format!("the last run failed: {}", failed.join("; ")),
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

/// What `--fail-on-failure` says of one failed last run: the failed task
/// and its first message (`task notification (a87db346…): [4029 critical]
/// quota exceeded`), after the ID when several were asked.
fn failed_text(id: uuid::Uuid, fail: Option<&Failure>, multi: bool) -> String {
    match (fail, multi) {
        (Some(f), false) => f.summary(),
        (Some(f), true) => format!("{id}: {}", f.summary()),
        (None, _) => id.to_string(),
    }
}
