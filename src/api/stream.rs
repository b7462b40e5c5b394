//! Decoding a JSON array element by element while the body arrives, so that
//! memory holds one element at a time however large the response is.
//!
//! The scanner only finds element boundaries (tracking strings, escapes and
//! nesting); each element is then decoded by serde_json on its own. The scan
//! resumes where it stopped when more bytes arrive, so a 50 MiB element is
//! scanned once, not once per chunk.

use bytes::Bytes;
use futures_util::{FutureExt, Stream, StreamExt};
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before `[` (or a top-level `null`, read as an empty array).
    Start,
    /// After `[` or `,`: an element, or `]` right after `[`.
    Element,
    /// Inside an element.
    InElement,
    /// After an element: `,` or `]`.
    Separator,
    Done,
}

/// Splits a byte stream holding one JSON array into its elements.
pub struct ArrayScanner {
    buf: Vec<u8>,
    pos: usize,
    phase: Phase,
    elem_start: usize,
    depth: u32,
    in_str: bool,
    esc: bool,
    first: bool,
}

impl Default for ArrayScanner {
    fn default() -> Self {
        Self::new()
    }
}

impl ArrayScanner {
    pub fn new() -> Self {
        ArrayScanner {
            buf: Vec::new(),
            pos: 0,
            phase: Phase::Start,
            elem_start: 0,
            depth: 0,
            in_str: false,
            esc: false,
            first: true,
        }
    }

    /// Add bytes that arrived, dropping what was already handed out.
    pub fn push(&mut self, chunk: &[u8]) {
        let keep_from = if self.phase == Phase::InElement {
            self.elem_start
        } else {
            self.pos
        };
        if keep_from > 0 {
            self.buf.drain(..keep_from);
            self.pos -= keep_from;
            self.elem_start = self.elem_start.saturating_sub(keep_from);
        }
        self.buf.extend_from_slice(chunk);
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The next complete element's bytes, `Ok(None)` if more input is needed
    /// (or the array ended: see `is_done`), or an error for a body that is not
    /// a JSON array.
    pub fn next_element(&mut self) -> Result<Option<&[u8]>> {
        while self.pos < self.buf.len() {
            let b = self.buf[self.pos];
            match self.phase {
                Phase::Start => {
                    if b == b'[' {
                        self.phase = Phase::Element;
                    } else if b == b'n' {
                        // `null`: the real server's "no data" for aggregates.
                        if self.buf.len() - self.pos < 4 {
                            return Ok(None);
                        }
                        if &self.buf[self.pos..self.pos + 4] != b"null" {
                            return Err(not_array());
                        }
                        self.pos += 3;
                        self.phase = Phase::Done;
                    } else if !b.is_ascii_whitespace() {
                        return Err(not_array());
                    }
                }
                Phase::Element => {
                    if b == b']' && self.first {
                        self.phase = Phase::Done;
                    } else if !b.is_ascii_whitespace() {
                        self.phase = Phase::InElement;
                        self.elem_start = self.pos;
                        self.depth = 0;
                        self.in_str = false;
                        self.esc = false;
                        continue;
                    }
                }
                Phase::InElement => {
                    if let Some(end) = self.scan_element() {
                        self.phase = Phase::Separator;
                        self.first = false;
                        let start = self.elem_start;
                        self.pos = end;
                        return Ok(Some(&self.buf[start..end]));
                    }
                    return Ok(None);
                }
                Phase::Separator => match b {
                    b',' => self.phase = Phase::Element,
                    b']' => self.phase = Phase::Done,
                    _ if b.is_ascii_whitespace() => {}
                    _ => return Err(not_array()),
                },
                Phase::Done => {
                    if !b.is_ascii_whitespace() {
                        return Err(Error::server(
                            "unexpected data after the end of the JSON array",
                        ));
                    }
                }
            }
            self.pos += 1;
        }
        Ok(None)
    }

    /// Advance through the current element; the end offset once it is complete.
    fn scan_element(&mut self) -> Option<usize> {
        let buf = &self.buf;
        let mut i = self.pos;
        while i < buf.len() {
            if self.in_str && !self.esc {
                // Most of a log is string content (outputs are long Base64
                // text): skip it a word at a time.
                i = skip_string_content(buf, i);
                if i == buf.len() {
                    break;
                }
            }
            let b = buf[i];
            if self.in_str {
                if self.esc {
                    self.esc = false;
                } else if b == b'\\' {
                    self.esc = true;
                } else if b == b'"' {
                    self.in_str = false;
                    if self.depth == 0 {
                        self.pos = i + 1;
                        return Some(i + 1);
                    }
                }
            } else {
                match b {
                    b'"' => self.in_str = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' if self.depth > 0 => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            self.pos = i + 1;
                            return Some(i + 1);
                        }
                    }
                    // A scalar element ends at the next separator.
                    b',' | b']' if self.depth == 0 => {
                        self.pos = i;
                        return Some(i);
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        self.pos = i;
        None
    }
}

/// The index of the first `"` or `\\` at or after `i`, or `buf.len()`.
fn skip_string_content(buf: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Non-zero when some byte of `w` is zero (the classic SWAR test).
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    while let Some(word) = buf.get(i..i + 8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        if has_zero(w ^ (ONES * u64::from(b'"'))) | has_zero(w ^ (ONES * u64::from(b'\\'))) != 0 {
            break;
        }
        i += 8;
    }
    while i < buf.len() && buf[i] != b'"' && buf[i] != b'\\' {
        i += 1;
    }
    i
}

fn not_array() -> Error {
    Error::server("the response is not a JSON array")
}

/// Typed elements of a JSON array arriving as a byte stream.
pub struct ArrayStream<S> {
    body: S,
    scanner: ArrayScanner,
    ended: bool,
}

impl<S> ArrayStream<S>
where
    S: Stream<Item = Result<Bytes>> + Unpin,
{
    pub fn new(body: S) -> Self {
        ArrayStream {
            body,
            scanner: ArrayScanner::new(),
            ended: false,
        }
    }

    /// The next element, `None` at the end of the array.
    pub async fn next<T: DeserializeOwned>(&mut self) -> Result<Option<T>> {
        self.next_or_idle(&mut || Ok(())).await
    }

    /// The next element; `idle` is called before waiting for the network,
    /// i.e. whenever everything that has arrived so far has been handed out.
    pub async fn next_or_idle<T: DeserializeOwned>(
        &mut self,
        idle: &mut dyn FnMut() -> Result<()>,
    ) -> Result<Option<T>> {
        loop {
            if let Some(bytes) = self.scanner.next_element()? {
                let v = super::errors::decode_json(bytes)
                    .map_err(|e| Error::server(format!("unexpected response body: {e}")))?;
                return Ok(Some(v));
            }
            if self.scanner.is_done() && self.ended {
                return Ok(None);
            }
            if self.ended {
                return Err(Error::server(
                    "the response ended before the JSON array was complete",
                ));
            }
            // Polling once without waiting is safe: a chunk is only taken
            // from the body when it is ready.
            let next = match self.body.next().now_or_never() {
                Some(next) => next,
                None => {
                    idle()?;
                    self.body.next().await
                }
            };
            match next {
                Some(chunk) => self.scanner.push(&chunk?),
                None => self.ended = true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &[u8], chunk: usize) -> Result<Vec<String>> {
        let mut s = ArrayScanner::new();
        let mut out = Vec::new();
        for c in input.chunks(chunk.max(1)) {
            s.push(c);
            while let Some(e) = s.next_element()? {
                out.push(String::from_utf8(e.to_vec()).unwrap());
            }
        }
        if !s.is_done() {
            return Err(Error::server("incomplete"));
        }
        Ok(out)
    }

    #[test]
    fn splits_at_any_chunk_size() {
        let input = br#" [ {"a":"x,]}\"y","b":[1,{"c":2}]} , {"d":null}, "s]", 12 ,true ] "#;
        for n in 1..input.len() {
            let v = split(input, n).unwrap();
            assert_eq!(
                v,
                [
                    r#"{"a":"x,]}\"y","b":[1,{"c":2}]}"#,
                    r#"{"d":null}"#,
                    r#""s]""#,
                    "12 ",
                    "true "
                ],
                "chunk {n}"
            );
        }
    }

    #[test]
    fn string_content_is_skipped_to_the_next_quote_or_backslash() {
        let text = b"0123456789abcdef0123456789\\xyz\"0123456789";
        assert_eq!(skip_string_content(text, 0), 26);
        assert_eq!(skip_string_content(text, 27), 30);
        assert_eq!(skip_string_content(text, 31), text.len());
        // Long strings with quotes and escapes at every offset of a word.
        for k in 0..20 {
            let s = format!("[\"{}\\\"{}\",1]", "a".repeat(k), "b".repeat(k));
            let v = split(s.as_bytes(), 3).unwrap();
            assert_eq!(v[0], &s[1..s.len() - 3], "k {k}");
        }
    }

    #[test]
    fn empty_and_null() {
        assert!(split(b"[]", 1).unwrap().is_empty());
        assert!(split(b" null ", 2).unwrap().is_empty());
        assert!(split(b"[ ]", 3).unwrap().is_empty());
    }

    #[test]
    fn rejects_what_is_not_an_array() {
        assert!(split(b"{\"a\":1}", 4).is_err());
        assert!(split(b"[{\"a\":1}", 4).is_err());
        assert!(split(b"nope", 4).is_err());
    }
}
