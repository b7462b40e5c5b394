//! `logs` bodies at the decoder's edges, through the built binary: a huge
//! output passes through `jsonl` byte for byte; text with every escape comes
//! out as serde_json writes it, in every format; a body cut anywhere (in a
//! multi-byte character, an escape, a number) exits 5 with every whole row
//! printed once and nothing else; `--decrypt-key-file` (a wrong key is an
//! error per entry) and `--decode` against the sandbox.

use crate::common;

use common::faultserver::*;
use common::sandbox::start;
use common::*;
use serde_json::Value;

const FROM: &str = "2024-01-13 00:00:00";
const TO: &str = "2024-01-14 00:00:00";

/// Log entry `i` in the spec's key order (the order `jsonl` prints), with
/// `output_json` as its output.
fn entry(i: usize, output_json: &str) -> String {
    format!(
        r#"{{"workflow_run_uuid":"00000000-0000-4000-8000-00000000000{}","task_uuid":"11111111-2222-4333-8444-55555555555{}","task_type":"query","is_successful":{},"duration":{},"output":{output_json},"metric_value":{}.5,"executed_at":"2024-01-13T10:00:0{}Z"}}"#,
        i % 10,
        i % 10,
        !i.is_multiple_of(3),
        i * 1000,
        i,
        i % 10
    )
}

fn logs(body: &str, format: &str) -> Out {
    let (body, format) = (body.to_string(), format.to_string());
    let s = FaultServer::start(move |_, _| Action::Raw(json(200, &body)));
    let env = token_env(&s.base());
    // `csv-raw`: -o csv --csv-raw, the cells as sent (the default CSV
    // escapes control characters: tests/it/output/csv_safe.rs).
    let mut args = vec!["logs", P1, "--from", FROM, "--to", TO, "-o"];
    match format.as_str() {
        "csv-raw" => args.extend(["csv", "--csv-raw"]),
        f => args.push(f),
    }
    let o = run_env(&args, &env);
    assert_eq!(s.seen().len(), 1, "one request");
    o
}

/// `s` with `/` and everything beyond ASCII as escapes, as some servers write.
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
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out + "\""
}

#[test]
fn a_huge_output_passes_through_jsonl_byte_for_byte() {
    let big = format!("\"{}\"", "QUJDRA/+".repeat(1 << 20)); // 8 MiB of Base64
    let text = "say \"hi\",\nthen é/😀\t\u{1}; ".repeat(40_000); // 1.2 MB of text
    let plain = entry(1, &big);
    let with_escapes = entry(2, &serde_json::to_string(&text).unwrap());
    // The same text with every escape: printed as serde_json writes it.
    let all_escaped = entry(2, &escaped(&text));
    let body = format!("[{plain},{with_escapes},\n {all_escaped}]");
    let o = logs(&body, "jsonl");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let want = format!("{plain}\n{with_escapes}\n{with_escapes}\n");
    assert!(o.stdout == want, "jsonl differs from the entries as sent");

    let o = logs(&body, "csv-raw");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "workflow_run_uuid",
        "task_uuid",
        "task_type",
        "is_successful",
        "duration",
        "output",
        "metric_value",
        "executed_at",
    ])
    .unwrap();
    let whole: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
    for v in &whole {
        let cells: Vec<String> = v
            .as_object()
            .unwrap()
            .values()
            .map(|c| c.as_str().map_or_else(|| c.to_string(), str::to_string))
            .collect();
        w.write_record(&cells).unwrap();
    }
    let want = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert!(o.stdout == want, "csv differs from the csv crate's");
}

#[test]
fn a_cut_body_exits_5_with_each_whole_row_once() {
    let outputs = [
        r#""QUJD""#,
        r#""é😀 \"quoted\" \u00e9\/""#,
        r#""a\nb""#,
        "null",
        r#""日本語""#,
    ];
    let entries: Vec<String> = outputs
        .iter()
        .enumerate()
        .map(|(i, o)| entry(i, o))
        .collect();
    let body = format!("[{}]", entries.join(",\n"));
    // Where each entry ends, and the rows `jsonl` prints for it.
    let mut ends = Vec::new();
    let mut rows = Vec::new();
    for e in &entries {
        let at = body.find(e.as_str()).unwrap() + e.len();
        ends.push(at);
        let v: serde_json::Value = serde_json::from_str(e).unwrap();
        let mut line = serde_json::to_string(&v).unwrap();
        // `null` outputs print as empty text.
        line = line.replace(r#""output":null"#, r#""output":"""#);
        rows.push(line + "\n");
    }
    let find = |s: &str| body.find(s).unwrap();
    let cuts = [
        find("😀") + 2,      // inside a multi-byte character
        find("\\u00e9") + 4, // inside an escape
        find("\\/") + 1,     // between a backslash and its character
        find("3.5") + 2,     // inside a number, after the dot
        ends[2] + 1,         // right after a separator
        ends[4],             // all entries, no closing bracket
    ];
    for cut in cuts {
        let mut head = open_head(200);
        head.extend_from_slice(&body.as_bytes()[..cut]);
        let s = FaultServer::start(move |_, _| Action::Raw(head.clone()));
        let env = token_env(&s.base());
        let o = run_env(
            &["logs", P1, "--from", FROM, "--to", TO, "-o", "jsonl"],
            &env,
        );
        assert_eq!(o.code, 5, "cut at {cut}: {}", o.stderr);
        assert!(
            o.stderr.contains("ended before"),
            "cut at {cut}: {}",
            o.stderr
        );
        let whole = ends.iter().filter(|&&e| e <= cut).count();
        assert_eq!(o.stdout, rows[..whole].concat(), "cut at {cut}");
    }
}

/// A log cut off before its first entry is, in `-o json`, still an array:
/// `[]`, exit 5 (issue 43; it used to leave stdout empty).
#[test]
fn json_cut_before_its_first_entry_is_an_empty_array() {
    let first = entry(1, r#""QUJD""#);
    for cut in [1, first.len() / 2] {
        let mut head = open_head(200);
        head.extend_from_slice(&format!("[{first}]").as_bytes()[..cut]);
        let s = FaultServer::start(move |_, _| Action::Raw(head.clone()));
        let env = token_env(&s.base());
        let o = run_env(
            &[
                "logs",
                P1,
                "--from",
                FROM,
                "--to",
                TO,
                "-o",
                "json",
                "--retries",
                "0",
            ],
            &env,
        );
        assert_eq!(o.code, 5, "cut at {cut}: {}", o.stderr);
        let v: serde_json::Value = serde_json::from_str(&o.stdout)
            .unwrap_or_else(|e| panic!("cut at {cut}: {e}: {:?}", o.stdout));
        assert_eq!(v, serde_json::json!([]), "cut at {cut}");
    }
}

#[test]
fn decode_and_decrypt_outputs() {
    let sb = start("spec");
    let p0 = &sb.pipelines[0].0;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, &sb.key).unwrap();
    let k = key.to_str().unwrap();
    let o = sb.run(&[
        "logs",
        p0,
        "--since",
        "3d",
        "--decrypt-key-file",
        k,
        "-o",
        "jsonl",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        rows.iter().all(|r| r["decode_error"].is_null()),
        "every output decrypts"
    );
    assert!(
        rows.iter().any(|r| r["output"].is_object()),
        "JSON outputs are embedded as JSON"
    );
    // A wrong key: an error per entry, no crash, exit 0 with a warning.
    std::fs::write(&key, "00".repeat(32)).unwrap();
    let o = sb.run(&[
        "logs",
        p0,
        "--since",
        "3d",
        "--decrypt-key-file",
        k,
        "-o",
        "csv",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("wrong key"));
    assert!(o.stderr.contains("could not be decoded"));
    std::fs::write(&key, "not a key").unwrap();
    assert_eq!(sb.run(&["logs", p0, "--decrypt-key-file", k]).code, 2);
    // The ylem dialect sends plain Base64: --decode alone reads it.
    let sb = start("ylem");
    let o = sb.run(&["logs", &sb.pipelines[0].0, "--since", "3d", "--decode"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // JSON on one line in the table (never a literal `\n`); a failed
    // task's errors array a message a line.
    assert!(
        o.stdout.contains("\"status\":") && !o.stdout.contains("\\n"),
        "one-line JSON in the table: {}",
        o.stdout
    );
}
