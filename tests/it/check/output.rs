//! `check -o json`: the plugin's verdict as `{"state","message","perfdata"}`
//! with the performance data as an object, the same state, exit code and
//! data as its status line; `-o` in `check --help`; `--fields` and the
//! outputs it does not take are its UNKNOWN (exit 3), with nothing sent;
//! OK, WARNING, CRITICAL and UNKNOWN against a sandbox process; an empty
//! `--window` refused.

use crate::common;

use common::sandbox::{Sandbox, start, start_with};
use common::*;
use serde_json::Value;

/// `label=VALUE[UOM][;WARN;CRIT]` items of a status line's performance data.
fn perf_of(line: &str) -> Vec<(String, String)> {
    let first = line.lines().next().unwrap_or("");
    let Some((_, perf)) = first.split_once(" | ") else {
        return Vec::new();
    };
    perf.split(' ')
        .map(|i| {
            let (k, v) = i.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// `text` with each path time (`2026-12-03%2012:53:16`) said as `TIME`.
fn unclocked(text: &str) -> String {
    const SHAPE: &[u8] = b"dddd-dd-dd%20dd:dd:dd";
    let b = text.as_bytes();
    let fits = |i: usize| {
        b.len() >= i + SHAPE.len()
            && SHAPE.iter().zip(&b[i..]).all(|(s, c)| match s {
                b'd' => c.is_ascii_digit(),
                s => s == c,
            })
    };
    let (mut out, mut i, mut from) = (String::new(), 0, 0);
    while i < b.len() {
        if fits(i) {
            out.push_str(&text[from..i]);
            out.push_str("TIME");
            i += SHAPE.len();
            from = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[from..]);
    out
}

#[test]
fn check_json_is_the_status_line_as_an_object() {
    let sb = start_with("ylem", &[]);
    let cases: Vec<Vec<&str>> = sb
        .pipelines
        .iter()
        .take(4)
        .map(|(p, _)| {
            vec![
                "check",
                "pipeline",
                p.as_str(),
                "--max-age",
                "25h,49h",
                "--max-failure-rate",
                "10,25",
                "--window",
                "7d",
            ]
        })
        .chain([vec!["check", "workflow", sb.workflows[0].as_str()]])
        .collect();
    for args in cases {
        let text = sb.run(&args);
        let mut j = args.clone();
        j.extend(["-o", "json"]);
        let o = sb.run(&j);
        assert_eq!(o.code, text.code, "{args:?}: {}\n{}", o.stdout, text.stdout);
        assert!(!o.all().contains(&sb.secret));
        assert_eq!(o.stdout.lines().count(), 1, "one line: {}", o.stdout);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["state", "message", "perfdata"], "{v}");
        let (state, rest) = text.stdout.split_once(" - ").unwrap();
        assert_eq!(v["state"], state, "{v}");
        let words = rest.lines().next().unwrap().split(" | ").next().unwrap();
        // The age may have moved on by a second between the two, and so
        // may the window a refused request names.
        let m = v["message"].as_str().unwrap();
        let before_ago = |s: &str| s.split(" ago").next().map(unclocked);
        assert_eq!(before_ago(m), before_ago(words), "{v}");
        // The long output (each failed task's messages), the same in both.
        let long: Vec<&str> = text.stdout.lines().skip(1).collect();
        assert_eq!(m.lines().skip(1).collect::<Vec<_>>(), long, "{v}");
        let perf = perf_of(&text.stdout);
        let obj = v["perfdata"].as_object().unwrap();
        let labels: Vec<&String> = obj.keys().collect();
        let want: Vec<&String> = perf.iter().map(|(k, _)| k).collect();
        assert_eq!(labels, want, "{v}\n{}", text.stdout);
        for (k, raw) in &perf {
            let p = &obj[k];
            let parts: Vec<&str> = raw.split(';').collect();
            let levels = |i: usize| match parts.get(i).filter(|s| !s.is_empty()) {
                Some(s) => s.parse::<f64>().ok(),
                None => None,
            };
            assert_eq!(p["warn"].as_f64(), levels(1), "{k}: {p} vs {raw}");
            assert_eq!(p["crit"].as_f64(), levels(2), "{k}: {p} vs {raw}");
            assert!(parts[0].ends_with(p["uom"].as_str().unwrap()), "{k}: {p}");
            if k != "age" {
                let n = parts[0].trim_end_matches(p["uom"].as_str().unwrap());
                assert_eq!(p["value"].as_f64(), n.parse::<f64>().ok(), "{k}: {p}");
            }
        }
    }
    // A service that cannot be asked: UNKNOWN, as an object too.
    let o = common::ylem(
        &["check", "pipeline", &sb.pipelines[0].0, "-o", "json"],
        &[
            ("YLEM_BASE_URL", "http://127.0.0.1:1"),
            ("YLEM_TOKEN", common::TOKEN),
        ],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["state"], "UNKNOWN");
    assert_eq!(v["perfdata"], serde_json::json!({}));
    assert!(!o.all().contains(common::TOKEN));
}

#[test]
fn check_refuses_what_it_does_not_print_as_unknown() {
    let sb = start_with("ylem", &[]);
    let p = sb.pipelines[0].0.clone();
    let before = sb.requests().len();
    for (extra, what) in [
        (vec!["-o", "csv"], "-o csv is not an output of check"),
        (vec!["-o", "jsonl"], "-o jsonl is not an output of check"),
        (vec!["-o", "junit"], "-o junit is not an output of check"),
        (vec!["--fields", "x"], "--fields is not for check"),
    ] {
        let mut args = vec!["check", "pipeline", p.as_str()];
        args.extend(extra);
        let o = sb.run(&args);
        assert_eq!(o.code, 3, "{args:?}: {}", o.stderr);
        assert_eq!(o.stdout.lines().count(), 1, "{}", o.stdout);
        assert!(
            o.stdout.starts_with(&format!("UNKNOWN - {what}")),
            "{}",
            o.stdout
        );
        assert!(o.stderr.contains(what), "{}", o.stderr);
        assert!(
            o.stderr
                .contains("json ({state, message, perfdata}) or prometheus"),
            "{}",
            o.stderr
        );
    }
    assert_eq!(sb.requests().len(), before, "nothing sent");
    let help = common::ylem(&["check", "--help"], &[]).stdout;
    assert!(help.contains("-o, --output <OUTPUT>"), "{help}");
    assert!(
        help.contains("table (the plugin's status line, the default), json"),
        "{help}"
    );
    assert!(!help.contains("--fields"), "{help}");
}

fn check(sb: &Sandbox, args: &[&str]) -> (i32, String) {
    let mut a = vec!["check"];
    a.extend_from_slice(args);
    let o = sb.run(&a);
    assert_eq!(o.stdout.lines().count(), 1, "one status line: {}", o.stdout);
    (o.code, o.stdout.trim().to_string())
}

#[test]
fn check_in_each_state() {
    let sb = start_with("spec", &["--task-delay", "50ms"]);
    let p0 = &sb.pipelines[0].0;
    assert_eq!(
        sb.run(&["run", "pipeline", p0, "--wait", "--poll", "200ms"])
            .code,
        0
    );
    // The one model's grace: a run with its history's tasks counts after a
    // second without a new one (run --wait's was one 200 ms poll), so
    // `check` is asked until it says so (10 s at most).
    let limit = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let (code, line) = loop {
        let (code, line) = check(&sb, &["pipeline", p0, "--max-age", "25h,49h"]);
        if line.contains("last run succeeded") || std::time::Instant::now() > limit {
            break (code, line);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(code, 0, "{line}");
    assert!(
        line.starts_with("OK - pipeline ") && line.contains("last run succeeded"),
        "{line}"
    );
    assert!(
        line.contains("| age=") && line.contains(";90000;176400"),
        "{line}"
    );
    let p1 = &sb.pipelines[1].0;
    let (code, line) = check(
        &sb,
        &[
            "pipeline",
            p1,
            "--max-failure-rate",
            "1,99",
            "--window",
            "30d",
        ],
    );
    let last_failed = line.contains("last run failed");
    assert_eq!(code, if last_failed { 2 } else { 1 }, "{line}");
    assert!(line.contains("failure_rate="), "{line}");
    // Every run takes longer than 2 ms: critical, without waiting on a clock.
    let (code, line) = check(&sb, &["pipeline", p0, "--max-duration", "1ms,2ms"]);
    assert_eq!(code, 2, "{line}");
    assert!(line.starts_with("CRITICAL - "), "{line}");
    let (code, line) = check(&sb, &["pipeline", p0, "--max-age", "49h,25h"]);
    assert_eq!(code, 3, "{line}");
    assert!(line.starts_with("UNKNOWN - "), "{line}");
    let o = ylem(
        &["check", "task", p0],
        &[
            ("YLEM_BASE_URL", "http://127.0.0.1:9"),
            ("YLEM_TOKEN", TOKEN),
        ],
    );
    assert_eq!(o.code, 3);
    assert!(o.stdout.starts_with("UNKNOWN - "), "{}", o.stdout);
}

/// An empty window holds no run, so a failure rate over it would say OK on
/// nothing: `--window 0s` (and anything under a second) is a usage error,
/// which `check` says as its UNKNOWN line (exit 3), before any request.
#[test]
fn check_refuses_an_empty_window() {
    let sb = start("spec");
    let p = sb.pipelines[0].0.clone();
    let before = sb.requests().len();
    for w in ["0s", "0m"] {
        let o = sb.run(&[
            "check",
            "pipeline",
            &p,
            "--max-failure-rate",
            "10",
            "--window",
            w,
        ]);
        assert_eq!(o.code, 3, "{w}: {}{}", o.stdout, o.stderr);
        assert_eq!(
            o.stdout,
            format!("UNKNOWN - invalid value '{w}' for '--window <D>': must be at least 1s\n")
        );
    }
    assert_eq!(sb.requests().len(), before, "nothing was sent");
    let o = sb.run(&[
        "check",
        "pipeline",
        &p,
        "--max-failure-rate",
        "10",
        "--window",
        "1s",
    ]);
    assert!(
        o.stdout.starts_with("OK - ") || o.stdout.starts_with("CRITICAL - "),
        "{}",
        o.stdout
    );
}
