//! `ylemctl logs PIPELINE [WINDOW]`: a pipeline's run log (endpoint 4),
//! streamed entry by entry from the response to the output.

use crate::api::{self, models::LogEntry};
use crate::cli::LogsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{Cell, Shape};

pub const COLUMNS: &[&str] = &[
    "workflow_run_uuid",
    "task_uuid",
    "task_type",
    "is_successful",
    "duration",
    "output",
    "metric_value",
    "executed_at",
];

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
    let mut p = ctx.printer(Shape::List, COLUMNS, false)?;
    let api = ctx.api()?;
    let mut entries = api.pipeline_logs(id, &window).await?;
    let run = run_filter.as_deref();
    // Rows go out in large writes while the response pours in, and as soon
    // as the stream stalls, so a reader never waits on a row already here.
    loop {
        let mut flush = || p.flush();
        let next = api::next_entry_or_idle(&mut entries, run, args.failed, &mut flush);
        let Some(e) = next.await? else { break };
        p.row(row(e))?;
    }
    p.finish("no log entries in the window", ctx.settings.quiet)
}
