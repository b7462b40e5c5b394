//! Memory bounded on every path, whatever the server sends (issue 43): each
//! command that reads a log, under a 1 GiB address-space cap with its peak
//! RSS sampled from `/proc/PID/status` (VmHWM), against a body that never
//! ends, an entry that never ends, a 300 MB run and nine 30 MB outputs.
//! The logs are generated while they are sent (one output's Base64 made
//! once and written again and again), never held by the test. Run with
//! `--nocapture` for each command's peak (notes/memory-docs.md's figures).
//! The binary measured and the bound's allowance: `common::measured`. An
//! entry's output is kept only to a bound while it arrives (the rest is
//! read past: `api::stream`), so no entry is held whole.

use crate::common;

use std::io::Write;
use std::time::Duration;

use common::faultserver::*;
use common::measured;
use common::*;

/// The issue's bound (`common::measured`: on the release binary as it
/// is, on the debug one plus its code's allowance).
fn peak_bound() -> i64 {
    measured::bound(measured::ISSUE_KIB)
}

const RUN: &str = "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a";
const TASK: &str = "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d";

/// A log of `entries` entries of run `RUN`, newest first and ending half
/// an hour ago, each output `output` (a JSON string, Base64); those whose
/// index `failed` says failed. Written as it is generated.
fn log(
    entries: usize,
    output: std::sync::Arc<String>,
    failed: fn(usize) -> bool,
) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send {
    let newest = chrono::Utc::now() - chrono::Duration::minutes(30);
    move |w: &mut dyn Write| {
        w.write_all(b"[")?;
        for i in 0..entries {
            let at = newest - chrono::Duration::milliseconds(10 * i as i64);
            if i > 0 {
                w.write_all(b",")?;
            }
            write!(
                w,
                r#"{{"workflow_run_uuid":"{RUN}","task_uuid":"{TASK}","task_type":"query","is_successful":{},"duration":5,"metric_value":null,"executed_at":"{}","output":"#,
                !failed(i),
                at.format("%Y-%m-%dT%H:%M:%S%.3fZ")
            )?;
            w.write_all(output.as_bytes())?;
            w.write_all(b"}")?;
        }
        w.write_all(b"]")
    }
}

/// The Base64 of `text`, as a JSON string.
fn b64(text: &str) -> String {
    use base64::Engine;
    format!(
        "\"{}\"",
        base64::engine::general_purpose::STANDARD.encode(text)
    )
}

/// An errors array whose one message is `n` bytes.
fn errors_of(n: usize) -> String {
    format!(
        r#"[{{"Code":1001,"Severity":"error","Message":"{}"}}]"#,
        "m".repeat(n)
    )
}

/// A server answering every log request with what `body` makes.
fn serving(body: impl Fn() -> Action + Send + Sync + 'static) -> FaultServer {
    FaultServer::start(move |_, _| body())
}

fn generated<F>(make: impl Fn() -> F + Send + Sync + 'static) -> FaultServer
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static,
{
    serving(move || Action::Generate {
        head: open_head(200),
        body: Box::new(make()),
    })
}

/// A run of the measured binary under the cap: exit code, stderr, peak
/// RSS (KiB); its stdout read and dropped as it comes.
fn capped(args: &[&str], base: &str) -> (i32, String, i64) {
    let dir = tempfile::tempdir().unwrap();
    let mut c = measured::command(dir.path());
    c.env("YLEM_BASE_URL", base)
        .env("YLEM_TOKEN", TOKEN)
        .env("COLUMNS", "120")
        .args(args);
    let m = measured::run(c, false, Duration::from_secs(120));
    eprintln!(
        "{args:?}: exit {}, peak {} KiB, {:?}",
        m.code, m.peak_kib, m.took
    );
    (m.code, m.stderr, m.peak_kib)
}

/// Each command over the server at `base`: not ended by a signal (an
/// allocation failing under the cap aborts), its peak under `bound`.
fn each_bounded(base: &str, commands: &[&[&str]], bound: i64) {
    let mut over = Vec::new();
    for args in commands {
        let (code, err, peak) = capped(args, base);
        assert!(code >= 0, "{args:?} ended by a signal: {err}");
        if peak >= bound {
            over.push(format!("{args:?}: {peak} KiB (exit {code})"));
        }
    }
    assert!(over.is_empty(), "over {bound} KiB: {over:#?}");
}

#[test]
fn a_300_mb_run_is_shown_in_bounded_memory() {
    // 4 800 entries of 64 KiB outputs: 300 MB; the middle one failed.
    let output = std::sync::Arc::new(b64(&"x".repeat(48 * 1024)));
    let s = generated(move || log(4800, output.clone(), |i| i == 2400));
    let base = s.base();
    each_bounded(
        &base,
        &[
            &["runs", P1, "--run", RUN],
            &["runs", P1, "--run", "latest"],
            &["runs", P1, "--run", RUN, "-o", "junit"],
            &["logs", P1, "-f", "--max-time", "8s"],
            &["logs", P1, "-f", "-o", "jsonl", "--max-time", "8s"],
            // Folded, then read again over the run's span, its trace
            // built from bounded summaries.
            &["export", "otlp", P1, "--since", "1d"],
            &["export", "openlineage", P1, "--since", "1d"],
        ],
        peak_bound(),
    );
}

#[test]
fn nine_30_mb_outputs_are_shown_in_bounded_memory() {
    // Nine failed entries, each a 30 MB errors array: one entry (its 30 MB
    // and its decoding) is held at a time, never nine.
    let output = std::sync::Arc::new(b64(&errors_of(22 * 1024 * 1024)));
    let s = generated(move || log(9, output.clone(), |_| true));
    let base = s.base();
    each_bounded(
        &base,
        &[
            &["logs", P1, "-o", "table"],
            &["logs", P1, "-o", "csv"],
            &["logs", P1, "-o", "json"],
            &["logs", P1, "-o", "jsonl"],
            &["logs", P1, "--decode", "-o", "table"],
            &["logs", P1, "--decode", "-o", "csv"],
            &["logs", P1, "--decode", "-o", "json"],
            &["logs", P1, "--failed", "--decode", "-o", "table"],
            &[
                "logs",
                P1,
                "-f",
                "--decode",
                "-o",
                "table",
                "--max-time",
                "8s",
            ],
            &["runs", P1, "--run", RUN],
            &["runs", P1, "--run", RUN, "-o", "junit"],
        ],
        peak_bound(),
    );
}

#[test]
fn an_endless_body_of_entries_is_read_in_bounded_memory() {
    // Entries of 1 KiB for ever (until the client goes or 60 s pass).
    let output = std::sync::Arc::new(b64(&"y".repeat(700)));
    let s = generated(move || log(usize::MAX, output.clone(), |i| i % 1000 == 7));
    let base = s.base();
    each_bounded(
        &base,
        &[
            &["logs", P1, "--max-time", "6s"],
            &["logs", P1, "-f", "--max-time", "6s"],
            &["logs", P1, "-f", "-o", "jsonl", "--max-time", "6s"],
            &["runs", P1, "--max-time", "6s"],
            &["runs", P1, "--run", RUN, "--max-time", "6s"],
            &["runs", P1, "--run", RUN, "-o", "junit", "--max-time", "6s"],
            &["export", "otlp", P1, "--since", "1d", "--max-time", "6s"],
        ],
        peak_bound(),
    );
}

#[test]
fn an_endless_entry_ends_at_the_entry_bound() {
    let s = serving(|| Action::Endless {
        head: open_head(200),
        start: format!(r#"[{{"workflow_run_uuid":"{RUN}","output":""#).into_bytes(),
        filler: vec![b'Q'; 64 * 1024],
        every: None,
        hold: Duration::from_secs(60),
    });
    let base = s.base();
    each_bounded(
        &base,
        &[
            &["logs", P1, "--max-time", "20s"],
            &["logs", P1, "-o", "json", "--max-time", "20s"],
            &["logs", P1, "--decode", "--max-time", "20s"],
            &["logs", P1, "-f", "--max-time", "20s"],
            &["runs", P1, "--run", RUN, "--max-time", "20s"],
        ],
        measured::bound(measured::ONE_ENTRY_KIB),
    );
}

/// Whether a request asks a log window opening more than `hours` back (a
/// wait's history lookup; its own polls open ten minutes before the start).
fn opens_before(path: &str, hours: i64) -> bool {
    let Some(rest) = path.split("/logs/").nth(1) else {
        return false;
    };
    let from = rest.split('/').next().unwrap_or("").replace("%20", " ");
    let from = from.get(..19).unwrap_or("");
    chrono::NaiveDateTime::parse_from_str(from, "%Y-%m-%dT%H:%M:%S")
        .or_else(|_| chrono::NaiveDateTime::parse_from_str(from, "%Y-%m-%d %H:%M:%S"))
        .is_ok_and(|t| t < chrono::Utc::now().naive_utc() - chrono::Duration::hours(hours))
}

#[test]
fn a_wait_counts_the_tasks_it_has_seen_in_bounded_memory() {
    // `run --wait` against a log of its run that never ends, every entry a
    // task of its own (the list of seen tasks is what could grow): its
    // polls read entries until the wait's time is up; history is empty.
    let started = format!(r#"{{"pipeline_run_uuid":"{RUN}"}}"#);
    let s = FaultServer::start(move |r, _| {
        if r.method == "POST" {
            return Action::Raw(json(200, &started));
        }
        if opens_before(&r.path, 2) {
            return Action::Raw(json(200, "[]"));
        }
        let newest = chrono::Utc::now();
        Action::Generate {
            head: open_head(200),
            body: Box::new(move |w: &mut dyn Write| {
                w.write_all(b"[")?;
                for i in 0u64.. {
                    let at = newest - chrono::Duration::milliseconds((i % 1_000_000) as i64);
                    write!(
                        w,
                        r#"{}{{"workflow_run_uuid":"{RUN}","task_uuid":"00000000-0000-4000-8000-{i:012}","task_type":"query","is_successful":true,"duration":5,"metric_value":null,"executed_at":"{}","output":"eyJvayI6dHJ1ZX0="}}"#,
                        if i > 0 { "," } else { "" },
                        at.format("%Y-%m-%dT%H:%M:%S%.3fZ")
                    )?;
                }
                w.write_all(b"]")
            }),
        }
    });
    let base = s.base();
    let args = [
        "run",
        "pipeline",
        P1,
        "--wait",
        "--poll",
        "1s",
        // Long enough for a list of every entry to pass the bound on
        // the debug binary (52 MB at 8 s, measured before the fix).
        "--wait-timeout",
        "18s",
        // A look reading a log that never ends is not cut by the wait's
        // time (the look's read is, by --max-time).
        "--max-time",
        "20s",
    ];
    let (code, err, peak) = capped(&args, &base);
    assert!(code >= 0, "ended by a signal: {err}");
    assert_ne!(code, 0, "an endless run cannot have succeeded: {err}");
    assert!(err.contains(RUN), "{err}");
    assert!(peak < peak_bound(), "peak {peak} KiB: {err}");
}

/// An output over the stream's bound, on each path: JSON and CSV keep its
/// first 8 MiB and the cut marker, `--decode` the text of its first 2 MiB,
/// a failure the message the cut fell in,
/// and with a key it is not decrypted (a part of an AES-GCM text cannot be
/// verified).
#[test]
fn an_output_over_the_bound_is_cut_with_its_marker_on_every_path() {
    let message = "m".repeat(7 << 20);
    let errors = format!(r#"[{{"Code":1001,"Severity":"error","Message":"{message}"}}]"#);
    let big = b64(&errors);
    let sent = big.len() - 2;
    let marker = format!("…[output cut: {sent} bytes sent]");
    let small = b64(r#"{"ok":true}"#);
    let at = (chrono::Utc::now() - chrono::Duration::minutes(30)).format("%Y-%m-%dT%H:%M:%SZ");
    let entry = |ok: bool, output: &str| {
        format!(
            r#"{{"workflow_run_uuid":"{RUN}","task_uuid":"{TASK}","task_type":"query","is_successful":{ok},"duration":5,"output":{output},"metric_value":null,"executed_at":"{at}"}}"#
        )
    };
    let body = format!("[{},{}]", entry(false, &big), entry(true, &small));
    let s = serving(move || Action::Raw(json(200, &body)));
    let base = s.base();
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, [7u8; 32]).unwrap();
    let run = |args: &[&str]| {
        let mut c = measured::command(dir.path());
        c.env("YLEM_BASE_URL", &base)
            .env("YLEM_TOKEN", TOKEN)
            .env("COLUMNS", "120")
            .args(args);
        let m = measured::run(c, true, Duration::from_secs(60));
        assert_eq!(m.code, 0, "{args:?}: {}", m.stderr);
        m
    };
    let kept = |n: usize| format!("{}{marker}", &big[1..1 + n]);
    // JSON: the first 8 MiB of the Base64 and the marker; the small
    // entry whole.
    let out = run(&["logs", P1, "-o", "jsonl"]).stdout;
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["output"], kept(8 << 20));
    assert_eq!(rows[1]["output"], small.trim_matches('"'));
    // CSV: the same.
    let out = run(&["logs", P1, "-o", "csv"]).stdout;
    assert!(out.contains(&kept(8 << 20)), "{}", &out[..200]);
    // Decoded: the kept part's text, as text, and the marker.
    let out = run(&["logs", P1, "--decode", "-o", "jsonl"]).stdout;
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let text = rows[0]["output"].as_str().unwrap();
    assert!(
        text.starts_with(r#"[{"Code":1001,"Severity":"error","Message":"mmm"#),
        "{}",
        &text[..80]
    );
    assert!(
        text.ends_with(&format!("m{marker}")),
        "{}",
        &text[text.len() - 80..]
    );
    assert_eq!(text.len(), (2 << 20) / 4 * 3 + marker.len());
    assert_eq!(rows[0]["decode_error"], serde_json::Value::Null);
    assert_eq!(rows[1]["output"], serde_json::json!({"ok": true}));
    // With a key: not decrypted, and said why.
    let k = key.to_str().unwrap();
    let m = run(&["logs", P1, "--decrypt-key-file", k, "-o", "jsonl"]);
    let rows: Vec<serde_json::Value> = m
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["output"], serde_json::Value::Null);
    let why = rows[0]["decode_error"].as_str().unwrap();
    assert!(
        why.starts_with(&format!(
            "not decrypted: {sent} bytes sent, over the 2097152 kept"
        )),
        "{why}"
    );
    // A failure: its message read from the kept part, ending in the marker.
    let out = run(&["runs", P1, "--run", RUN, "-o", "json"]).stdout;
    assert!(out.contains("1001"), "{}", &out[..out.len().min(400)]);
    assert!(
        out.contains(&format!("mmm{marker}")),
        "{}",
        &out[..out.len().min(400)]
    );
}
