//! The differential oracles: the log entry scanner, the streaming array
//! decoder and `--decode`'s canonical check and compact rewrite, each held
//! to serde_json reading the same bytes. Shared by the property tests
//! (`props_differential`) and the cargo-fuzz targets (`fuzz/`, which call
//! it as `ylem_client::oracle::differential`), so both hold the decoders to
//! the same rules. It needs nothing but the crate's own dependencies, so it
//! builds under `--cfg fuzzing` as well as in the crate's tests. Each
//! check says which path the input took (for counting coverage) or what
//! the disagreement is.

use base64::Engine;
use serde::de::IgnoredAny;
use serde_json::Value;

use crate::api::models::LogEntryRef;
use crate::api::stream::{ArrayScanner, Decoded, Part, decode_prefix};
use crate::api::{decode_entry, scan_entry};
use crate::output::{Compact, DecodedOutput, Decoder, Scratch, Spans, compact, is_canonical};

/// The path an input took, or the disagreement with serde_json.
pub type Verdict = Result<&'static str, String>;

/// (a) Where the scanner's fast path reads an entry from the start of `b`,
/// serde_json reads the same entry from the same bytes, whichever part of
/// the stream they are; its plain text needs no escape (`jsonl` copies it
/// as it is). Where it does not, `decode_entry` is serde_json's answer.
pub fn entry(b: &[u8]) -> Verdict {
    let Some((fast, n)) = scan_entry(b) else {
        return Ok("deferred");
    };
    let fast_shown = format!("{fast:?}");
    for part in [Part::Prefix, Part::Whole] {
        match decode_prefix::<LogEntryRef>(b, part) {
            Ok(Some((slow, m))) if format!("{slow:?}") == fast_shown && m == n => {}
            other => {
                let other = other.map(|o| o.map(|(e, m)| (format!("{e:?}"), m)));
                return Err(format!(
                    "scan read {fast_shown} ({n} bytes); serde_json ({part:?}): {other:?}"
                ));
            }
        }
    }
    let texts = [&fast.workflow_run_uuid, &fast.task_uuid, &fast.task_type];
    for t in texts
        .into_iter()
        .chain(&fast.output)
        .chain([&fast.executed_at_raw])
    {
        let quoted = serde_json::to_string(t.as_str()).expect("a string");
        if !t.is_plain() || quoted[1..quoted.len() - 1] != *t.as_str() {
            return Err(format!("fast text {:?} is not plain", t.as_str()));
        }
    }
    Ok("fast")
}

/// The cut points of a body of `len` bytes from `cuts`, in order, ending
/// at `len`.
fn points(len: usize, cuts: &[usize]) -> Vec<usize> {
    let mut p: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
    p.sort_unstable();
    p.push(len);
    p
}

/// `body` pushed into a scanner in the pieces `cuts` makes, each element
/// decoded by `decode` as it arrives; all of them, or why not (an error,
/// or a body that ended before its array).
fn stream<R>(
    body: &[u8],
    cuts: &[usize],
    mut decode: impl FnMut(&[u8], Part) -> Decoded<R>,
) -> Result<Vec<R>, String> {
    let mut s = ArrayScanner::new();
    let (mut out, mut at) = (Vec::new(), 0);
    for p in points(body.len(), cuts) {
        s.push(&body[at..p]);
        at = p;
        while let Some((v, _)) = s.take(&mut decode).map_err(|e| e.to_string())? {
            out.push(v);
        }
    }
    if s.is_done() {
        Ok(out)
    } else {
        Err("the array did not end".into())
    }
}

/// The elements' spans as `next_element` hands them out.
fn spans(body: &[u8], cuts: &[usize]) -> Result<Vec<Vec<u8>>, String> {
    let mut s = ArrayScanner::new();
    let (mut out, mut at) = (Vec::new(), 0);
    for p in points(body.len(), cuts) {
        s.push(&body[at..p]);
        at = p;
        while let Some(e) = s.next_element().map_err(|e| e.to_string())? {
            out.push(e.to_vec());
        }
    }
    s.is_done()
        .then_some(out)
        .ok_or("the array did not end".into())
}

/// serde_json's reading of a whole body as the stream reads it: an array,
/// or `null` for none (the real server's "no data").
fn whole<'a, T: serde::Deserialize<'a>>(body: &'a [u8]) -> Result<Vec<T>, String> {
    serde_json::from_slice::<Option<Vec<T>>>(body)
        .map(Option::unwrap_or_default)
        .map_err(|e| e.to_string())
}

/// Agreement of two readings: the same elements, or both refused.
fn same<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &Result<Vec<T>, String>,
    want: &Result<Vec<T>, String>,
) -> Result<(), String> {
    match (got, want) {
        (Ok(g), Ok(w)) if g == w => Ok(()),
        (Err(_), Err(_)) => Ok(()),
        _ => Err(format!(
            "{what}: the stream read {got:?}, serde_json {want:?}"
        )),
    }
}

/// (b) The streaming decoder, fed `body` in the pieces `cuts` makes, reads
/// the elements serde_json reads from the whole body, or refuses it as
/// serde_json does: as `Value`s, as log entries (the `logs` path, with the
/// scanner's fast path), and as the spans `next_element` hands out.
///
/// One difference is by design: serde_json's limit of 127 levels counts
/// the array around the elements, and the stream reads each element by
/// itself, so it reads an element nested exactly 127 levels where
/// serde_json refuses the whole body. Refusing it too would take a depth
/// count over every element, which the log path's one-pass scan avoids;
/// such a body is not compared further (its elements are serde_json's).
pub fn array(body: &[u8], cuts: &[usize]) -> Verdict {
    let want = whole::<Value>(body);
    let got = stream(body, cuts, |b, part| decode_prefix::<Value>(b, part));
    let too_deep = want
        .as_ref()
        .is_err_and(|e| e.starts_with("recursion limit"));
    if too_deep && got.is_ok() {
        return Ok("past the depth limit");
    }
    same("values", &got, &want)?;
    let want_entries = whole::<LogEntryRef>(body).map(|v| debug_all(&v));
    let got_entries = stream(body, cuts, |b, part| {
        Ok(decode_entry(b, part)?.map(|(e, n)| (format!("{e:?}"), n)))
    });
    same("log entries", &got_entries, &want_entries)?;
    let want_spans = whole::<IgnoredAny>(body).map(|v| v.len());
    let got_spans = spans(body, cuts);
    let got_count = got_spans.as_ref().map(Vec::len).map_err(String::clone);
    same(
        "elements",
        &got_count.map(|n| vec![(); n]),
        &want_spans.map(|n| vec![(); n]),
    )?;
    if let (Ok(spans), Ok(values)) = (&got_spans, &want) {
        for (s, v) in spans.iter().zip(values) {
            if serde_json::from_slice::<Value>(s).ok().as_ref() != Some(v) {
                return Err(format!("span {:?} is not {v}", String::from_utf8_lossy(s)));
            }
        }
    }
    Ok(match (&want, &want_entries) {
        (Err(_), _) => "refused",
        (Ok(_), Ok(_)) => "log entries",
        (Ok(_), Err(_)) => "values",
    })
}

fn debug_all<T: std::fmt::Debug>(v: &[T]) -> Vec<String> {
    v.iter().map(|e| format!("{e:?}")).collect()
}

/// (c) `--decode`: where the canonical check vouches for `text`, it is
/// what serde_json writes for the `Value` it reads; the compact rewrite is
/// byte for byte serde_json's, says "not JSON" only where serde_json
/// refuses the text, and "repeated key" only where it reads it; and the
/// decoder as a whole (Base64 in, a cell out) writes serde_json's text for
/// JSON and the text itself for anything else.
pub fn canonical(text: &str) -> Verdict {
    let want = serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
    let want = want.map(|v| v.to_string());
    let canon = is_canonical(text.as_bytes(), &mut Spans::default());
    if canon && want.as_deref() != Ok(text) {
        return Err(format!("canonical {text:?}, serde_json writes {want:?}"));
    }
    let mut out = Vec::new();
    let path = match compact(text, &mut out) {
        Compact::Done if want.as_deref().map(str::as_bytes) == Ok(&out[..]) => "compact",
        Compact::NotJson if want.is_err() => "not JSON",
        Compact::NeedsValue if want.is_ok() => "repeated key",
        c => {
            let out = String::from_utf8_lossy(&out);
            return Err(format!(
                "compact {text:?}: {c:?} {out:?}, serde_json {want:?}"
            ));
        }
    };
    let b64 = base64::engine::general_purpose::STANDARD.encode(text);
    let mut scratch = Scratch::default();
    let (cell, err) = Decoder::plain().decode(&b64, &mut scratch);
    let expected = match &want {
        _ if text.is_empty() => DecodedOutput::Null,
        Ok(j) => DecodedOutput::Json(j),
        Err(_) => DecodedOutput::Text(text),
    };
    if err.is_some() || cell != expected {
        return Err(format!(
            "--decode {text:?}: {cell:?} {err:?}, want {expected:?}"
        ));
    }
    Ok(if canon { "canonical" } else { path })
}

/// Any bytes: `canonical` on text; on other bytes the checks must not
/// panic, and the decoder calls them binary.
pub fn canonical_bytes(b: &[u8]) -> Verdict {
    match std::str::from_utf8(b) {
        Ok(text) => canonical(text),
        Err(_) => {
            is_canonical(b, &mut Spans::default());
            let b64 = base64::engine::general_purpose::STANDARD.encode(b);
            let mut scratch = Scratch::default();
            let (cell, err) = Decoder::plain().decode(&b64, &mut scratch);
            match (cell, err) {
                (DecodedOutput::Null, Some(_)) => Ok("binary"),
                (c, e) => Err(format!("binary {b:?} decoded as {c:?} {e:?}")),
            }
        }
    }
}
