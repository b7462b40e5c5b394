//! Workflows and tasks, which leave no log, against the sandbox (both
//! dialects; the open-source server has no workflows): `last-run`, `check`,
//! `status -o json`, `last-run -o prometheus`, the exporter and `watch -o
//! jsonl`, asked
//! at once, give one verdict and one set of times, and `status`' counts are
//! `stats --since 24h`'s; a run the stream opens it closes, with a
//! documented `completion` that agrees with its verdict. Also: `run
//! workflow --wait` has no elapsed of its own.

use serde_json::Value;

use std::io::{BufRead, BufReader};

use crate::common::process::{Killed, free_port};
use crate::common::sandbox::{Sandbox, start};

/// Every `completion` the guide documents (docs/runs-and-waiting.md).
const COMPLETIONS: &[&str] = &[
    "history",
    "expected_tasks",
    "settled",
    "failed_task",
    "running",
    "timed_out",
    "statistics_settled",
    "statistics_failed",
    "task_reported",
    "unsettled",
    "not_in_log",
];

/// What each command said of one entity.
struct Said {
    stats: Value,
    status: Value,
    last: Value,
    check: String,
    prom: String,
    /// The exporter's exposition (every entity).
    exported: String,
}

fn ask(sb: &Sandbox, kind: &str, id: &str, exporter: u16) -> Said {
    let typed = format!("{kind}:{id}");
    let run = |a: &[&str]| {
        let o = sb.run(a);
        assert!(o.code == 0 || a[0] == "check", "{a:?}: {}", o.stderr);
        o.stdout
    };
    let json = |a: &[&str]| -> Value {
        let s = run(a);
        serde_json::from_str(&s).unwrap_or_else(|e| panic!("{a:?}: {e}: {s}"))
    };
    // Asked at once: the same moment for every command.
    std::thread::scope(|s| {
        let stats = s.spawn(|| json(&["stats", kind, id, "--since", "24h", "-o", "json"]));
        let status = s.spawn(|| json(&["status", &typed, "-o", "json"]));
        let last = s.spawn(|| json(&["last-run", kind, id, "-o", "json"]));
        let check = s.spawn(|| run(&["check", kind, id, "--max-age", "1000h,2000h"]));
        let prom = s.spawn(|| run(&["last-run", kind, id, "-o", "prometheus"]));
        let exported = s.spawn(|| scrape(exporter));
        Said {
            stats: stats.join().unwrap(),
            // One ID: an object (several: a list).
            status: match status.join().unwrap() {
                Value::Array(mut v) => v.remove(0),
                v => v,
            },
            last: last.join().unwrap(),
            check: check.join().unwrap(),
            prom: prom.join().unwrap(),
            exported: exported.join().unwrap(),
        }
    })
}

/// A gauge's value for the entity `id` in an exposition.
fn gauge(text: &str, name: &str, id: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(&format!("{name}{{")) && l.contains(&format!("uuid=\"{id}\"")))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
}

/// `metrics serve` for `targets` on a free loopback port, once it serves
/// (a second's cache: the figures do not move meanwhile).
fn exporter(sb: &Sandbox, targets: &[String]) -> (Killed, u16) {
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .env_clear()
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .env("YLEM_CONFIG_DIR", dir.path())
        .args(["metrics", "serve", "--listen", &listen, "--cache", "1s"])
        .args(targets)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("Serving http://"), "{line}");
    (Killed(child), port)
}

fn scrape(port: u16) -> String {
    let addr = format!("127.0.0.1:{port}");
    crate::common::exporter::scrape_body(&addr, std::time::Duration::from_secs(30))
}

/// The stream's events of one entity, over a bounded watch replaying a day.
fn stream(sb: &Sandbox, targets: &[String]) -> Vec<Value> {
    let mut a = vec!["--max-time", "6s", "watch", "-o", "jsonl", "--since", "24h"];
    a.extend(["--interval", "1s"]);
    a.extend(targets.iter().map(String::as_str));
    let o = sb.run(&a);
    assert!(o.code == 0 || o.code == 6, "{}", o.stderr);
    o.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn entities(sb: &Sandbox, dialect: &str) -> Vec<(&'static str, String)> {
    let task = sb.pipelines[0].1[0].clone();
    let mut v = vec![("task", task)];
    if dialect == "spec" {
        v.push(("workflow", sb.workflows[0].clone()));
        v.push(("workflow", sb.workflows[1].clone()));
    }
    v
}

#[test]
fn workflows_and_tasks_have_one_verdict_one_time_and_the_statistics_counts() {
    for dialect in ["spec", "ylem"] {
        let sb = start(dialect);
        let ents = entities(&sb, dialect);
        let targets: Vec<String> = ents.iter().map(|(k, id)| format!("{k}:{id}")).collect();
        let events = stream(&sb, &targets);
        let (_exporter, port) = exporter(&sb, &targets);
        for (kind, id) in &ents {
            let s = ask(&sb, kind, id, port);
            let at = format!("{dialect} {kind} {id}");
            let ok = s.last["is_successful"].as_bool();
            let Some(ok) = ok else {
                // Unsettled (a workflow's young success): no verdict yet.
                assert_eq!(s.last["last_run"], "unsettled", "{at}: {}", s.last);
                continue;
            };
            // Counts: status' are the statistics'.
            let (n, f) = (
                s.stats["num_of_successes"].as_i64().unwrap()
                    + s.stats["num_of_failures"].as_i64().unwrap(),
                s.stats["num_of_failures"].as_i64().unwrap(),
            );
            assert_eq!(s.status["runs_24h"], n, "{at}: {}", s.status);
            assert_eq!(s.status["failures_24h"], f, "{at}");
            // One verdict.
            assert_eq!(s.status["last_run_successful"], ok, "{at}");
            let success = Some(f64::from(u8::from(ok)));
            assert_eq!(gauge(&s.prom, "ylem_last_run_success", id), success, "{at}");
            assert_eq!(
                gauge(&s.exported, "ylem_last_run_success", id),
                success,
                "{at}"
            );
            assert_eq!(gauge(&s.exported, "ylem_runs", id), Some(n as f64), "{at}");
            assert_eq!(
                gauge(&s.exported, "ylem_run_failures", id),
                Some(f as f64),
                "{at}"
            );
            assert_eq!(s.check.starts_with("CRITICAL"), !ok, "{at}: {}", s.check);
            // One time: the statistics' own.
            let ended = s.last["executed_at"].as_str().unwrap().to_string();
            assert_eq!(s.status["last_run_at"], ended.as_str(), "{at}");
            assert_eq!(s.stats["last_run_executed_at"], ended.as_str(), "{at}");
            let t = chrono::DateTime::parse_from_rfc3339(&ended)
                .unwrap()
                .timestamp();
            for text in [&s.prom, &s.exported] {
                let g = gauge(text, "ylem_last_run_timestamp_seconds", id);
                assert_eq!(g, Some(t as f64), "{at}");
            }
            // The stream: the same run, opened and closed, one verdict.
            let mine: Vec<&Value> = events.iter().filter(|e| e["id"] == id.as_str()).collect();
            let started = mine.iter().filter(|e| e["event"] == "run_started").count();
            let finished: Vec<&&Value> = mine
                .iter()
                .filter(|e| e["event"] == "run_finished")
                .collect();
            assert_eq!(started, 1, "{at}: {mine:?}");
            assert_eq!(finished.len(), 1, "{at}: a run opened is closed: {mine:?}");
            let fin = finished[0];
            assert_eq!(
                fin["verdict"],
                if ok { "succeeded" } else { "failed" },
                "{at}"
            );
            let completion = fin["completion"].as_str().unwrap();
            assert!(COMPLETIONS.contains(&completion), "{at}: {completion}");
            let expected = match (ok, *kind) {
                (false, _) => "statistics_failed",
                (true, "task") => "task_reported",
                (true, _) => "statistics_settled",
            };
            assert_eq!(completion, expected, "{at}: {fin}");
            assert_eq!(fin["evidence"], s.last["evidence"], "{at}");
            let fin_ended =
                chrono::DateTime::parse_from_rfc3339(fin["ended"].as_str().unwrap()).unwrap();
            assert_eq!(fin_ended.timestamp(), t, "{at}");
            assert_eq!(fin["elapsed"], s.last["elapsed"], "{at}");
            assert_eq!(fin["duration"], s.last["duration"], "{at}");
            if !ok && *kind == "workflow" {
                assert_eq!(fin["failure"]["summary"], s.status["failure"], "{at}");
            }
        }
    }
}

#[test]
fn a_workflow_wait_reports_no_elapsed_of_its_own_and_a_documented_completion() {
    let sb = start("spec");
    let w = sb.workflows[0].as_str();
    let o = sb.run(&[
        "run", "workflow", w, "--wait", "--settle", "1s", "--poll", "200ms", "-o", "json",
    ]);
    assert!(o.code == 0 || o.code == 7, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stdout));
    assert!(
        v["elapsed"].is_null(),
        "the wait's time is not the run's: {v}"
    );
    let c = v["completion"].as_str().unwrap();
    let expected = match o.code {
        0 => "statistics_settled",
        _ => "statistics_failed",
    };
    assert_eq!(c, expected, "{v}");
    assert!(COMPLETIONS.contains(&c));
}
