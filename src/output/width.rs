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
    // Room for the ellipsis (one cell).
    let mut out = prefix(&one_line, max.max(1) - 1);
    // Text shortened once already (a task's `5ecffbbe…`) ends in one
    // ellipsis, not two.
    if !out.ends_with('…') {
        out.push('…');
    }
    out
}

/// The longest start of `s` that takes at most `room` terminal cells; a
/// wide character that would cross the edge is left out whole.
pub fn prefix(s: &str, room: usize) -> String {
    let mut used = 0;
    let mut out = String::new();
    for c in s.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out
}

/// One line (already escaped) cut into lines of at most `max` terminal
/// cells, at the last space that fits where there is one; a word longer
/// than a line is cut where the line ends.
pub fn wrap(line: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    let mut rest = line.trim_end();
    while cells(rest) > max {
        // The longest prefix that fits, in whole characters.
        let mut used = 0;
        let mut end = 0;
        for (i, c) in rest.char_indices() {
            let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            if used + w > max {
                break;
            }
            used += w;
            end = i + c.len_utf8();
        }
        // A wide character wider than the line goes on a line of its own.
        let end = end.max(rest.chars().next().map_or(0, char::len_utf8));
        let cut = match rest[..end].rfind(' ') {
            Some(sp) if sp > 0 && !rest[end..].starts_with(' ') => sp,
            _ => end,
        };
        out.push(rest[..cut].trim_end().to_string());
        rest = rest[cut..].trim_start();
    }
    out.push(rest.to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_says_one_ellipsis() {
        assert_eq!(
            shorten("task query (6322cd0b…): output", 22),
            "task query (6322cd0b…"
        );
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abc", 4), "abc");
    }

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_long_words() {
        assert_eq!(
            wrap("task code failed: bad input", 10),
            ["task code", "failed:", "bad input"]
        );
        assert_eq!(wrap("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
        assert_eq!(wrap("数据库连接失败", 5), ["数据", "库连", "接失", "败"]);
        assert_eq!(wrap("short", 10), ["short"]);
        for l in wrap("x y zz 数据库 www", 3) {
            assert!(cells(&l) <= 3, "{l}");
        }
    }
}
