//! What a new operator tripped over (issue 27), each pinned by the case
//! that failed: readable errors arrays in tables and follow lines, the
//! multi-ID `error` object, per-ID stderr lines and the worst exit code,
//! hints that fit, aliases of the wrong kind, names never cut.

use serde_json::Value;

use crate::common::{pty, sandbox};

fn env(s: &sandbox::Sandbox) -> Vec<(&str, &str)> {
    vec![
        ("YLEM_BASE_URL", s.base.as_str()),
        ("YLEM_CLIENT_ID", s.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", s.secret.as_str()),
    ]
}

/// Text without colour escapes.
fn plain(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A message of the sandbox's errors arrays, as a person reads it.
fn has_message(s: &str) -> bool {
    [
        "timeout",
        "connection refused",
        "invalid response",
        "quota exceeded",
    ]
    .iter()
    .any(|m| s.contains(&format!("high] {m}")) || s.contains(&format!("critical] {m}")))
}

#[test]
fn a_failed_tasks_errors_read_a_message_a_line_in_an_80_column_table() {
    let s = sandbox::start("ylem");
    let p = s.pipelines[0].0.as_str();
    for extra in [&[][..], &["--fields", "task_uuid,output"][..]] {
        let mut args = vec!["logs", p, "--since", "30d", "--failed", "--decode"];
        args.extend(extra);
        let o = pty::run(&args, &env(&s), 80, 40);
        let out = plain(&o.stdout);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(has_message(&out), "{args:?}: {out}");
        assert!(!out.contains("\\n") && !out.contains("\"Code\""), "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
    }
    // Following: each failed task's messages on lines of their own.
    let args = [
        "logs",
        p,
        "-f",
        "--since",
        "3d",
        "--failed",
        "--decode",
        "--max-time",
        "4s",
    ];
    let o = pty::run(&args, &env(&s), 80, 40);
    let out = plain(&o.stdout);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(has_message(&out), "{out}");
    assert!(!out.contains("\\n"), "{out}");
}

#[test]
fn status_at_80_columns_keeps_the_health_column() {
    let s = sandbox::start("spec");
    let ids: Vec<&str> = s.pipelines.iter().map(|p| p.0.as_str()).collect();
    let mut args = vec!["status"];
    args.extend(&ids);
    let o = pty::run(&args, &env(&s), 80, 40);
    let out = plain(&o.stdout);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let header = out.lines().nth(1).unwrap_or_default();
    assert!(
        header.contains("NAME") && header.contains("STATUS"),
        "{out}"
    );
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
}

#[test]
fn an_empty_log_of_one_run_names_the_window_and_how_to_widen_it() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let run = "0b6c2d3e-4f50-4a1b-8c2d-3e4f5a6b7c8d";
    let o = s.run(&["logs", p, "--run", run]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("UTC"), "{}", o.stderr);
    assert!(o.stderr.contains("--since"), "{}", o.stderr);
    assert!(o.stderr.contains("last 24 hours"), "{}", o.stderr);
}
