//! The failure of a run, end to end against the sandbox in both dialects:
//! `run --wait`, `last-run`, `check` and `status` name the failed task and
//! its messages, of the newest failed run (checked against the sandbox's
//! ground truth), decrypted with the key from the flag, the environment or
//! the profile; and last-run's log request is narrow, and absent for a
//! run that succeeded (checked in the sandbox's own request log).

use serde_json::Value;

use crate::common::sandbox::{Sandbox, start_with};

fn requests(sb: &Sandbox) -> Vec<String> {
    sb.requests()
}

/// A key file holding the sandbox's output key (hex).
fn key_file(sb: &Sandbox) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!(
        "ylemctl-failures-key-{}-{}",
        std::process::id(),
        sb.base.rsplit(':').next().unwrap()
    ));
    std::fs::write(&p, &sb.key).unwrap();
    p
}

/// The first message of a failed run, by the sandbox's truth.
fn truth_message(sb: &Sandbox, run: &str) -> (String, String) {
    let t = sb.truth(run);
    let f = &t["failed"][0];
    (
        f["task_uuid"].as_str().unwrap().to_string(),
        f["errors"][0]["Message"].as_str().unwrap().to_string(),
    )
}

/// Start runs of the flaky pipeline one after another (bounded) until the
/// newest has failed with a message an earlier failed run did not have.
/// Each `run --wait` is checked on the way. Returns (run, task, message).
fn two_failed_runs(sb: &Sandbox, env: &[(&str, &str)]) -> (String, String, String) {
    let p = &sb.pipelines[1].0;
    let mut earlier: Vec<String> = Vec::new();
    for _ in 0..16 {
        let o = sb.run_with(&["run", "pipeline", p, "--wait", "-o", "json"], env);
        let v: Value =
            serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {o:?}", o = o.stdout));
        let run = v["workflow_run_uuid"].as_str().unwrap().to_string();
        if v["verdict"] != "failed" {
            assert_eq!(o.code, 0, "{}", o.stderr);
            assert!(v["failed_task"].is_null() && v["failed_tasks"].is_null());
            continue;
        }
        assert_eq!(o.code, 7, "{}", o.stderr);
        let (task, msg) = truth_message(sb, &run);
        assert_eq!(v["failed_task"], task.as_str());
        assert_eq!(v["failed_tasks"][0]["errors"][0]["Message"], msg.as_str());
        assert!(v["failure"].as_str().unwrap().contains(&msg), "{v}");
        // The terminal's line per failed task, under the error.
        assert!(o.stderr.contains("failed after"), "{}", o.stderr);
        assert!(o.stderr.contains(&msg), "{}", o.stderr);
        if earlier.iter().any(|m| *m != msg) {
            return (run, task, msg);
        }
        earlier.push(msg);
    }
    panic!("no two failed runs with different messages in 16 starts");
}

fn newer_failure_everywhere(dialect: &str) {
    let sb = start_with(dialect, &["--task-delay", "20ms"]);
    let key = key_file(&sb);
    let key_s = key.to_str().unwrap();
    let env = [("YLEM_DECRYPT_KEY_FILE", key_s)];
    let p = sb.pipelines[1].0.clone();
    let (_run, task, msg) = two_failed_runs(&sb, &env);

    // last-run, JSON and table, and --fail-on-failure's first message.
    let before = requests(&sb).len();
    let o = sb.run_with(&["last-run", "pipeline", &p, "-o", "json"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["failed_task"], task.as_str());
    assert_eq!(v["failed_tasks"][0]["errors"][0]["Message"], msg.as_str());
    let asked = requests(&sb)[before..].to_vec();
    let logs: Vec<&String> = asked.iter().filter(|r| r.contains("/logs/")).collect();
    assert_eq!(logs.len(), 1, "one log request: {asked:?}");
    assert_narrow(logs[0], v["executed_at"].as_str().unwrap());

    let o = sb.run_with(&["last-run", "pipeline", &p], &env);
    assert!(o.stdout.contains(&msg), "{}", o.stdout);
    let o = sb.run_with(&["last-run", "pipeline", &p, "--fail-on-failure"], &env);
    assert_eq!(o.code, 7);
    assert!(
        o.stderr
            .contains("error: the last run failed: task notification (")
            && o.stderr.contains(&msg),
        "{}",
        o.stderr
    );

    // check: CRITICAL names the task and the message, perfdata kept.
    let o = sb.run_with(&["check", "pipeline", &p], &env);
    assert_eq!(o.code, 2, "{}", o.stdout);
    let first = o.stdout.lines().next().unwrap();
    assert!(first.starts_with("CRITICAL - pipeline "), "{first}");
    assert!(
        first.contains(&task[..8]) && first.contains(&msg),
        "{first}"
    );
    assert!(first.contains(" | age="), "{first}");

    // status: the failed row's reason, JSON and table.
    let target = format!("pipeline:{p}");
    let o = sb.run_with(&["status", &target, "-o", "json"], &env);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    // One ID: the object.
    assert_eq!(v["status"], "failed");
    assert_eq!(v["failed_task"], task.as_str());
    assert_eq!(v["failed_tasks"][0]["errors"][0]["Message"], msg.as_str());
    let o = sb.run_with(&["status", &target], &env);
    assert!(
        o.stdout.contains("FAILURE") && o.stdout.contains(&msg),
        "{}",
        o.stdout
    );
    let _ = std::fs::remove_file(key);
}

/// A logs request whose window is a minute at most and holds `at`.
fn assert_narrow(req: &str, at: &str) {
    let parts: Vec<&str> = req.rsplitn(3, '/').collect();
    let parse = |s: &str| {
        chrono::NaiveDateTime::parse_from_str(&s.replace("%20", " "), "%Y-%m-%d %H:%M:%S")
            .unwrap_or_else(|e| panic!("{e}: {req}"))
            .and_utc()
    };
    let (from, to) = (parse(parts[1]), parse(parts[0]));
    let at: chrono::DateTime<chrono::Utc> = at.parse().unwrap();
    assert!(
        to - from <= chrono::Duration::minutes(2),
        "not narrow: {req}"
    );
    assert!(from <= at && at <= to, "{at} outside {req}");
}

#[test]
fn the_newer_failure_everywhere_ylem() {
    newer_failure_everywhere("ylem");
}

#[test]
fn the_newer_failure_everywhere_spec() {
    newer_failure_everywhere("spec");
}

/// Spec outputs are encrypted: without a key the task is named with how to
/// decrypt; with it (flag, environment or profile) the messages show.
#[test]
fn encrypted_outputs_with_and_without_the_key() {
    let sb = start_with("spec", &["--task-delay", "20ms"]);
    let key = key_file(&sb);
    let key_s = key.to_str().unwrap();
    let p = sb.pipelines[1].0.clone();
    let (_run, task, msg) = two_failed_runs(&sb, &[("YLEM_DECRYPT_KEY_FILE", key_s)]);

    let o = sb.run(&["last-run", "pipeline", &p, "-o", "json"]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["failed_task"], task.as_str());
    assert!(v["failed_tasks"][0]["errors"].is_null());
    let note = v["failed_tasks"][0]["note"].as_str().unwrap();
    assert!(note.contains("--decrypt-key-file") && note.contains("YLEM_DECRYPT_KEY_FILE"));
    assert!(!o.stdout.contains(&msg));
    let o = sb.run(&["check", "pipeline", &p]);
    assert!(
        o.stdout.contains("encrypted") && o.stdout.contains(&task[..8]),
        "{}",
        o.stdout
    );

    let o = sb.run(&["last-run", "pipeline", &p, "--decrypt-key-file", key_s]);
    assert!(o.stdout.contains(&msg), "{}", o.stdout);

    // The profile's decrypt_key_file, so cron lines need no flag.
    let dir = std::env::temp_dir().join(format!("ylemctl-failures-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        format!("[profiles.default]\ndecrypt_key_file = {:?}\n", key_s),
    )
    .unwrap();
    let o = sb.run_with(
        &["status", &format!("pipeline:{p}"), "-o", "json"],
        &[("YLEM_CONFIG_DIR", dir.to_str().unwrap())],
    );
    let v: Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stderr));
    assert_eq!(v["failed_tasks"][0]["errors"][0]["Message"], msg.as_str());
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_file(key);
}

/// A run that succeeded costs one log request in last-run, check or
/// status: its confirmation from its own entries (the server's flag is only
/// its latest task's), which holds the failure too when there is one; and
/// the first command one more, for the run's basis, kept after (issue 42).
#[test]
fn a_success_costs_one_log_request() {
    let sb = start_with("ylem", &["--task-delay", "20ms"]);
    let dir = std::env::temp_dir().join(format!("ylemctl-one-log-{}", std::process::id()));
    let env = [("YLEM_CONFIG_DIR", dir.to_str().unwrap())];
    let p = sb.pipelines[0].0.clone();
    let o = sb.run(&["run", "pipeline", &p, "--wait", "-o", "json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let before = requests(&sb).len();
    for args in [
        vec!["last-run", "pipeline", p.as_str(), "-o", "json"],
        vec!["check", "pipeline", p.as_str()],
    ] {
        let o = sb.run_with(&args, &env);
        assert!(!o.stdout.contains("failed_tasks\":["), "{}", o.stdout);
    }
    let o = sb.run_with(&["status", &format!("pipeline:{p}"), "-o", "json"], &env);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert!(v["failure"].is_null(), "{v}");
    let asked = requests(&sb)[before..].to_vec();
    let logs = asked.iter().filter(|r| r.contains("/logs/")).count();
    assert_eq!(
        logs, 4,
        "one log request per command, and the basis once: {asked:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_workflow_failure_is_not_guessed() {
    let sb = start_with("spec", &["--task-delay", "20ms"]);
    // A workflow whose last run failed in the seeded history.
    for w in &sb.workflows {
        let o = sb.run(&["last-run", "workflow", w, "-o", "json"]);
        let v: Value = serde_json::from_str(&o.stdout).unwrap_or(Value::Null);
        if v["is_successful"] == false {
            assert_eq!(
                v["failure"],
                "reason unknown: the service keeps no log for workflows"
            );
            assert!(v["failed_task"].is_null());
            return;
        }
    }
    panic!("no seeded workflow whose last run failed: pick another seed");
}
