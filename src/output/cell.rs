//! The values of a row: `Cell` owns its value, `CellRef` borrows it, and
//! the formats write from a `CellRef`, so a row of borrowed text (a log
//! entry) goes out without being copied first.

use serde_json::{Number, Value};

use super::width::{OUTPUT_WIDTH, shorten};

/// One value of a row, typed so each format can show it its own way.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    Str(String),
    Int(i64),
    Num(Number),
    Bool(bool),
    /// A success flag: `ok`/`failed` in tables.
    Success(bool),
    /// A normalised `YYYY-MM-DDTHH:MM:SSZ` time.
    Time(String),
    /// Milliseconds: an integer in machine formats, `1.2s` in tables.
    Ms(i64),
    /// A log `output`: shortened in tables.
    Output(String),
    /// Decoded output that is JSON: embedded as JSON in json/jsonl.
    Json(Value),
    /// "Never ran": `null` in JSON, empty in CSV, `never` in a table.
    Never,
}

/// Text of a `CellRef`, and whether JSON needs no escape for it (true only
/// for text that had none where it came from: see `api::models::Text`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Txt<'a> {
    pub text: &'a str,
    pub plain: bool,
}

impl<'a> Txt<'a> {
    /// Text that may need escaping.
    pub fn new(text: &'a str) -> Self {
        Txt { text, plain: false }
    }
}

/// A borrowed view of a cell; the variants mean what `Cell`'s do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CellRef<'a> {
    Null,
    Str(Txt<'a>),
    Int(i64),
    Num(&'a Number),
    Bool(bool),
    Success(bool),
    Time(Txt<'a>),
    Ms(i64),
    Output(Txt<'a>),
    Json(&'a Value),
    /// Decoded output that is JSON, as compact JSON text exactly as
    /// serde_json would write its `Value`.
    RawJson(&'a str),
    Never,
}

impl Cell {
    pub fn opt_str(v: Option<String>) -> Cell {
        v.map(Cell::Str).unwrap_or(Cell::Null)
    }

    pub fn as_ref(&self) -> CellRef<'_> {
        match self {
            Cell::Null => CellRef::Null,
            Cell::Str(s) => CellRef::Str(Txt::new(s)),
            Cell::Int(i) => CellRef::Int(*i),
            Cell::Num(n) => CellRef::Num(n),
            Cell::Bool(b) => CellRef::Bool(*b),
            Cell::Success(b) => CellRef::Success(*b),
            Cell::Time(s) => CellRef::Time(Txt::new(s)),
            Cell::Ms(i) => CellRef::Ms(*i),
            Cell::Output(s) => CellRef::Output(Txt::new(s)),
            Cell::Json(v) => CellRef::Json(v),
            Cell::Never => CellRef::Never,
        }
    }
}

impl CellRef<'_> {
    pub fn to_json(self) -> Value {
        match self {
            CellRef::Null | CellRef::Never => Value::Null,
            CellRef::Str(s) | CellRef::Time(s) | CellRef::Output(s) => s.text.into(),
            CellRef::Int(i) | CellRef::Ms(i) => Value::from(i),
            CellRef::Num(n) => Value::Number(n.clone()),
            CellRef::Bool(b) | CellRef::Success(b) => Value::Bool(b),
            CellRef::Json(v) => v.clone(),
            CellRef::RawJson(t) => serde_json::from_str(t).unwrap_or_else(|_| t.into()),
        }
    }

    /// What a table keeps of the cell: outputs only as long as they are
    /// shown, so 10 000 held rows stay small however long the outputs are.
    pub fn for_table(self) -> Cell {
        // Decoded outputs are shown whole (JSON on one line) up to this
        // size; beyond it they are shortened like raw outputs.
        const DECODED_MAX: usize = 2000;
        const PARSED_MAX: usize = 1 << 20;
        let short = |s: &str| Cell::Output(shorten(s, OUTPUT_WIDTH));
        match self {
            CellRef::Output(s) => short(s.text),
            CellRef::Str(s) if s.text.len() > DECODED_MAX => short(s.text),
            CellRef::Str(s) => Cell::Str(s.text.to_string()),
            // A time is short; a server's hostile one is cut like an output.
            CellRef::Time(s) if s.text.len() > DECODED_MAX => short(s.text),
            CellRef::Time(s) => Cell::Time(s.text.to_string()),
            // An errors array is kept (a table shows it a message a line),
            // its messages bounded: a cell never holds a server's megabytes.
            // Past a megabyte not even parsed (its value would be a second
            // copy): its start, shortened like an output.
            CellRef::RawJson(t) if t.len() > PARSED_MAX => short(t),
            CellRef::RawJson(t) if t.len() > DECODED_MAX => match self.to_json() {
                v if super::errors::is_errors(&v) => Cell::Json(super::errors::bounded(&v)),
                _ => short(t),
            },
            CellRef::Json(v) if super::errors::is_errors(v) => {
                Cell::Json(super::errors::bounded(v))
            }
            CellRef::Json(v) => {
                let compact = v.to_string();
                if compact.len() > DECODED_MAX {
                    short(&compact)
                } else {
                    Cell::Json(v.clone())
                }
            }
            CellRef::RawJson(_) => Cell::Json(self.to_json()),
            CellRef::Null => Cell::Null,
            CellRef::Int(i) => Cell::Int(i),
            CellRef::Num(n) => Cell::Num(n.clone()),
            CellRef::Bool(b) => Cell::Bool(b),
            CellRef::Success(b) => Cell::Success(b),
            CellRef::Ms(i) => Cell::Ms(i),
            CellRef::Never => Cell::Never,
        }
    }
}
