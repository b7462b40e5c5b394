//! Writing cells as JSON and CSV text into one large block buffer, handed
//! to the output a block at a time; a field too big for a block goes out
//! on its own, so a 50 MiB output is not copied into the buffer first.

use std::io::Write;

use super::cell::{CellRef, Txt};

/// The size of the writes: at least the output's own buffer (64 KiB), so
/// that it passes the blocks on instead of copying them again.
pub const BLOCK: usize = 64 * 1024;

/// A buffered writer that writes big pieces straight through.
pub struct Blocks<'a> {
    pub buf: Vec<u8>,
    out: Box<dyn Write + Send + 'a>,
}

impl<'a> Blocks<'a> {
    pub fn new(out: Box<dyn Write + Send + 'a>) -> Self {
        Blocks {
            buf: Vec::with_capacity(2 * BLOCK),
            out,
        }
    }

    /// Append `bytes`; a whole block goes out as soon as there is one.
    pub fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if bytes.len() >= BLOCK {
            self.drain()?;
            return self.out.write_all(bytes);
        }
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= BLOCK {
            self.drain()?;
        }
        Ok(())
    }

    /// Hand the buffer on (not flushing the output itself).
    pub fn drain(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

impl Write for Blocks<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.put(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.drain()?;
        self.out.flush()
    }
}

/// Text as a JSON string: as it is when it is plain, else escaped the way
/// serde_json escapes (the output stays byte for byte what it was).
fn json_str(w: &mut Blocks, s: Txt) -> std::io::Result<()> {
    if s.plain {
        w.put(b"\"")?;
        w.put(s.text.as_bytes())?;
        return w.put(b"\"");
    }
    serde_json::to_writer(w, s.text).map_err(std::io::Error::from)
}

/// Append the cell as a JSON value.
pub fn json(w: &mut Blocks, c: CellRef) -> std::io::Result<()> {
    let mut num = itoa_buf();
    match c {
        CellRef::Null | CellRef::Never => w.put(b"null"),
        CellRef::Str(s) | CellRef::Time(s) | CellRef::Output(s) => json_str(w, s),
        CellRef::Int(i) | CellRef::Ms(i) => w.put(fmt_int(&mut num, i)),
        CellRef::Num(n) => serde_json::to_writer(w, n).map_err(std::io::Error::from),
        CellRef::Bool(b) | CellRef::Success(b) => w.put(if b { b"true" } else { b"false" }),
        CellRef::Json(v) => serde_json::to_writer(w, v).map_err(std::io::Error::from),
        CellRef::RawJson(t) => w.put(t.as_bytes()),
    }
}

/// Append the cell as a CSV field, quoted as the `csv` crate quotes by
/// default: when it holds `,`, `"`, `\r` or `\n`, with `"` doubled.
/// `scratch` holds numbers and JSON while they are written. True when the
/// field was empty. Unless `raw` (`--csv-raw`), a text cell is made safe to
/// open in a spreadsheet, as OWASP advises against CSV injection: control
/// characters, CR and bidi overrides escaped as tables escape them
/// (`\u{1b}`, `\r`; a line break stays, quoted, as CSV keeps one in a
/// field and a spreadsheet shows it in the cell), and a `'` put before one that starts with `=`, `+`,
/// `-`, `@`, tab or CR, which a spreadsheet would run as a formula. Numbers,
/// booleans, times and JSON cells are never changed.
pub fn csv(w: &mut Blocks, c: CellRef, scratch: &mut Vec<u8>, raw: bool) -> std::io::Result<bool> {
    scratch.clear();
    let text: &[u8] = match c {
        CellRef::Null | CellRef::Never => b"",
        // Plain text has no `"` and no control character: only a comma
        // can call for quotes.
        CellRef::Str(s) | CellRef::Output(s) if !raw && formula(s.text.as_bytes()) => {
            scratch.push(b'\'');
            scratch.extend_from_slice(ylem_client::text::escape_but(s.text, Some('\n')).as_bytes());
            scratch
        }
        CellRef::Str(s) | CellRef::Time(s) | CellRef::Output(s)
            if s.plain && !has_comma(s.text.as_bytes()) =>
        {
            w.put(s.text.as_bytes())?;
            return Ok(s.text.is_empty());
        }
        CellRef::Str(s) | CellRef::Output(s) if !raw => {
            scratch.extend_from_slice(ylem_client::text::escape_but(s.text, Some('\n')).as_bytes());
            scratch
        }
        CellRef::Str(s) | CellRef::Time(s) | CellRef::Output(s) => s.text.as_bytes(),
        // Numbers and booleans never call for quotes, and are never empty.
        CellRef::Bool(b) | CellRef::Success(b) => {
            w.put(if b { b"true" } else { b"false" })?;
            return Ok(false);
        }
        CellRef::Int(i) | CellRef::Ms(i) => {
            let mut num = itoa_buf();
            w.put(fmt_int(&mut num, i))?;
            return Ok(false);
        }
        CellRef::Num(n) => {
            write!(scratch, "{n}")?;
            w.put(scratch)?;
            return Ok(false);
        }
        CellRef::Json(v) => {
            serde_json::to_writer(&mut *scratch, v)?;
            scratch
        }
        CellRef::RawJson(t) => t.as_bytes(),
    };
    csv_field(w, text)?;
    Ok(text.is_empty())
}

/// Whether text starts as a spreadsheet formula would (OWASP's list).
fn formula(s: &[u8]) -> bool {
    matches!(s.first(), Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r'))
}

/// A comma in `s`: a plain loop for short text (UUIDs, names, times),
/// cheaper than a call to `memchr`, which wins on long outputs.
fn has_comma(s: &[u8]) -> bool {
    if s.len() < 64 {
        return s.iter().fold(false, |f, &c| f | (c == b','));
    }
    memchr::memchr(b',', s).is_some()
}

fn csv_field(w: &mut Blocks, text: &[u8]) -> std::io::Result<()> {
    let special =
        memchr::memchr3(b',', b'"', b'\n', text).is_some() || memchr::memchr(b'\r', text).is_some();
    if !special {
        return w.put(text);
    }
    w.put(b"\"")?;
    let mut from = 0;
    for q in memchr::memchr_iter(b'"', text) {
        w.put(&text[from..=q])?;
        w.put(b"\"")?;
        from = q + 1;
    }
    w.put(&text[from..])?;
    w.put(b"\"")
}

/// A CSV record of `fields` (the header): a record of one empty field is
/// `""`, as the `csv` crate writes it, so that it is not an empty line.
pub fn csv_names(w: &mut Blocks, fields: &[&str]) -> std::io::Result<()> {
    for (n, f) in fields.iter().enumerate() {
        if n > 0 {
            w.put(b",")?;
        }
        csv_field(w, f.as_bytes())?;
    }
    csv_end(w, fields.len() == 1 && fields[0].is_empty())
}

/// End a CSV record; `empty` when it was one empty field.
pub fn csv_end(w: &mut Blocks, empty: bool) -> std::io::Result<()> {
    if empty {
        w.put(b"\"\"")?;
    }
    w.put(b"\n")
}

fn itoa_buf() -> [u8; 20] {
    [0; 20]
}

/// `i` in decimal, as `Display` writes it, without the formatting machinery.
fn fmt_int(buf: &mut [u8; 20], i: i64) -> &[u8] {
    let mut n = i.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        // The sign takes the place before the 19 digits of i64::MIN too.
        at -= 1;
        buf[at] = b'-';
    }
    &buf[at..]
}
