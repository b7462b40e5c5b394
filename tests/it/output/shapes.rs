//! Output shapes for scripts: one shape per command in every format and
//! both dialects (the table `every_command_has_one_shape`: the JSON kind,
//! the keys, the same keys in JSON lines and CSV); with several IDs every ID
//! keeps its row, in the order given, a failed one carrying its error; one
//! ID gives one object; `run` prints one row per start; server text is
//! escaped; several IDs with mixed outcomes (paused, another
//! organisation's, unknown, refused) in every format against the sandbox.

use super::{env, plain};
use crate::common::{self, sandbox};

use common::faultserver::{FaultServer, json, response, route};
use common::*;
use serde_json::Value;

const STATS: &str = r#"{"num_of_successes":12,"num_of_failures":3,"average_duration":1534,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1200}"#;

/// P1 answers; P2 is unknown (404), with a body holding an escape sequence.
fn one_good_one_missing() -> FaultServer {
    let s = FaultServer::routed();
    s.on(route()
        .method("GET")
        .path_like(format!("*/{P2}/*"))
        .answer(response(
            404,
            &[("content-type", "text/plain")],
            b"no such \x1b[31mthing\x1b[0m",
        )));
    s.on(route()
        .method("GET")
        .path_like(format!("*/{P1}/*"))
        .answer(json(200, STATS)));
    s
}

#[test]
fn a_failed_id_keeps_its_row_in_every_format() {
    let s = one_good_one_missing();
    let env = token_env(&s.base());
    let args = |f: &'static str| vec!["stats", "pipeline", P2, P1, P2, "-o", f];
    let o = run_env(&args("json"), &env);
    assert_eq!(o.code, 4, "the worst exit code: {}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3, "{v}");
    for (row, id) in rows.iter().zip([P2, P1, P2]) {
        assert_eq!(row["uuid"], id);
    }
    assert_eq!(rows[0]["error"]["kind"], "not_found");
    assert_eq!(rows[0]["error"]["http_status"], 404);
    assert!(
        rows[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("404"),
        "{v}"
    );
    assert!(
        rows[0].get("status").is_none(),
        "status is the board's: {v}"
    );
    assert_eq!(rows[0]["num_of_successes"], Value::Null);
    assert_eq!(rows[1]["error"], Value::Null);
    assert_eq!(rows[1]["num_of_successes"], 12);
    let o = run_env(&args("csv"), &env);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", o.stdout);
    assert!(lines[0].ends_with(",error_kind,error"), "{}", lines[0]);
    assert!(lines[1].starts_with(P2) && lines[1].contains(",not_found,"));
    assert!(lines[2].starts_with(P1) && lines[2].ends_with(",,"));
    let o = run_env(&["stats", "pipeline", P2, P1], &env);
    assert_eq!(o.code, 4);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", o.stdout);
    assert!(lines[1].contains(P2) && lines[1].contains("not_found"));
    // last-run too, with its own error and last_run columns.
    let o = run_env(&["last-run", "pipeline", P1, P2, "-o", "jsonl"], &env);
    let rows: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{}", o.stdout);
    assert_eq!(rows[1]["uuid"], P2);
    assert_eq!(rows[1]["error"]["kind"], "not_found");
    assert_eq!(rows[1]["last_run"], Value::Null);
}

#[test]
fn control_characters_from_the_server_are_escaped() {
    let s = one_good_one_missing();
    let env = token_env(&s.base());
    let o = run_env(&["stats", "pipeline", P2], &env);
    assert_eq!(o.code, 4);
    assert!(!o.stderr.contains('\x1b'), "{:?}", o.stderr);
    let o = run_env(&["stats", "pipeline", P1, P2], &env);
    assert!(
        !o.stdout.contains('\x1b') && !o.stderr.contains('\x1b'),
        "{:?}",
        o.all()
    );
}

#[test]
fn run_prints_a_row_per_start_and_one_id_is_one_object() {
    let sb = sandbox::start("spec");
    let p = sb.pipelines[0].0.as_str();
    let o = sb.run(&["run", "pipeline", p]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", o.stdout);
    assert!(
        lines[1].contains(p) && lines[1].trim_end().ends_with("started"),
        "{}",
        o.stdout
    );
    assert!(!o.stdout.contains("false"), "{}", o.stdout);
    let q = sb.pipelines[1].0.as_str();
    let o = sb.run(&["run", "pipeline", p, q, "-o", "csv"]);
    assert_eq!(o.stdout.lines().count(), 3, "{}", o.stdout);
    assert!(
        o.stdout
            .starts_with("uuid,run_uuid,outcome,error_kind,error\n"),
        "{}",
        o.stdout
    );
    // The server's records are the machine formats', under `records`.
    let v = sb.json(&["run", "pipeline", p]);
    assert_eq!(v["outcome"], "started", "{v}");
    assert!(v["records"][0]["task_uuid"].is_string(), "{v}");
    // One ID: an object in every command.
    for args in [
        vec!["run", "pipeline", p, "--wait", "--poll", "200ms"],
        vec!["last-run", "pipeline", p],
        vec!["stats", "pipeline", p],
        vec!["status", p],
        vec!["run", "pipeline", p],
    ] {
        let v = sb.json(&args);
        assert!(v.is_object(), "{args:?}: {v}");
    }
}

#[test]
fn fields_accept_any_case() {
    let sb = sandbox::start("spec");
    let p = sb.pipelines[0].0.as_str();
    let o = sb.run(&[
        "stats",
        "pipeline",
        p,
        "--fields",
        "NUM_OF_SUCCESSES,Num_Of_Failures",
        "-o",
        "csv",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.starts_with("num_of_successes,num_of_failures\n"),
        "{}",
        o.stdout
    );
}

#[test]
fn the_exit_code_is_the_worst_failure_whatever_the_order() {
    let s = FaultServer::routed();
    s.on(route()
        .method("GET")
        .path_like(format!("*/{P1}/*"))
        .answer(response(404, &[], b"")));
    s.on(route()
        .method("GET")
        .path_like(format!("*/{P2}/*"))
        .answer(response(500, &[], b"")));
    let mut env = token_env(&s.base());
    env.push(("YLEM_OUTPUT", "csv".into()));
    for ids in [[P1, P2], [P2, P1]] {
        let o = run_env(
            &["stats", "pipeline", ids[0], ids[1], "--retries", "0"],
            &env,
        );
        assert_eq!(o.code, 5, "{ids:?}: {}", o.stderr);
        assert_eq!(o.stdout.lines().count(), 3, "{}", o.stdout);
        // The errors in the order the IDs were given, each once (the
        // worst is the command's error, said once too: issue 44).
        let errors: Vec<&str> = o
            .stderr
            .lines()
            .filter(|l| l.starts_with("error:"))
            .collect();
        assert_eq!(errors.len(), 2, "{}", o.stderr);
        for (line, id) in errors.iter().zip(ids) {
            assert!(line.contains(id), "{ids:?}: {}", o.stderr);
        }
    }
}

/// What `-o json` prints: one object, or an array of objects.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Object,
    Array,
}

const RUN: &[&str] = &["uuid", "run_uuid", "outcome", "records"];
const RUN_WAIT: &[&str] = &[
    "workflow_run_uuid",
    "verdict",
    "tasks_total",
    "tasks_done",
    "tasks_failed",
    "duration",
    "elapsed",
    "completion",
    "evidence",
    "failed_task",
    "failed_task_type",
    "failure",
    "failed_tasks",
];
const STATS_KEYS: &[&str] = &[
    "num_of_successes",
    "num_of_failures",
    "average_duration",
    "is_last_run_successful",
    "last_run_executed_at",
    "last_run_duration",
];
const LAST_RUN: &[&str] = &[
    "is_successful",
    "executed_at",
    "duration",
    "elapsed",
    "started",
    "ended",
    "tasks",
    "failed_task",
    "failed_task_type",
    "failure",
    "failed_tasks",
    "last_run",
    "evidence",
    "run_uuid",
];
const AGGREGATE: &[&str] = &[
    "date_from",
    "date_to",
    "num_of_successes",
    "num_of_failures",
    "average_duration",
    "filled",
];
const STATUS: &[&str] = &[
    "name",
    "kind",
    "uuid",
    "status",
    "last_run_successful",
    "last_run_at",
    "last_run_age",
    "runs_24h",
    "failures_24h",
    "average_duration",
    "failures_7d",
    "run_in_progress",
    "failed_task",
    "failed_task_type",
    "failure",
    "failed_tasks",
    "error",
];
const RUNS: &[&str] = &[
    "run_uuid",
    "result",
    "started",
    "ended",
    "duration",
    "elapsed",
    "tasks",
    "tasks_failed",
    "completion",
    "evidence",
    "failed_task",
    "failed_task_type",
    "failure",
    "failed_tasks",
];
const LOGS: &[&str] = &[
    "workflow_run_uuid",
    "task_uuid",
    "task_type",
    "is_successful",
    "duration",
    "output",
    "metric_value",
    "executed_at",
];

/// Several IDs' keys: `uuid` first, `error` last (once).
fn multi(keys: &[&'static str]) -> Vec<&'static str> {
    let mut k = vec!["uuid"];
    k.extend(keys.iter().filter(|k| !matches!(**k, "uuid" | "error")));
    k.push("error");
    k
}

/// The CSV header of rows with these JSON keys: `records` is JSON's only,
/// `error` (an object in JSON) is `error_kind` and `error`.
fn csv_header(keys: &[&str]) -> String {
    keys.iter()
        .filter(|k| **k != "records")
        .map(|k| match *k {
            "error" => "error_kind,error",
            k => k,
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn keys_of(v: &Value) -> Vec<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("an object: {v}"))
        .keys()
        .cloned()
        .collect()
}

/// Every command that prints rows, one ID and several, in every format
/// and both dialects: `-o json` is the object for one ID and an array
/// otherwise (a stream, `runs` and `logs`, is an array whatever it is
/// given), with these keys; JSON lines have the same keys a line; CSV's
/// header says them (`records` aside); a table prints.
#[test]
fn every_command_has_one_shape_in_every_format_and_dialect() {
    for dialect in ["spec", "ylem"] {
        let sb = sandbox::start(dialect);
        let (p, q) = (sb.pipelines[0].0.as_str(), sb.pipelines[1].0.as_str());
        let w = sb.workflows[0].as_str();
        let mut cases: Vec<(Vec<&str>, Kind, Vec<&str>)> = vec![
            (vec!["run", "pipeline", p], Kind::Object, RUN.to_vec()),
            (vec!["run", "pipeline", p, q], Kind::Array, multi(RUN)),
            (
                vec!["run", "pipeline", p, "--wait", "--poll", "200ms"],
                Kind::Object,
                RUN_WAIT.to_vec(),
            ),
            (
                vec!["stats", "pipeline", p],
                Kind::Object,
                STATS_KEYS.to_vec(),
            ),
            (
                vec!["stats", "pipeline", p, q],
                Kind::Array,
                multi(STATS_KEYS),
            ),
            (
                vec!["last-run", "pipeline", p],
                Kind::Object,
                LAST_RUN.to_vec(),
            ),
            (
                vec!["last-run", "pipeline", p, q],
                Kind::Array,
                multi(LAST_RUN),
            ),
            // The endpoint's answer for one ID is an array of periods.
            (
                vec!["aggregate", "pipeline", p],
                Kind::Array,
                AGGREGATE.to_vec(),
            ),
            (
                vec!["aggregate", "pipeline", p, q],
                Kind::Array,
                multi(AGGREGATE),
            ),
            (vec!["status", p], Kind::Object, STATUS.to_vec()),
            (vec!["status", p, q], Kind::Array, STATUS.to_vec()),
            (vec!["runs", p, "--since", "7d"], Kind::Array, RUNS.to_vec()),
            (
                vec!["runs", p, "--since", "7d", "--run", "latest"],
                Kind::Object,
                [RUNS, &["tasks_expected", "entries"]].concat(),
            ),
            (vec!["logs", p, "--since", "7d"], Kind::Array, LOGS.to_vec()),
        ];
        if dialect == "spec" {
            // The open-source server has no workflow runs (ylem: 404).
            cases.push((vec!["run", "workflow", w], Kind::Object, RUN.to_vec()));
        }
        for (args, kind, keys) in &cases {
            let with = |format: &'static str| {
                let mut a = args.clone();
                a.extend(["-o", format]);
                let o = sb.run_with(&a, &[("COLUMNS", "400")]);
                assert_eq!(o.code, 0, "{dialect} {a:?}: {}", o.stderr);
                assert!(!o.stdout.trim().is_empty(), "{dialect} {a:?}: nothing");
                assert!(!o.all().contains(&sb.secret), "{dialect} {a:?}: the secret");
                o.stdout
            };
            let json: Value = serde_json::from_str(&with("json")).unwrap();
            let rows: Vec<&Value> = match (kind, &json) {
                (Kind::Object, Value::Object(_)) => vec![&json],
                (Kind::Array, Value::Array(a)) => a.iter().collect(),
                _ => panic!("{dialect} {args:?}: a JSON {kind:?} expected: {json}"),
            };
            assert!(!rows.is_empty(), "{dialect} {args:?}: no row");
            for r in &rows {
                assert_eq!(keys_of(r), *keys, "{dialect} {args:?} -o json");
            }
            let jsonl = with("jsonl");
            let lines: Vec<Value> = jsonl
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            if *kind == Kind::Object {
                assert_eq!(lines.len(), 1, "{dialect} {args:?}: {jsonl}");
            }
            for l in &lines {
                assert_eq!(keys_of(l), *keys, "{dialect} {args:?} -o jsonl");
            }
            let csv = with("csv");
            assert_eq!(
                csv.lines().next().unwrap(),
                csv_header(keys),
                "{dialect} {args:?} -o csv"
            );
            with("table");
        }
        // auth status: the object in JSON, text in a table, and no CSV.
        let v = sb.json(&["auth", "status"]);
        assert!(v.is_object() && v["logged_in"] == true, "{dialect}: {v}");
        let o = sb.run(&["auth", "status", "-o", "csv"]);
        assert_eq!(o.code, 2, "{dialect}: {}", o.stderr);
    }
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
