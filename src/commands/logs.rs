//! `ylemctl logs PIPELINE [WINDOW]`: a pipeline's run log (endpoint 4),
//! streamed entry by entry from the response to the output.

use crate::api::{self, models::LogEntry};
use crate::cli::LogsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{Cell, Shape, decode};

/// The log entry's fields, and `decode_error` when outputs are decoded.
pub const COLUMNS_DECODED: &[&str] = &[
    "workflow_run_uuid",
    "task_uuid",
    "task_type",
    "is_successful",
    "duration",
    "output",
    "metric_value",
    "executed_at",
    "decode_error",
];

/// The spec's log entry fields.
pub const COLUMNS: &[&str] = COLUMNS_DECODED.split_at(8).0;

pub fn row(e: LogEntry) -> Vec<Cell> {
    vec![
        Cell::Str(e.workflow_run_uuid),
        Cell::Str(e.task_uuid),
        Cell::Str(e.task_type),
        Cell::Success(e.is_successful),
        Cell::Ms(e.duration),
        Cell::Output(e.output),
        e.metric_value.map(Cell::Num).unwrap_or(Cell::Null),
        Cell::Time(e.executed_at.0),
    ]
}

pub async fn run(args: &LogsArgs, ctx: &Context) -> Result<()> {
    let id = ctx.resolve_id(&args.pipeline)?;
    let run_filter = args
        .run
        .as_deref()
        .map(|r| ctx.resolve_id(r))
        .transpose()?
        .map(|u| u.to_string());
    let window = ctx.window(&args.window)?;
    let key = args
        .decrypt_key_file
        .as_deref()
        .map(decode::read_key)
        .transpose()?;
    let decoder = (args.decode || key.is_some()).then(|| decode::Decoder::new(key));
    let columns = if decoder.is_some() {
        COLUMNS_DECODED
    } else {
        COLUMNS
    };
    let mut p = ctx.printer(Shape::List, columns, false)?;
    let api = ctx.api()?;
    let mut entries = api.pipeline_logs(id, &window).await?;
    let mut undecodable = 0usize;
    let run = run_filter.as_deref();
    // Rows go out in large writes while the response pours in, and as soon
    // as the stream stalls, so a reader never waits on a row already here.
    loop {
        let mut flush = || p.flush();
        let next = api::next_entry_or_idle(&mut entries, run, args.failed, &mut flush);
        let Some(e) = next.await? else { break };
        match &decoder {
            None => p.row(row(e))?,
            Some(d) => {
                let (cell, err) = d.decode(&e.output);
                undecodable += usize::from(err.is_some());
                let mut r = row(e);
                r[5] = cell;
                r.push(err.map(Cell::Str).unwrap_or(Cell::Null));
                p.row(r)?;
            }
        }
    }
    p.finish("no log entries in the window", &ctx.ui)?;
    if undecodable > 0 {
        ctx.ui.warn(&format!(
            "{undecodable} outputs could not be decoded: see decode_error"
        ));
    }
    Ok(())
}
