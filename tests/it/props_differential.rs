//! Differential property tests: the log entry scanner, the streaming array
//! decoder and `--decode`'s canonical check and compact rewrite against
//! serde_json (the oracles are in `differential`, shared with `fuzz/`), on
//! generated JSON-ish text full of what trips decoders (escapes, lone and
//! paired `\u` surrogates, numbers of every shape, deep nesting, repeated
//! keys, odd whitespace), mutated a byte here and there (invalid UTF-8
//! among it), cut at every byte, and on arbitrary bytes. Each test also
//! checks that its inputs reach the paths it is about (the fast path, an
//! accepted array, a canonical text), so that none passes vacuously.

use std::cell::RefCell;
use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::differential::{self, Verdict};
use crate::props::property_cases;

/// Whitespace JSON allows, mostly, and two kinds it does not.
fn ws() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        12 => Just(""),
        4 => Just(" "),
        1 => Just("\n"),
        1 => Just("\t"),
        1 => Just("\r\n "),
        1 => Just("\u{c}"),
        1 => Just("\u{a0}"),
    ]
}

/// Numbers of every shape, valid and not.
fn number() -> impl Strategy<Value = String> {
    const ODD: &[&str] = &[
        "-0",
        "0",
        "-0.0",
        "1.0",
        "1e400",
        "-1e400",
        "1e-400",
        "0.1",
        "01",
        "-01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "+1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678",
        "1234567890123456789",
        "999999999999999999",
        "0.30000000000000004",
        "5e-324",
        "1.7976931348623157e308",
        "1E5",
        "1e+5",
        "1.5e300",
        "100",
        "1.5",
        "-12.25",
        "2.5e-3",
        "1-2",
        "1.5.5",
        "--1",
        "0x10",
        "Infinity",
        "NaN",
    ];
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| serde_json::to_string(&f).unwrap()),
        "-?(0|[1-9][0-9]{0,24})(\\.[0-9]{1,20})?([eE][+-]?[0-9]{1,4})?",
        "-?[0-9]{0,3}\\.?[0-9]{0,3}([eE][+-]?)?[0-9]{0,3}",
        prop::sample::select(ODD).prop_map(str::to_string),
    ]
}

/// A string's text between its quotes: escapes (some invalid), surrogates
/// paired and lone, raw control characters, multi-byte text, long runs.
fn string_text() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "a",
        "QUJD",
        "é",
        "😀",
        "日本",
        "\u{202e}",
        "\\\"",
        "\\\\",
        "\\/",
        "\\b",
        "\\f",
        "\\n",
        "\\r",
        "\\t",
        "\\u0041",
        "\\u00e9",
        "\\ud83d\\ude00",
        "\\uDBFF\\uDFFF",
        "\\ud800",
        "\\udc00",
        "\\ud800\\u0041",
        "\\ud800\\ud800",
        "\\u0000",
        "\\u001f",
        "\\x",
        "\\u12",
        "\\",
        "\u{0}",
        "\u{1f}",
        "\u{7f}",
        "\n",
        ",",
        "]}",
        "{[",
        ":",
    ];
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(PIECES), 0..12)
            .prop_map(|v| v.concat()),
        2 => "[A-Za-z0-9+/=-]{0,100}",
        1 => "[A-Za-z0-9+/=]{60,300}",
        1 => any::<String>(),
    ]
}

fn quoted() -> impl Strategy<Value = String> {
    string_text().prop_map(|s| format!("\"{s}\""))
}

/// Keys: a few (so objects repeat them), the log's, and any text.
fn key() -> impl Strategy<Value = String> {
    const FEW: &[&str] = &[
        "a",
        "b",
        "a",
        "output",
        "task_uuid",
        "pipeline_run_uuid",
        "t\\u0061sk_uuid",
    ];
    prop_oneof![
        4 => prop::sample::select(FEW).prop_map(|k| format!("\"{k}\"")),
        1 => quoted(),
    ]
}

/// JSON-ish text: mostly JSON, with the odd wrong word, wrong whitespace
/// and trailing comma.
fn json_text() -> impl Strategy<Value = String> {
    const WORDS: &[&str] = &["true", "false", "null", "tru", "nul", "nulll", "True"];
    let leaf = prop_oneof![
        number(),
        quoted(),
        prop::sample::select(WORDS).prop_map(str::to_string),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        let elem = (ws(), inner.clone(), ws()).prop_map(|(a, v, b)| format!("{a}{v}{b}"));
        let member = (key(), ws(), inner, ws()).prop_map(|(k, a, v, b)| format!("{k}{a}:{v}{b}"));
        let comma = prop_oneof![20 => Just(""), 1 => Just(",")];
        prop_oneof![
            (prop::collection::vec(elem, 0..6), comma.clone())
                .prop_map(|(v, c)| format!("[{}{c}]", v.join(","))),
            (prop::collection::vec(member, 0..6), comma)
                .prop_map(|(v, c)| format!("{{{}{c}}}", v.join(","))),
        ]
    })
}

/// JSON as serde_json writes it, compact or pretty.
fn valid_json() -> impl Strategy<Value = String> {
    (crate::props::json_value(), any::<bool>()).prop_map(|(v, pretty)| {
        if pretty {
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            v.to_string()
        }
    })
}

/// Objects that repeat a key, otherwise JSON, maybe in an array.
fn repeated_keys() -> impl Strategy<Value = String> {
    let member = (
        prop_oneof![Just("a"), Just("b"), Just("\\u0061")],
        valid_json(),
    );
    (prop::collection::vec(member, 2..5), any::<bool>()).prop_map(|(m, in_array)| {
        let m: Vec<String> = m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
        let o = format!("{{{}}}", m.join(","));
        if in_array { format!("[1,{o}]") } else { o }
    })
}

/// Nesting around serde_json's limit of 128 levels.
fn deep() -> impl Strategy<Value = String> {
    (100usize..140, any::<bool>(), json_text()).prop_map(|(n, obj, inner)| {
        if obj {
            format!("{}{inner}{}", "{\"a\":".repeat(n), "}".repeat(n))
        } else {
            format!("{}{inner}{}", "[".repeat(n), "]".repeat(n))
        }
    })
}

/// A byte changed, added or removed somewhere (which may break UTF-8), or
/// nothing: the text as bytes.
fn mutated(text: impl Strategy<Value = String>) -> impl Strategy<Value = Vec<u8>> {
    (text, 0u8..8, any::<prop::sample::Index>(), any::<u8>()).prop_map(|(t, how, at, byte)| {
        let mut b = t.into_bytes();
        let i = at.index(b.len() + 1);
        match how {
            0 => b.insert(i, byte),
            1 if i < b.len() => b[i] = byte,
            2 if i < b.len() => drop(b.remove(i)),
            _ => {}
        }
        b
    })
}

/// A log entry: the spec's keys in its order with the values it gives them
/// (the scanner's fast path), or with another kind of value, escaped text,
/// numbers of other shapes, a key missing, repeated, unknown or escaped,
/// another order; then, with `tails`, what may follow it in a body.
fn entry_text(tails: bool) -> impl Strategy<Value = String> {
    let text = || prop_oneof![16 => "\"[a-z0-9-]{0,40}\"", 1 => quoted(), 1 => json_text()];
    let boolean = prop_oneof![16 => prop_oneof![Just("true"), Just("false")].prop_map(String::from), 1 => json_text()];
    let int = prop_oneof![12 => any::<i32>().prop_map(|n| n.to_string()), 3 => number(), 1 => json_text()];
    let output = prop_oneof![
        2 => Just("null".to_string()),
        4 => "\"[A-Za-z0-9+/=]{0,300}\"",
        2 => quoted(),
        1 => json_text(),
    ];
    let metric = prop_oneof![3 => Just("null".to_string()), 6 => number(), 1 => json_text()];
    let run_key = prop_oneof![Just("workflow_run_uuid"), Just("pipeline_run_uuid")];
    let at = prop_oneof![
        6 => "\"2024-01-1[0-9][ T][0-2][0-9]:[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,6})?Z?\"",
        1 => quoted(),
    ];
    let values = (
        (run_key, text(), text(), text()),
        boolean,
        int,
        output,
        metric,
        at,
    );
    let fields = values.prop_map(|((rk, run, task, ty), ok, d, out, m, at)| {
        vec![
            (format!("\"{rk}\""), run),
            ("\"task_uuid\"".into(), task),
            ("\"task_type\"".into(), ty),
            ("\"is_successful\"".into(), ok),
            ("\"duration\"".into(), d),
            ("\"output\"".into(), out),
            ("\"metric_value\"".into(), m),
            ("\"executed_at\"".into(), at),
        ]
    });
    let tail = if tails {
        prop::sample::select(&["", ",", "]", " , {", "x", "}"][..])
    } else {
        prop::sample::select(&[""][..])
    };
    (
        fields,
        prop::collection::vec((key(), json_text()), 0..2),
        (
            0u8..16,
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
        ),
        prop::collection::vec(prop_oneof![8 => Just(""), 2 => Just(" "), 1 => ws()], 4),
        tail,
    )
        .prop_map(|(mut fields, extra, (change, a, b), w, tail)| {
            match change {
                // A field dropped, or two swapped (another order).
                0 => drop(fields.remove(a.index(8))),
                1 => fields.swap(a.index(8), b.index(8)),
                // A field repeated, or one the client does not know.
                2 => fields.insert(a.index(9), fields[b.index(8)].clone()),
                3 | 4 => fields.splice(a.index(9)..a.index(9), extra).for_each(drop),
                _ => {}
            }
            let members: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}{k}{}:{}{v}", w[0], w[1], w[2]))
                .collect();
            format!("{}{{{}{}}}{tail}", w[3], members.join(","), w[0])
        })
}

/// Array bodies: elements of every kind (log entries among them) between
/// any whitespace, or a top-level `null`, something else, or trailing data.
fn array_body() -> impl Strategy<Value = String> {
    let elem = prop_oneof![
        4 => valid_json(),
        2 => entry_text(false),
        2 => json_text(),
        1 => deep(),
        // Two values where one belongs: `[1 2]`, `[1 {}]`, `[1:2]`.
        1 => (json_text(), prop_oneof![Just(" "), Just(":"), Just("")], json_text())
            .prop_map(|(a, s, b)| format!("{a}{s}{b}")),
    ];
    let around = prop_oneof![8 => Just(""), 1 => Just(" x"), 1 => Just("]"), 1 => Just(" [1]")];
    prop_oneof![
        8 => (ws(), prop::collection::vec((ws(), elem, ws()), 0..5), ws(), around)
            .prop_map(|(a, v, b, c)| {
                let v: Vec<String> = v.into_iter().map(|(x, e, y)| format!("{x}{e}{y}")).collect();
                format!("{a}[{}]{b}{c}", v.join(","))
            }),
        1 => json_text(),
        1 => prop_oneof![Just("null"), Just(" null\n"), Just("nul"), Just("null ,")].prop_map(String::from),
    ]
}

/// Counts of the paths the inputs took.
#[derive(Default)]
struct Paths(RefCell<BTreeMap<&'static str, usize>>);

impl Paths {
    fn check(&self, v: Verdict) -> Result<(), TestCaseError> {
        let path = v.map_err(TestCaseError::fail)?;
        *self.0.borrow_mut().entry(path).or_default() += 1;
        Ok(())
    }

    /// At least `min` inputs took `path`.
    fn reached(&self, path: &str, min: usize) {
        let n = self.0.borrow().get(path).copied().unwrap_or(0);
        assert!(n >= min, "{path}: {n} of {:?}", self.0.borrow());
    }

    /// The counts, on stderr (seen with `--nocapture`: TESTING.md's figures).
    fn show(&self, id: &str) {
        eprintln!("{id}: checks by path {:?}", self.0.borrow());
    }
}

/// Run `f` on a thread with a large stack: serde_json reads up to 128
/// levels, and the generated text nests that deep, which overflows the
/// test thread's 2 MiB in an unoptimised build.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    let t = std::thread::Builder::new().stack_size(256 << 20).spawn(f);
    if let Err(e) = t.expect("a thread").join() {
        std::panic::resume_unwind(e);
    }
}

/// `b` cut short: at every byte up to 48 bytes, at 48 evenly spaced ones
/// (from a different first one each case) in longer text, so that across
/// the cases every byte is a cut; then `b` itself.
fn prefixes(b: &[u8], first: prop::sample::Index) -> impl Iterator<Item = &[u8]> {
    let step = b.len().div_ceil(48).max(1);
    (first.index(step)..b.len())
        .step_by(step)
        .map(|k| &b[..k])
        .chain([b])
}

/// Proptest's cases of each test: a few seconds in all in a debug build.
const ENTRY_CASES: u32 = 1000;
const ARRAY_CASES: u32 = 500;
const DECODE_CASES: u32 = 600;

#[test]
fn the_entry_scanner_agrees_with_serde_json_or_defers_to_it() {
    big_stack(|| {
        let paths = Paths::default();
        property_cases(
            "prop-diff-entry-scan",
            "the log entry scanner's fast path reads what serde_json reads from the same bytes (cut at every byte, mutated, arbitrary), or defers to it",
            ENTRY_CASES,
            (
                mutated(entry_text(true)),
                prop::collection::vec(any::<u8>(), 0..64),
                any::<prop::sample::Index>(),
            ),
            |(text, raw, first)| {
                for p in prefixes(&text, first) {
                    paths.check(differential::entry(p))?;
                }
                paths.check(differential::entry(&raw))
            },
        );
        paths.reached("fast", 120);
        paths.show("prop-diff-entry-scan");
    });
}

#[test]
fn the_stream_reads_arrays_as_serde_json_at_any_chunking() {
    big_stack(|| {
        let paths = Paths::default();
        property_cases(
            "prop-diff-array-stream",
            "the streaming array decoder, fed in arbitrary pieces, reads the elements serde_json reads from the whole body (as values, log entries and spans), or refuses as it does",
            ARRAY_CASES,
            (
                mutated(array_body()),
                prop::collection::vec(any::<usize>(), 0..10),
                prop::collection::vec(any::<u8>(), 0..64),
                any::<prop::sample::Index>(),
            ),
            |(body, cuts, raw, cut)| {
                paths.check(differential::array(&body, &cuts))?;
                // A body cut short anywhere, and one byte at a time.
                let short = &body[..cut.index(body.len() + 1)];
                paths.check(differential::array(short, &cuts))?;
                if body.len() <= 200 {
                    let bytes: Vec<usize> = (0..body.len()).collect();
                    paths.check(differential::array(&body, &bytes))?;
                }
                paths.check(differential::array(&raw, &cuts))
            },
        );
        paths.reached("log entries", 20);
        paths.reached("values", 15);
        paths.reached("refused", 100);
        paths.show("prop-diff-array-stream");
    });
}

#[test]
fn decode_writes_what_serde_json_writes() {
    big_stack(|| {
        let paths = Paths::default();
        let text = prop_oneof![
            4 => json_text(),
            2 => valid_json(),
            1 => repeated_keys(),
            1 => deep(),
        ];
        property_cases(
            "prop-diff-canonical",
            "--decode: a text the canonical check vouches for is serde_json's own writing of it, the compact rewrite is serde_json's byte for byte (cut at every byte, mutated, arbitrary bytes)",
            DECODE_CASES,
            (
                mutated(text),
                prop::collection::vec(any::<u8>(), 0..64),
                any::<prop::sample::Index>(),
            ),
            |(text, raw, first)| {
                for p in prefixes(&text, first) {
                    paths.check(differential::canonical_bytes(p))?;
                }
                // Text as serde_json writes it, which the check should vouch for.
                if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&text) {
                    paths.check(differential::canonical(&v.to_string()))?;
                }
                paths.check(differential::canonical_bytes(&raw))
            },
        );
        paths.reached("canonical", 150);
        paths.reached("compact", 100);
        paths.reached("repeated key", 10);
        paths.show("prop-diff-canonical");
    });
}

/// The disagreements the differential tests and fuzz targets found, each
/// fixed in its decoder, kept as regressions.
#[test]
fn found_disagreements_stay_fixed() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for body in [
        "[\u{c}1]",
        "\u{c}[]",
        "[]\u{c}",
        "\u{c}null",
        "[1 2]",
        "[true x]",
        "[1:2]",
        "[1{}]",
        "[1 \"x\"]",
        &deep(127),
        &deep(128),
        &deep(129),
    ] {
        differential::array(body.as_bytes(), &[]).unwrap();
        differential::array(body.as_bytes(), &[1, 2, 3]).unwrap();
    }
    for text in [
        r#"{"output":0,"output""#,
        r#"{"a":1,"a":2"#,
        r#"{a":1}"#,
        r#"{"a":1,b":2}"#,
        &deep(127),
        &deep(128),
    ] {
        differential::canonical(text).unwrap();
    }
}
