//! Decoding a JSON array element by element while the body arrives, so that
//! memory holds one element at a time however large the response is.
//!
//! An element that has arrived whole is decoded straight from the buffer,
//! in one pass, borrowing its strings. Only one that is still arriving (one
//! per network read, or a 50 MiB output) is scanned for its end instead:
//! the scan tracks strings, escapes and nesting, jumps between the bytes
//! that matter with `memchr`, and resumes where it stopped when more bytes
//! arrive, so a huge element is scanned once, not once per chunk.
//!
//! Two bounds keep a hostile body from holding memory or the command for
//! ever: one element may be at most `MAX_ELEMENT` bytes (a task's output
//! may be 50 MiB), and a body that completes no element for the stream's
//! patience (the read timeout) is given up, however many bytes keep coming.

use std::ops::Range;
use std::time::Duration;

use bytes::Bytes;
use futures_util::{FutureExt, Stream, StreamExt};
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before `[` (or a top-level `null`, read as an empty array).
    Start,
    /// After `[` or `,`: an element, or `]` right after `[`.
    Element,
    /// Inside an element that has not all arrived.
    InElement,
    /// After an element: `,` or `]`.
    Separator,
    Done,
}

/// What a decoder makes of the bytes from an element's start: the value
/// and how many bytes it took, or `None` when they end before it does. A
/// caller's decoder may fail with its own error type `E` (one the client's
/// converts into), as a printer does.
pub type Decoded<R, E = Error> = Result<Option<(R, usize)>, E>;

/// Which bytes a decoder is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// From an element's start to the end of what has arrived: the element
    /// may end in them or after them. A value that does not decode from
    /// them is `None`, not an error: it is tried again once it is `Whole`
    /// (a number cut after `-`, `.` or `e` is an error to serde_json, not
    /// an early end).
    Prefix,
    /// Exactly one element.
    Whole,
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

/// The buffer's first size: a few network reads, so that it is compacted
/// once every few reads rather than on each.
const INITIAL_CAPACITY: usize = 256 * 1024;

/// A buffer this much larger than its first size is given back once the
/// large element it held has gone.
const SHRINK_ABOVE: usize = 16 * INITIAL_CAPACITY;

/// The largest element read: above the spec's largest task output (50 MiB,
/// and its Base64 text is larger still in a JSON string's escapes only
/// rarely), so that an element that never ends cannot take all memory.
pub const MAX_ELEMENT: usize = 64 << 20;

impl ArrayScanner {
    /// Before the array.
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

    /// Add bytes that arrived. What was already handed out is dropped only
    /// when the chunk would not fit otherwise: the unfinished element moves
    /// to the front once per buffer-full, not once per chunk (which would
    /// move a 50 MiB element hundreds of times).
    pub fn push(&mut self, chunk: &[u8]) {
        if self.buf.capacity() - self.buf.len() < chunk.len() {
            let keep_from = if self.phase == Phase::InElement {
                self.elem_start
            } else {
                self.pos
            };
            self.buf.drain(..keep_from);
            self.pos -= keep_from;
            self.elem_start = self.elem_start.saturating_sub(keep_from);
            if self.buf.capacity() < INITIAL_CAPACITY {
                self.buf.reserve(INITIAL_CAPACITY - self.buf.len());
            } else if self.buf.capacity() > SHRINK_ABOVE && self.buf.len() < INITIAL_CAPACITY {
                // A large element is gone: its room goes back, so the
                // next entries do not keep tens of megabytes resident.
                self.buf
                    .shrink_to(INITIAL_CAPACITY.max(self.buf.len() + chunk.len()));
            }
        }
        self.buf.extend_from_slice(chunk);
    }

    /// Whether the array has ended.
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The next complete element's bytes, `Ok(None)` if more input is needed
    /// (or the array ended: see `is_done`), or an error for a body that is not
    /// a JSON array.
    pub fn next_element(&mut self) -> Result<Option<&[u8]>> {
        let span =
            self.take(|b, part| Ok(decode_prefix::<IgnoredAny>(b, part)?.map(|(_, n)| ((), n))))?;
        Ok(span.map(|(_, r)| &self.buf[r]))
    }

    /// Decode the next complete element with `decode` (see `Decoded`); the
    /// value and where the element is in the buffer (valid until `push`).
    /// `decode` is given the bytes from the element's start to the end of
    /// the buffer when the element may be all there, else the element alone.
    pub fn take<R>(
        &mut self,
        decode: impl FnMut(&[u8], Part) -> Decoded<R>,
    ) -> Result<Option<(R, Range<usize>)>> {
        self.take_as(decode)
    }

    /// `take` with a decoder that fails with the caller's own error type.
    pub fn take_as<R, E: From<Error>>(
        &mut self,
        mut decode: impl FnMut(&[u8], Part) -> Decoded<R, E>,
    ) -> Result<Option<(R, Range<usize>)>, E> {
        while self.pos < self.buf.len() {
            let b = self.buf[self.pos];
            match self.phase {
                Phase::Start => {
                    if !self.start(b)? {
                        return Ok(None);
                    }
                }
                Phase::Element if b == b']' && self.first => self.phase = Phase::Done,
                Phase::Element if is_json_space(b) => {}
                Phase::Element => {
                    let got = self.element_here(b, &mut decode)?;
                    if got.is_some() {
                        return Ok(got);
                    }
                    continue;
                }
                Phase::InElement => return self.rest_of_element(&mut decode),
                Phase::Separator => match b {
                    b',' => self.phase = Phase::Element,
                    b']' => self.phase = Phase::Done,
                    _ if is_json_space(b) => {}
                    _ => return Err(not_array().into()),
                },
                Phase::Done => {
                    if !is_json_space(b) {
                        return Err(Error::server(
                            "unexpected data after the end of the JSON array",
                        )
                        .into());
                    }
                }
            }
            self.pos += 1;
        }
        Ok(None)
    }

    /// Before the array: `[`, whitespace, or `null` (the real server's "no
    /// data" for aggregates); false while the rest of `null` is awaited.
    fn start(&mut self, b: u8) -> Result<bool> {
        match b {
            b'[' => self.phase = Phase::Element,
            b'n' => {
                let rest = &self.buf[self.pos..];
                if rest.len() < 4 {
                    return Ok(false);
                }
                if &rest[..4] != b"null" {
                    return Err(not_array());
                }
                self.pos += 3;
                self.phase = Phase::Done;
            }
            _ if is_json_space(b) => {}
            _ => return Err(not_array()),
        }
        Ok(true)
    }

    /// An element starts at `pos` with `b`: decoded at once if it is all
    /// here, else marked for scanning as it arrives.
    fn element_here<R, E>(
        &mut self,
        b: u8,
        decode: &mut impl FnMut(&[u8], Part) -> Decoded<R, E>,
    ) -> Result<Option<(R, Range<usize>)>, E> {
        let start = self.pos;
        // A bare number or word could go on in the next chunk; an object,
        // array or string says where it ends.
        if matches!(b, b'{' | b'[' | b'"')
            && let Some((v, n)) = decode(&self.buf[start..], Part::Prefix)?
        {
            self.phase = Phase::Separator;
            self.first = false;
            self.pos = start + n;
            return Ok(Some((v, start..start + n)));
        }
        self.phase = Phase::InElement;
        self.elem_start = start;
        self.depth = 0;
        self.in_str = false;
        self.esc = false;
        Ok(None)
    }

    /// Scan on through an element still arriving; decode it once whole.
    fn rest_of_element<R, E: From<Error>>(
        &mut self,
        decode: &mut impl FnMut(&[u8], Part) -> Decoded<R, E>,
    ) -> Result<Option<(R, Range<usize>)>, E> {
        let Some(end) = self.scan_element() else {
            if self.buf.len() - self.elem_start > MAX_ELEMENT {
                return Err(Error::server(format!(
                    "a log entry is larger than {} MiB: not read further",
                    MAX_ELEMENT >> 20
                ))
                .into());
            }
            return Ok(None);
        };
        let start = self.elem_start;
        self.phase = Phase::Separator;
        self.first = false;
        match decode(&self.buf[start..end], Part::Whole)? {
            // What the value did not take (whitespace, or a second value,
            // as in `[1 2]`, which serde_json refuses: found by the
            // differential fuzzing) is read again as what follows it.
            Some((v, n)) => {
                self.pos = start + n;
                Ok(Some((v, start..end)))
            }
            None => Err(Error::server("unexpected response body: an incomplete JSON value").into()),
        }
    }

    /// Advance through the current element; the end offset once it is
    /// complete. Inside strings (most of a log: outputs are long Base64
    /// text) it jumps to the next `"` or `\`; between them, where only
    /// short keys, numbers and punctuation are, it steps byte by byte.
    fn scan_element(&mut self) -> Option<usize> {
        let buf = &self.buf;
        let mut i = self.pos;
        while i < buf.len() {
            if self.in_str {
                if self.esc {
                    self.esc = false;
                    i += 1;
                    continue;
                }
                let Some(k) = memchr::memchr2(b'"', b'\\', &buf[i..]) else {
                    i = buf.len();
                    break;
                };
                i += k;
                if buf[i] == b'\\' {
                    self.esc = true;
                } else {
                    self.in_str = false;
                    if self.depth == 0 {
                        self.pos = i + 1;
                        return Some(i + 1);
                    }
                }
            } else {
                match buf[i] {
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

/// JSON's whitespace: not `is_ascii_whitespace`, which takes a form feed
/// too (serde_json refuses one; found by the differential fuzzing).
fn is_json_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn not_array() -> Error {
    Error::server("the response is not a JSON array")
}

/// Decode a value from the start of `bytes` (see `Part`): the value and
/// the bytes it took, or `None` when `bytes` end before the value does.
/// The fast path is serde_json alone; a whole value that does not fit is
/// decoded again with its path tracked, for a message naming the field.
pub fn decode_prefix<'a, T: Deserialize<'a>>(bytes: &'a [u8], part: Part) -> Decoded<T> {
    let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<T>();
    let first = match values.next() {
        None => return Ok(None),
        Some(Ok(v)) => return Ok(Some((v, values.byte_offset()))),
        Some(Err(_)) if part == Part::Prefix => return Ok(None),
        Some(Err(e)) if e.is_eof() => return Ok(None),
        Some(Err(e)) => e.to_string(),
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let msg = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Err(e) if e.path().to_string() != "." => format!("field `{}`: {}", e.path(), e.inner()),
        _ => first,
    };
    Err(Error::server(format!("unexpected response body: {msg}")))
}

/// The elements of a JSON array arriving as a byte stream.
pub struct ArrayStream<S> {
    body: S,
    scanner: ArrayScanner,
    ended: bool,
    /// The longest wait for the next whole element (the read timeout).
    patience: Duration,
    /// Where an element left out (not of the spec's types) is said.
    warn: Warn,
}

pub use crate::http::Warn;

/// The error of a body that completed no element for `patience`.
pub fn no_progress(patience: Duration) -> Error {
    Error::network(format!(
        "the log sent no complete entry for {}",
        crate::time::human_ms(patience.as_millis() as i64)
    ))
    .with_cause(crate::error::Cause::NoProgress)
}

impl<S> ArrayStream<S>
where
    S: Stream<Item = Result<Bytes>> + Unpin,
{
    /// `patience`: how long the body may go without completing an element.
    pub fn new(body: S, patience: Duration) -> Self {
        ArrayStream {
            body,
            scanner: ArrayScanner::new(),
            ended: false,
            patience,
            warn: std::sync::Arc::new(|_: &str| {}),
        }
    }

    /// With `warn` told of each element left out.
    pub fn with_warn(mut self, warn: Warn) -> Self {
        self.warn = warn;
        self
    }

    /// Where an element left out is said.
    pub fn warner(&self) -> Warn {
        self.warn.clone()
    }

    /// The body not yet read, the scanner with what was, and the patience
    /// (for decoding on another thread: `relay`).
    pub fn into_parts(self) -> (S, ArrayScanner, Duration) {
        (self.body, self.scanner, self.patience)
    }

    /// The next element as `decode` makes it (see `ArrayScanner::take`),
    /// `None` at the end of the array. `idle` is called before waiting for
    /// the network, i.e. whenever everything that has arrived so far has
    /// been handed out; both get `cx`, so that both may use the same thing
    /// (the printer: a row, or a flush).
    pub async fn next_with<C, R, E: From<Error>>(
        &mut self,
        cx: &mut C,
        idle: &mut impl FnMut(&mut C) -> Result<(), E>,
        decode: &mut impl FnMut(&mut C, &[u8], Part) -> Decoded<R, E>,
    ) -> Result<Option<R>, E> {
        // The patience runs from this call (the caller's own pauses, e.g.
        // a paused pager, are not the server's), less the time `idle`
        // spends flushing to a slow reader.
        let mut since = tokio::time::Instant::now();
        loop {
            if let Some((v, _)) = self.scanner.take_as(|b, part| decode(cx, b, part))? {
                return Ok(Some(v));
            }
            if self.scanner.is_done() && self.ended {
                return Ok(None);
            }
            if self.ended {
                return Err(
                    Error::server("the response ended before the JSON array was complete").into(),
                );
            }
            // Bytes that keep coming without completing an element are no
            // progress.
            if since.elapsed() > self.patience {
                return Err(no_progress(self.patience).into());
            }
            // Polling once without waiting is safe: a chunk is only taken
            // from the body when it is ready.
            let next = match self.body.next().now_or_never() {
                Some(next) => next,
                None => {
                    let flushing = tokio::time::Instant::now();
                    idle(cx)?;
                    since += flushing.elapsed();
                    tokio::time::timeout_at(since + self.patience, self.body.next())
                        .await
                        .map_err(|_| no_progress(self.patience))?
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
    fn strings_are_skipped_to_the_next_quote_or_backslash() {
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
        // Found by the differential fuzzing: two values in one element,
        // and a form feed, which JSON does not take for whitespace.
        for body in [&b"[1 2]"[..], b"[1 {}]", b"[1:2]", b"[\x0c1]", b"[]\x0c"] {
            for n in 1..=body.len() {
                assert!(split(body, n).is_err(), "{body:?} in chunks of {n}");
            }
        }
    }

    /// Elements decoded as `Value`s through `take` at every chunk size and
    /// at every two-piece cut, against serde_json on the whole body.
    fn same_at_every_cut(body: &str) {
        let want: Vec<serde_json::Value> = serde_json::from_str(body).unwrap();
        let decode_all = |pieces: &mut dyn Iterator<Item = &[u8]>| {
            let mut s = ArrayScanner::new();
            let mut got = Vec::new();
            for p in pieces {
                s.push(p);
                while let Some((v, _)) = s
                    .take(|b, part| decode_prefix::<serde_json::Value>(b, part))
                    .unwrap()
                {
                    got.push(v);
                }
            }
            assert!(s.is_done());
            got
        };
        let b = body.as_bytes();
        for n in 1..=b.len() {
            assert_eq!(decode_all(&mut b.chunks(n)), want, "chunks of {n}");
        }
        for cut in 0..=b.len() {
            let (x, y) = b.split_at(cut);
            assert_eq!(decode_all(&mut [x, y].into_iter()), want, "cut at {cut}");
        }
    }

    #[test]
    fn escapes_and_multibyte_text_split_anywhere() {
        same_at_every_cut(
            r#"[{"output":"q\" b\\ s\/ \b\f\n\r\t \u00e9\ud83d\ude00 é😀 ✓","n":null},
                {"output":null,"errors":[{"a":[1,{"b":"]}\""}]},[]],"x":"日本"},
                "é\\", ["😀", {"k": "\u0000"}]]"#,
        );
    }

    #[test]
    fn numbers_cut_after_a_sign_a_dot_or_an_exponent() {
        same_at_every_cut(r#"[[-1.5e+3, 0.25E-2], {"a": -0.5, "b": [1e2]}, -7, 2.5e-3]"#);
    }

    #[test]
    fn a_huge_element_in_many_pieces_comes_out_once_and_the_buffer_stays_its_size() {
        let big = "QUJD".repeat(1 << 20);
        let body = format!(r#"[{{"a":1}},{{"output":"{big}"}},{{"a":2}}]"#);
        let mut s = ArrayScanner::new();
        let mut got = Vec::new();
        for c in body.as_bytes().chunks(1000) {
            s.push(c);
            while let Some(e) = s.next_element().unwrap() {
                got.push(e.len());
            }
        }
        assert!(s.is_done());
        assert_eq!(got, [7, big.len() + 13, 7]);
        // Grown by doubling for the one big element, never more.
        assert!(s.buf.capacity() <= 2 * body.len(), "{}", s.buf.capacity());
    }

    #[test]
    fn a_truncated_body_gives_each_whole_element_once_and_never_ends() {
        let body = r#"[{"a":"é\"x"}, 12, "s", {"b":[1,2]}, -3.5]"#;
        let all = split(body.as_bytes(), body.len()).unwrap();
        for cut in 0..body.len() {
            let mut s = ArrayScanner::new();
            let mut got = Vec::new();
            for c in body.as_bytes()[..cut].chunks(3) {
                s.push(c);
                while let Ok(Some(e)) = s.next_element() {
                    got.push(String::from_utf8(e.to_vec()).unwrap());
                }
            }
            assert!(!s.is_done(), "cut at {cut}");
            assert_eq!(got, all[..got.len()], "cut at {cut}");
        }
    }
}
