//! What the commands given several IDs share: one request per ID, results
//! in the order given, a failed ID as a row of its own, and the worst
//! failure as the command's error.

use std::future::Future;

use futures_util::StreamExt;
use uuid::Uuid;

use crate::cli::Format;
use crate::commands::kit::{columns, fan_out, hints};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::{Cell, Column, Printer, Row};

/// Close the output of a per-ID command. One ID that failed leaves stdout
/// empty rather than showing an empty result; several IDs show what was
/// fetched. The empty-result note is only for a success.
pub fn close(
    p: Printer<'_>,
    res: &Result<()>,
    multi: bool,
    empty_note: &str,
    ctx: &Context,
) -> Result<()> {
    match res {
        Err(_) if !multi => Ok(()),
        Err(_) => p.finish("", &ctx.ui),
        Ok(()) => p.finish(empty_note, &ctx.ui),
    }
}

/// The columns of several IDs' rows: `columns`, then what became of each
/// ID: `error` (a JSON object, `null` when answered) in JSON, `error_kind`
/// and `error` in CSV and tables.
pub fn multi_columns(ctx: &Context, columns: &[Column]) -> Vec<Column> {
    let mut c = columns.to_vec();
    c.extend(error_columns(ctx));
    c
}

fn error_columns(ctx: &Context) -> &'static [Column] {
    match ctx.settings.format {
        Format::Json | Format::Jsonl => &[columns::ERROR],
        _ => &[columns::ERROR_KIND, columns::ERROR],
    }
}

/// Set an ID's error cells (several IDs), as `multi_columns` names them:
/// left empty for an ID that was answered.
pub fn set_error(ctx: &Context, row: &mut Row, e: &Error) {
    let message = ylem_client::scrub(&e.message);
    match ctx.settings.format {
        Format::Json | Format::Jsonl => row.set(
            &columns::ERROR,
            Cell::Json(serde_json::json!({
                "kind": e.kind.name(),
                "message": message,
                "http_status": e.http_status,
            })),
        ),
        _ => row
            .set(&columns::ERROR_KIND, Cell::Str(e.kind.name().to_string()))
            .set(&columns::ERROR, Cell::Str(message)),
    };
}

/// The row of an ID that failed, with several IDs: the ID, empty values,
/// then its error.
pub fn failed_row(ctx: &Context, columns: &[Column], id: Uuid, e: &Error) -> Vec<Cell> {
    let mut r = Row::new(columns);
    r.set(&columns::UUID, Cell::Str(id.to_string()));
    set_error(ctx, &mut r, e);
    r.into_cells()
}

/// Fetch for every ID (`fan_out::in_order`) and hand
/// the results to `emit` in the order the IDs were given; with several IDs
/// a failure is handed on too (for its row). A failure for one ID does not
/// stop the others; the worst failure is returned at the end and the
/// others are reported on stderr.
pub async fn for_each_id<T, F, Fut>(
    ctx: &Context,
    ids: &[Uuid],
    fetch: F,
    mut emit: impl FnMut(Uuid, std::result::Result<T, &Error>) -> Result<()>,
) -> Result<()>
where
    F: Fn(Uuid) -> Fut,
    Fut: Future<Output = Result<T>>,
{
    let mut results = std::pin::pin!(fan_out::in_order(ctx.settings.concurrency, ids, |id| {
        fetch(*id)
    }));
    let mut errors: Vec<Error> = Vec::new();
    while let Some((&id, r)) = results.next().await {
        match r {
            Ok(v) => emit(id, Ok(v))?,
            Err(e) if ids.len() > 1 => {
                emit(id, Err(&e))?;
                errors.push(e.context(id));
            }
            Err(e) => errors.push(e),
        }
    }
    worst_of(ctx, errors)
}

/// The worst of several failures (the highest exit code, the first of
/// equals), whatever the order of the IDs, as the command's error; the
/// others are reported now, an `error:` line each.
pub fn worst_of(ctx: &Context, mut errors: Vec<Error>) -> Result<()> {
    let worst = (0..errors.len())
        .rev()
        .max_by_key(|&i| errors[i].kind.exit_code());
    let worst = worst.map(|i| errors.remove(i));
    for e in errors {
        ctx.report(&hints::fit(ctx, e));
    }
    worst.map_or(Ok(()), Err)
}
