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
    let message = crate::redact::scrub(&e.message);
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
    let mut errors: Vec<(String, Error)> = Vec::new();
    while let Some((&id, r)) = results.next().await {
        match r {
            Ok(v) => emit(id, Ok(v))?,
            Err(e) if ids.len() > 1 => {
                emit(id, Err(&e))?;
                errors.push((id.to_string(), e));
            }
            Err(e) => return worst_of(ctx, vec![e]),
        }
    }
    worst_of(ctx, said_once(errors))
}

/// Several IDs' failures, each with the ID (or `KIND UUID`) it hit, as
/// they are said: identical ones once, naming every ID they hit
/// (`ID1, ID2: cannot connect ...`), in the order of the first. A service
/// that is down fails every ID alike, and seven identical `error:` and
/// `hint:` pairs hide the one thing to fix.
pub fn said_once(errors: Vec<(String, Error)>) -> Vec<Error> {
    let mut groups: Vec<(Vec<String>, Error)> = Vec::new();
    for (label, e) in errors {
        match groups.iter_mut().find(|(_, g)| identical(g, &e)) {
            Some((labels, _)) => labels.push(label),
            None => groups.push((vec![label], e)),
        }
    }
    groups
        .into_iter()
        .map(|(labels, e)| e.context(labels.join(", ")))
        .collect()
}

/// The same error, whichever ID it was for: what a person reads and what a
/// script tells apart.
fn identical(a: &Error, b: &Error) -> bool {
    a.kind == b.kind
        && a.message == b.message
        && a.hint == b.hint
        && a.http_status == b.http_status
        && a.details == b.details
}

/// The worst of several failures (the highest exit code, the first of
/// equals), whatever the order of the IDs, as the command's error; every
/// one is reported now, an `error:` line each in the order given (the
/// worst, said already, is not said again at the end: `Ui::error`).
pub fn worst_of(ctx: &Context, errors: Vec<Error>) -> Result<()> {
    let errors: Vec<Error> = errors.into_iter().map(|e| hints::fit(ctx, e)).collect();
    let worst = (0..errors.len())
        .rev()
        .max_by_key(|&i| errors[i].kind.exit_code());
    if errors.len() > 1 {
        for e in &errors {
            ctx.ui.error_once(e);
        }
    }
    worst.map_or(Ok(()), |i| Err(errors[i].clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_errors_are_said_once_with_the_ids_they_hit() {
        let down = || Error::network("cannot connect").with_hint("check the base URL");
        let said = said_once(vec![
            ("a".into(), down()),
            ("b".into(), Error::usage("no alias 'b'")),
            ("c".into(), down()),
            ("d".into(), down().with_hint("another hint")),
        ]);
        let text: Vec<String> = said.iter().map(Error::render_text).collect();
        assert_eq!(
            text,
            [
                "error: a, c: cannot connect\nhint: check the base URL\n",
                "error: b: no alias 'b'\n",
                "error: d: cannot connect\nhint: another hint\n",
            ]
        );
    }
}
