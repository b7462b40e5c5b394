//! `ylemctl run pipeline|workflow ID...`: start runs (endpoints 2 and 3).
//! A start is sent once per ID and never retried once it may have arrived.

use crate::api::models::{RunRecord, RunStart};
use crate::cli::RunArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{Cell, Shape};

pub const COLUMNS: &[&str] = &[
    "uuid",
    "id",
    "state",
    "task_uuid",
    "task_run_uuid",
    "workflow_run_uuid",
    "is_successful",
    "output",
    "errors",
    "created_at",
    "updated_at",
];

fn record_row(id: uuid::Uuid, r: RunRecord) -> Vec<Cell> {
    vec![
        Cell::Str(id.to_string()),
        r.id.map(Cell::Int).unwrap_or(Cell::Null),
        Cell::opt_str(r.state),
        Cell::opt_str(r.task_uuid),
        Cell::opt_str(r.task_run_uuid),
        Cell::Str(r.workflow_run_uuid),
        r.is_successful.map(Cell::Bool).unwrap_or(Cell::Null),
        r.output.map(Cell::Output).unwrap_or(Cell::Null),
        r.errors
            .filter(|e| !e.is_null())
            .map(Cell::Json)
            .unwrap_or(Cell::Null),
        r.created_at.map(|t| Cell::Time(t.0)).unwrap_or(Cell::Null),
        r.updated_at.map(|t| Cell::Time(t.0)).unwrap_or(Cell::Null),
    ]
}

/// The rows of one start: a record per task, or the run UUID alone when
/// the server answered with the `{"pipeline_run_uuid"}` object.
pub fn rows(id: uuid::Uuid, start: RunStart) -> Vec<Vec<Cell>> {
    match start {
        RunStart::Records(rs) => rs.into_iter().map(|r| record_row(id, r)).collect(),
        RunStart::Object { pipeline_run_uuid } => {
            let mut row = vec![Cell::Null; COLUMNS.len()];
            row[0] = Cell::Str(id.to_string());
            row[5] = Cell::Str(pipeline_run_uuid);
            vec![row]
        }
    }
}

pub async fn run(args: &RunArgs, ctx: &Context) -> Result<()> {
    let ids = ctx.resolve_ids(&args.ids)?;
    let multi = ids.len() > 1;
    let mut p = ctx.printer(Shape::List, COLUMNS, multi)?;
    let api = ctx.api()?;
    let kind = format!("{:?}", args.kind).to_lowercase();
    let res = super::for_each_id(
        ctx,
        &ids,
        |id| api.start_run(args.kind, id),
        |id, start| {
            if let Some(run) = start.run_uuid() {
                ctx.note(&format!("started run {run} of {kind} {id}"));
            }
            rows(id, start).into_iter().try_for_each(|r| p.row(r))
        },
    )
    .await;
    let note = if res.is_ok() {
        "the server returned no run records"
    } else {
        ""
    };
    p.finish(note, ctx.settings.quiet)?;
    res
}
