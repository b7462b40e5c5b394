//! Whether a decoded output's JSON text is already exactly what serde_json
//! writes for the `Value` it parses to, so that the decoder can copy it as
//! it is. Task results usually are (servers write them with a JSON library):
//! then the one pass of `compact` through serde_json, most of the time
//! decoding a log's outputs took, is not needed. Anything this does not
//! vouch for (whitespace, an escape, a float written otherwise, a repeated
//! key, a long number, text that is not JSON) goes through `compact`.

use std::ops::Range;

/// Buffers reused from output to output.
#[derive(Default)]
pub struct Spans {
    /// Keys of the objects open, for the repeated-key check.
    keys: Vec<Range<usize>>,
    /// Containers open: an object (and where its keys start) or an array.
    open: Vec<Option<usize>>,
    num: Vec<u8>,
}

/// Objects with more keys than this are left to `compact` (its check of
/// repeated keys hashes them).
const MAX_KEYS: usize = 32;

/// serde_json refuses a value nested deeper than this (its recursion
/// limit), however canonical its text: so does the check, or it would
/// copy text that `compact` calls "not JSON" (found by the differential
/// fuzzing).
const MAX_DEPTH: usize = 127;

/// True when `s` is compact JSON exactly as serde_json writes its `Value`.
pub fn is_canonical(s: &[u8], sp: &mut Spans) -> bool {
    sp.keys.clear();
    sp.open.clear();
    let mut i = 0;
    loop {
        // A value at `i`; a container opens a level.
        if matches!(s.get(i), Some(b'{' | b'[')) && sp.open.len() >= MAX_DEPTH {
            return false;
        }
        match s.get(i) {
            Some(b'{') if s.get(i + 1) == Some(&b'}') => i += 2,
            Some(b'[') if s.get(i + 1) == Some(&b']') => i += 2,
            Some(b'{') => {
                i += 1;
                sp.open.push(Some(sp.keys.len()));
                if !key(s, &mut i, sp) {
                    return false;
                }
                continue;
            }
            Some(b'[') => {
                i += 1;
                sp.open.push(None);
                continue;
            }
            Some(b'"') => {
                if string(s, &mut i).is_none() {
                    return false;
                }
            }
            Some(b't') if s[i..].starts_with(b"true") => i += 4,
            Some(b'f') if s[i..].starts_with(b"false") => i += 5,
            Some(b'n') if s[i..].starts_with(b"null") => i += 4,
            Some(b'-' | b'0'..=b'9') => {
                if !number(s, &mut i, &mut sp.num) {
                    return false;
                }
            }
            _ => return false,
        }
        // After a value: the next one, or the ends of containers.
        loop {
            match (sp.open.last().copied(), s.get(i)) {
                (None, None) => return true,
                (None, Some(_)) => return false,
                (Some(None), Some(b',')) => {
                    i += 1;
                    break;
                }
                (Some(Some(_)), Some(b',')) => {
                    i += 1;
                    if !key(s, &mut i, sp) {
                        return false;
                    }
                    break;
                }
                (Some(None), Some(b']')) => {
                    i += 1;
                    sp.open.pop();
                }
                (Some(Some(from)), Some(b'}')) => {
                    i += 1;
                    sp.keys.truncate(from);
                    sp.open.pop();
                }
                _ => return false,
            }
        }
    }
}

/// `"key":` at `i`, not repeated in its object.
fn key(s: &[u8], i: &mut usize, sp: &mut Spans) -> bool {
    // `string` takes the opening quote as read: without this, `{a":1}`
    // passed, `a` skipped as if a quote (found writing the differential
    // tests; serde_json refuses it).
    if s.get(*i) != Some(&b'"') {
        return false;
    }
    let Some(k) = string(s, i) else {
        return false;
    };
    if s.get(*i) != Some(&b':') {
        return false;
    }
    *i += 1;
    let from = sp.open.last().copied().flatten().unwrap_or(0);
    let mine = &sp.keys[from..];
    // The first byte first: most keys differ there, and the comparison of
    // the rest is a call.
    let same = |r: &Range<usize>| s[r.start] == s[k.start] && s[r.clone()] == s[k.clone()];
    if mine.len() >= MAX_KEYS || mine.iter().any(same) {
        return false;
    }
    sp.keys.push(k);
    true
}

/// A string at `i` with no escape and no control character (serde_json
/// writes other text as it is); its text's span. Eight bytes at a time:
/// keys and names are short, and a call (`memchr`) would cost more than
/// the search.
fn string(s: &[u8], i: &mut usize) -> Option<Range<usize>> {
    let start = *i + 1;
    let mut end = start;
    loop {
        let Some(w) = s.get(end..end + 8) else {
            let len = s
                .get(end..)?
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
            end += len;
            break;
        };
        let found = crate::api::special_bytes(u64::from_le_bytes(w.try_into().ok()?));
        if found != 0 {
            end += found.trailing_zeros() as usize / 8;
            break;
        }
        end += 8;
    }
    (s[end] == b'"').then(|| {
        *i = end + 1;
        start..end
    })
}

/// A number at `i` written as serde_json writes what it parses it to: an
/// integer of at most 18 digits without a leading zero (not `-0`, a float
/// to serde_json), or a float as `Number::from_f64` writes it back.
fn number(s: &[u8], i: &mut usize, scratch: &mut Vec<u8>) -> bool {
    if let Some(yes) = plain_number(s, i) {
        return yes;
    }
    let start = *i;
    while matches!(
        s.get(*i),
        Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
    ) {
        *i += 1;
    }
    let span = &s[start..*i];
    let digits = span.strip_prefix(b"-").unwrap_or(span);
    if digits.iter().all(u8::is_ascii_digit) {
        return !digits.is_empty()
            && digits.len() <= 18
            && (digits[0] != b'0' || (digits.len() == 1 && span.len() == 1));
    }
    if plain_float(span) {
        return true;
    }
    let Some(n) = serde_json::from_slice::<f64>(span)
        .ok()
        .and_then(serde_json::Number::from_f64)
    else {
        return false;
    };
    scratch.clear();
    serde_json::to_writer(&mut *scratch, &n).is_ok() && scratch == span
}

/// `number`'s answer for the two everyday shapes, read in one pass: an
/// integer (`-?D+`), and a plain float as `plain_float` has it; `None`
/// for anything else (then `number` looks again, slowly), and for a
/// decimal `plain_float` would refuse, which a round trip may still accept.
fn plain_number(s: &[u8], i: &mut usize) -> Option<bool> {
    let start = *i;
    let digits = |mut j: usize| {
        while s.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        j
    };
    let ends = |j: usize| {
        !matches!(
            s.get(j),
            Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        )
    };
    let int_start = start + usize::from(s[start] == b'-');
    let int_end = digits(int_start);
    let int = &s[int_start..int_end];
    if ends(int_end) {
        *i = int_end;
        return Some(
            !int.is_empty()
                && int.len() <= 18
                && (int[0] != b'0' || (int.len() == 1 && int_start == start)),
        );
    }
    if s[int_end] != b'.' {
        return None;
    }
    let frac_end = digits(int_end + 1);
    let frac = &s[int_end + 1..frac_end];
    let plain = ends(frac_end)
        && (1..=9).contains(&int.len())
        && int[0] != b'0'
        && frac.last().is_some_and(|&c| c != b'0')
        && int.len() + frac.len() <= 15;
    if !plain {
        return None;
    }
    *i = frac_end;
    Some(true)
}

/// A float that serde_json reads exactly and writes back unchanged, known
/// without doing either: `-?D.D` with 1 to 9 integer digits (no leading
/// zero: from 1 to below 1e9, written without an exponent), a fraction
/// not ending in 0, and at most 15 digits in all. Such a decimal is read
/// exactly (its digits fit 53 bits and it is divided by an exact power of
/// ten, once), and the shortest text that reads back as that double is
/// the decimal itself (two decimals of at most 15 digits never round to
/// the same double).
fn plain_float(span: &[u8]) -> bool {
    let digits = span.strip_prefix(b"-").unwrap_or(span);
    let Some(dot) = digits.iter().position(|&c| c == b'.') else {
        return false;
    };
    let (int, frac) = (&digits[..dot], &digits[dot + 1..]);
    (1..=9).contains(&int.len())
        && int[0] != b'0'
        && !frac.is_empty()
        && frac.last() != Some(&b'0')
        && int.len() + frac.len() <= 15
        && int.iter().chain(frac).all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Every float `plain_float` vouches for is written back by serde_json
    /// as it was read: a spread of integer parts, fraction lengths and
    /// digits, at the edges of the rule too.
    #[test]
    fn plain_floats_come_back_unchanged() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in 0..200_000 {
            let int_len = 1 + n % 9;
            let frac_len = 1 + (n / 9) % (15 - int_len);
            let int = (next() % 9 + 1).to_string()
                + &format!(
                    "{:0w$}",
                    next() % 10u64.pow(int_len as u32 - 1),
                    w = int_len - 1
                )[..int_len - 1];
            let frac = format!(
                "{:0w$}",
                next() % 10u64.pow(frac_len as u32 - 1),
                w = frac_len - 1
            ) + &(next() % 9 + 1).to_string();
            let sign = if n % 2 == 0 { "" } else { "-" };
            let text = format!("{sign}{int}.{frac}");
            assert!(plain_float(text.as_bytes()), "{text}");
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v.to_string(), text);
        }
        for no in [
            "0.5",
            "1.50",
            "1.",
            "1e5",
            "1234567890.5",
            "1.234567890123456",
            "01.5",
        ] {
            assert!(!plain_float(no.as_bytes()), "{no}");
        }
    }

    /// Nesting past serde_json's recursion limit is refused as serde_json
    /// refuses it, empty containers at the deepest level included.
    #[test]
    fn nesting_stops_where_serde_json_stops() {
        let sp = &mut Spans::default();
        for n in 125..=130 {
            let texts = [
                format!("{}{}", "[".repeat(n), "]".repeat(n)),
                format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n)),
                format!("{}{{}}{}", "[".repeat(n - 1), "]".repeat(n - 1)),
            ];
            for t in texts {
                let serde = serde_json::from_str::<Value>(&t).is_ok();
                assert_eq!(is_canonical(t.as_bytes(), sp), serde, "{n} levels: {t}");
            }
        }
    }

    /// Where it says yes, serde_json's `Value` writes the text back as it is.
    #[test]
    fn vouches_only_for_what_serde_json_writes_back_unchanged() {
        let sp = &mut Spans::default();
        let yes = [
            r#"[{"id":1,"name":"abc","value":512.37,"ok":true},{"id":2,"name":"é","value":0.5,"ok":false}]"#,
            r#"{"a":{"b":[[],{},null,-12,1e-7,1.5e+300]},"c":"x"}"#,
            r#""text""#,
            "0",
            "-7",
            r#"{"a":1,"b":{"a":2}}"#,
            r#"[1.5,-12.25,0.5,-0.5,0,123456789.123456,999999999999999999]"#,
            r#"{"name":"abcdefghijklmnopqrstuvwxyz-é-abcdefgh","n":"","m":"1234567"}"#,
        ];
        for t in yes {
            assert!(is_canonical(t.as_bytes(), sp), "{t}");
            let v: Value = serde_json::from_str(t).unwrap();
            assert_eq!(v.to_string(), t);
        }
        let no = [
            r#"[1, 2]"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":{"b":1,"b":2}}"#,
            r#""a\/b""#,
            r#""a\"b""#,
            "-0",
            "01",
            "1.0e2",
            "0.10",
            "1E5",
            "1.5e300",
            "12345678901234567890",
            "1e400",
            "[1,]",
            "{\"a\":1",
            "[1]x",
            "",
            "nul",
            "\"a\u{1}\"",
            "\"abcdefghijklmn\u{1f}opq\"",
            "\"abcdefghijklmnopq\\\\x\"",
            "\"abcdefghijklmnopq",
            "1.50",
            "-",
            "1.5.5",
            "1-2",
            "--1",
            "-01",
            "1000000000000000000",
            // Regressions found by the differential fuzzing.
            r#"{a":1}"#,
            r#"{"a":1,b":2}"#,
        ];
        for t in no {
            assert!(!is_canonical(t.as_bytes(), sp), "{t}");
        }
    }
}
