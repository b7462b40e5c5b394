//! A log entry read straight from its bytes when it has the everyday shape
//! (the spec's keys once each, text without escapes or control characters,
//! integers), in one pass that jumps over strings with `memchr` and checks
//! the element's UTF-8 once. serde_json took about 7 instructions a byte
//! for the same (finding each string's end and validating it, byte by
//! byte); this takes about one. Anything else (an escape, an unknown or
//! repeated key, a fraction, an element not all here) is `None`, and
//! serde_json decodes it: so what comes out is always what serde_json
//! would make of the element.

use serde_json::Number;

use super::models::{LogEntryRef, Text};

/// The fields, in the order of `LogEntryRef`.
const RUN: usize = 0;
const TASK: usize = 1;
const TYPE: usize = 2;
const OK: usize = 3;
const DURATION: usize = 4;
const OUTPUT: usize = 5;
const METRIC: usize = 6;
const AT: usize = 7;

fn field(key: &[u8]) -> Option<usize> {
    Some(match key {
        b"workflow_run_uuid" | b"pipeline_run_uuid" => RUN,
        b"task_uuid" => TASK,
        b"task_type" => TYPE,
        b"is_successful" => OK,
        b"duration" => DURATION,
        b"output" => OUTPUT,
        b"metric_value" => METRIC,
        b"executed_at" => AT,
        _ => return None,
    })
}

/// The spec's keys in its order, which servers keep: the next key is
/// compared with the one expected before it is looked for.
const ORDER: [&[u8]; 8] = [
    b"\"workflow_run_uuid\"",
    b"\"task_uuid\"",
    b"\"task_type\"",
    b"\"is_successful\"",
    b"\"duration\"",
    b"\"output\"",
    b"\"metric_value\"",
    b"\"executed_at\"",
];

/// The field of the key at `i` (which it moves past), the one at `next` in
/// `ORDER` first.
fn key(b: &[u8], i: &mut usize, next: usize) -> Option<usize> {
    if let Some(want) = ORDER.get(next)
        && b[*i..].starts_with(want)
    {
        *i += want.len();
        return Some(next);
    }
    let span = string(b, i)?;
    field(&b[span])
}

/// What was found of the entry while scanning: spans of text, and values.
#[derive(Default)]
struct Found {
    seen: [bool; 8],
    text: [Option<std::ops::Range<usize>>; 8],
    ok: bool,
    duration: i64,
    metric: Option<Number>,
}

/// The entry that starts `b`, and the bytes it took; `None` when it is
/// not of the everyday shape or does not end within `b`.
pub fn scan(b: &[u8]) -> Option<(LogEntryRef<'_>, usize)> {
    let mut f = Found::default();
    let mut i = ws(b, 0);
    expect(b, &mut i, b'{')?;
    let mut next = 0;
    loop {
        i = ws(b, i);
        let k = key(b, &mut i, next)?;
        next = k + 1;
        if std::mem::replace(&mut f.seen[k], true) {
            return None;
        }
        i = ws(b, i);
        expect(b, &mut i, b':')?;
        i = ws(b, i);
        value(b, &mut i, k, &mut f)?;
        i = ws(b, i);
        match *b.get(i)? {
            b',' => i += 1,
            b'}' => break,
            _ => return None,
        }
    }
    let end = i + 1;
    if ![RUN, TASK, TYPE, OK, DURATION, AT]
        .iter()
        .all(|&k| f.seen[k])
    {
        return None;
    }
    // Once for the whole element: the strings are slices of it, cut at
    // their quotes (ASCII, so always on a character boundary).
    let text = std::str::from_utf8(&b[..end]).ok()?;
    let mut take = |k: usize| {
        f.text[k]
            .take()
            .and_then(|r| text.get(r))
            .map(Text::unescaped)
    };
    let entry = LogEntryRef {
        workflow_run_uuid: take(RUN)?,
        task_uuid: take(TASK)?,
        task_type: take(TYPE)?,
        is_successful: f.ok,
        duration: f.duration,
        output: take(OUTPUT),
        metric_value: f.metric,
        executed_at_raw: take(AT)?,
    };
    Some((entry, end))
}

/// Field `k`'s value at `i`.
fn value(b: &[u8], i: &mut usize, k: usize, f: &mut Found) -> Option<()> {
    match (k, *b.get(*i)?) {
        (OUTPUT | METRIC, b'n') => word(b, i, b"null"),
        (RUN | TASK | TYPE | OUTPUT | AT, b'"') => {
            f.text[k] = Some(string(b, i)?);
            Some(())
        }
        (OK, b't') => {
            f.ok = true;
            word(b, i, b"true")
        }
        (OK, b'f') => word(b, i, b"false"),
        (DURATION, _) => {
            let span = number(b, i);
            f.duration = match integer(span) {
                Some(n) => n,
                None => serde_json::from_slice(span).ok()?,
            };
            Some(())
        }
        (METRIC, _) => {
            let span = number(b, i);
            f.metric = Some(match integer(span) {
                Some(n) if n < 0 => Number::from(n),
                Some(n) => Number::from(n.unsigned_abs()),
                None => serde_json::from_slice(span).ok()?,
            });
            Some(())
        }
        _ => None,
    }
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        i += 1;
    }
    i
}

fn expect(b: &[u8], i: &mut usize, c: u8) -> Option<()> {
    (*b.get(*i)? == c).then(|| *i += 1)
}

fn word(b: &[u8], i: &mut usize, w: &[u8]) -> Option<()> {
    b.get(*i..*i + w.len()).filter(|&s| s == w)?;
    *i += w.len();
    Some(())
}

/// The span of a string's text (between its quotes) at `i`, which it moves
/// past the closing quote; `None` for a string with an escape or a control
/// character (serde_json's to unescape or refuse).
fn string(b: &[u8], i: &mut usize) -> Option<std::ops::Range<usize>> {
    expect(b, i, b'"')?;
    let start = *i;
    let end = start + text_len(&b[start..])?;
    if b[end] != b'"' {
        return None;
    }
    *i = end + 1;
    Some(start..end)
}

/// Where the first `"`, `\` or control character of `s` is (`None` when
/// the element does not end in `s`, or may when the text has a control
/// character, which the caller refuses either way). Keys, UUIDs,
/// names and times are short: eight bytes at a time (`special`) finds
/// their end sooner than a call to `memchr`, which pays off on the long
/// outputs, with the control characters looked for in a second pass.
fn text_len(s: &[u8]) -> Option<usize> {
    const SHORT: usize = 64;
    let mut k = 0;
    while k + 8 <= s.len().min(SHORT) {
        let word = u64::from_le_bytes(s[k..k + 8].try_into().ok()?);
        let found = special(word);
        if found != 0 {
            return Some(k + found.trailing_zeros() as usize / 8);
        }
        k += 8;
    }
    if k < SHORT {
        // Fewer than 8 bytes left: the element does not end in them.
        let rest = s[k..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20);
        return rest.map(|r| k + r);
    }
    let end = k + memchr::memchr2(b'"', b'\\', &s[k..])?;
    // Folded without an early exit, so that it is vectorised.
    let control = s[k..end].iter().fold(false, |c, &x| c | (x < 0x20));
    (!control).then_some(end)
}

/// The bytes of `w` that are `"`, `\` or below 0x20 (a control character),
/// as their high bits; exact up to the first one (the borrows of the
/// subtractions only run upwards from a byte that matched), which is all
/// that is used. Shared with `output::canonical`, which scans decoded
/// outputs' strings the same way.
pub fn special(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let quote = zero(w ^ (ONES * u64::from(b'"')));
    let backslash = zero(w ^ (ONES * u64::from(b'\\')));
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    (quote | backslash | control) & HIGH
}

/// The bytes of a number at `i` (what may belong to one), moving past them.
fn number<'b>(b: &'b [u8], i: &mut usize) -> &'b [u8] {
    let start = *i;
    while matches!(
        b.get(*i),
        Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
    ) {
        *i += 1;
    }
    &b[start..*i]
}

/// A plain integer: digits without a leading zero, at most 18 of them (no
/// overflow), after an optional `-` (not `-0`, which serde_json reads as
/// a float). Anything else is `None`, for serde_json to read.
fn integer(span: &[u8]) -> Option<i64> {
    let (neg, digits) = match span.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, span),
    };
    let ok = !digits.is_empty()
        && digits.len() <= 18
        && digits.iter().all(u8::is_ascii_digit)
        && (digits[0] != b'0' || (digits.len() == 1 && !neg));
    if !ok {
        return None;
    }
    let n = digits
        .iter()
        .fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
    Some(if neg { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::stream::{Part, decode_prefix};

    /// The fast path, where it answers, decodes as serde_json does.
    fn same_as_serde(json: &str) -> bool {
        let fast = scan(json.as_bytes());
        let slow = decode_prefix::<LogEntryRef>(json.as_bytes(), Part::Whole);
        if let Some((e, n)) = &fast {
            let (s, m) = slow.expect("serde decodes it").expect("whole");
            assert_eq!(format!("{e:?}"), format!("{s:?}"), "{json}");
            assert_eq!(*n, m, "{json}");
        }
        fast.is_some()
    }

    fn entry(run_key: &str, duration: &str, output: &str, metric: &str, extra: &str) -> String {
        format!(
            r#"{{ "{run_key}":"r1","task_uuid" : "t","task_type":"query","is_successful":false,"duration":{duration},"output":{output},"metric_value":{metric},"executed_at":"2024-01-13T10:00:00Z"{extra}}}"#
        )
    }

    /// Where `text_len` says a string ends is where a byte-by-byte look
    /// finds its quote, with no escape or control character before it, at
    /// every offset, in short text and long, next to multi-byte characters.
    #[test]
    fn text_len_is_a_plain_search() {
        let naive = |s: &[u8]| {
            let k = s
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
            (s[k] == b'"').then_some(k)
        };
        let text_len = |s: &[u8]| text_len(s).filter(|&k| s[k] == b'"');
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 200] {
            let base: Vec<u8> = "aé€😀".bytes().cycle().take(len).collect();
            assert_eq!(text_len(&base), naive(&base), "len {len}");
            for at in 0..len {
                for c in [b'"', b'\\', 0x00, 0x1f, 0x7f, b' '] {
                    let mut s = base.clone();
                    s[at] = c;
                    s.extend_from_slice(b"xyz\"");
                    assert_eq!(text_len(&s), naive(&s), "len {len}, {c:#x} at {at}");
                }
            }
        }
    }

    #[test]
    fn the_everyday_shape_is_read_here_and_the_rest_left_to_serde() {
        let e = |d, o, m| entry("workflow_run_uuid", d, o, m, "");
        assert!(same_as_serde(&e("12", r#""QUJD""#, "5")));
        assert!(same_as_serde(&e("-12", "null", "null")));
        assert!(same_as_serde(&e("0", r#""é日本""#, "-7")));
        assert!(same_as_serde(&e("1", r#""""#, "2.5e3")));
        assert!(same_as_serde(&entry(
            "pipeline_run_uuid",
            "1",
            "null",
            "1",
            ""
        )));
        assert!(same_as_serde(&e("123456789012345678", r#""x""#, "0")));
        // Past 18 digits the number alone goes to serde_json.
        assert!(same_as_serde(&e(
            "-9223372036854775808",
            "null",
            "18446744073709551615"
        )));
        // Left to serde_json (and whatever it says):
        for (d, o, m, extra) in [
            ("1.5", "null", "1", ""),
            ("-0", "null", "1", ""),
            ("01", "null", "1", ""),
            ("1", r#""a\"b""#, "1", ""),
            ("1", "\"a\u{1}b\"", "1", ""),
            ("1", "null", "1", r#","note":"x""#),
            ("1", "null", "1", r#","output":null"#),
            ("1", "null", "1", r#","pipeline_run_uuid":"r2""#),
            ("1", "7", "1", ""),
        ] {
            let json = entry("workflow_run_uuid", d, o, m, extra);
            assert!(!same_as_serde(&json), "{json}");
        }
        let full = e("1", "null", "1");
        for cut in 0..full.len() {
            assert!(scan(&full.as_bytes()[..cut]).is_none(), "cut at {cut}");
        }
        assert!(scan(br#"{"task_uuid":"t"}"#).is_none(), "fields missing");
    }
}
