//! Text in terminal cells: how wide a string is drawn, control characters
//! escaped, and a string cut to a width with an ellipsis; what tables,
//! cells and log lines measure with, needing nothing else of the output.

/// Longest `output` shown in a table cell.
pub const OUTPUT_WIDTH: usize = 40;

/// How many terminal cells `s` takes on one line: a CJK character or an
/// emoji takes two, a combining mark none (what the terminal draws, not
/// how many characters there are).
pub fn cells(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// Control characters, line breaks and bidirectional controls as visible
/// escapes (`\u{1b}`, `\n`, `\u{202e}`, by `ylem_client::text`): text from the server
/// must not move the cursor, recolour the terminal, start a line of its own
/// in a cell or reorder the row. Done before `fit` measures the cell.
pub fn escape(s: &str) -> String {
    ylem_client::text::escape(s).into_owned()
}

/// `s` cut to `max` terminal cells with an ellipsis, on one line, control
/// characters escaped.
pub fn shorten(s: &str, max: usize) -> String {
    let one_line = escape(s);
    if cells(&one_line) <= max {
        return one_line;
    }
    // Room for the ellipsis (one cell); a wide character that would cross
    // the edge is left out whole.
    let room = max.max(1) - 1;
    let mut used = 0;
    let mut out = String::new();
    for c in one_line.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}
