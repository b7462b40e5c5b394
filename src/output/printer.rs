//! The printer that renders rows as a table, JSON, JSON lines or CSV, row by
//! row where the format allows so that long results stream, and the
//! `--fields` selection it starts from.

use std::io::Write;

use serde_json::Value;

use super::cell::{Cell, CellRef};
use super::column::{self, Column};
use super::encode::{self, Blocks};
use super::style::{Shape, Style};
use super::table;
use crate::cli::Format;
use crate::error::{Error, Result};
use crate::ui::Ui;

/// Tables hold their rows in memory; past this many they stop and say so.
pub const TABLE_ROW_LIMIT: usize = 10_000;

/// Writes rows in the chosen format as they come.
pub struct Printer<'a> {
    style: Style,
    shape: Shape,
    /// The selected columns, in the order shown.
    columns: Vec<Column>,
    names: Vec<&'static str>,
    idx: Vec<usize>,
    /// `"name":` of each selected column, escaped once for every JSON row.
    keys: Vec<Vec<u8>>,
    /// Numbers and JSON of a CSV field while they are written.
    scratch: Vec<u8>,
    out: Blocks<'a>,
    rows: usize,
    table: Vec<Vec<Cell>>,
    /// UUIDs given by an alias on the command line, with the alias: a
    /// table's `uuid` column names those rows by it (machine formats keep
    /// the UUID).
    named: Named,
    /// The rows' source has begun (a log's response came): a JSON list
    /// dropped before its first row is still written, as `[]`.
    begun: bool,
    /// `finish` ran; a printer dropped before (the command failed or was
    /// stopped) still closes what it opened (see `Drop`).
    finished: bool,
}

/// The UUIDs a person named by an alias, with the alias (`Printer::named`).
pub type Named = std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>;

/// Pick the `--fields` columns out of `columns`, in any case, by field name
/// or by the table's header (`RUN_UUID`); unknown names are a usage error.
/// Without `--fields`, all but the first `skip` columns (the leading
/// `uuid`, shown only when several IDs were given).
pub fn select(columns: &[Column], fields: Option<&[String]>, skip: usize) -> Result<Vec<usize>> {
    let Some(fields) = fields else {
        return Ok((skip.min(columns.len())..columns.len()).collect());
    };
    let mut idx: Vec<usize> = Vec::new();
    for f in fields {
        // The key or header first, then another name a column has (the
        // same fact under its other format's name).
        let exact = columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(f.trim()))
            .or_else(|| {
                columns
                    .iter()
                    .position(|c| c.header.eq_ignore_ascii_case(f.trim()))
            });
        let i = exact
            .or_else(|| columns.iter().position(|c| c.answers_to(f)))
            .ok_or_else(|| {
                Error::usage(format!(
                    "unknown field '{f}': valid fields are {}",
                    column::names(columns).join(", ")
                ))
            })?;
        // Two names of one column (`error_kind,error` in JSON, where the
        // error is one object) show it once.
        if !idx.contains(&i) {
            idx.push(i);
        }
    }
    Ok(idx)
}

impl<'a> Printer<'a> {
    /// `columns` are all the row's fields; validated against `--fields` here,
    /// before any request is made.
    pub fn new(
        style: Style,
        shape: Shape,
        columns: &[Column],
        fields: Option<&[String]>,
        skip: usize,
        out: Box<dyn Write + Send + 'a>,
    ) -> Result<Self> {
        let idx = select(columns, fields, skip)?;
        let selected: Vec<Column> = idx.iter().map(|&i| columns[i]).collect();
        let names = column::names(&selected);
        let keys = names
            .iter()
            .map(|n| {
                let mut k = serde_json::to_vec(n).map_err(json_io)?;
                k.push(b':');
                Ok(k)
            })
            .collect::<Result<_>>()?;
        Ok(Printer {
            style,
            shape,
            columns: selected,
            names,
            idx,
            keys,
            scratch: Vec::new(),
            out: Blocks::new(out),
            rows: 0,
            table: Vec::new(),
            named: Named::default(),
            begun: false,
            finished: false,
        })
    }

    /// Name a table's rows of UUIDs given by an alias by that alias.
    pub fn named(mut self, named: Named) -> Self {
        self.named = named;
        self
    }

    /// A table's cell: a `uuid` given by an alias shows the alias.
    fn table_cell(&self, column: &Column, cell: CellRef) -> Cell {
        let c = cell.for_table();
        if column.name != "uuid" {
            return c;
        }
        match (&c, self.named.lock()) {
            (Cell::Str(u), Ok(named)) => match named.iter().find(|(id, _)| id == u) {
                Some((_, alias)) => Cell::Str(alias.clone()),
                None => c,
            },
            _ => c,
        }
    }

    /// Write one row (all columns, in the order given to `new`).
    pub fn row(&mut self, row: Vec<Cell>) -> Result<()> {
        let refs: Vec<CellRef> = row.iter().map(Cell::as_ref).collect();
        self.row_ref(&refs)
    }

    /// Write one row of borrowed cells; rows go out a block at a time.
    pub fn row_ref(&mut self, row: &[CellRef]) -> Result<()> {
        let first = self.rows == 0;
        self.rows += 1;
        let w = &mut self.out;
        match self.style.format {
            Format::Csv => {
                if first && self.style.header {
                    encode::csv_names(w, &self.names)?;
                }
                let mut empty = true;
                for (n, &i) in self.idx.iter().enumerate() {
                    if n > 0 {
                        w.put(b",")?;
                    }
                    empty &= encode::csv(w, row[i], &mut self.scratch, self.style.csv_raw)?;
                }
                encode::csv_end(w, empty && self.idx.len() == 1)?;
            }
            Format::Json if self.shape == Shape::Object => {
                let obj = object(&self.names, &self.idx, row);
                serde_json::to_writer_pretty(&mut *w, &obj).map_err(json_io)?;
                w.put(b"\n")?;
            }
            Format::Json | Format::Jsonl => {
                if self.style.format == Format::Json {
                    w.put(if first { b"[\n" } else { b",\n" })?;
                }
                w.put(b"{")?;
                for (n, (key, &i)) in self.keys.iter().zip(&self.idx).enumerate() {
                    if n > 0 {
                        w.put(b",")?;
                    }
                    w.put(key)?;
                    encode::json(w, row[i])?;
                }
                w.put(b"}")?;
                if self.style.format == Format::Jsonl {
                    w.put(b"\n")?;
                }
            }
            _ => {
                if self.table.len() < TABLE_ROW_LIMIT {
                    let cells = (self.idx.iter().zip(&self.columns))
                        .map(|(&i, c)| self.table_cell(c, row[i]))
                        .collect();
                    self.table.push(cells);
                }
            }
        }
        Ok(())
    }

    /// The rows' source has begun: from now on a JSON list is written
    /// even if no row comes (`[]` when cut off or stopped before one).
    pub fn begin(&mut self) {
        self.begun = true;
    }

    /// Hand what was written so far on to the reader: called when the input
    /// has nothing more ready, so rows show as they arrive while a fast
    /// response is still written in large blocks.
    pub fn flush(&mut self) -> Result<()> {
        self.out.flush()?;
        Ok(())
    }

    /// Close the output. `empty_note` is said on stderr (a note, see `Ui`)
    /// when there were no rows.
    pub fn finish(mut self, empty_note: &str, ui: &Ui) -> Result<()> {
        // Whatever happens below, nothing more is written when it drops.
        self.finished = true;
        if self.rows == 0 && !empty_note.is_empty() {
            ui.note(empty_note);
        }
        let w = &mut self.out;
        match self.style.format {
            Format::Csv => {
                if self.rows == 0 && self.style.header && self.shape == Shape::List {
                    encode::csv_names(w, &self.names)?;
                }
            }
            Format::Json => {
                if self.shape == Shape::List {
                    w.put(if self.rows == 0 { b"[]\n" } else { b"\n]\n" })?;
                }
            }
            Format::Jsonl => {}
            _ => {
                if !self.table.is_empty() {
                    let (text, note) =
                        table::render(&self.columns, &self.table, self.shape, &self.style);
                    w.put(text.as_bytes())?;
                    w.flush()?;
                    if let Some(n) = note {
                        ui.note(&n);
                    }
                }
                w.flush()?;
                if self.rows > TABLE_ROW_LIMIT {
                    ui.note(&format!(
                        "note: showing the first {TABLE_ROW_LIMIT} of {} rows: tables hold their rows in memory; use -o csv or -o jsonl for all of them",
                        self.rows
                    ));
                }
            }
        }
        w.flush()?;
        Ok(())
    }
}

/// A printer that ends without `finish` (a body cut off, Ctrl-C, SIGTERM)
/// leaves its output whole: the rows it holds (each whole) go out, and a
/// JSON array it opened is closed, so a reader still parses what came.
/// A table is not drawn: its error says what happened.
impl Drop for Printer<'_> {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        let list = self.shape == Shape::List && self.style.format == Format::Json;
        if list && self.rows > 0 {
            let _ = self.out.put(b"\n]\n");
        } else if list && self.begun {
            // Cut off (or stopped) before its first row: still an array.
            let _ = self.out.put(b"[]\n");
        }
        let _ = self.out.flush();
    }
}

/// A single result as a JSON object (pretty-printed: it is written once).
fn object(names: &[&str], idx: &[usize], row: &[CellRef]) -> Value {
    let mut m = serde_json::Map::new();
    for (n, &i) in names.iter().zip(idx) {
        m.insert((*n).to_string(), row[i].to_json());
    }
    Value::Object(m)
}

fn json_io(e: serde_json::Error) -> Error {
    match e.io_error_kind() {
        Some(k) => std::io::Error::from(k).into(),
        None => Error::internal(format!("JSON output: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Zone;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn render(
        format: Format,
        shape: Shape,
        fields: Option<&[String]>,
        rows: Vec<Vec<Cell>>,
    ) -> String {
        let buf = Buf::default();
        let style = Style {
            format,
            header: true,
            csv_raw: false,
            zone: Zone::Utc,
            color: false,
            tty: false,
            boxes: false,
            width: 80,
            now: chrono::Utc::now(),
            asked: false,
        };
        let cols = [
            Column::new("a", "A"),
            Column::new("b", "B"),
            Column::new("c", "C"),
        ];
        let mut p = Printer::new(style, shape, &cols, fields, 0, Box::new(buf.clone())).unwrap();
        for r in rows {
            p.row(r).unwrap();
        }
        p.finish("", &crate::ui::Ui::default()).unwrap();
        let v = buf.0.lock().unwrap().clone();
        String::from_utf8(v).unwrap()
    }

    fn rows() -> Vec<Vec<Cell>> {
        vec![
            vec![Cell::Str("x,\"y\"".into()), Cell::Ms(1500), Cell::Null],
            vec![
                Cell::Str("z".into()),
                Cell::Success(false),
                Cell::Time("2024-01-01T00:00:00Z".into()),
            ],
        ]
    }

    #[test]
    fn csv_quotes_and_empties() {
        let s = render(Format::Csv, Shape::List, None, rows());
        assert_eq!(
            s,
            "a,b,c\n\"x,\"\"y\"\"\",1500,\nz,false,2024-01-01T00:00:00Z\n"
        );
    }

    #[test]
    fn json_list_is_valid_and_fields_reorder() {
        let f = vec!["c".to_string(), "a".to_string()];
        let s = render(Format::Json, Shape::List, Some(&f), rows());
        let v: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v[0], serde_json::json!({"c": null, "a": "x,\"y\""}));
        assert_eq!(render(Format::Json, Shape::List, None, vec![]).trim(), "[]");
        assert!(s.find("\"c\"").unwrap() < s.find("\"a\"").unwrap());
    }

    #[test]
    fn jsonl_is_one_object_per_line() {
        let s = render(Format::Jsonl, Shape::List, None, rows());
        assert_eq!(s.lines().count(), 2);
        for l in s.lines() {
            serde_json::from_str::<Value>(l).unwrap();
        }
    }

    #[test]
    fn header_names_are_fields_too() {
        let cols = [
            Column::new("workflow_run_uuid", "RUN_UUID"),
            Column::new("is_successful", "RESULT"),
        ];
        let f = vec!["RUN_UUID".to_string(), "result".to_string()];
        assert_eq!(select(&cols, Some(&f), 0).unwrap(), [0, 1]);
    }

    #[test]
    fn unknown_field_lists_valid_ones() {
        let cols = [Column::new("a", "A"), Column::new("b", "B")];
        let e = select(&cols, Some(&["zz".to_string()]), 0).unwrap_err();
        assert!(e.message.contains("valid fields are a, b"), "{}", e.message);
    }
}
