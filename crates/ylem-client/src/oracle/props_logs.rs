//! Property tests of the log decoder's fast paths: log entries with text of
//! every kind, written as serde_json writes them or with every escape JSON
//! allows, split into chunks anywhere, decode as serde_json decodes the
//! whole body; and text the decoder marks plain needs no escape (which is
//! what lets `jsonl` pass it through untouched).

use proptest::prelude::*;
use serde_json::Value;

use super::props::{json_value, property};
use crate::api::decode_entry;
use crate::api::models::{LogEntryRef, Text};
use crate::api::stream::ArrayScanner;

/// Text with the characters that need escapes, multi-byte ones, and the
/// bytes that mean something to the scanner.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\""),
        Just("\\"),
        Just("/"),
        Just("\u{8}"),
        Just("\u{c}"),
        Just("\n"),
        Just("\r"),
        Just("\t"),
        Just("\u{0}"),
        Just("\u{1f}"),
        Just("\u{7f}"),
        Just("é"),
        Just("😀"),
        Just("日本"),
        Just("QUJD"),
        Just(","),
        Just("]}"),
    ];
    prop_oneof![
        any::<String>(),
        "[A-Za-z0-9+/=]{0,80}",
        prop::collection::vec(piece, 0..24).prop_map(|v| v.concat()),
    ]
}

/// `s` as a JSON string with every escape JSON allows: `\/`, and `\uXXXX`
/// for everything that is not printable ASCII (pairs beyond the BMP).
fn escaped(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04X}"));
                }
            }
        }
    }
    out.push('"');
    out
}

#[derive(Debug, Clone)]
struct Gen {
    ylem_names: bool,
    strs: [String; 4],
    ok: bool,
    duration: i64,
    /// Absent, `null` or text.
    output: Option<Option<String>>,
    metric: Option<f64>,
    at: String,
    errors: Option<Value>,
    /// A `note` key the client does not know (which the decoder's fast
    /// path leaves to serde_json): without it, entries take the fast path.
    note: bool,
}

fn entry() -> impl Strategy<Value = Gen> {
    (
        (any::<bool>(), [text(), text(), text(), text()]),
        (any::<bool>(), any::<i64>()),
        prop::option::of(prop::option::of(text())),
        prop::option::of(prop_oneof![any::<i32>().prop_map(f64::from), any::<f64>()]),
        "2024-01-1[0-9][ T][0-2][0-9]:[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,6})?Z?",
        prop::option::of(json_value()),
        any::<bool>(),
    )
        .prop_map(
            |((ylem_names, strs), (ok, duration), output, metric, at, errors, note)| Gen {
                ylem_names,
                strs,
                ok,
                duration,
                output,
                metric: metric.filter(|m| m.is_finite()),
                at,
                errors,
                note,
            },
        )
}

impl Gen {
    fn json(&self, esc: bool) -> String {
        let s = |t: &str| {
            if esc {
                escaped(t)
            } else {
                serde_json::to_string(t).unwrap()
            }
        };
        let run_key = if self.ylem_names {
            "pipeline_run_uuid"
        } else {
            "workflow_run_uuid"
        };
        let mut f = vec![
            format!("\"{run_key}\":{}", s(&self.strs[0])),
            format!("\"task_uuid\" : {}", s(&self.strs[1])),
            format!("\"task_type\":{}", s(&self.strs[2])),
            format!("\"is_successful\":{}", self.ok),
            format!("\"duration\":{}", self.duration),
            format!("\"executed_at\":{}", s(&self.at)),
        ];
        match &self.output {
            None => {}
            Some(None) => f.push("\"output\":null".into()),
            Some(Some(o)) => f.push(format!("\"output\":{}", s(o))),
        }
        if let Some(m) = self.metric {
            f.push(format!(
                "\"metric_value\":{}",
                serde_json::to_string(&m).unwrap()
            ));
        }
        if let Some(e) = &self.errors {
            f.push(format!("\"errors\":{e}"));
        }
        if self.note {
            f.push(format!("\"note\":{}", s(&self.strs[3])));
        }
        format!("{{ {} }}", f.join(", "))
    }
}

/// What an entry shows: its fields as text.
fn shown(e: &LogEntryRef) -> Vec<String> {
    vec![
        e.workflow_run_uuid.as_str().into(),
        e.task_uuid.as_str().into(),
        e.task_type.as_str().into(),
        e.is_successful.to_string(),
        e.duration.to_string(),
        e.output().into(),
        e.metric_value
            .as_ref()
            .map(|n| n.to_string())
            .unwrap_or_default(),
        e.executed_at().as_str().into(),
    ]
}

/// The same, from serde_json's reading of the whole body.
fn expected(v: &Value) -> Vec<String> {
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let run = v
        .get("pipeline_run_uuid")
        .or_else(|| v.get("workflow_run_uuid"));
    vec![
        run.and_then(Value::as_str).unwrap_or("").into(),
        text("task_uuid"),
        text("task_type"),
        v["is_successful"].to_string(),
        v["duration"].to_string(),
        text("output"),
        v.get("metric_value")
            .map(Value::to_string)
            .unwrap_or_default(),
        crate::time::normalize_server_time(&text("executed_at")),
    ]
}

/// Plain text is written out as it is, so it must be what serde_json writes.
fn plain_is_safe(t: &Text) -> bool {
    !t.is_plain() || serde_json::to_string(t.as_str()).unwrap() == format!("\"{}\"", t.as_str())
}

#[test]
fn log_entries_decode_as_serde_json_reads_the_whole_body() {
    property(
        "prop-log-entries",
        "log entries with every escape, multi-byte text and nested extra fields, cut anywhere, decode as serde_json reads the whole body; plain text needs no escape",
        (
            prop::collection::vec(entry(), 0..6),
            any::<bool>(),
            prop::collection::vec(any::<usize>(), 0..12),
        ),
        |(entries, esc, cuts)| {
            let elems: Vec<String> = entries.iter().map(|e| e.json(esc)).collect();
            let body = format!("[{}]\n", elems.join(" ,\n"));
            let b = body.as_bytes();
            let whole: Vec<Value> = serde_json::from_str(&body).expect("valid JSON");
            let want: Vec<Vec<String>> = whole.iter().map(expected).collect();
            let mut points: Vec<usize> = cuts.iter().map(|c| c % (b.len() + 1)).collect();
            points.sort_unstable();
            points.push(b.len());
            let (mut s, mut got, mut at) = (ArrayScanner::new(), Vec::new(), 0);
            for p in points {
                s.push(&b[at..p]);
                at = p;
                while let Some((row, _)) = s
                    .take(|bytes, part| {
                        Ok(decode_entry(bytes, part)?.map(|(e, n)| {
                            let texts = [&e.workflow_run_uuid, &e.task_uuid, &e.task_type];
                            let safe = texts.iter().all(|t| plain_is_safe(t))
                                && e.output.as_ref().is_none_or(plain_is_safe)
                                && plain_is_safe(&e.executed_at());
                            ((shown(&e), safe), n)
                        }))
                    })
                    .expect("a valid log decodes")
                {
                    prop_assert!(row.1, "plain text that needs escaping: {:?}", row.0);
                    got.push(row.0);
                }
            }
            prop_assert!(s.is_done());
            prop_assert_eq!(got, want);
            Ok(())
        },
    );
}

#[test]
fn decoded_json_outputs_come_out_as_serde_json_writes_their_value() {
    use crate::output::{DecodedOutput, Decoder, Scratch};
    use base64::Engine;
    property(
        "prop-decoded-json",
        "--decode writes a JSON output, compact or pretty, byte for byte as serde_json writes the Value it parses to",
        (json_value(), any::<bool>()),
        |(v, pretty)| {
            let text = if pretty {
                serde_json::to_string_pretty(&v).unwrap()
            } else {
                v.to_string()
            };
            let b64 = base64::engine::general_purpose::STANDARD.encode(&text);
            // Not `v.to_string()`: serde_json may read a float back 1 ULP
            // off (without its float_roundtrip feature), and what is
            // promised is what it writes for the `Value` it reads.
            let want = serde_json::from_str::<Value>(&text).unwrap().to_string();
            let mut scratch = Scratch::default();
            let (cell, err) = Decoder::plain().decode(&b64, &mut scratch);
            prop_assert!(err.is_none());
            prop_assert_eq!(cell, DecodedOutput::Json(&want));
            Ok(())
        },
    );
}
