//! End to end: `ylemctl sandbox` started as a process on a free loopback
//! port, and every command of the CLI driven against it in both dialects,
//! checking values against what the test computes independently; SIGTERM
//! stops the sandbox with exit 0.

use crate::common;

use std::time::{Duration, Instant};

use chrono::{Datelike, NaiveDateTime, Weekday};
use common::sandbox::{Sandbox, start, start_with};
use common::*;
use serde_json::Value;

fn start_and_follow(sb: &Sandbox, pipeline: usize) -> (String, Vec<Value>) {
    let (p, tasks) = &sb.pipelines[pipeline];
    let v = sb.json(&["run", "pipeline", p]);
    let run = v["run_uuid"].as_str().unwrap().to_string();
    // Bounded: at most 60 polls of the log.
    let deadline = Instant::now() + Duration::from_secs(15);
    for _ in 0..60 {
        let entries = sb.json(&["logs", p, "--since", "10m", "--run", &run]);
        let entries = entries.as_array().unwrap().clone();
        let done =
            entries.len() == tasks.len() || entries.iter().any(|e| e["is_successful"] == false);
        if done || Instant::now() > deadline {
            return (run, entries);
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    panic!("run {run} did not finish");
}

#[test]
fn spec_dialect_every_command() {
    let sb = start("spec");
    // A started run of the reliable pipeline reports every task, in order.
    let (run, entries) = start_and_follow(&sb, 0);
    assert_eq!(
        entries.len(),
        sb.pipelines[0].1.len(),
        "one entry per task of run {run}"
    );
    // The log is newest first, as the server sends it.
    let tasks: Vec<&str> = entries
        .iter()
        .rev()
        .map(|e| e["task_uuid"].as_str().unwrap())
        .collect();
    assert_eq!(
        tasks,
        sb.pipelines[0]
            .1
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    // ... and last-run shows it once it counts as finished (all its tasks
    // and a second without a new one): running until then, never a success.
    let mut last = Value::Null;
    for _ in 0..40 {
        last = sb.json(&["last-run", "pipeline", &sb.pipelines[0].0]);
        if last["last_run"] != "running" {
            break;
        }
        assert_eq!(last["is_successful"], Value::Null, "{last}");
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    assert_eq!(last["is_successful"], true, "{last}");
    // Workflows exist in this dialect.
    let w = &sb.workflows[0];
    assert!(
        sb.json(&["stats", "workflow", w, "--since", "30d"])["num_of_successes"]
            .as_i64()
            .unwrap()
            > 0
    );
    assert!(sb.json(&["last-run", "workflow", w])["executed_at"].is_string());
    let started = sb.json(&["run", "workflow", w]);
    // One ID: the object, the server's records under `records`.
    assert_eq!(started["outcome"], "started");
    assert_eq!(started["records"][0]["state"], "pending");
    task_stats_match_the_log(&sb);
    periods_align(&sb);
    a_mid_month_from_is_aligned(&sb);
    every_format_works(&sb);
}

#[test]
fn ylem_dialect_every_command() {
    let sb = start("ylem");
    let (_, entries) = start_and_follow(&sb, 0);
    assert_eq!(entries.len(), sb.pipelines[0].1.len());
    // `pipeline_run_uuid` arrives as the spec's `workflow_run_uuid`.
    assert!(entries[0]["workflow_run_uuid"].is_string());
    // No workflow routes: exit 4 with a hint saying so.
    let o = sb.run(&["stats", "workflow", &sb.workflows[0]]);
    assert_eq!(o.code, 4);
    assert!(o.stderr.contains("workflow endpoints"), "{}", o.stderr);
    let o = sb.run(&["run", "workflow", &sb.workflows[0]]);
    assert_eq!(o.code, 4);
    // Last-run of something unknown is the server's 403, and range
    // statistics of zeros: "no run found", never "never ran".
    let v = sb.json(&["last-run", "task", "00000000-0000-4000-8000-000000000000"]);
    assert_eq!(v["executed_at"], Value::Null);
    assert_eq!(v["last_run"], "not_found");
    // A bare-date aggregate is refused and asked again with a time.
    task_stats_match_the_log(&sb);
    periods_align(&sb);
    a_mid_month_from_is_aligned(&sb);
    every_format_works(&sb);
}

/// Task statistics over a window equal the counts computed from the log.
fn task_stats_match_the_log(sb: &Sandbox) {
    let (p, tasks) = &sb.pipelines[1];
    let now = chrono::Utc::now();
    let from_s = (now - chrono::Duration::days(20))
        .format("%Y-%m-%d %H:%M:%S")
        .to_string();
    let to_s = (now - chrono::Duration::days(3))
        .format("%Y-%m-%d %H:%M:%S")
        .to_string();
    let log = sb.json(&["logs", p, "--from", &from_s, "--to", &to_s]);
    let log = log.as_array().unwrap();
    assert!(!log.is_empty());
    for t in tasks.iter().take(2) {
        let mine: Vec<&Value> = log
            .iter()
            .filter(|e| e["task_uuid"] == t.as_str())
            .collect();
        let ok = mine.iter().filter(|e| e["is_successful"] == true).count() as i64;
        let failed = mine.len() as i64 - ok;
        let total: i64 = mine.iter().map(|e| e["duration"].as_i64().unwrap()).sum();
        let s = sb.json(&["stats", "task", t, "--from", &from_s, "--to", &to_s]);
        assert_eq!(s["num_of_successes"].as_i64().unwrap(), ok, "task {t}");
        assert_eq!(s["num_of_failures"].as_i64().unwrap(), failed, "task {t}");
        if !mine.is_empty() {
            let avg = s["average_duration"].as_i64().unwrap();
            assert!(
                (avg - total / mine.len() as i64).abs() <= 1,
                "average of task {t}"
            );
        }
    }
}

/// Weeks start on Monday, months on the 1st, quarters on Jan/Apr/Jul/Oct 1.
fn periods_align(sb: &Sandbox) {
    let p = &sb.pipelines[0].0;
    let date = |v: &Value| {
        NaiveDateTime::parse_from_str(v.as_str().unwrap(), "%Y-%m-%dT%H:%M:%SZ").unwrap()
    };
    for (period, count) in [
        ("week", "8"),
        ("month", "3"),
        ("quarter", "2"),
        ("day", "7"),
    ] {
        let v = sb.json(&[
            "aggregate",
            "pipeline",
            p,
            "--period",
            period,
            "--count",
            count,
        ]);
        let list = v.as_array().unwrap();
        assert!(!list.is_empty(), "{period}");
        let mut last = None;
        for e in list {
            let d = date(&e["date_from"]);
            match period {
                "week" => assert_eq!(d.weekday(), Weekday::Mon),
                "month" => assert_eq!(d.day(), 1),
                "quarter" => assert!(d.day() == 1 && [1, 4, 7, 10].contains(&d.month())),
                _ => {}
            }
            assert!(last.is_none_or(|l| l < d), "sorted by date_from");
            last = Some(d);
        }
    }
}

/// `--from` the 15th of a month: aligned to the 1st, with a note, so every
/// bucket is a whole month (the real server would give a partial first
/// bucket and one extra, each labelled as a whole month); every requested
/// month is shown, empty ones as zeros marked `filled`.
fn a_mid_month_from_is_aligned(sb: &Sandbox) {
    let p = &sb.pipelines[0].0;
    let today = chrono::Utc::now().date_naive();
    let mid = today.with_day(15).unwrap() - chrono::Months::new(2);
    let args = [
        "aggregate",
        "pipeline",
        p.as_str(),
        "--period",
        "month",
        "--count",
        "3",
        "--from",
        &mid.to_string(),
    ];
    let v = sb.json(&args);
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 3, "{v}");
    let first = mid.with_day(1).unwrap();
    assert_eq!(list[0]["date_from"], format!("{first}T00:00:00Z"));
    for e in list {
        let from = e["date_from"].as_str().unwrap();
        let to = e["date_to"].as_str().unwrap();
        assert!(from.ends_with("-01T00:00:00Z"), "{e}");
        assert!(to.ends_with("T23:59:59Z"), "{e}");
        assert!(e["filled"].is_boolean(), "{e}");
    }
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("starting at {first}")),
        "{}",
        o.stderr
    );
}

fn every_format_works(sb: &Sandbox) {
    let p = &sb.pipelines[0].0;
    let t = &sb.pipelines[0].1[0];
    let cmds: Vec<Vec<&str>> = vec![
        vec!["logs", p, "--since", "2d"],
        vec!["stats", "pipeline", p, &sb.pipelines[1].0, "--since", "7d"],
        vec!["stats", "task", t],
        vec!["aggregate", "pipeline", p],
        vec!["last-run", "pipeline", p],
        vec!["last-run", "task", t],
    ];
    for c in cmds {
        for f in ["table", "json", "jsonl", "csv"] {
            let mut a = c.clone();
            a.extend(["-o", f]);
            let o = sb.run(&a);
            assert_eq!(o.code, 0, "{a:?}: {}", o.stderr);
            assert!(!o.all().contains(&sb.secret), "the client secret leaked");
            match f {
                "json" => drop(serde_json::from_str::<Value>(&o.stdout).unwrap()),
                "jsonl" => o
                    .stdout
                    .lines()
                    .for_each(|l| drop(serde_json::from_str::<Value>(l).unwrap())),
                _ => assert!(!o.stdout.is_empty(), "{a:?}"),
            }
        }
    }
}

#[test]
fn demo_walks_through_every_step() {
    let o = ylem(&["demo"], &[]);
    assert_eq!(o.code, 0, "{}", o.all());
    for cmd in [
        "$ ylemctl login",
        "$ ylemctl run pipeline",
        "$ ylemctl logs",
        "$ ylemctl stats",
        "$ ylemctl aggregate",
        "$ ylemctl last-run",
        "$ ylemctl runs",
    ] {
        assert!(o.stdout.contains(cmd), "demo lacks {cmd}");
    }
    // The failed runs say why: the demo hands the sandbox's key over, so
    // no output stays encrypted.
    assert!(o.stdout.contains("critical] ") || o.stdout.contains("high] "));
    assert!(!o.stdout.contains("output encrypted"), "{}", o.stdout);
    assert!(o.stdout.contains("Every step worked"));
}

#[test]
fn sandbox_rejects_bad_flags() {
    for args in [
        vec!["sandbox", "--listen", "0.0.0.0:0"],
        vec!["sandbox", "--listen", "nowhere"],
        vec!["sandbox", "--fail-rate", "2"],
        vec!["sandbox", "--latency", "fast"],
        vec!["sandbox", "--dialect", "other"],
    ] {
        assert_eq!(ylem(&args, &[]).code, 2, "{args:?}");
    }
}

#[test]
fn ctrl_c_stops_the_sandbox_cleanly() {
    let mut sb = start("spec");
    let p0 = sb.pipelines[0].0.clone();
    assert!(sb.json(&["last-run", "pipeline", &p0])["executed_at"].is_string());
    assert_eq!(
        sb.interrupt(),
        Some(0),
        "Ctrl-C ends the sandbox with exit 0"
    );
}

#[test]
fn sigterm_stops_the_sandbox_with_exit_0() {
    let mut sb = start_with("spec", &[]);
    assert_eq!(sb.requests(), Vec::<String>::new());
    assert_eq!(sb.signal("-TERM"), Some(0));
}
