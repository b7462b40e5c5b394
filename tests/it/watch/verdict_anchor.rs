//! Evidence anchored per run (issue 42) where it was anchored at the
//! command's start: `watch -o jsonl`'s fleet judges each run by the basis
//! anchored at that run's first task (a run that starts in a later minute
//! than the watch reads that minute's basis, as `runs --run` and
//! `last-run` do), and `run pipeline --wait` and `logs -f --run` print the evidence
//! `runs --run` gives for the same run. Both dialects, against the
//! sandbox's ground truth; waits are on events (a line, the truth, the
//! clock's minute turning), bounded.

use crate::common;

use std::io::BufRead;
use std::thread;
use std::time::{Duration, Instant};

use chrono::{DateTime, DurationRound, Utc};
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

const DIALECTS: [&str; 2] = ["ylem", "spec"];
const LIMIT: Duration = Duration::from_secs(150);
/// A fixed-size pipeline: its evidence names its basis ("as in the last N").
const PIPELINE: &str = "hourly-inventory-refresh";

fn json_in(sb: &Sandbox, dir: &str, args: &[&str]) -> Value {
    let o = sb.run_with(args, &[("YLEM_CONFIG_DIR", dir)]);
    serde_json::from_str(&o.stdout).unwrap_or(Value::Null)
}

/// The log requests that read a basis anchored at `at` (the period's end).
fn basis_reads(sb: &Sandbox, at: DateTime<Utc>) -> usize {
    let end = format!("/{}", at.format("%Y-%m-%d%%20%H:%M:00"));
    sb.requests()
        .iter()
        .filter(|r| r.contains("/logs/") && r.ends_with(&end))
        .count()
}

fn minute(t: DateTime<Utc>) -> DateTime<Utc> {
    t.duration_trunc(chrono::Duration::minutes(1)).unwrap()
}

/// The first task's start of `run` by the sandbox's truth, once finished.
fn finished_truth(sb: &Sandbox, run: &str) -> Value {
    let deadline = Instant::now() + LIMIT;
    loop {
        let t = sb.truth(run);
        if t["finished"] == true || Instant::now() > deadline {
            return t;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// One dialect: a watch started, the clock's minute turned, a run started;
/// what the stream says of it against `runs --run` and `last-run`.
fn watch_judges_by_the_runs_basis(d: &str) -> Result<(), String> {
    let sb = start_with(d, &["--task-delay", "200ms"]);
    let dir = std::env::temp_dir().join(format!("ylemctl-anchor-{d}-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    let p = sb.pipeline_named(PIPELINE);
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .args(["watch", &p, "-o", "jsonl", "--interval", "1s"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", &dir)
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let out = c.stdout.take().unwrap();
    let _killed = common::process::Killed(c);
    let (tx, lines) = std::sync::mpsc::channel::<Value>();
    thread::spawn(move || {
        for l in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            if let Ok(v) = serde_json::from_str::<Value>(&l)
                && tx.send(v).is_err()
            {
                break;
            }
        }
    });
    // The watch has made its first look (a log request) before the minute turns.
    let deadline = Instant::now() + LIMIT;
    while !sb.requests().iter().any(|r| r.contains("/logs/")) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    let watch_minute = minute(Utc::now());
    // The sandbox's task durations are its own, so a run's first task may
    // "start" before the run was asked for: half a minute's slack.
    let slack = chrono::Duration::seconds(30);
    while minute(Utc::now() - slack) <= watch_minute && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(100));
    }
    let started = json_in(&sb, &dir, &["run", "pipeline", &p, "-o", "json"]);
    let run = started["run_uuid"]
        .as_str()
        .ok_or("no run started")?
        .to_string();
    let truth = finished_truth(&sb, &run);
    let first: DateTime<Utc> = truth["started"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or(format!("no start in the truth: {truth}"))?;
    let anchor = minute(first);
    if anchor == watch_minute {
        return Err(format!("the run started in the watch's minute: {truth}"));
    }
    let mut finished = None;
    while finished.is_none() && Instant::now() < deadline {
        match lines.recv_timeout(Duration::from_millis(500)) {
            Ok(v) if v["event"] == "run_finished" && v["run_uuid"] == run => finished = Some(v),
            _ => {}
        }
    }
    let f = finished.ok_or(format!("no run_finished for {run}"))?;
    // The watch itself read the run's basis (nothing else asked yet).
    let reads = basis_reads(&sb, anchor);
    if reads != 1 {
        return Err(format!(
            "{reads} basis reads anchored at {anchor} (the run's minute) by the watch; want 1"
        ));
    }
    let by_runs = json_in(&sb, &dir, &["runs", &p, "--run", &run, "-o", "json"]);
    let by_last = json_in(&sb, &dir, &["last-run", "pipeline", &p, "-o", "json"]);
    let last_result = match (
        by_last["last_run"].as_str(),
        by_last["is_successful"].as_bool(),
    ) {
        (Some("found"), Some(true)) => Value::from("succeeded"),
        (Some("found"), Some(false)) => Value::from("failed"),
        (w, _) => Value::from(w),
    };
    for (what, v, result) in [
        ("runs --run", &by_runs, &by_runs["result"]),
        ("last-run", &by_last, &last_result),
    ] {
        if *result != f["verdict"] || v["evidence"] != f["evidence"] {
            return Err(format!("watch said {f}, {what} said {v}"));
        }
    }
    // Kept: the later commands read no basis of that minute again.
    if basis_reads(&sb, anchor) != 1 {
        return Err("the basis was read again after the watch had it".into());
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn watch_judges_a_run_that_starts_after_it_by_that_runs_basis() {
    thread::scope(|s| {
        let hs: Vec<_> = DIALECTS
            .iter()
            .map(|d| {
                s.spawn(move || watch_judges_by_the_runs_basis(d).map_err(|e| format!("{d}: {e}")))
            })
            .collect();
        let wrong: Vec<String> = hs
            .into_iter()
            .filter_map(|h| h.join().unwrap().err())
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    });
}

/// The basis reads among the sandbox's latest requests: log requests whose
/// period starts more than two days back (a basis reaches three).
fn all_basis_reads(sb: &Sandbox) -> Vec<String> {
    let old = (Utc::now() - chrono::Duration::days(2)).date_naive();
    sb.requests()
        .into_iter()
        .filter(|r| {
            r.split("/logs/")
                .nth(1)
                .and_then(|range| range.get(..10))
                .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
                .is_some_and(|d| d < old)
        })
        .collect()
}

/// A pipeline whose runs differ in size (a `for_each`): its verdict rests
/// on the settle time learnt from its history (10 s in the sandbox: its
/// gaps are short), so the evidence names that time.
const SETTLING: &str = "customer-churn-alerts";
/// A wait's `--poll` that the old rule (a learned settle time of at least
/// twice `--poll`, a grace of one `--poll`) would have made the wait's
/// settle time 16 s where `runs --run` says 10 s: with it, a wait that
/// judged by a rule of its own prints other words than `runs --run`.
const SLOW_POLL: &str = "8s";

/// `run pipeline P --wait --poll 8s` until a run succeeds (the sandbox's
/// runs of `P` follow its seeded rates; at most `tries`): each run waited
/// for, with its verdict as the wait printed it.
fn waited_runs(sb: &Sandbox, dir: &str, p: &str, tries: usize) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for _ in 0..tries {
        let waited = json_in(
            sb,
            dir,
            &[
                "run", "pipeline", p, "--wait", "--poll", SLOW_POLL, "-o", "json",
            ],
        );
        let Some(run) = waited["workflow_run_uuid"].as_str().map(String::from) else {
            break;
        };
        let ok = waited["verdict"] == "succeeded";
        out.push((run, waited));
        if ok {
            break;
        }
    }
    out
}

/// `run pipeline --wait` judges by the run's basis with the rule every
/// command uses: the evidence printed is the one `runs --run` gives (the
/// same settle time, whatever `--poll`), and the wait read one basis, the
/// run's (anchored at its first task), never today's as well.
fn waits_judge_by_the_runs_basis(d: &str) -> Result<(), String> {
    let sb = start_with(d, &["--task-delay", "200ms"]);
    let dir = std::env::temp_dir().join(format!("ylemctl-anchor-w-{d}-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    let p = sb.pipeline_named(SETTLING);
    let runs = waited_runs(&sb, &dir, &p, 4);
    if !runs.iter().any(|(_, w)| w["verdict"] == "succeeded") {
        return Err(format!("no run of {SETTLING} succeeded: {runs:?}"));
    }
    for (run, waited) in &runs {
        let truth = finished_truth(&sb, run);
        let first: DateTime<Utc> = truth["started"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or(format!("no start in the truth: {truth}"))?;
        let by_runs = json_in(&sb, &dir, &["runs", &p, "--run", run, "-o", "json"]);
        if waited["verdict"] != by_runs["result"] || waited["evidence"] != by_runs["evidence"] {
            return Err(format!("run --wait said {waited}, runs --run {by_runs}"));
        }
        if waited["verdict"] == "succeeded" && basis_reads(&sb, minute(first)) != 1 {
            return Err(format!(
                "no basis read at the run's minute {}",
                minute(first)
            ));
        }
    }
    // At most one basis per run waited for (runs of one minute share
    // theirs), each read once: `runs --run` reads none (kept; a failed
    // run needs none), and no wait reads today's basis as well.
    let reads = all_basis_reads(&sb);
    let mut distinct = reads.clone();
    distinct.sort();
    distinct.dedup();
    if reads.len() != distinct.len() || reads.len() > runs.len() {
        return Err(format!(
            "{} waits read {} bases: {reads:?}",
            runs.len(),
            reads.len()
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn run_wait_prints_the_evidence_runs_gives_for_its_run() {
    thread::scope(|s| {
        let hs: Vec<_> = DIALECTS
            .iter()
            .map(|d| {
                s.spawn(move || waits_judge_by_the_runs_basis(d).map_err(|e| format!("{d}: {e}")))
            })
            .collect();
        let wrong: Vec<String> = hs
            .into_iter()
            .filter_map(|h| h.join().unwrap().err())
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    });
}

/// `logs -f --run R` ends with the evidence `runs --run R` gives, and
/// judged by the run's basis: started in a later minute than the run's
/// first task, it reads that minute's basis and none of its own (a follow
/// that judged by the basis of its own start, as before issue 42, or read
/// it as well, fails here whatever minute the run began in).
fn follow_judges_by_the_runs_basis(d: &str) -> Result<(), String> {
    let sb = start_with(d, &["--task-delay", "200ms"]);
    let dir = std::env::temp_dir().join(format!("ylemctl-anchor-f-{d}-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    let p = sb.pipeline_named(PIPELINE);
    let started = json_in(&sb, &dir, &["run", "pipeline", &p, "-o", "json"]);
    let run = started["run_uuid"]
        .as_str()
        .ok_or("no run started")?
        .to_string();
    let truth = finished_truth(&sb, &run);
    let first: DateTime<Utc> = truth["started"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or(format!("no start in the truth: {truth}"))?;
    let anchor = minute(first);
    // The clock's minute turns past the run's (at most a minute).
    let deadline = Instant::now() + LIMIT;
    while minute(Utc::now()) <= anchor && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(100));
    }
    let own = minute(Utc::now());
    let o = sb.run_with(
        &["logs", &p, "-f", "--run", &run, "--max-time", "120s"],
        &[("YLEM_CONFIG_DIR", &dir)],
    );
    let said = o
        .stderr
        .lines()
        .find_map(|l| {
            l.split_once(&format!("run {run} is complete: "))
                .map(|x| x.1)
        })
        .ok_or(format!("no end said: {}", o.stderr))?
        .to_string();
    let (at_run, at_own) = (basis_reads(&sb, anchor), basis_reads(&sb, own));
    if at_run != 1 || at_own != 0 {
        return Err(format!(
            "logs -f --run read {at_run} bases at the run's minute {anchor} and {at_own} at its own {own}; want 1 and 0"
        ));
    }
    let by_runs = json_in(&sb, &dir, &["runs", &p, "--run", &run, "-o", "json"]);
    if by_runs["evidence"] != said.as_str() {
        return Err(format!("logs -f --run said {said:?}, runs --run {by_runs}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn logs_follow_run_ends_with_the_evidence_runs_gives() {
    thread::scope(|s| {
        let hs: Vec<_> = DIALECTS
            .iter()
            .map(|d| {
                s.spawn(move || follow_judges_by_the_runs_basis(d).map_err(|e| format!("{d}: {e}")))
            })
            .collect();
        let wrong: Vec<String> = hs
            .into_iter()
            .filter_map(|h| h.join().unwrap().err())
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    });
}
