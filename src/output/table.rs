//! Tables for people: human durations, times in the chosen zone (named in
//! the header), shortened outputs with control characters escaped; box
//! drawing and colour only on a terminal, fitted to its width (`fit`).

use chrono::{DateTime, Utc};
use comfy_table::{Cell as TCell, Color, Table, presets};

use super::cell::Cell;
use super::column::Column;
use super::fit;
use super::style::{Shape, Style};

// Where other code has always found them (a log line, a failure's detail).
use super::width::wrap;
pub use super::width::{OUTPUT_WIDTH, cells, escape, prefix, shorten};
use crate::time::{self, Zone};

/// The text of a cell in a table.
pub fn text(c: &Cell, zone: Zone) -> String {
    match c {
        Cell::Null => "-".into(),
        Cell::Never => "never".into(),
        Cell::Str(s) => escape(s),
        Cell::Int(i) => i.to_string(),
        Cell::Num(n) => n.to_string(),
        Cell::Bool(b) => b.to_string(),
        Cell::Success(true) => "ok".into(),
        Cell::Success(false) => "failed".into(),
        Cell::Time(s) => match time::parse_server_time(s) {
            Some(t) => time::display_time(t, zone),
            None => escape(s),
        },
        Cell::Ms(ms) => time::human_ms(*ms),
        Cell::Output(s) => shorten(s, OUTPUT_WIDTH),
        // An errors array, one message a line; other JSON on one line.
        Cell::Json(v) => match super::errors::lines(v) {
            Some(lines) => lines
                .iter()
                .map(|l| escape(l))
                .collect::<Vec<_>>()
                .join("\n"),
            None => escape(&v.to_string()),
        },
    }
}

/// Each line of `s` cut to `max` characters (a cell of several lines, an
/// errors array, keeps its lines).
pub fn shorten_lines(s: &str, max: usize) -> String {
    s.lines()
        .map(|l| shorten(l, max))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each line of `s` wrapped at `max` cells (a cell a person asked for
/// keeps all its text).
pub fn wrap_lines(s: &str, max: usize) -> String {
    s.lines()
        .flat_map(|l| wrap(l, max))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How long ago `t` was, for people: `45s ago`, `3h ago`, `2d ago`.
pub fn age(t: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let s = (now - t).num_seconds();
    if s < 0 {
        return "in the future".into();
    }
    format!("{} ago", span(s))
}

/// A span of `s` seconds (not negative) in its largest whole unit: `45s`,
/// `12m`, `3h`, `2d` (what `age` and the watch board write).
pub fn span(s: i64) -> String {
    let (n, unit) = match s {
        ..60 => (s, "s"),
        60..3600 => (s / 60, "m"),
        3600..86_400 => (s / 3600, "h"),
        _ => (s / 86_400, "d"),
    };
    format!("{n}{unit}")
}

/// The zone times are shown in, as the header says it.
fn zone_name(zone: Zone) -> &'static str {
    zone.name()
}

/// A cell's text, with the age beside the time of a column that asks for
/// it (the last-run views, where "how long ago" is the question).
fn cell_text(c: &Cell, column: &Column, style: &Style) -> String {
    let t = text(c, style.zone);
    match c {
        Cell::Time(s) if column.aged => match time::parse_server_time(s) {
            Some(when) => format!("{t} ({})", age(when, style.now)),
            None => t,
        },
        _ => t,
    }
}

fn styled(text: String, c: &Cell, style: &Style) -> TCell {
    let t = TCell::new(text);
    match c {
        Cell::Success(false) if style.color => t.fg(Color::Red),
        Cell::Success(true) if style.color => t.fg(Color::Green),
        _ => t,
    }
}

fn new_table(style: &Style) -> Table {
    let mut t = Table::new();
    if style.boxes {
        t.load_style(presets::UTF8_FULL_CONDENSED);
    } else {
        t.load_style(presets::NOTHING);
    }
    // Never wrapped inside a cell: `fit` has made the table fit already,
    // and a UUID or a time broken over lines cannot be copied.
    t.force_no_tty();
    if style.color {
        t.enforce_styling();
    }
    t
}

/// Render rows; a single object is shown as field/value pairs. On a
/// terminal, the table is fitted to its width; the note (if any) says
/// which columns were left out.
pub fn render(
    columns: &[Column],
    rows: &[Vec<Cell>],
    shape: Shape,
    style: &Style,
) -> (String, Option<String>) {
    let mut t = new_table(style);
    let mut note = None;
    if shape == Shape::Object && rows.len() == 1 {
        // Field names, borders and padding take the rest of the line.
        let key_w = columns.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let room = style
            .fit_width()
            .map(|w| w.saturating_sub(key_w + 7).max(10));
        for (col, c) in columns.iter().zip(&rows[0]) {
            let mut v = cell_text(c, col, style);
            if matches!(c, Cell::Time(_)) {
                v = with_zone(v, style.zone);
            }
            if let Some(room) = room.filter(|&r| col.is_free() && cells(&v) > r) {
                v = shorten_lines(&v, room);
            }
            t.add_row(vec![TCell::new(col.name), styled(v, c, style)]);
        }
    } else {
        note = list(&mut t, columns, rows, style);
    }
    // comfy-table pads every cell, the last one too: without box drawing
    // (a pipe, NO_COLOR's dumb terminal) that is trailing space, noise for
    // `grep`, `awk` and diffs. Every line is trimmed; a box's line ends in
    // its border and loses nothing.
    let mut s: String = t
        .to_string()
        .lines()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    (s, note)
}

/// Rows under a header, fitted to the terminal; the note names the
/// columns left out, if any.
fn list(t: &mut Table, columns: &[Column], rows: &[Vec<Cell>], style: &Style) -> Option<String> {
    let texts: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .zip(columns)
                .map(|(c, col)| cell_text(c, col, style))
                .collect()
        })
        .collect();
    let headers: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| header(c, rows.iter().any(|r| matches!(r[i], Cell::Time(_))), style))
        .collect();
    let plan = fit::plan(
        columns,
        &headers,
        &texts,
        style.fit_width(),
        style.boxes,
        style.asked,
    );
    if style.header {
        t.set_header(plan.keep.iter().map(|&i| TCell::new(&headers[i])));
    }
    for (r, row) in rows.iter().zip(texts) {
        let mut row: Vec<Option<String>> = row.into_iter().map(Some).collect();
        t.add_row(plan.keep.iter().zip(&plan.widths).map(|(&i, &w)| {
            let s = row[i].take().unwrap_or_default();
            // Text a person asked for (--fields) is wrapped whole; other
            // text is cut, a row a line.
            let s = match s.lines().any(|l| cells(l) > w) {
                true if style.asked && columns[i].is_free() => wrap_lines(&s, w),
                true => shorten_lines(&s, w),
                false => s,
            };
            styled(s, &r[i], style)
        }));
    }
    (!plan.dropped.is_empty()).then(|| {
        format!(
            "note: left out to fit {} columns: {} (see --fields, -o json)",
            style.width,
            plan.dropped.join(", ")
        )
    })
}

fn with_zone(v: String, zone: Zone) -> String {
    match v.find(" (") {
        Some(i) => format!("{} {}{}", &v[..i], zone_name(zone), &v[i..]),
        None if v.contains(':') => format!("{v} {}", zone_name(zone)),
        None => v,
    }
}

/// The column's short header; a time column names its zone.
fn header(c: &Column, times: bool, style: &Style) -> String {
    if times {
        format!("{} ({})", c.header, zone_name(style.zone))
    } else {
        c.header.to_string()
    }
}
