//! Generators of JSON-ish text for the differential property tests
//! (`props_differential`): mostly JSON, with what trips decoders (escapes,
//! paired and lone `\u` surrogates, numbers of every shape, deep nesting,
//! repeated keys, odd whitespace), log entries in and out of the scanner's
//! everyday shape, array bodies, and a byte changed here and there.

use proptest::prelude::*;

/// Whitespace JSON allows, mostly, and two kinds it does not.
pub(crate) fn ws() -> impl Strategy<Value = &'static str> {
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
pub(crate) fn number() -> impl Strategy<Value = String> {
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
pub(crate) fn string_text() -> impl Strategy<Value = String> {
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

pub(crate) fn quoted() -> impl Strategy<Value = String> {
    string_text().prop_map(|s| format!("\"{s}\""))
}

/// Keys: a few (so objects repeat them), the log's, and any text.
pub(crate) fn key() -> impl Strategy<Value = String> {
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
pub(crate) fn json_text() -> impl Strategy<Value = String> {
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
pub(crate) fn valid_json() -> impl Strategy<Value = String> {
    (super::props::json_value(), any::<bool>()).prop_map(|(v, pretty)| {
        if pretty {
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            v.to_string()
        }
    })
}

/// Objects that repeat a key, otherwise JSON, maybe in an array.
pub(crate) fn repeated_keys() -> impl Strategy<Value = String> {
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
pub(crate) fn deep() -> impl Strategy<Value = String> {
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
pub(crate) fn mutated(text: impl Strategy<Value = String>) -> impl Strategy<Value = Vec<u8>> {
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
pub(crate) fn entry_text(tails: bool) -> impl Strategy<Value = String> {
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
pub(crate) fn array_body() -> impl Strategy<Value = String> {
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
