//! A log entry as a row: the columns of `logs` (with `decode_error` when
//! outputs are decoded), and printing one entry through the printer, shared
//! by `logs` and `logs --follow`.

use crate::cli::Format;
use crate::commands::kit::columns::{
    DECODE_ERROR, DECODED_OUTPUT, DURATION, EXECUTED_AT, IS_SUCCESSFUL, METRIC_VALUE, OUTPUT,
    TASK_TYPE, TASK_UUID, WORKFLOW_RUN_UUID,
};
use crate::error::Result;
use crate::output::column::position;
use crate::output::{CellRef, Column, Printer, Txt};
use ylem_client::api::models::{LogEntryRef, Text};
use ylem_client::output::{DecodedOutput, Decoder, Scratch, Undecodable};

/// The log entry's fields, and `decode_error` when outputs are decoded
/// (a decoded output, what `--decode` is for, stays longer in a narrow
/// table than a raw one: `DECODED_OUTPUT`).
pub const COLUMNS_DECODED: &[Column] = &[
    WORKFLOW_RUN_UUID,
    TASK_UUID,
    TASK_TYPE,
    IS_SUCCESSFUL,
    DURATION,
    DECODED_OUTPUT,
    METRIC_VALUE,
    EXECUTED_AT,
    DECODE_ERROR,
];

/// Where the cells a decoding sets go in a row (a log's rows are arrays of
/// borrowed cells, filled at full speed: the positions are found once,
/// when the program is built).
const AT_OUTPUT: usize = position(COLUMNS_DECODED, "output");
const AT_DECODE_ERROR: usize = position(COLUMNS_DECODED, "decode_error");

/// The spec's log entry fields, in the same places.
pub const COLUMNS: &[Column] = &[
    WORKFLOW_RUN_UUID,
    TASK_UUID,
    TASK_TYPE,
    IS_SUCCESSFUL,
    DURATION,
    OUTPUT,
    METRIC_VALUE,
    EXECUTED_AT,
];
const _: () = assert!(position(COLUMNS, "output") == AT_OUTPUT && AT_DECODE_ERROR == COLUMNS.len());

fn txt<'a>(t: &'a Text) -> Txt<'a> {
    Txt {
        text: t.as_str(),
        plain: t.is_plain(),
    }
}

/// The entry's row (with an empty `decode_error`), borrowing its text, in
/// the order of `COLUMNS_DECODED` (a unit test holds them together).
fn row<'a>(e: &'a LogEntryRef, at: &'a Text) -> [CellRef<'a>; COLUMNS_DECODED.len()] {
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

/// How much of an output (bytes of its JSON string, Base64) a row in a
/// machine format (JSON, JSON lines, CSV) keeps: more than a table cell,
/// since a program may read it whole; decoded, a quarter of that (its
/// text is held beside it while it is written).
pub const MACHINE_OUTPUT_KEPT: usize = ylem_client::api::stream::KEEP_OUTPUT_MAX;

/// How much of an entry's output the log stream keeps for rows in
/// `format`, decoded or not; the rest is dropped as it arrives and the
/// output ends in the cut marker (`…[output cut: N bytes sent]`,
/// docs/logs-and-runs.md).
pub fn output_kept(format: Format, decoded: bool) -> usize {
    match (format, decoded) {
        (Format::Json | Format::Jsonl | Format::Csv, false) => MACHINE_OUTPUT_KEPT,
        (Format::Json | Format::Jsonl | Format::Csv, true) => MACHINE_OUTPUT_KEPT / 4,
        _ => ylem_client::api::stream::KEEP_OUTPUT,
    }
}

/// The printing side: the shared printer for machine formats, one line per
/// entry for people (a table cannot grow without being redrawn).
pub struct Sink<'a> {
    pub printer: Printer<'a>,
    pub decoder: Option<Decoder>,
    pub scratch: Scratch,
    pub undecodable: usize,
    /// `logs --task`: only these tasks' entries (lower-case UUIDs); empty
    /// keeps every entry.
    pub tasks: Vec<String>,
    /// `logs --tail N` read once: how many more entries are printed (the
    /// log comes newest first); `None`: every one.
    pub left: Option<usize>,
    /// How much of each output the log stream keeps (`output_kept`).
    pub keep_output: usize,
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
    match &mut sink.left {
        Some(0) => return Ok(()),
        Some(n) => *n -= 1,
        None => {}
    }
    let at = e.executed_at();
    let mut r = row(e, &at);
    let Some(d) = &sink.decoder else {
        return sink.printer.row_ref(&r);
    };
    let (decoded, err) = d.decode(e.output(), &mut sink.scratch);
    sink.undecodable += usize::from(err.is_some());
    r[AT_OUTPUT] = output_cell(decoded);
    let why = err.as_ref().map(decode_error);
    if let Some(why) = &why {
        r[AT_DECODE_ERROR] = CellRef::Str(Txt::new(why));
    }
    sink.printer.row_ref(&r)
}

/// A decoded output's cell: JSON as it is, text to be escaped.
pub fn output_cell(decoded: DecodedOutput<'_>) -> CellRef<'_> {
    match decoded {
        DecodedOutput::Null => CellRef::Null,
        DecodedOutput::Json(j) => CellRef::RawJson(j),
        DecodedOutput::Text(t) => CellRef::Str(Txt::new(t)),
    }
}

/// The `decode_error` cell's words: the decoder's, but for binary data
/// without a key, where they name the flag that gives one.
fn decode_error(why: &Undecodable) -> String {
    match why {
        Undecodable::Binary => {
            "binary data: encrypted? give the key with --decrypt-key-file".to_string()
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ylem_client::api::models::LogEntryRef;

    /// A narrow log keeps each entry's run, task, result and time longest
    /// (issue 36), and, decoded, what its output says (issue 44); a metric
    /// of 0 in every row says nothing.
    #[test]
    fn a_narrow_log_keeps_run_task_result_time_and_decoded_output() {
        let kept = |columns: &[Column]| -> Vec<&'static str> {
            columns
                .iter()
                .filter(|c| c.keep.is_some())
                .map(|c| c.name)
                .collect()
        };
        let plain = [
            "workflow_run_uuid",
            "task_uuid",
            "task_type",
            "is_successful",
        ];
        assert_eq!(kept(COLUMNS), [&plain[..], &["executed_at"]].concat());
        let decoded = [&plain[..], &["output", "executed_at", "decode_error"]].concat();
        assert_eq!(kept(COLUMNS_DECODED), decoded);
        assert_eq!(METRIC_VALUE.idle, Some("0"));
    }

    /// Each cell of `row` is the one its column names: every field of an
    /// entry told apart by its value.
    #[test]
    fn a_rows_cells_sit_under_their_columns() {
        let json = r#"{"workflow_run_uuid":"w","task_uuid":"t","task_type":"query","is_successful":false,"duration":7,"output":"o","metric_value":3,"executed_at":"2026-01-01T00:00:00Z"}"#;
        let e: LogEntryRef = serde_json::from_str(json).unwrap();
        let at = e.executed_at();
        let r = row(&e, &at);
        let text = |i: usize| match r[i] {
            CellRef::Str(t) | CellRef::Output(t) | CellRef::Time(t) => t.text.to_string(),
            CellRef::Success(b) => b.to_string(),
            CellRef::Ms(n) => n.to_string(),
            CellRef::Num(n) => n.to_string(),
            CellRef::Null => "null".into(),
            _ => "?".into(),
        };
        let want = [
            ("workflow_run_uuid", "w"),
            ("task_uuid", "t"),
            ("task_type", "query"),
            ("is_successful", "false"),
            ("duration", "7"),
            ("output", "o"),
            ("metric_value", "3"),
            ("decode_error", "null"),
        ];
        for (name, v) in want {
            assert_eq!(text(position(COLUMNS_DECODED, name)), v, "{name}");
        }
        assert!(text(position(COLUMNS_DECODED, "executed_at")).starts_with("2026-01-01"));
    }
}
