//! `run --wait` against a `ylemctl sandbox` process: a run that succeeds,
//! fails or outlasts `--wait-timeout` (and `last-run --fail-on-failure`
//! after it), the object-form start that learns its task count from
//! history, workflows and several runs at once, and a run with long gaps
//! between its tasks.

use crate::common;

use common::sandbox::start_with;
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
