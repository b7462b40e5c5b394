//! Text from elsewhere (a server's error body, a task's message or output, a
//! name) made safe to show on a terminal: control characters, line breaks
//! and bidirectional controls as visible escapes, so that no line and no
//! table cell starts with, or is reordered by, text that the sender chose.
//! Machine formats (JSON, CSV, Prometheus) keep the data as it came.

use std::borrow::Cow;

/// Whether `c` would move the cursor, break a line, recolour the terminal
/// or reorder the text around it: C0, DEL and C1 (`char::is_control`), the
/// Unicode line and paragraph separators, and the bidirectional marks,
/// embeddings, overrides and isolates (U+200E/F, U+061C, U+202A–E,
/// U+2066–9).
pub fn is_hazard(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// `s` on one line with every hazard escaped: `\n`, `\r`, `\t`, the rest as
/// `\u{1b}`, `\u{202e}`. A backslash stays as it is, so escaping is
/// idempotent (a table cell shortened twice is escaped once).
pub fn escape(s: &str) -> Cow<'_, str> {
    escape_but(s, None)
}

/// As `escape`, but `keep` (our own line end in a text of several lines)
/// stays as it is.
pub fn escape_but(s: &str, keep: Option<char>) -> Cow<'_, str> {
    let bad = |c: char| is_hazard(c) && Some(c) != keep;
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            c if !bad(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hazards_are_escaped_visibly() {
        assert_eq!(escape("plain – é 😀"), "plain – é 😀");
        assert_eq!(escape("a\nb\r\tc"), "a\\nb\\r\\tc");
        assert_eq!(escape("\x1b[31mred\x7f"), "\\u{1b}[31mred\\u{7f}");
        assert_eq!(escape("\u{85}\u{9b}"), "\\u{85}\\u{9b}");
        assert_eq!(
            escape("x\u{202e}y\u{2066}z\u{200f}\u{61c}\u{2028}"),
            "x\\u{202e}y\\u{2066}z\\u{200f}\\u{61c}\\u{2028}"
        );
        assert_eq!(escape_but("a\nb\x1b", Some('\n')), "a\nb\\u{1b}");
    }

    #[test]
    fn escaping_twice_changes_nothing_more() {
        for s in ["a\nb", "\u{202e}x\\n", "\x00\x1f\u{9f}"] {
            let once = escape(s).into_owned();
            assert_eq!(escape(&once), once);
            assert!(!once.chars().any(is_hazard));
        }
    }
}
