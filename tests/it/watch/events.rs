//! `watch`'s event stream, the built binary against the sandbox: checked
//! against the sandbox's ground truth over 20 and more started runs (each
//! `run_finished` once, with the truth's verdict, never before the truth
//! says the run finished, soon after its end); the requests it makes per
//! interval, from the sandbox's request log; `error` and `recovered` with a
//! server that goes away and comes back; SIGTERM ends it cleanly (exit 0);
//! its usage errors; and no secret in anything it prints.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::process::Child;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::faultserver::{self, Action};
use common::process::{Lines, signal, try_wait_for, wait_until};
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

/// The watch's interval in these tests: short, so that they are quick.
const INTERVAL: Duration = Duration::from_secs(1);
/// How late a `run_finished` may come after the truth's end, beyond one
/// interval and the rule's one-second grace: requests, and a busy machine.
const SLACK: Duration = Duration::from_secs(4);

/// One line of the stream, when it was read, and the truth read right
/// after it for a `run_finished`.
struct Line {
    at: Instant,
    v: Value,
    truth: Option<Value>,
}

/// SIGTERM the child and wait at most 15 s for its exit code.
fn terminate(child: &mut Child) -> Option<i32> {
    signal(child, libc::SIGTERM, Duration::from_secs(15))
}

/// What `-v` says on stderr after each refresh of the watch.
const REFRESHED: &str = "watch: refreshed ";
/// The longest wait for one refresh: a few intervals on a busy machine.
const A_REFRESH: Duration = Duration::from_secs(30);

/// Start one run of each pipeline: their UUIDs.
fn start_runs(sb: &Sandbox, pipelines: &[&str]) -> Vec<String> {
    let mut args = vec!["run", "pipeline"];
    args.extend_from_slice(pipelines);
    args.extend(["-o", "json"]);
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    // One ID gives the row, several an array of rows (run's one shape).
    let rows = match v {
        Value::Array(rows) => rows,
        row => vec![row],
    };
    rows.iter()
        .map(|row| row["run_uuid"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_stream_agrees_with_the_truth_each_run_once_in_order_never_early() {
    agrees_with_the_truth("ylem");
}

/// The spec's server: statistics count a run once, at its first task.
#[test]
fn the_stream_agrees_with_the_truth_of_a_spec_server() {
    agrees_with_the_truth("spec");
}

fn agrees_with_the_truth(dialect: &str) {
    let sb = start_with(dialect, &["--task-delay", "100ms"]);
    let pipelines: Vec<&str> = sb.pipelines.iter().map(|(p, _)| p.as_str()).collect();
    let mut args = vec!["watch"];
    args.extend_from_slice(&pipelines);
    // -v: a line on stderr after each refresh, waited on below.
    args.extend(["--interval", "1s", "-o", "jsonl", "-v"]);
    let mut child = sb.spawn(&format!("watch-truth-{dialect}"), &args);
    let stdout = child.stdout.take().unwrap();
    let mut err = Lines::stderr(&mut child);
    let lines: Mutex<Vec<Line>> = Mutex::new(Vec::new());
    // When the truth first said each started run finished.
    let ended: Mutex<HashMap<String, Instant>> = Mutex::new(HashMap::new());
    let started: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let done = AtomicBool::new(false);
    thread::scope(|s| {
        s.spawn(|| {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                let at = Instant::now();
                let v: Value = serde_json::from_str(&l).unwrap_or_else(|e| panic!("{e}: {l}"));
                // Read after the line: a run unfinished now was unfinished
                // when the line was written.
                let truth = (v["event"] == "run_finished")
                    .then(|| sb.truth(v["run_uuid"].as_str().unwrap()));
                lines.lock().unwrap().push(Line { at, v, truth });
            }
        });
        s.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                let runs = started.lock().unwrap().clone();
                for r in runs {
                    if !ended.lock().unwrap().contains_key(&r) && sb.truth(&r)["finished"] == true {
                        ended.lock().unwrap().insert(r, Instant::now());
                    }
                }
                thread::sleep(Duration::from_millis(100));
            }
        });
        // A failed assertion below must not leave the reader waiting on a
        // watch that never ends: it stops the watch, then fails the test.
        let body = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // The watch's first looks (its history) before the first start.
            err.wait_line(REFRESHED, A_REFRESH);
            let mut all = Vec::new();
            for _ in 0..5 {
                let runs = start_runs(&sb, &pipelines);
                started.lock().unwrap().extend(runs.iter().cloned());
                all.extend(runs);
                // Each round of starts in a refresh of its own: one that
                // ended after these starts.
                err.mark();
                err.wait_line(REFRESHED, A_REFRESH);
            }
            assert!(all.len() >= 20, "{} runs started", all.len());
            // Until every started run is finished in the stream (3 minutes
            // at most: then `check` says which runs were not).
            try_wait_for(Duration::from_secs(180), || {
                let told: HashSet<String> = lines
                    .lock()
                    .unwrap()
                    .iter()
                    .filter(|l| l.v["event"] == "run_finished")
                    .filter_map(|l| l.v["run_uuid"].as_str().map(str::to_string))
                    .collect();
                all.iter().all(|r| told.contains(r)).then_some(())
            });
            assert_eq!(terminate(&mut child), Some(0), "SIGTERM: exit 0");
            all
        }));
        done.store(true, Ordering::SeqCst);
        let all = match body {
            Ok(all) => all,
            Err(panic) => {
                let _ = child.kill();
                std::panic::resume_unwind(panic)
            }
        };
        let lines = lines.lock().unwrap();
        let ended = ended.lock().unwrap();
        check(dialect, &lines, &all, &ended);
    });
}

/// Every started run: started once, its tasks, finished once with the
/// truth's verdict, never before the truth finished, soon after it.
fn check(dialect: &str, lines: &[Line], all: &[String], ended: &HashMap<String, Instant>) {
    let mut wrong = Vec::new();
    let mut late = Vec::new();
    for run in all {
        let of: Vec<&Line> = lines.iter().filter(|l| l.v["run_uuid"] == *run).collect();
        let events: Vec<&str> = of.iter().map(|l| l.v["event"].as_str().unwrap()).collect();
        let finished: Vec<&&Line> = of
            .iter()
            .filter(|l| l.v["event"] == "run_finished")
            .collect();
        if events.first() != Some(&"run_started")
            || events.iter().filter(|e| **e == "run_started").count() != 1
            || finished.len() != 1
            || events.last() != Some(&"run_finished")
        {
            wrong.push(format!("{run}: events {events:?}"));
            continue;
        }
        let f = finished[0];
        let truth = f.truth.as_ref().unwrap();
        if truth["finished"] != true {
            wrong.push(format!("{run}: finished before the truth: {} {truth}", f.v));
        }
        let want = if truth["is_successful"] == true {
            "succeeded"
        } else {
            "failed"
        };
        if f.v["verdict"] != want {
            wrong.push(format!("{run}: verdict {} truth {truth}", f.v));
        }
        let tasks = events.iter().filter(|e| **e == "task").count();
        if Some(tasks as u64) != truth["reported"].as_u64() || f.v["tasks"] != truth["reported"] {
            wrong.push(format!("{run}: {tasks} task events, truth {truth}"));
        }
        if f.v["duration"] != truth["duration"] || f.v["elapsed"] != truth["elapsed"] {
            wrong.push(format!("{run}: duration/elapsed {} truth {truth}", f.v));
        }
        // Soon after its end: within one interval (and the rule's grace)
        // of when the truth first said it finished, unless its verdict
        // needed the settle time (a pipeline of varying size).
        if let Some(end) = ended.get(run) {
            let after = f.at.saturating_duration_since(*end);
            late.push((f.v["completion"].as_str().unwrap_or("").to_string(), after));
            if f.v["completion"] != "settled" && after > INTERVAL + Duration::from_secs(1) + SLACK {
                wrong.push(format!("{run}: told {after:?} after its end: {}", f.v));
            }
        }
    }
    // Each run once, whatever run it is (the runs of before included).
    let mut seen = HashSet::new();
    for l in lines.iter().filter(|l| l.v["event"] == "run_finished") {
        if !seen.insert(l.v["run_uuid"].to_string()) {
            wrong.push(format!("finished twice: {}", l.v));
        }
    }
    for l in lines {
        for k in ["event", "at", "kind", "id", "alias"] {
            if l.v.get(k).is_none() {
                wrong.push(format!("no {k}: {}", l.v));
            }
        }
    }
    eprintln!(
        "watch ({dialect}): {} runs; (completion, told after the truth's end): {late:?}",
        all.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// In a steady state (no run going), one request per entity per interval
/// and no log request; the request log is the sandbox's.
#[test]
fn a_steady_state_costs_one_request_per_entity_per_interval() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let pipelines: Vec<&str> = sb.pipelines.iter().map(|(p, _)| p.as_str()).collect();
    let mut args = vec!["watch"];
    args.extend_from_slice(&pipelines);
    // -v: a line on stderr after each refresh.
    args.extend(["--interval", "250ms", "-v"]);
    let mut child = sb.spawn("watch-cost", &args);
    let mut err = Lines::stderr(&mut child);
    // The first looks read each pipeline's history; the second is the
    // first of the steady state.
    err.wait_line(REFRESHED, A_REFRESH);
    err.wait_line(REFRESHED, A_REFRESH);
    let before = sb.requests().len();
    let t = Instant::now();
    // Eight intervals of watching.
    thread::sleep(Duration::from_secs(2));
    let after = sb.requests();
    let took = t.elapsed();
    assert_eq!(terminate(&mut child), Some(0));
    let new = &after[before..];
    let logs = new.iter().filter(|r| r.contains("/logs/")).count();
    let stats: Vec<&String> = new.iter().filter(|r| r.contains("/stats/")).collect();
    assert_eq!(logs, 0, "no run going, no log: {new:?}");
    let intervals = took.as_millis() / 250 + 2;
    let per_entity = stats.len() as f64 / pipelines.len() as f64;
    eprintln!(
        "watch: {} requests for {} entities over {took:?} at 250ms",
        new.len(),
        pipelines.len()
    );
    assert!(
        per_entity <= intervals as f64,
        "{per_entity} requests per entity over {intervals} intervals"
    );
    for p in &pipelines {
        assert!(stats.iter().any(|r| r.contains(p)), "{p} looked at");
    }
}

/// A server that goes away (connections reset) and comes back: one
/// `error` event, then one `recovered`, and the watch goes on; no secret
/// in anything it printed.
#[test]
fn error_then_recovered_when_the_service_goes_away_and_back() {
    let down = Arc::new(AtomicBool::new(false));
    let d = down.clone();
    let never = r#"{"num_of_successes":0,"num_of_failures":0,"average_duration":0,"is_last_run_successful":false,"last_run_executed_at":"0001-01-01 00:00:00","last_run_duration":0}"#;
    let server = faultserver::with_token(move |_, _| match d.load(Ordering::SeqCst) {
        true => Action::ResetAfter(Vec::new()),
        false => Action::Raw(faultserver::json(200, never)),
    });
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .args([
            "watch",
            common::P1,
            "--interval",
            "300ms",
            "--retries",
            "0",
            "-v",
        ])
        .env_clear()
        .env("YLEM_BASE_URL", server.base())
        .env("YLEM_CLIENT_ID", common::CLIENT_ID)
        .env("YLEM_CLIENT_SECRET", common::SECRET)
        .env("YLEM_CONFIG_DIR", dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = Lines::stdout(&mut child);
    let mut errs = Lines::stderr(&mut child);
    let limit = Duration::from_secs(30);
    // A look that worked, then the service goes away.
    errs.wait_line(REFRESHED, limit);
    down.store(true, Ordering::SeqCst);
    let at_down = server.api().len();
    lines.wait_until(limit, "the error event", |l| told(l, "error"));
    wait_until(limit, "a second look while down", || {
        server.api().len() >= at_down + 2
    });
    let while_down = server.api().len() - at_down;
    down.store(false, Ordering::SeqCst);
    // The backoff may wait a few intervals before the next look.
    lines.wait_until(limit, "the recovered event", |l| told(l, "recovered"));
    // A few looks more, for any event after the recovery to be told.
    let at_up = server.api().len();
    wait_until(limit, "three looks after the recovery", || {
        server.api().len() >= at_up + 3
    });
    assert_eq!(terminate(&mut child), Some(0));
    let out = lines.rest(limit);
    let err = errs.rest(limit);
    let events: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["error", "recovered"], "{out}\n{err}");
    assert_eq!(events[0]["error"]["kind"], "network", "{out}");
    assert_eq!(events[0]["id"], common::P1);
    assert!(while_down >= 2, "looked at while down");
    for secret in [common::SECRET, common::TOKEN, common::REFRESH] {
        assert!(
            !out.contains(secret) && !err.contains(secret),
            "a secret leaked"
        );
    }
}

/// Whether one of the stream's `lines` is an `event`.
fn told(lines: &[String], event: &str) -> bool {
    lines
        .iter()
        .any(|l| serde_json::from_str::<Value>(l).is_ok_and(|v| v["event"] == event))
}

#[test]
fn usage_errors_name_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let env = [
        ("YLEM_BASE_URL", "http://127.0.0.1:9"),
        ("YLEM_TOKEN", common::TOKEN),
        ("YLEM_CONFIG_DIR", dir.path().to_str().unwrap()),
    ];
    for format in ["json", "csv", "table"] {
        let o = common::ylem(&["watch", common::P1, "-o", format], &env);
        assert_eq!(o.code, 2, "-o {format}: {}", o.stderr);
        assert!(o.stderr.contains("-o jsonl"), "{}", o.stderr);
        assert!(o.stdout.is_empty());
    }
    let o = common::ylem(&["watch"], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("alias set"), "{}", o.stderr);
    let o = common::ylem(&["watch", common::P1, "--interval", "0s"], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    let o = common::ylem(&["watch", common::P1, "-o", "prometheus"], &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

/// `--max-time` ends the watch cleanly too, exit 0; a run of long ago is
/// not told without `--since`, and is with it.
#[test]
fn max_time_ends_it_and_since_replays() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[1].0.as_str();
    let run = start_runs(&sb, &[p]).remove(0);
    sb.finished(&run, Duration::from_secs(60));
    let o = sb.run(&["watch", p, "--interval", "500ms", "--max-time", "2s"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        !o.stdout.contains(&run),
        "not replayed without --since: {}",
        o.stdout
    );
    let o = sb.run(&[
        "watch",
        p,
        "--since",
        "1h",
        "--interval",
        "500ms",
        "--max-time",
        "3s",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let finished: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["event"] == "run_finished" && v["run_uuid"] == *run.as_str())
        .collect();
    assert_eq!(finished.len(), 1, "{}", o.stdout);
    let t = sb.truth(&run);
    let want = if t["is_successful"] == true {
        "succeeded"
    } else {
        "failed"
    };
    assert_eq!(finished[0]["verdict"], want);
    assert!(!o.all().contains(&sb.secret), "the secret leaked");
    // --jq filters each event as it comes: the verdict alone, a raw string.
    let expr = format!("select(.event == \"run_finished\" and .run_uuid == \"{run}\") | .verdict");
    let o = sb.run(&[
        "watch",
        p,
        "--since",
        "1h",
        "--interval",
        "500ms",
        "--max-time",
        "3s",
        "--jq",
        &expr,
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout, format!("{want}\n"));
}
