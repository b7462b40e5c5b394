//! One verdict per run (issue 42): for the same finished run, `run
//! pipeline --wait`, `runs --run R`, `last-run` and `check` say one result
//! and (where they print it) one evidence text, both dialects; and the
//! settle setting (`--settle`, `YLEM_SETTLE`) is one for every command, so
//! `run workflow --wait --settle D` and `last-run workflow --settle D`
//! agree, on a success and on a failure (the sandbox's test-only
//! `--failing-workflows`). Against the sandbox; waits are on events.

use crate::common;

use std::thread;

use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

const DIALECTS: [&str; 2] = ["ylem", "spec"];

fn json_in(sb: &Sandbox, dir: &str, args: &[&str]) -> (i32, Value) {
    let o = sb.run_with(args, &[("YLEM_CONFIG_DIR", dir)]);
    (
        o.code,
        serde_json::from_str(&o.stdout).unwrap_or(Value::Null),
    )
}

/// `last-run`'s result in `runs`' words: `succeeded`, `failed`, or what
/// `last_run` says (`running`, `unsettled`, `not_found`).
fn last_result(v: &Value) -> Value {
    match (v["last_run"].as_str(), v["is_successful"].as_bool()) {
        (Some("found"), Some(true)) => Value::from("succeeded"),
        (Some("found"), Some(false)) => Value::from("failed"),
        (w, _) => Value::from(w),
    }
}

/// `check`'s state for a result.
fn state_of(result: &Value) -> &'static str {
    match result.as_str() {
        Some("succeeded") => "OK",
        Some("failed") => "CRITICAL",
        _ => "?",
    }
}

/// One pipeline of one dialect: a run waited for (`--poll 8s`, so a wait
/// judging by a rule of its own, as before, would name another settle
/// time), then each command on it.
fn one_run_one_verdict(d: &str, name: &str) -> Result<(), String> {
    let sb = start_with(d, &["--task-delay", "200ms"]);
    let dir = std::env::temp_dir().join(format!("ylemctl-one-{d}-{name}-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    let p = sb.pipeline_named(name);
    let (_, waited) = json_in(
        &sb,
        &dir,
        &[
            "run", "pipeline", &p, "--wait", "--poll", "8s", "-o", "json",
        ],
    );
    let run = waited["workflow_run_uuid"]
        .as_str()
        .ok_or(format!("no run followed: {waited}"))?
        .to_string();
    let (_, by_runs) = json_in(&sb, &dir, &["runs", &p, "--run", &run, "-o", "json"]);
    let (_, by_last) = json_in(&sb, &dir, &["last-run", "pipeline", &p, "-o", "json"]);
    let (_, by_check) = json_in(&sb, &dir, &["check", "pipeline", &p, "-o", "json"]);
    let truth = sb.truth(&run);
    let want = match (
        truth["finished"].as_bool(),
        truth["is_successful"].as_bool(),
    ) {
        (Some(true), Some(true)) => Value::from("succeeded"),
        (Some(true), Some(false)) => Value::from("failed"),
        _ => return Err(format!("{name}: the truth has not finished: {truth}")),
    };
    let said = [
        ("run --wait", waited["verdict"].clone(), &waited["evidence"]),
        (
            "runs --run",
            by_runs["result"].clone(),
            &by_runs["evidence"],
        ),
        ("last-run", last_result(&by_last), &by_last["evidence"]),
    ];
    for (what, result, evidence) in &said {
        if *result != want || **evidence != waited["evidence"] {
            return Err(format!(
                "{name}: {what} said {result} ({evidence}); run --wait {waited}; truth {truth}"
            ));
        }
    }
    if by_last["run_uuid"] != run.as_str() {
        return Err(format!("{name}: last-run is another run: {by_last}"));
    }
    for (what, v) in [
        ("the truth", &truth),
        ("runs --run", &by_runs),
        ("last-run", &by_last),
    ] {
        if v["duration"] != waited["duration"] || v["elapsed"] != waited["elapsed"] {
            return Err(format!("{name}: {what} {v}, run --wait {waited}"));
        }
    }
    if by_check["state"] != state_of(&want) {
        return Err(format!("{name}: check said {by_check}, the run {want}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// In parallel, each case on a sandbox of its own; every failure said.
fn each(cases: Vec<(&'static str, &'static str)>, f: fn(&str, &str) -> Result<(), String>) {
    thread::scope(|s| {
        let hs: Vec<_> = cases
            .into_iter()
            .map(|(a, b)| s.spawn(move || f(a, b).map_err(|e| format!("{a}: {e}"))))
            .collect();
        let wrong: Vec<String> = hs
            .into_iter()
            .filter_map(|h| h.join().unwrap().err())
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    });
}

/// A fixed-size pipeline ("as in the last N runs") and one whose runs
/// differ in size (settled, the learned settle time named), both dialects.
#[test]
fn run_wait_runs_last_run_and_check_say_one_verdict_for_a_finished_run() {
    let mut cases = Vec::new();
    for d in DIALECTS {
        cases.push((d, "hourly-inventory-refresh"));
        cases.push((d, "customer-churn-alerts"));
    }
    each(cases, one_run_one_verdict);
}

/// A workflow (spec: the open-source server routes none): `run workflow
/// --wait --settle 2s`, then `last-run workflow` with the same setting by
/// flag and by `YLEM_SETTLE`: one verdict, one evidence text naming
/// `--settle`; `check` the same state. `failing`: the sandbox's
/// `--failing-workflows`, so the run fails.
fn workflow_one_verdict(failing: bool) -> Result<(), String> {
    let extra: &[&str] = match failing {
        true => &["--task-delay", "100ms", "--failing-workflows"],
        false => &["--task-delay", "100ms"],
    };
    let sb = start_with("spec", extra);
    let dir = std::env::temp_dir().join(format!("ylemctl-one-wf-{failing}-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    let w = &sb.workflows[0];
    let (code, waited) = json_in(
        &sb,
        &dir,
        &[
            "run", "workflow", w, "--wait", "--poll", "300ms", "--settle", "2s", "-o", "json",
        ],
    );
    let want = match failing {
        true => ("failed", 7, "CRITICAL"),
        false => ("succeeded", 0, "OK"),
    };
    if waited["verdict"] != want.0 || code != want.1 {
        return Err(format!("run workflow --wait: exit {code}, {waited}"));
    }
    if !failing
        && !waited["evidence"]
            .as_str()
            .is_some_and(|e| e.ends_with("(--settle)"))
    {
        return Err(format!("the evidence names no --settle: {waited}"));
    }
    let by_flag = json_in(
        &sb,
        &dir,
        &["last-run", "workflow", w, "--settle", "2s", "-o", "json"],
    )
    .1;
    let o = sb.run_with(
        &["last-run", "workflow", w, "-o", "json"],
        &[("YLEM_CONFIG_DIR", &dir), ("YLEM_SETTLE", "2s")],
    );
    let by_env: Value = serde_json::from_str(&o.stdout).unwrap_or(Value::Null);
    // The profile's `settle`, in a config directory of its own.
    let profiled = std::env::temp_dir().join(format!(
        "ylemctl-one-wf-profile-{failing}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&profiled).unwrap();
    std::fs::write(
        profiled.join("config.toml"),
        "[profiles.default]\nsettle = \"2s\"\n",
    )
    .unwrap();
    let profiled = profiled.to_str().unwrap().to_string();
    let by_profile = json_in(&sb, &profiled, &["last-run", "workflow", w, "-o", "json"]).1;
    for (what, v) in [
        ("--settle", &by_flag),
        ("YLEM_SETTLE", &by_env),
        ("the profile's settle", &by_profile),
    ] {
        if last_result(v) != want.0 || v["evidence"] != waited["evidence"] {
            return Err(format!(
                "last-run workflow ({what}) said {v}; run workflow --wait {waited}"
            ));
        }
        if v["duration"] != waited["duration"] {
            return Err(format!("last-run ({what}) {v}, run --wait {waited}"));
        }
    }
    let (_, by_check) = json_in(
        &sb,
        &dir,
        &["check", "workflow", w, "--settle", "2s", "-o", "json"],
    );
    if by_check["state"] != want.2 {
        return Err(format!("check said {by_check}; the run {}", want.0));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&profiled);
    Ok(())
}

#[test]
fn run_workflow_wait_and_last_run_workflow_agree_with_one_settle_setting() {
    thread::scope(|s| {
        let hs: Vec<_> = [false, true]
            .into_iter()
            .map(|failing| {
                s.spawn(move || {
                    workflow_one_verdict(failing).map_err(|e| format!("failing={failing}: {e}"))
                })
            })
            .collect();
        let wrong: Vec<String> = hs
            .into_iter()
            .filter_map(|h| h.join().unwrap().err())
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    });
}
