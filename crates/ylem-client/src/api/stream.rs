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
//! An entry's `output` (the one field that may be large: the spec's go to
//! 50 MiB) is kept only up to the stream's bound (`keep_output`, 1 MiB
//! unless the caller sets another): the rest is dropped as it arrives and
//! the string ends with a marker saying how long it was (`api::cut`), so
//! an entry is held in at most the bound and its other fields, whatever
//! its size. An entry that fits in the bound is decoded as it is, and so
//! is every entry whose output is shorter than it, however it arrives.
//!
//! Three bounds keep a hostile body from holding memory or the command for
//! ever: one element may be at most `MAX_ELEMENT` bytes as sent (a task's
//! output may be 50 MiB), hold at most `MAX_HELD` bytes besides what its
//! output drops, and a body that completes no element for the stream's
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
pub(crate) struct ArrayScanner {
    buf: Vec<u8>,
    pos: usize,
    phase: Phase,
    elem_start: usize,
    depth: u32,
    in_str: bool,
    esc: bool,
    first: bool,
    /// The longest `output` kept (bytes of its JSON string).
    keep_output: usize,
    /// In the element's object: the next string is a key.
    expect_key: bool,
    /// The string being scanned is a key of the element's object.
    in_key: bool,
    /// The last key of the element's object was `output`.
    key_is_output: bool,
    /// The string being scanned is the element's `output`.
    out_str: bool,
    /// Where the string being scanned starts (its first byte after `"`).
    str_start: usize,
    /// Where the output being scanned was cut: what follows is dropped.
    cut_at: Option<usize>,
    /// Bytes of the output being scanned dropped so far.
    str_dropped: u64,
    /// Bytes of the element dropped so far.
    dropped: u64,
}

/// What scanning an element found.
enum Scan {
    /// It ends here.
    End(usize),
    /// A cut output's closing quote is here.
    CutClosed(usize),
    /// It goes on in bytes still to come.
    More,
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
pub(crate) const MAX_ELEMENT: usize = 64 << 20;

/// The most an element holds besides what its output drops: its output's
/// kept part and the other fields (UUIDs, a type, a time), with room.
pub(crate) const MAX_HELD: usize = 16 << 20;

/// The longest output kept unless the caller says otherwise: what a table
/// cell or a failure's messages need, and what a run's model keeps.
pub const KEEP_OUTPUT: usize = 1 << 20;

/// The longest output a caller may have kept (`MAX_HELD` leaves the rest
/// for the other fields).
pub const KEEP_OUTPUT_MAX: usize = 8 << 20;

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
            keep_output: KEEP_OUTPUT,
            expect_key: false,
            in_key: false,
            key_is_output: false,
            out_str: false,
            str_start: 0,
            cut_at: None,
            str_dropped: 0,
            dropped: 0,
        }
    }

    /// Keep at most `n` bytes of an entry's output (at most
    /// `KEEP_OUTPUT_MAX`): a longer one ends in the cut marker.
    pub fn keep_output(mut self, n: usize) -> Self {
        self.keep_output = n.clamp(64, KEEP_OUTPUT_MAX);
        self
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
            self.str_start = self.str_start.saturating_sub(keep_from);
            self.cut_at = self.cut_at.map(|c| c - keep_from);
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
    #[allow(
        dead_code,
        reason = "for the oracle (`oracle/`: tests and fuzz targets)"
    )]
    pub fn next_element(&mut self) -> Result<Option<&[u8]>> {
        let span =
            self.take(|b, part| Ok(decode_prefix::<IgnoredAny>(b, part)?.map(|(_, n)| ((), n))))?;
        Ok(span.map(|(_, r)| &self.buf[r]))
    }

    /// Decode the next complete element with `decode` (see `Decoded`); the
    /// value and where the element is in the buffer (valid until `push`).
    /// `decode` is given the bytes from the element's start to the end of
    /// the buffer when the element may be all there, else the element alone.
    #[allow(
        dead_code,
        reason = "for the oracle (`oracle/`: tests and fuzz targets)"
    )]
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
        // array or string says where it ends. Only an element within the
        // output bound is decoded from here: a larger one is scanned, so
        // that its output is cut however it arrived.
        let window = start + (self.buf.len() - start).min(self.keep_output);
        if matches!(b, b'{' | b'[' | b'"')
            && let Some((v, n)) = decode(&self.buf[start..window], Part::Prefix)?
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
        self.expect_key = false;
        self.in_key = false;
        self.key_is_output = false;
        self.out_str = false;
        self.cut_at = None;
        self.str_dropped = 0;
        self.dropped = 0;
        Ok(None)
    }

    /// Scan on through an element still arriving; decode it once whole.
    fn rest_of_element<R, E: From<Error>>(
        &mut self,
        decode: &mut impl FnMut(&[u8], Part) -> Decoded<R, E>,
    ) -> Result<Option<(R, Range<usize>)>, E> {
        let end = loop {
            match self.scan_element() {
                Scan::End(end) => break end,
                Scan::CutClosed(quote) => self.close_cut(quote),
                Scan::More => {
                    // What follows the cut is all output: dropped.
                    if let Some(cut) = self.cut_at
                        && self.buf.len() > cut
                    {
                        let n = (self.buf.len() - cut) as u64;
                        self.str_dropped += n;
                        self.dropped += n;
                        self.buf.truncate(cut);
                        self.pos = cut;
                    }
                    let held = self.buf.len() - self.elem_start;
                    if held as u64 + self.dropped > MAX_ELEMENT as u64 {
                        return Err(Error::server(format!(
                            "a log entry is larger than {} MiB: not read further",
                            MAX_ELEMENT >> 20
                        ))
                        .into());
                    }
                    if held > MAX_HELD {
                        return Err(Error::server(format!(
                            "a log entry is larger than {} MiB besides its output: not read further",
                            MAX_HELD >> 20
                        ))
                        .into());
                    }
                    return Ok(None);
                }
            }
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

    /// A cut output's closing quote is at `quote`: what is left of the cut
    /// part goes, and the marker takes its place before the quote.
    fn close_cut(&mut self, quote: usize) {
        let cut = self.cut_at.take().unwrap_or(quote);
        let sent = (quote - self.str_start) as u64 + self.str_dropped;
        self.dropped += (quote - cut) as u64;
        let marker = super::cut::marker(sent);
        self.buf.splice(cut..quote, marker.bytes());
        self.pos = cut + marker.len() + 1;
        self.in_str = false;
        self.out_str = false;
        self.str_dropped = 0;
    }

    /// Advance through the current element; where it ends once it is
    /// complete. Inside strings (most of a log: outputs are long Base64
    /// text) it jumps to the next `"` or `\`; between them, where only
    /// short keys, numbers and punctuation are, it steps byte by byte. The
    /// element's `output` past the bound is marked for cutting.
    fn scan_element(&mut self) -> Scan {
        let buf = &self.buf;
        let mut i = self.pos;
        while i < buf.len() {
            if self.in_str {
                if self.esc {
                    self.esc = false;
                    i += 1;
                    continue;
                }
                let found = memchr::memchr2(b'"', b'\\', &buf[i..]);
                let stop = found.map_or(buf.len(), |k| i + k);
                if self.out_str && self.cut_at.is_none() && stop - self.str_start > self.keep_output
                {
                    self.cut_at = Some(cut_point(buf, self.str_start, self.keep_output));
                }
                let Some(k) = found else {
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
                        return Scan::End(i + 1);
                    }
                    if self.in_key {
                        self.in_key = false;
                        self.key_is_output = &buf[self.str_start..i] == b"output";
                    }
                    if self.cut_at.is_some() {
                        self.in_str = true;
                        self.pos = i;
                        return Scan::CutClosed(i);
                    }
                    self.out_str = false;
                }
            } else {
                match buf[i] {
                    b'"' => {
                        self.in_str = true;
                        if self.depth == 1 {
                            self.str_start = i + 1;
                            self.in_key = self.expect_key;
                            self.out_str = !self.expect_key && self.key_is_output;
                        }
                    }
                    b'{' | b'[' => {
                        self.depth += 1;
                        if self.depth == 1 {
                            self.expect_key = buf[i] == b'{';
                        }
                    }
                    b':' if self.depth == 1 => self.expect_key = false,
                    b',' if self.depth == 1 => {
                        self.expect_key = true;
                        self.key_is_output = false;
                    }
                    b'}' | b']' if self.depth > 0 => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            self.pos = i + 1;
                            return Scan::End(i + 1);
                        }
                    }
                    // A scalar element ends at the next separator.
                    b',' | b']' if self.depth == 0 => {
                        self.pos = i;
                        return Scan::End(i);
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        self.pos = i;
        Scan::More
    }
}

/// Where to cut a string starting at `start` to at most `keep` bytes: not
/// inside a character, an escape, or between the two halves of a
/// surrogate pair (serde_json refuses a lone one), so that what is kept
/// is a string still.
fn cut_point(buf: &[u8], start: usize, keep: usize) -> usize {
    let mut k = start + keep;
    while k > start && (buf[k] & 0xC0) == 0x80 {
        k -= 1;
    }
    // An escape is at most 6 bytes (`\uXXXX`): only one starting in the
    // 6 bytes before `k` can reach past it.
    let from = k.saturating_sub(6).max(start);
    let mut j = from;
    while j < k {
        if buf[j] != b'\\' {
            j += 1;
            continue;
        }
        let before = buf[start..j]
            .iter()
            .rev()
            .take_while(|&&c| c == b'\\')
            .count();
        if before % 2 == 1 {
            // The second half of `\\`.
            j += 1;
            continue;
        }
        let len = if buf.get(j + 1) == Some(&b'u') { 6 } else { 2 };
        let high = len == 6
            && matches!(
                buf.get(j + 2..j + 4),
                Some([b'd' | b'D', b'8'..=b'9' | b'a' | b'b' | b'A' | b'B'])
            );
        if j + len > k || (high && j + len == k) {
            return j;
        }
        j += len;
    }
    k
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
pub(crate) fn decode_prefix<'a, T: Deserialize<'a>>(bytes: &'a [u8], part: Part) -> Decoded<T> {
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

pub(crate) use crate::http::Warn;

/// The error of a body that completed no element for `patience`.
pub(crate) fn no_progress(patience: Duration) -> Error {
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
    pub(crate) fn new(body: S, patience: Duration) -> Self {
        ArrayStream {
            body,
            scanner: ArrayScanner::new(),
            ended: false,
            patience,
            warn: std::sync::Arc::new(|_: &str| {}),
        }
    }

    /// Keep at most `n` bytes of each entry's output (see
    /// `ArrayScanner::keep_output`).
    pub fn keep_output(mut self, n: usize) -> Self {
        self.scanner = std::mem::take(&mut self.scanner).keep_output(n);
        self
    }

    /// With `warn` told of each element left out.
    pub(crate) fn with_warn(mut self, warn: Warn) -> Self {
        self.warn = warn;
        self
    }

    /// Where an element left out is said.
    pub(crate) fn warner(&self) -> Warn {
        self.warn.clone()
    }

    /// The body not yet read, the scanner with what was, and the patience
    /// (for decoding on another thread: `relay`).
    pub(crate) fn into_parts(self) -> (S, ArrayScanner, Duration) {
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
        let mut s = ArrayScanner::new().keep_output(KEEP_OUTPUT_MAX);
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

    /// The elements of `body` as `Value`s, pushed in pieces of `chunk`,
    /// outputs kept to `keep`; and the buffer's largest capacity.
    fn values(body: &[u8], chunk: usize, keep: usize) -> (Vec<serde_json::Value>, usize) {
        let mut s = ArrayScanner::new().keep_output(keep);
        let (mut got, mut cap) = (Vec::new(), 0);
        for c in body.chunks(chunk) {
            s.push(c);
            cap = cap.max(s.buf.capacity());
            while let Some((v, _)) = s
                .take(|b, part| decode_prefix::<serde_json::Value>(b, part))
                .unwrap()
            {
                got.push(v);
            }
        }
        assert!(s.is_done());
        (got, cap)
    }

    #[test]
    fn an_output_over_the_bound_is_cut_alike_however_it_arrives_and_never_held() {
        let keep = 4096;
        let big = "QUJD".repeat(100_000);
        let body = format!(
            r#"[{{"a":1}},{{"task_type":"q","output":"{big}","n":[1,{{"output":"x"}}],"t":"z"}},{{"output":"{}"}}]"#,
            &big[..keep]
        );
        let cut = format!(
            "{}{}",
            &big[..keep],
            crate::api::cut::marker(big.len() as u64)
        );
        let want = vec![
            serde_json::json!({"a": 1}),
            serde_json::json!({"task_type": "q", "output": cut, "n": [1, {"output": "x"}], "t": "z"}),
            // Exactly the bound: whole.
            serde_json::json!({"output": &big[..keep]}),
        ];
        for chunk in [1000, 4096, 65536, body.len()] {
            let (got, cap) = values(body.as_bytes(), chunk, keep);
            assert_eq!(got, want, "chunks of {chunk}");
            if chunk < body.len() {
                assert!(cap <= 4 * INITIAL_CAPACITY, "chunks of {chunk}: {cap}");
            }
        }
    }

    #[test]
    fn a_cut_output_stays_a_string_wherever_its_escapes_fall() {
        let keep = 64;
        for pad in 0..12 {
            for esc in [r"\\", r#"\""#, r"\u00e9", r"\ud83d\ude00", "é", "😀"] {
                let text = format!("{}{}", "a".repeat(keep - 6 + pad), esc.repeat(40));
                let body = format!(r#"[{{"output":"{text}"}}]"#);
                let whole: String = serde_json::from_str(&format!("\"{text}\"")).unwrap();
                for chunk in [7, 64, body.len()] {
                    let (got, _) = values(body.as_bytes(), chunk, keep);
                    let out = got[0]["output"].as_str().unwrap();
                    let c = crate::api::cut::cut_of(out).unwrap();
                    assert_eq!(c.sent, text.len() as u64, "{esc} {pad}");
                    assert!(whole.starts_with(c.kept), "{esc} {pad}: {:?}", c.kept);
                    assert!(c.kept.len() + 12 >= keep, "{esc} {pad}: {:?}", c.kept);
                }
            }
        }
    }

    #[test]
    fn an_endless_output_ends_at_the_entry_bound_holding_the_kept_part_only() {
        let mut s = ArrayScanner::new();
        s.push(br#"[{"workflow_run_uuid":"r","output":""#);
        let chunk = vec![b'Q'; 64 * 1024];
        let mut err = None;
        for _ in 0..(MAX_ELEMENT / chunk.len() + 2) {
            s.push(&chunk);
            if let Err(e) = s.next_element() {
                err = Some(e);
                break;
            }
            assert!(s.buf.capacity() <= 2 * KEEP_OUTPUT + 2 * INITIAL_CAPACITY);
        }
        let e = err.expect("an error at the bound");
        assert!(e.message.contains("larger than 64 MiB"), "{}", e.message);
    }

    #[test]
    fn what_is_not_the_output_is_held_to_its_own_bound() {
        let mut s = ArrayScanner::new();
        s.push(br#"[{"task_type":""#);
        let chunk = vec![b'Q'; 64 * 1024];
        let mut err = None;
        for _ in 0..(MAX_HELD / chunk.len() + 2) {
            s.push(&chunk);
            if let Err(e) = s.next_element() {
                err = Some(e);
                break;
            }
        }
        let e = err.expect("an error at the bound");
        assert!(
            e.message.contains("larger than 16 MiB besides its output"),
            "{}",
            e.message
        );
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
