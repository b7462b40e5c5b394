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

/// A config directory with `config.toml` holding `text`.
fn config(text: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("config.toml"), text).unwrap();
    d
}

#[test]
fn an_alias_of_another_kind_is_a_usage_error_and_a_typo_gets_the_nearest_names() {
    let s = sandbox::start("spec");
    let wf = &s.workflows[0];
    let d = config(&format!(
        "[aliases]\ntriage = \"workflow:{wf}\"\norders = \"{wf}\"\n"
    ));
    let dir = d.path().to_str().unwrap();
    for args in [
        vec!["logs", "triage"],
        vec!["stats", "pipeline", "triage"],
        vec!["run", "pipeline", "triage"],
        vec!["aggregate", "task", "triage"],
    ] {
        let o = s.run_with(&args, &[("YLEM_CONFIG_DIR", dir)]);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains("'triage' is a workflow"),
            "{args:?}: {}",
            o.stderr
        );
    }
    let o = s.run_with(
        &["stats", "workflow", "triage"],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert_eq!(o.code, 0, "the kind it was set with: {}", o.stderr);
    let o = s.run_with(
        &["stats", "pipeline", "triagr"],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("did you mean triage"), "{}", o.stderr);
}

#[test]
fn check_names_the_entity_whole() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let o = s.run(&["check", "pipeline", p, "--max-age", "100d"]);
    assert!(o.stdout.contains(&format!("pipeline {p} ")), "{}", o.stdout);
    assert!(!o.stdout.contains('…'), "{}", o.stdout);
    let d = config(&format!("[aliases]\npayments-nightly = \"pipeline:{p}\"\n"));
    let dir = d.path().to_str().unwrap();
    let o = s.run_with(
        &["check", "pipeline", "payments-nightly"],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert!(
        o.stdout.contains("pipeline payments-nightly "),
        "{}",
        o.stdout
    );
}

#[test]
fn hints_name_the_profile_and_the_credentials_in_use() {
    let s = sandbox::start("spec");
    let d = config(&format!(
        "[profiles.default]\nbase_url = \"{}\"\n\n[profiles.ttl]\nbase_url = \"{}\"\nclient_id = \"{}\"\n",
        s.base, s.base, s.client_id
    ));
    let dir = d.path().to_str().unwrap();
    let p = s.pipelines[0].0.as_str();
    let bare = |args: &[&str]| crate::common::ylem(args, &[("YLEM_CONFIG_DIR", dir)]);
    // A profile that does not exist: exit 2, listing those there are.
    let o = bare(&["-p", "ttll", "stats", "pipeline", p]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("no such profile 'ttll'"), "{}", o.stderr);
    assert!(o.stderr.contains("default, ttl"), "{}", o.stderr);
    // One that exists but has no secret (after logout): the hint names it.
    let o = bare(&["-p", "ttl", "stats", "pipeline", p]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("ylemctl -p ttl login"), "{}", o.stderr);
    assert!(!o.stderr.contains("'ylemctl login"), "{}", o.stderr);
    // Credentials from the environment still work under a new name.
    let o = s.run_with(
        &["-p", "brand-new", "stats", "pipeline", p],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // A refused secret from the environment names the variable.
    let o = s.run_with(
        &["stats", "pipeline", p],
        &[(
            "YLEM_CLIENT_SECRET",
            "0000000000000000000000000000000000000000000000000000000000000000",
        )],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("YLEM_CLIENT_SECRET"), "{}", o.stderr);
    assert!(!o.stderr.contains("run 'ylemctl login'"), "{}", o.stderr);
}

#[test]
fn a_connection_error_names_the_url() {
    let env = [
        ("YLEM_BASE_URL", "http://127.0.0.1:9"),
        ("YLEM_TOKEN", "tok-x"),
    ];
    let o = crate::common::ylem(
        &["stats", "pipeline", crate::common::P1, "--retries", "0"],
        &env,
    );
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stderr.contains("http://127.0.0.1:9"), "{}", o.stderr);
}

#[test]
fn watch_gets_advice_and_help_is_consistent() {
    let o = crate::common::ylem(&["status", "--watch"], &[]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("watch -n 30 ylemctl status"),
        "{}",
        o.stderr
    );
    let o = crate::common::ylem(&["status", "--help"], &[]);
    assert!(o.stdout.contains("Exit status:"), "{}", o.stdout);
    let o = crate::common::ylem(&["logs", "--help"], &[]);
    assert!(!o.stdout.contains("--concurrency"), "{}", o.stdout);
    let o = crate::common::ylem(&["aggregate", "--help"], &[]);
    assert!(o.stdout.contains("<ID>..."), "{}", o.stdout);
    // Still accepted where ignored: a script may set it for every command.
    let o = crate::common::ylem(&["logs", "x", "--concurrency", "2"], &[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("invalid ID"), "{}", o.stderr);
}

#[test]
fn fields_take_the_table_headers_and_aggregate_takes_several_ids() {
    let s = sandbox::start("spec");
    let (p1, p2) = (s.pipelines[0].0.as_str(), s.pipelines[1].0.as_str());
    let o = s.run(&[
        "logs",
        p1,
        "--since",
        "7d",
        "--fields",
        "RUN_UUID,result",
        "-o",
        "csv",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.starts_with("workflow_run_uuid,is_successful\n"),
        "{}",
        o.stdout
    );
    let o = s.run(&[
        "aggregate",
        "pipeline",
        p2,
        UNKNOWN,
        p1,
        "-o",
        "jsonl",
        "--count",
        "3",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let uuids: Vec<&str> = rows.iter().map(|r| r["uuid"].as_str().unwrap()).collect();
    assert_eq!(uuids, [p2, p2, p2, UNKNOWN, UNKNOWN, UNKNOWN, p1, p1, p1]);
    assert!(rows.iter().all(|r| r["error"].is_null()));
    // One ID: the periods alone, as before.
    let v = s.json(&["aggregate", "pipeline", p1, "--count", "2"]);
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert!(v[0].get("uuid").is_none(), "{v}");
}

#[test]
fn max_time_on_a_started_run_names_it_and_how_to_follow_it() {
    let s = sandbox::start_with("spec", &["--task-delay", "3s"]);
    let p = s.pipelines[0].0.as_str();
    let o = s.run(&["run", "pipeline", p, "--wait", "--max-time", "2s"]);
    assert!(o.code == 6 || o.code == 8, "{}: {}", o.code, o.stderr);
    assert!(!o.stderr.contains("may have started"), "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("ylemctl logs {p} --run ")),
        "{}",
        o.stderr
    );
}
