//! Tables for people: human durations, times in the chosen zone, shortened
//! outputs; box drawing and colour only on a terminal.

use comfy_table::{Cell as TCell, Color, ContentArrangement, Table, presets};

use super::{Cell, Shape, Style};
use crate::time::{self, Zone};

/// Longest `output` shown in a table cell.
pub const OUTPUT_WIDTH: usize = 40;

/// The text of a cell in a table.
pub fn text(c: &Cell, zone: Zone) -> String {
    match c {
        Cell::Null => "-".into(),
        Cell::Never => "never".into(),
        Cell::Moot(_) => "-".into(),
        Cell::Str(s) => s.clone(),
        Cell::Int(i) => i.to_string(),
        Cell::Num(n) => n.to_string(),
        Cell::Bool(b) => b.to_string(),
        Cell::Success(true) => "ok".into(),
        Cell::Success(false) => "failed".into(),
        Cell::Time(s) => match time::parse_server_time(s) {
            Some(t) => time::display_time(t, zone),
            None => s.clone(),
        },
        Cell::Ms(ms) => time::human_ms(*ms),
        Cell::Output(s) => shorten(s, OUTPUT_WIDTH),
        Cell::Json(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
    }
}

/// `s` cut to `max` characters with an ellipsis, on one line.
pub fn shorten(s: &str, max: usize) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one_line.chars().count() <= max {
        one_line
    } else {
        format!("{}…", one_line.chars().take(max - 1).collect::<String>())
    }
}

fn styled(c: &Cell, style: &Style) -> TCell {
    let t = TCell::new(text(c, style.zone));
    match c {
        Cell::Success(false) if style.color => t.fg(Color::Red),
        Cell::Success(true) if style.color => t.fg(Color::Green),
        _ => t,
    }
}

fn new_table(style: &Style) -> Table {
    let mut t = Table::new();
    if style.tty {
        t.load_style(presets::UTF8_FULL_CONDENSED);
        t.set_content_arrangement(ContentArrangement::Dynamic);
    } else {
        t.load_style(presets::NOTHING);
        t.force_no_tty();
    }
    if style.color {
        t.enforce_styling();
    }
    t
}

/// Render rows; a single object is shown as field/value pairs.
pub fn render(names: &[&str], rows: &[Vec<Cell>], shape: Shape, style: &Style) -> String {
    let mut t = new_table(style);
    if shape == Shape::Object && rows.len() == 1 {
        for (n, c) in names.iter().zip(&rows[0]) {
            t.add_row(vec![TCell::new(n), styled(c, style)]);
        }
    } else {
        if style.header {
            t.set_header(names.iter().map(|n| TCell::new(n.to_uppercase())));
        }
        for r in rows {
            t.add_row(r.iter().map(|c| styled(c, style)));
        }
    }
    let mut s = t.to_string();
    if !style.tty {
        // Without box drawing, trailing padding is noise for `grep` and `awk`.
        s = s
            .lines()
            .map(|l| l.trim_end())
            .collect::<Vec<_>>()
            .join("\n");
    }
    s.push('\n');
    s
}
