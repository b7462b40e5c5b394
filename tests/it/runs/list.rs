//! `runs` and `logs --task` end to end against the sandbox in both
//! dialects: the runs of a window match the sandbox's ground truth
//! (`/_sandbox/runs/<run>`), a run still executing is never `succeeded`,
//! `--failed`, `--limit`, several pipelines and the formats; `--run
//! latest-failed` shows the right run's failure and `--exit-status` gives
//! 0, 7 and 8; `--result` keeps the runs with that result, and an empty
//! filtered list says how many runs there were.

use serde_json::Value;

use crate::common::process::try_wait_for;
use crate::common::sandbox::{self, Sandbox, start_with};

fn json(sb: &Sandbox, args: &[&str]) -> (i32, Value) {
    let mut a = args.to_vec();
    a.extend(["-o", "json"]);
    let o = sb.run(&a);
    let v = serde_json::from_str(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {o:?}", o = o.stderr));
    (o.code, v)
}

/// Every run once, with the sandbox's task counts and outcomes; finished
/// runs are never `running` here unless the evidence is missing, and a
/// run the sandbox says is unfinished is never `succeeded`.
fn runs_match_the_truth(dialect: &str) {
    let sb = start_with(dialect, &["--task-delay", "20ms"]);
    let p = sb.pipelines[1].0.clone();
    // A run of our own, and one still executing (slow tasks) at the end.
    let o = sb.run(&["run", "pipeline", &p, "--wait", "-o", "json"]);
    assert!(o.code == 0 || o.code == 7, "{}", o.stderr);
    let (code, list) = json(&sb, &["runs", &p, "--since", "2d"]);
    assert_eq!(code, 0);
    let list = list.as_array().unwrap();
    assert!(list.len() >= 2, "{list:?}");
    let mut seen = std::collections::HashSet::new();
    let mut last_started = None;
    for r in list {
        let run = r["run_uuid"].as_str().unwrap();
        assert!(seen.insert(run.to_string()), "{run} twice");
        let started = r["started"].as_str().unwrap().to_string();
        if let Some(prev) = &last_started {
            assert!(started <= *prev, "newest first: {started} after {prev}");
        }
        last_started = Some(started);
        let t = sb.truth(run);
        assert_eq!(r["tasks"], t["reported"], "{run}: {t}");
        let failed = t["failed"].as_array().unwrap().len();
        assert_eq!(r["tasks_failed"], failed, "{run}");
        match r["result"].as_str().unwrap() {
            "failed" => {
                assert!(failed > 0);
                assert_eq!(r["failed_task"], t["failed"][0]["task_uuid"]);
            }
            "succeeded" => {
                assert_eq!(t["is_successful"], true, "{run}: {t}");
                assert_eq!(t["finished"], true, "{run}: {t}");
            }
            "running" => assert_eq!(failed, 0),
            other => panic!("{other}"),
        }
    }
    // --failed keeps failed runs; --limit the newest N.
    let (_, failed) = json(&sb, &["runs", &p, "--since", "2d", "--failed"]);
    let failed = failed.as_array().unwrap();
    assert!(failed.iter().all(|r| r["result"] == "failed"));
    // Every failed run of the list is there (the service goes on running
    // the pipeline, so a newer one may have joined in between).
    let ids: std::collections::HashSet<&str> = failed
        .iter()
        .map(|r| r["run_uuid"].as_str().unwrap())
        .collect();
    for r in list.iter().filter(|r| r["result"] == "failed") {
        assert!(ids.contains(r["run_uuid"].as_str().unwrap()), "{r}");
    }
    let (_, two) = json(&sb, &["runs", &p, "--since", "2d", "--limit", "2"]);
    let two = two.as_array().unwrap();
    assert_eq!(two.len(), 2);
    assert!(two[0]["started"].as_str() >= list[0]["started"].as_str());
}

#[test]
fn runs_match_the_truth_ylem() {
    runs_match_the_truth("ylem");
}

#[test]
fn runs_match_the_truth_spec() {
    runs_match_the_truth("spec");
}

/// A run still executing is `running`, and `--exit-status` says 8; a run
/// that succeeded on evidence 0; a failed one 7 with its failure.
#[test]
fn exit_status_for_running_succeeded_and_failed() {
    let sb = start_with("ylem", &["--task-delay", "1s"]);
    let (reliable, flaky) = (sb.pipelines[0].0.clone(), sb.pipelines[1].0.clone());
    let o = sb.run(&["run", "pipeline", &reliable]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // Wait (bounded) for its first entry, then ask while it goes on.
    let limit = std::time::Duration::from_secs(20);
    let run = try_wait_for(limit, || {
        let args = [
            "runs", &reliable, "--since", "10m", "--run", "latest", "-o", "json",
        ];
        let o = sb.run(&args);
        if o.code != 0 {
            return None; // no entry yet
        }
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        let t = sb.truth(v["run_uuid"].as_str().unwrap());
        (v["result"] == "running" && t["finished"] == false)
            .then(|| v["run_uuid"].as_str().unwrap().to_string())
    });
    let run = run.expect("a run seen executing");
    let o = sb.run(&[
        "runs",
        &reliable,
        "--since",
        "10m",
        "--run",
        &run,
        "--exit-status",
    ]);
    assert_eq!(o.code, 8, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("has not finished"), "{}", o.stderr);

    // A seeded run long finished, that succeeded: exit 0 on evidence.
    let (_, all) = json(&sb, &["runs", &reliable, "--since", "3d"]);
    let ok = all
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["result"] == "succeeded")
        .expect("a succeeded run in 3 days");
    let o = sb.run(&[
        "runs",
        &reliable,
        "--since",
        "3d",
        "--run",
        ok["run_uuid"].as_str().unwrap(),
        "--exit-status",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);

    // The newest failed run, whole, with the message the truth gives.
    let (_, failed) = json(&sb, &["runs", &flaky, "--since", "3d", "--failed"]);
    let newest = &failed.as_array().unwrap()[0];
    let id = newest["run_uuid"].as_str().unwrap();
    let t = sb.truth(id);
    let (code, v) = json(
        &sb,
        &[
            "runs",
            &flaky,
            "--since",
            "3d",
            "--run",
            "latest-failed",
            "--exit-status",
        ],
    );
    assert_eq!(code, 7);
    assert_eq!(v["run_uuid"], id);
    assert_eq!(v["failed_tasks"][0]["errors"], t["failed"][0]["errors"]);
    assert_eq!(
        v["entries"].as_array().unwrap().len(),
        t["reported"].as_u64().unwrap() as usize
    );
    let o = sb.run(&["runs", &flaky, "--since", "3d", "--run", "latest-failed"]);
    let msg = t["failed"][0]["errors"][0]["Message"].as_str().unwrap();
    assert!(
        o.stdout.contains("failed after") && o.stdout.contains(msg),
        "{}",
        o.stdout
    );
}

/// Several pipelines: rows in the order given, each with its pipeline;
/// every format; a run not in the window is exit 4 naming --since.
#[test]
fn several_pipelines_every_format_and_a_run_not_found() {
    let sb = start_with("spec", &["--task-delay", "20ms"]);
    let (a, b) = (sb.pipelines[0].0.clone(), sb.pipelines[1].0.clone());
    let (_, v) = json(&sb, &["runs", &a, &b, "--since", "2d"]);
    let uuids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uuid"].as_str().unwrap())
        .collect();
    let split = uuids
        .iter()
        .position(|u| *u == b)
        .expect("rows of the second");
    assert!(uuids[..split].iter().all(|u| *u == a) && uuids[split..].iter().all(|u| *u == b));
    let o = sb.run(&["runs", &a, "--since", "2d", "-o", "csv"]);
    assert!(o.stdout.starts_with("run_uuid,result,started,ended,duration,elapsed,tasks,tasks_failed,completion,evidence,failed_task"), "{}", o.stdout);
    assert_eq!(o.stdout.lines().count(), uuids[..split].len() + 1);
    let o = sb.run(&["runs", &a, "--since", "2d", "-o", "jsonl"]);
    assert_eq!(o.stdout.lines().count(), split);
    let o = sb.run(&["runs", &a, "--since", "2d"]);
    assert!(
        o.stdout.contains("RUN_UUID") && o.stdout.contains("RESULT"),
        "{}",
        o.stdout
    );
    let o = sb.run(&[
        "runs",
        &a,
        "--since",
        "1m",
        "--run",
        "00000000-0000-4000-8000-000000000000",
    ]);
    assert_eq!(o.code, 4);
    assert!(
        o.stderr
            .contains("no entry of run 00000000-0000-4000-8000-000000000000 in the window")
            && o.stderr.contains("--since")
            && o.stderr.contains("--wait"),
        "{}",
        o.stderr
    );
}

/// `logs --task` keeps only that task's entries (UUID or alias, repeatable).
#[test]
fn logs_task_keeps_one_tasks_entries() {
    let sb = start_with("ylem", &["--task-delay", "20ms"]);
    let (p, tasks) = &sb.pipelines[1];
    let (_, all) = json(&sb, &["logs", p, "--since", "2d"]);
    let all = all.as_array().unwrap();
    let (_, one) = json(&sb, &["logs", p, "--since", "2d", "--task", &tasks[0]]);
    let one = one.as_array().unwrap();
    assert!(!one.is_empty());
    assert!(one.iter().all(|e| e["task_uuid"] == tasks[0].as_str()));
    assert_eq!(
        one.len(),
        all.iter()
            .filter(|e| e["task_uuid"] == tasks[0].as_str())
            .count()
    );
    let (_, two) = json(
        &sb,
        &[
            "logs", p, "--since", "2d", "--task", &tasks[0], "--task", &tasks[1],
        ],
    );
    let want = all
        .iter()
        .filter(|e| e["task_uuid"] == tasks[0].as_str() || e["task_uuid"] == tasks[1].as_str())
        .count();
    assert_eq!(two.as_array().unwrap().len(), want);
}

/// The same run has the same result whatever `runs`' window: a narrow
/// `--since` holding only our own fresh runs (no complete history of its
/// own) judges them as the default window, `runs --run` and `watch` do.
#[test]
fn a_narrow_window_judges_a_run_as_the_wide_one() {
    let sb = start_with("ylem", &["--task-delay", "20ms"]);
    let p = sb.pipelines[0].0.clone();
    for _ in 0..3 {
        let o = sb.run(&["run", "pipeline", &p, "--wait", "-o", "json"]);
        assert!(o.code == 0 || o.code == 7, "{}", o.stderr);
    }
    let (code, narrow) = json(&sb, &["runs", &p, "--since", "4h"]);
    assert_eq!(code, 0);
    let (code, wide) = json(&sb, &["runs", &p]);
    assert_eq!(code, 0);
    let narrow = narrow.as_array().unwrap();
    assert!(narrow.len() >= 3, "{narrow:?}");
    for r in narrow {
        let run = r["run_uuid"].as_str().unwrap();
        let same = wide
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["run_uuid"] == r["run_uuid"])
            .unwrap_or_else(|| panic!("{run} not in the default window"));
        assert_eq!(r["result"], same["result"], "{run}: {r} vs {same}");
        assert_ne!(r["result"], "running", "{run}: {r}");
    }
}

#[test]
fn runs_result_keeps_the_runs_with_that_result() {
    let s = sandbox::start("spec");
    let p = s.pipelines[1].0.as_str();
    let all = s.json(&["runs", p, "--since", "30d"]);
    let all = all.as_array().unwrap();
    let count = |r: &str| all.iter().filter(|j| j["result"] == r).count();
    assert!(count("failed") > 0 && count("succeeded") > 0);
    for r in ["succeeded", "failed", "running"] {
        let got = s.json(&["runs", p, "--since", "30d", "--result", r]);
        let got = got.as_array().unwrap();
        assert_eq!(got.len(), count(r), "--result {r}");
        assert!(got.iter().all(|j| j["result"] == r), "--result {r}");
    }
    // --failed is --result failed; the two together are a usage error.
    assert_eq!(
        s.json(&["runs", p, "--since", "30d", "--failed"]),
        s.json(&["runs", p, "--since", "30d", "--result", "failed"])
    );
    let o = s.run(&["runs", p, "--failed", "--result", "failed"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    let o = s.run(&["runs", p, "--result", "broken"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

#[test]
fn an_empty_filtered_list_says_how_many_runs_there_were() {
    let s = sandbox::start("spec");
    let p = s.pipelines[1].0.as_str();
    let all = s.json(&["runs", p, "--since", "30d"]);
    let n = all.as_array().unwrap().len();
    assert!(n > 1);
    // No run of a log read whole is still going: none is running.
    let o = s.run(&["runs", p, "--since", "30d", "--result", "running"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains(&format!("no running runs among {n} runs in the window")),
        "{}",
        o.stderr
    );
    // A window with no run at all says so.
    let o = s.run(&[
        "runs",
        p,
        "--from",
        "2001-01-01",
        "--to",
        "2001-01-02",
        "--failed",
    ]);
    assert!(o.stderr.contains("no runs in the window"), "{}", o.stderr);
}
