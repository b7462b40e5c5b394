//! Operator features against a `ylemctl sandbox` process: `run --wait`,
//! `check`, `last-run --fail-on-failure`, `aggregate --chart`, `logs
//! --decode/--decrypt-key-file` and aliases.

use crate::common;

use common::sandbox::{Sandbox, start, start_with};
use common::*;
use serde_json::Value;

/// Requests of one kind in a `-v` log.
fn count_lines(stderr: &str, needle: &str) -> usize {
    stderr
        .lines()
        .filter(|l| l.starts_with("GET ") && l.contains(needle))
        .count()
}

#[test]
fn wait_for_a_run_that_succeeds_fails_or_outlasts_the_timeout() {
    let sb = start_with("spec", &["--task-delay", "150ms"]);
    let (p0, tasks) = &sb.pipelines[0];
    let o = sb.run(&[
        "run", "pipeline", p0, "--wait", "--poll", "300ms", "-v", "-o", "json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // One ID, one object.
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "succeeded");
    assert_eq!(v["tasks_done"], tasks.len());
    assert_eq!(v["tasks_failed"], 0);
    let polls = count_lines(&o.stderr, "/logs/");
    assert!(
        (1..=20).contains(&polls),
        "log requests stay bounded: {polls}"
    );
    // The second pipeline's started runs usually fail on the last task.
    let p1 = &sb.pipelines[1].0;
    let mut codes = Vec::new();
    for _ in 0..5 {
        let o = sb.run(&[
            "run", "pipeline", p1, "--wait", "--poll", "300ms", "-o", "jsonl",
        ]);
        codes.push(o.code);
        if o.code == 7 {
            let v: Value = serde_json::from_str(o.stdout.trim()).unwrap();
            assert_eq!(v["verdict"], "failed");
            assert!(o.stderr.contains("run failed"), "{}", o.stderr);
            break;
        }
    }
    assert!(
        codes.contains(&7) && codes.iter().all(|c| *c == 0 || *c == 7),
        "{codes:?}"
    );
    // last-run --fail-on-failure now sees that failure; the first pipeline is fine.
    assert_eq!(
        sb.run(&["last-run", "pipeline", p1, "--fail-on-failure"])
            .code,
        7
    );
    assert_eq!(
        sb.run(&["last-run", "pipeline", p0, "--fail-on-failure"])
            .code,
        0
    );
    let o = sb.run(&[
        "run",
        "pipeline",
        p0,
        "--wait",
        "--wait-timeout",
        "400ms",
        "-v",
    ]);
    assert_eq!(o.code, 8, "{}", o.stderr);
    assert!(o.stdout.contains("timed_out"));
    assert!(count_lines(&o.stderr, "/logs/") <= 5);
}

#[test]
fn wait_with_the_object_form_start_learns_the_task_count_from_history() {
    // The ylem dialect answers a run start with {"pipeline_run_uuid"}: no
    // task count, so the count comes from the pipeline's past runs.
    let sb = start_with("ylem", &["--task-delay", "400ms"]);
    let (p0, tasks) = &sb.pipelines[0];
    let o = sb.run(&[
        "run", "pipeline", p0, "--wait", "--poll", "1500ms", "-o", "json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "succeeded");
    assert_eq!(v["completion"], "history", "{v}");
    assert_eq!(v["tasks_total"], tasks.len());
    assert_eq!(
        v["tasks_done"],
        tasks.len(),
        "every task, not just the first"
    );
}

#[test]
fn wait_for_workflows_and_for_several_runs_at_once() {
    let sb = start_with("spec", &["--task-delay", "100ms"]);
    let o = sb.run(&[
        "run",
        "workflow",
        &sb.workflows[0],
        "--wait",
        "--poll",
        "300ms",
        "--settle",
        "1s",
        "-o",
        "json",
    ]);
    assert!(o.code == 0 || o.code == 7, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert!(v["verdict"] == "succeeded" || v["verdict"] == "failed");
    let p0 = &sb.pipelines[0].0;
    // One pipeline named twice starts nothing (issue 43: refused, exit 2).
    let o = sb.run(&["run", "pipeline", p0, p0, "--wait", "-o", "csv"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("is given twice"), "{}", o.stderr);
    let o = sb.run(&[
        "run", "pipeline", p0, "--wait", "--poll", "300ms", "-o", "csv", "-v",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // Waiting costs one history lookup (its window reaches 3 days back),
    // read when the run's first entry says which basis is the run's
    // (anchored at its first task, issue 42), plus one log request per
    // poll: never today's basis as well, even when the sandbox dates the
    // first task in an earlier minute than the start was asked.
    let old = (chrono::Utc::now() - chrono::Duration::days(2)).date_naive();
    let history: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("GET ") && l.contains("/logs/"))
        .filter_map(|l| l.split("/logs/").nth(1)?.split(' ').next())
        .filter(|range| {
            let from = range.get(..10).unwrap_or("");
            chrono::NaiveDate::parse_from_str(from, "%Y-%m-%d").is_ok_and(|d| d < old)
        })
        .collect();
    assert_eq!(history.len(), 1, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(
        lines[0].contains("workflow_run_uuid,verdict"),
        "{}",
        o.stdout
    );
    assert_eq!(lines.len(), 2, "{}", o.stdout);
    assert!(lines[1].contains(",succeeded,"), "{}", o.stdout);
}

fn check(sb: &Sandbox, args: &[&str]) -> (i32, String) {
    let mut a = vec!["check"];
    a.extend_from_slice(args);
    let o = sb.run(&a);
    assert_eq!(o.stdout.lines().count(), 1, "one status line: {}", o.stdout);
    (o.code, o.stdout.trim().to_string())
}

#[test]
fn check_in_each_state() {
    let sb = start_with("spec", &["--task-delay", "50ms"]);
    let p0 = &sb.pipelines[0].0;
    assert_eq!(
        sb.run(&["run", "pipeline", p0, "--wait", "--poll", "200ms"])
            .code,
        0
    );
    // The one model's grace: a run with its history's tasks counts after a
    // second without a new one (run --wait's was one 200 ms poll).
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let (code, line) = check(&sb, &["pipeline", p0, "--max-age", "25h,49h"]);
    assert_eq!(code, 0, "{line}");
    assert!(
        line.starts_with("OK - pipeline ") && line.contains("last run succeeded"),
        "{line}"
    );
    assert!(
        line.contains("| age=") && line.contains(";90000;176400"),
        "{line}"
    );
    let p1 = &sb.pipelines[1].0;
    let (code, line) = check(
        &sb,
        &[
            "pipeline",
            p1,
            "--max-failure-rate",
            "1,99",
            "--window",
            "30d",
        ],
    );
    let last_failed = line.contains("last run failed");
    assert_eq!(code, if last_failed { 2 } else { 1 }, "{line}");
    assert!(line.contains("failure_rate="), "{line}");
    // Every run takes longer than 2 ms: critical, without waiting on a clock.
    let (code, line) = check(&sb, &["pipeline", p0, "--max-duration", "1ms,2ms"]);
    assert_eq!(code, 2, "{line}");
    assert!(line.starts_with("CRITICAL - "), "{line}");
    let (code, line) = check(&sb, &["pipeline", p0, "--max-age", "49h,25h"]);
    assert_eq!(code, 3, "{line}");
    assert!(line.starts_with("UNKNOWN - "), "{line}");
    let o = ylem(
        &["check", "task", p0],
        &[
            ("YLEM_BASE_URL", "http://127.0.0.1:9"),
            ("YLEM_TOKEN", TOKEN),
        ],
    );
    assert_eq!(o.code, 3);
    assert!(o.stdout.starts_with("UNKNOWN - "), "{}", o.stdout);
}

#[test]
fn chart_fits_two_widths_with_and_without_colour() {
    let sb = start("spec");
    let p0 = &sb.pipelines[0].0;
    for width in ["60", "120"] {
        let o = sb.run_with(
            &[
                "aggregate",
                "pipeline",
                p0,
                "--chart",
                "--period",
                "week",
                "--count",
                "6",
            ],
            &[("COLUMNS", width)],
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        let w: usize = width.parse().unwrap();
        let lines: Vec<&str> = o.stdout.lines().collect();
        assert_eq!(lines.len(), 7, "a legend and six weeks:\n{}", o.stdout);
        for l in &lines[1..] {
            assert!(l.chars().count() <= w, "wider than {w}: {l}");
            assert!(
                l.contains('#') && l.contains(" ok ") && l.contains(" avg "),
                "{l}"
            );
        }
        assert!(!o.stdout.contains('\x1b'), "no colour in a pipe");
    }
    let o = sb.run(&["aggregate", "pipeline", p0, "--chart", "--color", "always"]);
    assert!(o.stdout.contains("\x1b[32m"), "colour when asked");
    let o = sb.run_with(
        &["aggregate", "pipeline", p0, "--chart"],
        &[("NO_COLOR", "1")],
    );
    assert!(!o.stdout.contains('\x1b'));
    assert_eq!(
        sb.run(&["aggregate", "pipeline", p0, "--chart", "-o", "json"])
            .code,
        2
    );
}

#[test]
fn decode_and_decrypt_outputs() {
    let sb = start("spec");
    let p0 = &sb.pipelines[0].0;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, &sb.key).unwrap();
    let k = key.to_str().unwrap();
    let o = sb.run(&[
        "logs",
        p0,
        "--since",
        "3d",
        "--decrypt-key-file",
        k,
        "-o",
        "jsonl",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        rows.iter().all(|r| r["decode_error"].is_null()),
        "every output decrypts"
    );
    assert!(
        rows.iter().any(|r| r["output"].is_object()),
        "JSON outputs are embedded as JSON"
    );
    // A wrong key: an error per entry, no crash, exit 0 with a warning.
    std::fs::write(&key, "00".repeat(32)).unwrap();
    let o = sb.run(&[
        "logs",
        p0,
        "--since",
        "3d",
        "--decrypt-key-file",
        k,
        "-o",
        "csv",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("wrong key"));
    assert!(o.stderr.contains("could not be decoded"));
    std::fs::write(&key, "not a key").unwrap();
    assert_eq!(sb.run(&["logs", p0, "--decrypt-key-file", k]).code, 2);
    // The ylem dialect sends plain Base64: --decode alone reads it.
    let sb = start("ylem");
    let o = sb.run(&["logs", &sb.pipelines[0].0, "--since", "3d", "--decode"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // JSON on one line in the table (never a literal `\n`); a failed
    // task's errors array a message a line.
    assert!(
        o.stdout.contains("\"status\":") && !o.stdout.contains("\\n"),
        "one-line JSON in the table: {}",
        o.stdout
    );
}

#[test]
fn aliases_work_across_commands() {
    let sb = start("spec");
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().to_str().unwrap();
    let env = [("YLEM_CONFIG_DIR", cfg)];
    let p0 = &sb.pipelines[0].0;
    assert_eq!(
        sb.run_with(&["alias", "set", "orders", &p0.to_uppercase()], &env)
            .code,
        0
    );
    let v: Value =
        serde_json::from_str(&sb.run_with(&["alias", "list", "-o", "json"], &env).stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!([{"name": "orders", "uuid": p0, "kind": null}])
    );
    for args in [
        vec!["last-run", "pipeline", "orders"],
        vec!["stats", "pipeline", "orders", p0],
        vec!["logs", "orders", "--since", "1h"],
        vec!["aggregate", "pipeline", "orders"],
        vec!["check", "pipeline", "orders"],
    ] {
        let o = sb.run_with(&args, &env);
        assert!(o.code == 0 || args[0] == "check", "{args:?}: {}", o.stderr);
    }
    assert_eq!(sb.run_with(&["alias", "set", "bad name", p0], &env).code, 2);
    assert_eq!(
        sb.run_with(&["alias", "set", "x", "not-a-uuid"], &env).code,
        2
    );
    assert_eq!(sb.run_with(&["alias", "remove", "orders"], &env).code, 0);
    let o = sb.run_with(&["last-run", "pipeline", "orders"], &env);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("no alias of that name"), "{}", o.stderr);
    assert_eq!(sb.run_with(&["alias", "remove", "orders"], &env).code, 2);
}

#[test]
fn parallel_alias_sets_keep_every_alias() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().to_str().unwrap().to_string();
    let handles: Vec<_> = (0..32)
        .map(|i| {
            let cfg = cfg.clone();
            std::thread::spawn(move || {
                let name = format!("a{i}");
                let id = format!("00000000-0000-4000-8000-{i:012}");
                ylem(&["alias", "set", &name, &id], &[("YLEM_CONFIG_DIR", &cfg)]).code
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 0);
    }
    let o = ylem(&["alias", "list", "--names"], &[("YLEM_CONFIG_DIR", &cfg)]);
    assert_eq!(o.stdout.lines().count(), 32, "{}", o.stdout);
    let mut sc = common::report::Scenario::new(
        "parallel-alias-set",
        "file",
        "32 parallel alias set calls leave a valid config with all 32 (tests/it/operator.rs)",
    );
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}

/// The case that used to lie: tasks seconds apart, polled every 300 ms.
/// One quiet poll used to count as the end (and the spec's start response,
/// listing only the initial task, as the task total), so the run was
/// `succeeded` after its first task. Now the pipeline's history says it
/// has four tasks, and the wait ends on all four, a poll after the last.
#[test]
fn a_run_with_long_gaps_is_not_succeeded_after_its_first_task() {
    for dialect in ["spec", "ylem"] {
        let sb = start_with(dialect, &["--task-delay", "700ms"]);
        let (p0, _) = &sb.pipelines[0];
        let o = sb.run(&[
            "run", "pipeline", p0, "--wait", "--poll", "300ms", "-o", "json",
        ]);
        assert_eq!(o.code, 0, "{dialect}: {}", o.stderr);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        let v = if v.is_array() { v[0].clone() } else { v };
        let run = v["workflow_run_uuid"].as_str().unwrap();
        let truth = sb.truth(run);
        assert_eq!(
            truth["finished"], true,
            "{dialect}: said succeeded early: {v}"
        );
        assert_eq!(v["tasks_done"], truth["tasks"], "{dialect}: {v}");
        assert_eq!(v["completion"], "history", "{dialect}: {v}");
    }
}
