//! The input of `run pipeline --input`: JSON text, `@FILE` or `-` (standard
//! input), read once and checked as JSON before anything is sent, then kept
//! as the original bytes (never re-serialised) for every start.

use std::io::Read;
use std::path::Path;

use bytes::Bytes;
use serde::de::IgnoredAny;

use crate::config::read;
use crate::error::{Error, Result};

/// The largest input taken: far above any pipeline's input, and a bound
/// on what a mistaken `@/dev/stdin` or a runaway producer can make us hold.
pub const MAX: u64 = 64 << 20;

const FORMS: &str = "give JSON text, @FILE for a file's contents, or - for standard input";

/// Where `--input` takes its bytes from.
#[derive(Debug, PartialEq, Eq)]
enum Source<'a> {
    Text(&'a str),
    File(&'a str),
    Stdin,
}

impl Source<'_> {
    /// `-` (and curl's `@-`) is standard input; `@NAME` a file. JSON text
    /// never begins with `@`, so nothing is ambiguous.
    fn of(value: &str) -> Source<'_> {
        match value {
            "-" | "@-" => Source::Stdin,
            v => match v.strip_prefix('@') {
                Some(file) => Source::File(file),
                None => Source::Text(v),
            },
        }
    }

    /// How an error names the input.
    fn name(&self) -> String {
        match self {
            Source::Text(_) => "--input".into(),
            Source::File(f) => format!("--input @{f}"),
            Source::Stdin => "--input - (standard input)".into(),
        }
    }
}

/// Read the value of `--input` (`stdin` is read when it says `-`) and check
/// that it is one JSON value: the bytes to send, unchanged.
pub fn read(value: &str, stdin: impl Read) -> Result<Bytes> {
    let source = Source::of(value);
    let bytes = match &source {
        Source::Text(t) => Bytes::copy_from_slice(t.as_bytes()),
        Source::File("") => {
            return Err(Error::usage("--input @ names no file").with_hint(FORMS));
        }
        // A regular file within the bound: a FIFO or a device (which could
        // block or never end) is refused before anything is sent.
        Source::File(f) => read::bounded(Path::new(f), "--input: cannot read", MAX)
            .map_err(|e| e.with_hint(FORMS))?
            .map(Bytes::from)
            .ok_or_else(|| {
                Error::usage(format!("{}: cannot read {f}: no such file", source.name()))
                    .with_hint(FORMS)
            })?,
        Source::Stdin => {
            let mut buf = Vec::new();
            stdin
                .take(MAX + 1)
                .read_to_end(&mut buf)
                .map_err(|e| Error::usage(format!("{}: cannot read it: {e}", source.name())))?;
            if buf.len() as u64 > MAX {
                return Err(Error::usage(format!(
                    "{}: larger than {} MiB",
                    source.name(),
                    MAX >> 20
                ))
                .with_hint("no pipeline takes an input this large: check what is piped in"));
            }
            Bytes::from(buf)
        }
    };
    check(&bytes)
        .map_err(|why| Error::usage(format!("{} {why}", source.name())).with_hint(FORMS))?;
    Ok(bytes)
}

/// Why `bytes` is not exactly one JSON value (RFC 8259: UTF-8 text), with
/// the line and column of the problem.
fn check(bytes: &[u8]) -> std::result::Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (line, column) = position(&bytes[..e.valid_up_to()]);
        format!("is not UTF-8 text, as JSON must be: invalid byte at line {line} column {column}")
    })?;
    if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        let (line, column) = position(bytes);
        return Err(format!(
            "is empty: expected a JSON value at line {line} column {column}"
        ));
    }
    // Validates without building the value: a 50 MB input costs no more.
    serde_json::from_str::<IgnoredAny>(text)
        .map(|_| ())
        .map_err(|e| format!("is not valid JSON: {e}"))
}

/// Line and column (1-based, in characters) just after `text`.
fn position(text: &[u8]) -> (usize, usize) {
    let line = 1 + text.iter().filter(|b| **b == b'\n').count();
    let last = text.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let column = 1 + String::from_utf8_lossy(&text[last..]).chars().count();
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(value: &str, stdin: &str) -> String {
        read(value, stdin.as_bytes()).unwrap_err().message
    }

    #[test]
    fn the_three_forms_keep_their_bytes() {
        let text = "{ \"a\" : [1, 2.50, \"\\u00e9\"] }\n";
        assert_eq!(read(text, &b""[..]).unwrap(), text.as_bytes());
        assert_eq!(read("-", text.as_bytes()).unwrap(), text.as_bytes());
        assert_eq!(read("@-", text.as_bytes()).unwrap(), text.as_bytes());
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("order.json");
        std::fs::write(&f, text).unwrap();
        let v = format!("@{}", f.display());
        assert_eq!(read(&v, &b""[..]).unwrap(), text.as_bytes());
        assert_eq!(read("-1", &b""[..]).unwrap(), "-1".as_bytes());
    }

    #[test]
    fn bad_forms_name_the_flag_and_where() {
        let e = err("{\"a\":1,}", "");
        assert!(e.starts_with("--input is not valid JSON"), "{e}");
        assert!(e.contains("line 1 column 8"), "{e}");
        let e = err("-", "{\"a\":1}\n{\"b\":2}");
        assert!(e.contains("--input - (standard input)"), "{e}");
        assert!(e.contains("trailing characters at line 2 column 1"), "{e}");
        let e = err("", "");
        assert_eq!(
            e,
            "--input is empty: expected a JSON value at line 1 column 1"
        );
        let e = err("-", "\n  ");
        assert!(
            e.ends_with("empty: expected a JSON value at line 2 column 3"),
            "{e}"
        );
        let e = err("@/nonexistent/order.json", "");
        assert!(
            e.starts_with("--input @/nonexistent/order.json: cannot read"),
            "{e}"
        );
        assert!(err("@", "").contains("names no file"));
        let e = read("-", &b"[\"\xff\"]"[..]).unwrap_err().message;
        assert!(
            e.contains("not UTF-8") && e.contains("line 1 column 3"),
            "{e}"
        );
        let e = err("{'a': 1}", "");
        assert!(e.contains("line 1 column 2"), "{e}");
    }
}
