//! `ylemctl logs PIPELINE [WINDOW]`: a pipeline's run log (endpoint 4),
//! streamed entry by entry from the response to the output.

use super::follow::{self, Sink};
use crate::api::{
    self,
    models::{LogEntryRef, Text},
};
use crate::cli::LogsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{CellRef, Shape, Txt, decode};

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

fn txt<'a>(t: &'a Text) -> Txt<'a> {
    Txt {
        text: t.as_str(),
        plain: t.is_plain(),
    }
}

/// The entry's row (with an empty `decode_error`), borrowing its text.
fn row<'a>(e: &'a LogEntryRef, at: &'a Text) -> [CellRef<'a>; 9] {
    let none = Txt {
        text: "",
        plain: true,
    };
    [
        CellRef::Str(txt(&e.workflow_run_uuid)),
        CellRef::Str(txt(&e.task_uuid)),
        CellRef::Str(txt(&e.task_type)),
        CellRef::Success(e.is_successful),
        CellRef::Ms(e.duration),
        CellRef::Output(e.output.as_ref().map_or(none, txt)),
        e.metric_value.as_ref().map_or(CellRef::Null, CellRef::Num),
        CellRef::Time(txt(at)),
        CellRef::Null,
    ]
}

/// Print one entry through the sink's printer, decoding its output when
/// asked (a failure to decode is the row's `decode_error`).
pub fn print_entry(sink: &mut Sink, e: &LogEntryRef) -> Result<()> {
    let at = e.executed_at();
    let mut r = row(e, &at);
    let Some(d) = &sink.decoder else {
        return sink.printer.row_ref(&r);
    };
    let (cell, err) = d.decode(e.output(), &mut sink.scratch);
    sink.undecodable += usize::from(err.is_some());
    r[5] = cell;
    if let Some(err) = &err {
        r[8] = CellRef::Str(Txt::new(err));
    }
    sink.printer.row_ref(&r)
}

pub async fn run(args: &LogsArgs, ctx: &Context) -> Result<()> {
    let id = ctx.resolve_id(&args.pipeline)?;
    let run_filter = args
        .run
        .as_deref()
        .map(|r| ctx.resolve_id(r))
        .transpose()?
        .map(|u| u.to_string());
    if args.follow {
        follow::check_args(args.window.to.as_deref())?;
    }
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
    let mut sink = Sink {
        printer: ctx.printer(Shape::List, columns, false)?,
        decoder,
        scratch: decode::Scratch::default(),
        undecodable: 0,
    };
    if args.follow {
        let w = &args.window;
        let since = match (&w.since, &w.from) {
            (None, None) => None,
            _ => Some(ctx.window(w)?.from),
        };
        let api = ctx.api()?;
        follow::follow(ctx, &api, id, run_filter, args.failed, since, &mut sink).await?;
        return follow::close(sink, ctx);
    }
    let window = ctx.window(&args.window)?;
    let api = ctx.api()?;
    let mut entries = api.pipeline_logs(id, &window).await?;
    // Rows go out in large writes while the response pours in, and as soon
    // as the stream stalls, so a reader never waits on a row already here.
    api::each_entry(
        &mut entries,
        run_filter.as_deref(),
        args.failed,
        &mut sink,
        |s| s.printer.flush(),
        |s, e| print_entry(s, &e),
    )
    .await?;
    let undecodable = sink.undecodable;
    sink.printer
        .finish("no log entries in the window", &ctx.ui)?;
    if undecodable > 0 {
        ctx.ui.warn(&format!(
            "{undecodable} outputs could not be decoded: see decode_error"
        ));
    }
    Ok(())
}
