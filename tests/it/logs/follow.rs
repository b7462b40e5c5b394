//! `logs --follow` against a sandbox process while runs are started: every
//! task entry printed once and in order across polls and token renewals;
//! `--run` ends when the run is complete; Ctrl-C and --max-time end it
//! cleanly (exit 0, output whole).

use crate::common;

use std::collections::HashSet;
use std::io::Read;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

/// `ylemctl ARGS` against the sandbox, as a child process with piped output.
fn spawn(sb: &Sandbox, args: &[&str]) -> Child {
    sb.spawn("follow", args)
}

/// Wait (bounded) for the child; its exit code, stdout and stderr.
fn finish(mut c: Child, limit: Duration) -> (i32, String, String) {
    let started = Instant::now();
    let code = loop {
        if let Some(s) = c.try_wait().unwrap() {
            break s.code().unwrap_or(-1);
        }
        if started.elapsed() > limit {
            let _ = c.kill();
            panic!("follow did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (mut out, mut err) = (String::new(), String::new());
    c.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    c.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (code, out, err)
}

fn start_run(sb: &Sandbox, p: &str) -> String {
    let v = sb.json(&["run", "pipeline", p]);
    v["run_uuid"].as_str().unwrap().to_string()
}

fn wait_finished(sb: &Sandbox, run: &str) -> Value {
    for _ in 0..400 {
        let t = sb.truth(run);
        if t["finished"] == true {
            return t;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("run {run} never finished");
}

#[test]
fn every_entry_once_in_order_across_polls_and_token_renewals() {
    // Tokens live 3 s and are renewed at half that: polls seconds apart
    // keep renewing them.
    let sb = start_with("ylem", &["--task-delay", "100ms", "--token-ttl", "3s"]);
    let p = sb.pipelines[0].0.clone();
    let child = spawn(
        &sb,
        &[
            "logs",
            &p,
            "--follow",
            "--since",
            "now",
            "--max-time",
            "12s",
            "-o",
            "jsonl",
            "-v",
        ],
    );
    std::thread::sleep(Duration::from_millis(1500));
    let runs: Vec<String> = (0..3)
        .map(|_| {
            let r = start_run(&sb, &p);
            std::thread::sleep(Duration::from_millis(1200));
            r
        })
        .collect();
    let truths: Vec<Value> = runs.iter().map(|r| wait_finished(&sb, r)).collect();
    let (code, out, err) = finish(child, Duration::from_secs(30));
    assert_eq!(code, 0, "{err}");
    let entries: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Every task entry of every started run, each once.
    for (run, t) in runs.iter().zip(&truths) {
        let n = entries
            .iter()
            .filter(|e| e["workflow_run_uuid"] == run.as_str())
            .count();
        assert_eq!(
            n as u64,
            t["reported"].as_u64().unwrap(),
            "run {run}: {out}"
        );
    }
    let keys: HashSet<String> = entries.iter().map(|e| e.to_string()).collect();
    assert_eq!(keys.len(), entries.len(), "an entry printed twice: {out}");
    // Oldest first.
    let times: Vec<chrono::DateTime<chrono::Utc>> = entries
        .iter()
        .map(|e| e["executed_at"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    // Several polls, and tokens renewed while following.
    let polls = err
        .lines()
        .filter(|l| l.starts_with("GET ") && l.contains("/logs/"))
        .count();
    assert!(polls >= 3, "{err}");
    let tokens = err
        .lines()
        .filter(|l| l.starts_with("POST /v1/oauth/token"))
        .count();
    assert!(tokens >= 2, "{err}");
}

#[test]
fn run_ends_the_follow_when_the_run_is_complete() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    let run = start_run(&sb, &p);
    let child = spawn(
        &sb,
        &[
            "logs",
            &p,
            "-f",
            "--run",
            &run,
            "--since",
            "10m",
            "--max-time",
            "60s",
            "-o",
            "jsonl",
        ],
    );
    let (code, out, err) = finish(child, Duration::from_secs(70));
    assert_eq!(code, 0, "{err}");
    let t = sb.truth(&run);
    assert_eq!(t["finished"], true, "it ended before the run did: {err}");
    assert_eq!(
        out.lines().count() as u64,
        t["reported"].as_u64().unwrap(),
        "{out}"
    );
    assert!(out.lines().all(|l| l.contains(&run)));
}

#[test]
fn ctrl_c_and_max_time_end_it_cleanly() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    start_run(&sb, &p);
    let child = spawn(&sb, &["logs", &p, "-f", "--since", "1h", "-o", "json"]);
    std::thread::sleep(Duration::from_secs(3));
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let (code, out, err) = finish(child, Duration::from_secs(15));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(!v.as_array().unwrap().is_empty());
    // --max-time: a clean end too, and --to makes no sense here.
    let child = spawn(&sb, &["logs", &p, "-f", "--max-time", "2s", "-o", "csv"]);
    let (code, out, err) = finish(child, Duration::from_secs(15));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("workflow_run_uuid,"), "{out}");
    let o = sb.run(&["logs", &p, "-f", "--from", "1h", "--to", "now"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

#[test]
fn transient_failures_of_the_service_are_waited_out() {
    // A third of requests fail as the real gateway's do (500, 502-504).
    let sb = start_with("ylem", &["--task-delay", "100ms", "--fail-rate", "0.3"]);
    let p = sb.pipelines[0].0.clone();
    let child = spawn(
        &sb,
        &[
            "logs",
            &p,
            "-f",
            "--since",
            "now",
            "--max-time",
            "15s",
            "--retries",
            "0",
            "-o",
            "jsonl",
            "-v",
        ],
    );
    std::thread::sleep(Duration::from_millis(1000));
    // Start a run; a start answered with a fault may be tried again here
    // (the sandbox's faults come before the run is made).
    let run = (0..20)
        .find_map(|_| {
            let o = sb.run(&["run", "pipeline", &p, "-o", "json", "--retries", "0"]);
            let v: Value = serde_json::from_str(&o.stdout).ok()?;
            v["run_uuid"].as_str().map(str::to_string)
        })
        .expect("a run started within 20 tries");
    let t = wait_finished(&sb, &run);
    let (code, out, err) = finish(child, Duration::from_secs(40));
    assert_eq!(code, 0, "{err}");
    let n = out.lines().filter(|l| l.contains(&run)).count();
    assert_eq!(n as u64, t["reported"].as_u64().unwrap(), "{out}\n{err}");
}

/// A `--since` days back is caught up window by window, oldest first: the
/// same entries as `logs --since`, each once, in order, without holding the
/// whole span to sort it.
#[test]
fn a_since_far_back_is_caught_up_in_order() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    let all = sb.run(&["logs", &p, "--since", "3d", "-o", "jsonl"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let child = spawn(
        &sb,
        &[
            "logs",
            &p,
            "-f",
            "--since",
            "3d",
            "--max-time",
            "4s",
            "-o",
            "jsonl",
            "-v",
        ],
    );
    let (code, out, err) = finish(child, Duration::from_secs(30));
    assert_eq!(code, 0, "{err}");
    let mut want: Vec<&str> = all.stdout.lines().collect();
    let mut got: Vec<&str> = out.lines().collect();
    assert!(got.len() > 10, "{out}");
    let times: Vec<chrono::DateTime<chrono::Utc>> = got
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["executed_at"].as_str().unwrap().parse().unwrap()
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "out of order");
    want.sort();
    got.sort();
    assert_eq!(got, want, "the same entries as logs --since 3d");
    // 3 days in windows of 6 hours: a dozen or so requests, not one.
    let polls = err
        .lines()
        .filter(|l| l.starts_with("GET ") && l.contains("/logs/"))
        .count();
    assert!(polls >= 12, "{err}");
}
