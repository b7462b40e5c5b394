//! `--jq EXPR`: the JSON output filtered as `gh --jq` does (strings raw,
//! other values compact, one result a line), each row of a stream on its
//! own and any other output whole; the same lines as the real `jq` on a
//! generated log; a bad expression is exit 2 before any request; a filter
//! that fails on the data is exit 2 naming the row; formats that are not
//! JSON, and commands that print none, refuse it.

use crate::common::{self, sandbox};

use common::faultserver::{FaultServer, json, route};
use common::*;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const WINDOW: [&str; 4] = [
    "--from",
    "2024-01-13T00:00:00",
    "--to",
    "2024-01-14T00:00:00",
];

/// A log of `n` entries in `n / 4` runs whose text trips printers: quotes,
/// backslashes, non-ASCII, an escaped control character; every third entry
/// failed; fractional metric values.
fn generated_log(n: usize) -> String {
    let types = [
        "query",
        "say \\\"hi\\\"",
        "café ☕",
        "tab\\tand\\\\slash",
        "日本語",
        "bell\\u0007",
    ];
    let rows: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"workflow_run_uuid":"9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d{:06x}","task_uuid":"1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b{:04x}","task_type":"{}","is_successful":{},"duration":{},"output":"eyJvayI6dHJ1ZX0=","metric_value":{}.25,"executed_at":"2024-01-13T18:{:02}:{:02}.123Z"}}"#,
                i / 4,
                i % 7,
                types[i % types.len()],
                i % 3 != 0,
                i * 37 % 10_000,
                i % 100,
                (i / 60) % 60,
                i % 60,
            )
        })
        .collect();
    format!("[{}]", rows.join(",\n"))
}

fn log_server(body: String) -> FaultServer {
    let s = FaultServer::routed();
    s.on(route()
        .method("GET")
        .path_like("*/logs/*")
        .answer(json(200, &body)));
    s
}

/// What the real `jq` prints for `input` with `flags` and `expr`.
fn real_jq(flags: &[&str], expr: &str, input: &str) -> String {
    let mut c = Command::new("jq")
        .args(flags)
        .arg(expr)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("jq (Debian package jq) is installed: .ci/run installs it");
    let mut stdin = c.stdin.take().unwrap();
    let input = input.to_string();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let o = c.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(o.status.success(), "jq {flags:?} {expr}");
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn logs_jq_prints_what_jq_prints_for_the_jsonl_rows() {
    let s = log_server(generated_log(2_000));
    let env = token_env(&s.base());
    let logs = |extra: &[&str]| {
        let mut a = vec!["logs", P1];
        a.extend(WINDOW);
        a.extend(extra);
        let o = run_env(&a, &env);
        assert_eq!(o.code, 0, "{extra:?}: {}", o.stderr);
        o.stdout
    };
    let jsonl = logs(&["-o", "jsonl"]);
    assert_eq!(jsonl.lines().count(), 2_000);
    // Objects and numbers: `jq -c`; strings raw besides: `jq -rc` (gh's).
    for (flags, expr) in [
        (
            &["-c"][..],
            "select(.is_successful == false) | {run: .workflow_run_uuid, task: .task_uuid, type: .task_type, d: .duration, m: .metric_value}",
        ),
        (&["-c"][..], "[.task_type, .duration * 2, .executed_at]"),
        (&["-c"][..], "."),
        (
            &["-rc"][..],
            ".task_type, .metric_value, .is_successful, null",
        ),
        (
            &["-rc"][..],
            "select(.duration > 5000) | \"\\(.task_uuid) took \\(.duration) ms\"",
        ),
    ] {
        let want = real_jq(flags, expr, &jsonl);
        assert!(!want.is_empty(), "{expr}");
        let got = logs(&["--jq", expr]);
        assert!(got == want, "--jq {expr}: differs from jq {flags:?}");
        // -o json or jsonl: the same rows, each on its own.
        assert!(
            logs(&["--jq", expr, "-o", "json"]) == want,
            "{expr}, -o json"
        );
        assert!(
            logs(&["--jq", expr, "-o", "jsonl"]) == want,
            "{expr}, -o jsonl"
        );
    }
    // --fields first: the filter sees the keys kept.
    let got = logs(&["--fields", "task_type,duration", "--jq", "keys_unsorted"]);
    assert!(
        got.lines().all(|l| l == r#"["task_type","duration"]"#),
        "{}",
        &got[..200.min(got.len())]
    );
}

#[test]
fn jq_filters_what_every_command_prints_against_the_sandbox() {
    for dialect in ["spec", "ylem"] {
        let sb = sandbox::start(dialect);
        let (p1, p2) = (&sb.pipelines[0].0, &sb.pipelines[1].0);
        let ok = |args: &[&str]| {
            let o = sb.run(args);
            assert_eq!(o.code, 0, "{dialect} {args:?}: {}", o.stderr);
            assert!(
                !o.all().contains(&sb.secret),
                "{dialect} {args:?}: the client secret"
            );
            o.stdout
        };
        // One ID: the object; a number prints as JSON.
        let n = ok(&[
            "stats",
            "pipeline",
            p1,
            "--since",
            "7d",
            "--jq",
            ".num_of_successes",
        ]);
        assert!(n.trim().parse::<u64>().is_ok(), "{dialect}: {n}");
        // Several IDs: the array; strings raw, one a line.
        let ids = ok(&["stats", "pipeline", p1, p2, "--jq", ".[] | .uuid"]);
        assert_eq!(ids, format!("{p1}\n{p2}\n"), "{dialect}");
        let found = ok(&["last-run", "pipeline", p1, "--jq", ".last_run"]);
        assert_eq!(found.trim(), "found", "{dialect}");
        let compact = ok(&["last-run", "pipeline", p1, "--jq", "{run_uuid, last_run}"]);
        assert_eq!(compact.lines().count(), 1, "{dialect}: compact: {compact}");
        assert!(
            compact.starts_with("{\"run_uuid\":\""),
            "{dialect}: {compact}"
        );
        // runs: a stream, each row on its own, as -o jsonl has them.
        let rows: Vec<Value> = ok(&["runs", p1, "--since", "7d", "-o", "jsonl"])
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(!rows.is_empty(), "{dialect}: runs");
        let want: String = rows
            .iter()
            .map(|r| format!("{}\n", r["run_uuid"].as_str().unwrap()))
            .collect();
        assert_eq!(
            ok(&["runs", p1, "--since", "7d", "--jq", ".run_uuid"]),
            want
        );
        // logs of the sandbox: the same as `jq` on its JSON lines.
        let jsonl = ok(&["logs", p1, "--since", "7d", "-o", "jsonl"]);
        let expr = "select(.is_successful) | [.task_uuid, .duration]";
        assert_eq!(
            ok(&["logs", p1, "--since", "7d", "--jq", expr]),
            real_jq(&["-c"], expr, &jsonl),
            "{dialect}"
        );
        // -o jsonl with several IDs: each row on its own.
        let each = ok(&["stats", "pipeline", p1, p2, "-o", "jsonl", "--jq", ".uuid"]);
        assert_eq!(each, format!("{p1}\n{p2}\n"), "{dialect}");
        // A run started: one ID, the object, filtered whole.
        let started = ok(&["run", "pipeline", p1, "--jq", ".outcome"]);
        assert_eq!(started, "started\n", "{dialect}");
        let two = ok(&["run", "pipeline", p1, p2, "--jq", "map(.outcome) | length"]);
        assert_eq!(two, "2\n", "{dialect}");
        // run --wait's object; logs --follow's rows, each as it comes.
        let run = ok(&[
            "run",
            "pipeline",
            p1,
            "--wait",
            "--poll",
            "200ms",
            "--jq",
            ".workflow_run_uuid",
        ]);
        let run = run.trim();
        let followed = ok(&[
            "logs",
            p1,
            "-f",
            "--since",
            "1h",
            "--run",
            run,
            "--max-time",
            "30s",
            "--jq",
            ".workflow_run_uuid",
        ]);
        assert!(
            !followed.is_empty() && followed.lines().all(|l| l == run),
            "{dialect}: {followed}"
        );
        // status, the board.
        let st = ok(&["status", p1, "--jq", ".status"]);
        assert!(
            ["ok", "degraded", "failed", "never", "unknown", "running"].contains(&st.trim()),
            "{dialect}: {st}"
        );
        // The sandbox's own banner is one line: filtered as it comes.
        let mut child = Command::new(env!("CARGO_BIN_EXE_ylemctl"))
            .args(["sandbox", "--listen", "127.0.0.1:0", "--jq", ".dialect"])
            .env_clear()
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut first,
        )
        .unwrap();
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(first, "spec\n", "the sandbox's default dialect");
    }
}

#[test]
fn a_bad_expression_is_exit_2_before_any_request() {
    let sb = sandbox::start("spec");
    let p1 = &sb.pipelines[0].0;
    let before = sb.requests();
    for (args, says) in [
        (
            vec!["stats", "pipeline", p1, "--jq", ".a |", "-v"],
            "expected term at character 5",
        ),
        (
            vec!["logs", p1, "-v", "--jq", "select(.x) | nosuch(1)"],
            "undefined filter nosuch at character 14",
        ),
        (vec!["run", "pipeline", p1, "-v", "--jq", "{a"], "expected"),
        (
            vec!["runs", p1, "-v", "--jq", ".[", "-o", "json"],
            "expected",
        ),
    ] {
        let o = sb.run(&args);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
        assert!(
            o.stderr.contains("invalid --jq expression") && o.stderr.contains(says),
            "{args:?}: {}",
            o.stderr
        );
        // -v says every request: there was none (no token request either).
        assert!(
            !o.stderr.contains("GET ") && !o.stderr.contains("POST "),
            "{args:?}: {}",
            o.stderr
        );
    }
    assert_eq!(sb.requests(), before, "the sandbox saw no request");
}

#[test]
fn jq_takes_json_output_only_and_a_failing_filter_is_exit_2() {
    let sb = sandbox::start("spec");
    let p1 = &sb.pipelines[0].0;
    for (args, says) in [
        (
            vec!["stats", "pipeline", p1, "--jq", ".", "-o", "csv"],
            "--jq filters JSON: it takes -o json or -o jsonl, not -o csv",
        ),
        (
            vec!["stats", "pipeline", p1, "--jq", ".", "-o", "table"],
            "not -o table",
        ),
        (
            vec!["check", "pipeline", p1, "--jq", "."],
            "'check' prints no JSON for --jq to filter",
        ),
        (
            vec!["auth", "token", "--jq", "."],
            "'auth' prints no JSON for --jq to filter",
        ),
        (
            vec!["completions", "bash", "--jq", "."],
            "'completions' prints no JSON",
        ),
    ] {
        let o = sb.run(&args);
        assert!(o.code == 2 || args[0] == "check", "{args:?}: {}", o.code);
        assert!(o.stderr.contains(says), "{args:?}: {}", o.stderr);
        assert!(!o.all().contains(&sb.secret), "{args:?}");
    }
    // YLEM_OUTPUT=csv is -o csv.
    let o = sb.run_with(
        &["stats", "pipeline", p1, "--jq", "."],
        &[("YLEM_OUTPUT", "csv")],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    // A filter that does not fit the data: exit 2, the row, jaq's words;
    // text errors when --jq alone implied JSON, the JSON object with -o json.
    let o = sb.run(&["stats", "pipeline", p1, "--jq", ".num_of_successes.b"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .starts_with("error: --jq failed on the output: cannot index"),
        "{}",
        o.stderr
    );
    let o = sb.run(&[
        "runs",
        p1,
        "--since",
        "7d",
        "--jq",
        ".run_uuid.x",
        "-o",
        "json",
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    let e: Value = serde_json::from_str(o.stderr.trim()).unwrap();
    assert_eq!(e["error"]["kind"], "usage");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("(row 1)"),
        "{e}"
    );
}

/// A filter failing after a run was started is not exit 2 ("nothing was
/// sent"): the run's own exit code stays, and stderr names the run; with
/// --wait the filter's error is not dropped.
#[test]
fn a_failing_filter_after_a_run_started_keeps_the_runs_exit_code() {
    let sb = sandbox::start_with("ylem", &["--task-delay", "20ms"]);
    let p = &sb.pipelines[0].0;
    let o = sb.run(&["run", "pipeline", p, "--jq", ".run_uuid | tonumber"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("--jq failed"), "{}", o.stderr);
    assert!(
        o.stderr.contains("the command ran: started"),
        "{}",
        o.stderr
    );
    let o = sb.run(&[
        "run",
        "pipeline",
        p,
        "--wait",
        "--jq",
        ".verdict | tonumber",
    ]);
    assert!(
        o.code == 0 || o.code == 7 || o.code == 8,
        "{}: {}",
        o.code,
        o.stderr
    );
    assert!(o.stderr.contains("--jq failed"), "{}", o.stderr);
    assert!(
        o.stderr.contains("the command ran: started"),
        "{}",
        o.stderr
    );
    assert!(!o.all().contains(&sb.secret));
    // A stream (-o jsonl) fails while the row is written: still not 2.
    let o = sb.run(&[
        "run",
        "pipeline",
        p,
        "-o",
        "jsonl",
        "--jq",
        ".run_uuid | tonumber",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("the command ran: started"),
        "{}",
        o.stderr
    );
    // A waited run's rows as a stream, the filter failing on its row: the
    // verdict's exit code all the same (0 or 7, as the truth says).
    let o = sb.run(&[
        "run",
        "pipeline",
        p,
        "--wait",
        "-o",
        "jsonl",
        "--jq",
        ".verdict | tonumber",
    ]);
    assert!(o.stderr.contains("--jq failed"), "{}", o.stderr);
    let run = o
        .stderr
        .split(" run ")
        .nth(1)
        .and_then(|t| t.get(..36))
        .unwrap_or_else(|| panic!("the run named: {}", o.stderr));
    let want = match sb.truth(run)["is_successful"] == true {
        true => 0,
        false => 7,
    };
    assert_eq!(o.code, want, "{}", o.stderr);
    // Read-only: still exit 2.
    let o = sb.run(&["stats", "pipeline", p, "--jq", ".num_of_successes.b"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}
