//! A log entry as a row: the columns of `logs` (with `decode_error` when
//! outputs are decoded), and printing one entry through the printer, shared
//! by `logs` and `logs --follow`.

use crate::api::models::{LogEntryRef, Text};
use crate::error::Result;
use crate::output::{CellRef, Printer, Txt, decode};

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

/// The printing side: the shared printer for machine formats, one line per
/// entry for people (a table cannot grow without being redrawn).
pub struct Sink<'a> {
    pub printer: Printer<'a>,
    pub decoder: Option<decode::Decoder>,
    pub scratch: decode::Scratch,
    pub undecodable: usize,
    /// `logs --task`: only these tasks' entries (lower-case UUIDs); empty
    /// keeps every entry.
    pub tasks: Vec<String>,
}

/// Print one entry through the sink's printer, decoding its output when
/// asked (a failure to decode is the row's `decode_error`).
pub fn print_entry(sink: &mut Sink, e: &LogEntryRef) -> Result<()> {
    if !sink.tasks.is_empty()
        && !sink
            .tasks
            .iter()
            .any(|t| t.eq_ignore_ascii_case(e.task_uuid.as_str()))
    {
        return Ok(());
    }
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
