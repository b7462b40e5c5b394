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

/// A message of the sandbox's errors arrays, as a person reads it:
/// `[CODE SEVERITY] text` (the sandbox varies the text by task type).
fn has_message(s: &str) -> bool {
    s.lines().any(|l| {
        ["critical] ", "high] ", "medium] ", "low] "]
            .iter()
            .any(|sev| {
                l.split_once('[')
                    .is_some_and(|(_, rest)| rest.contains(sev))
            })
    })
}

#[test]
fn a_failed_tasks_errors_read_a_message_a_line_in_an_80_column_table() {
    let s = sandbox::start("ylem");
    let p = s.pipelines[0].0.as_str();
    // Without --fields, 80 columns keep a log's run, task, result and time
    // longest (issue 36: `tables::tables_keep_what_was_asked_at_80_and_60_columns`);
    // the output shows on a wider terminal, or when asked for.
    for (extra, cols) in [(&[][..], 200), (&["--fields", "task_uuid,output"][..], 80)] {
        let mut args = vec!["logs", p, "--since", "30d", "--failed", "--decode"];
        args.extend(extra);
        let o = pty::run(&args, &env(&s), cols, 40);
        let out = plain(&o.stdout);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(has_message(&out), "{args:?}: {out}");
        assert!(!out.contains("\\n") && !out.contains("\"Code\""), "{out}");
        assert!(
            out.lines().all(|l| l.chars().count() <= cols as usize),
            "{out}"
        );
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

/// The default seed's paused pipeline and another organisation's (the
/// sandbox banner lists both).
const PAUSED: &str = "b5e02006-cc2f-4631-a3d9-93b918ffa09c";
const OTHER_ORG: &str = "77b41304-dad1-40de-b07d-6cc0c19ecb8c";
const UNKNOWN: &str = "00000000-0000-4000-8000-0000000000aa";

#[test]
fn several_ids_with_mixed_outcomes_in_every_format() {
    let s = sandbox::start("ylem");
    let p = s.pipelines[0].0.as_str();
    let ids = [p, PAUSED, OTHER_ORG, UNKNOWN];
    for f in ["json", "jsonl", "csv", "table"] {
        let mut args = vec!["run", "pipeline"];
        args.extend(ids);
        args.extend(["-o", f]);
        let o = s.run(&args);
        let what = format!("-o {f}: {}\n{}", o.stdout, o.stderr);
        assert_eq!(o.code, 4, "the worst of 0, 3, 3 and 4: {what}");
        // Every failed ID its own error on stderr, with its own hint.
        let errors = match f {
            "json" | "jsonl" => o
                .stderr
                .lines()
                .filter(|l| l.starts_with("{\"error\""))
                .count(),
            _ => o.stderr.lines().filter(|l| l.starts_with("error:")).count(),
        };
        assert_eq!(errors, 3, "{what}");
        assert!(o.stderr.contains("paused"), "{what}");
        assert!(o.stderr.contains("another organisation"), "{what}");
        assert!(!o.stderr.contains("pipeline is paused, or"), "{what}");
        match f {
            "json" | "jsonl" => {
                let rows: Vec<Value> = match f {
                    "json" => serde_json::from_str::<Vec<Value>>(&o.stdout).unwrap(),
                    _ => o
                        .stdout
                        .lines()
                        .map(|l| serde_json::from_str(l).unwrap())
                        .collect(),
                };
                let uuids: Vec<&str> = rows.iter().map(|r| r["uuid"].as_str().unwrap()).collect();
                assert_eq!(uuids, ids, "{what}");
                assert_eq!(rows[0]["error"], Value::Null, "{what}");
                for (r, kind, status) in [(1, "auth", 403), (2, "auth", 403), (3, "not_found", 404)]
                {
                    assert_eq!(rows[r]["error"]["kind"], kind, "{what}");
                    assert_eq!(rows[r]["error"]["http_status"], status, "{what}");
                    assert!(rows[r]["error"]["message"].is_string(), "{what}");
                    assert!(rows[r].get("status").is_none(), "{what}");
                }
            }
            _ => {
                let lines: Vec<&str> = o.stdout.lines().collect();
                assert_eq!(lines.len(), 5, "{what}");
                let header = lines[0].to_ascii_lowercase();
                assert!(
                    header.contains("error_kind") && header.contains("error"),
                    "{what}"
                );
                assert!(
                    lines[2].contains(PAUSED) && lines[2].contains("auth"),
                    "{what}"
                );
                assert!(
                    lines[4].contains(UNKNOWN) && lines[4].contains("not_found"),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn a_refused_id_among_several_keeps_its_row_and_says_why() {
    let s = sandbox::start("ylem");
    let p = s.pipelines[0].0.as_str();
    let o = s.run(&[
        "stats", "pipeline", p, OTHER_ORG, UNKNOWN, "--since", "30d", "-o", "csv",
    ]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    let errors: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(errors.len(), 1, "{}", o.stderr);
    assert!(errors[0].contains(OTHER_ORG), "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(lines[0].ends_with(",error_kind,error"), "{}", o.stdout);
    assert!(lines[1].ends_with(",,"), "answered: {}", o.stdout);
    assert!(lines[2].contains(",auth,"), "{}", o.stdout);
    // An 80-column table keeps the failed row's error_kind.
    let o = pty::run(&["stats", "pipeline", p, OTHER_ORG], &env(&s), 80, 40);
    let out = plain(&o.stdout);
    assert!(out.contains("ERROR_KIND") && out.contains("auth"), "{out}");
    // last-run's own found/not_found is not a request outcome.
    let o = s.run(&["last-run", "pipeline", p, UNKNOWN, "-o", "jsonl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["last_run"], "found");
    assert_eq!(rows[0]["error"], Value::Null);
    assert_eq!(rows[1]["last_run"], "not_found");
    assert_eq!(rows[1]["error"], Value::Null);
}
