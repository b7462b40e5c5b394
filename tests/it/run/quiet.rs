//! A run that has been quiet for a while is not finished when its history
//! says a task of it takes longer: a pipeline whose runs are t1, a
//! 20-minute query t2, then t3, with its current run's t1 ended 12 minutes
//! ago. The last run is judged by the other runs' history (never by itself
//! alone in a narrow window), so `last-run` says running and `check`
//! judges the run before it, adding that one is in progress.

use chrono::{DateTime, Duration as Span, Utc};

use crate::common::faultserver::*;
use crate::common::{Out, P1, run_env, token_env};

fn client_env_run(base: &str, args: &[&str]) -> Out {
    run_env(args, &token_env(base))
}

const T: [&str; 3] = [
    "aaaaaaaa-0000-4000-8000-000000000001",
    "aaaaaaaa-0000-4000-8000-000000000002",
    "aaaaaaaa-0000-4000-8000-000000000003",
];
const CURRENT: &str = "cccccccc-0000-4000-8000-000000000001";

struct Entry {
    run: String,
    task: &'static str,
    end: DateTime<Utc>,
    ms: i64,
}

fn entries(now: DateTime<Utc>) -> Vec<Entry> {
    let mut v = Vec::new();
    for (k, ago) in [(1, 120), (2, 60)] {
        let run = format!("bbbbbbbb-0000-4000-8000-00000000000{k}");
        let s = now - Span::minutes(ago);
        for (task, end, ms) in [
            (T[0], s + Span::seconds(1), 1000),
            (T[1], s + Span::minutes(21), 1_200_000),
            (T[2], s + Span::minutes(21) + Span::seconds(1), 1000),
        ] {
            v.push(Entry {
                run: run.clone(),
                task,
                end,
                ms,
            });
        }
    }
    v.push(Entry {
        run: CURRENT.into(),
        task: T[0],
        end: now - Span::minutes(12),
        ms: 1000,
    });
    v
}

fn json_of(e: &Entry) -> String {
    format!(
        r#"{{"workflow_run_uuid":"{}","task_uuid":"{}","task_type":"query","is_successful":true,"duration":{},"output":"","executed_at":"{}"}}"#,
        e.run,
        e.task,
        e.ms,
        e.end.format("%Y-%m-%dT%H:%M:%S%.6fZ")
    )
}

/// The window of a stats or logs path: its last two segments.
fn window(path: &str) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let mut seg = path.rsplit('/');
    let parse = |s: &str| {
        let s = s.replace("%20", " ");
        chrono::NaiveDateTime::parse_from_str(&s[..19.min(s.len())], "%Y-%m-%d %H:%M:%S")
            .ok()
            .map(|t| t.and_utc())
    };
    let to = parse(seg.next()?)?;
    let from = parse(seg.next()?)?;
    Some((from, to))
}

/// The server as the real one answers: the last run is the latest task
/// row; the log holds every entry of each run with one in the window,
/// newest first.
fn server(now: DateTime<Utc>) -> FaultServer {
    with_token(move |r, _| {
        let all = entries(now);
        let last = all.iter().max_by_key(|e| e.end).unwrap();
        if r.path.contains("/last-run/") {
            let sum: i64 = all.iter().filter(|e| e.run == last.run).map(|e| e.ms).sum();
            let body = format!(
                r#"{{"is_successful":true,"executed_at":"{}","duration":{sum}}}"#,
                last.end.format("%Y-%m-%d %H:%M:%S")
            );
            return Action::Raw(json(200, &body));
        }
        let Some((from, to)) = window(&r.path) else {
            return Action::Raw(json(404, "{}"));
        };
        let second = |t: DateTime<Utc>| t - Span::nanoseconds(t.timestamp_subsec_nanos().into());
        let runs: Vec<&str> = all
            .iter()
            .filter(|e| from <= second(e.end) && second(e.end) <= to)
            .map(|e| e.run.as_str())
            .collect();
        if r.path.contains("/logs/") {
            let mut out: Vec<&Entry> = all
                .iter()
                .filter(|e| runs.contains(&e.run.as_str()))
                .collect();
            out.sort_by_key(|e| std::cmp::Reverse(e.end));
            let body: Vec<String> = out.iter().map(|e| json_of(e)).collect();
            return Action::Raw(json(200, &format!("[{}]", body.join(","))));
        }
        Action::Raw(json(200, STATS))
    })
}

#[test]
fn a_run_waiting_on_its_long_task_is_running_not_succeeded() {
    let s = server(Utc::now());
    let o = client_env_run(&s.base(), &["last-run", "pipeline", P1, "-o", "json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["last_run"], "running", "{}", o.stdout);
    let o = client_env_run(
        &s.base(),
        &["last-run", "pipeline", P1, "--fail-on-failure"],
    );
    assert_eq!(o.code, 8, "no verdict to vouch for: {}", o.stderr);
    let o = client_env_run(&s.base(), &["check", "pipeline", P1]);
    assert!(o.stdout.contains("in progress"), "{}", o.stdout);
    assert!(
        !o.stdout.contains("12m"),
        "the running run is not judged: {}",
        o.stdout
    );
}

#[test]
fn a_duration_no_time_can_hold_is_no_panic() {
    // 9e18 ms: a start before any time there is. Shown as sent, never a
    // crash (check's exit 1 would read as WARNING to a monitoring system).
    let s = with_token(|r, _| {
        let last = r#"{"is_successful":true,"executed_at":"2024-01-13 18:36:58","duration":9000000000000000000}"#;
        if r.path.contains("/last-run/") {
            Action::Raw(json(200, last))
        } else if r.path.contains("/logs/") {
            let e = r#"[{"workflow_run_uuid":"9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a","task_uuid":"1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c01","task_type":"query","is_successful":true,"duration":9000000000000000000,"output":"","executed_at":"2024-01-13T18:36:58.123Z"}]"#;
            Action::Raw(json(200, e))
        } else {
            Action::Raw(json(200, STATS))
        }
    });
    for kind in ["task", "pipeline"] {
        let o = client_env_run(&s.base(), &["last-run", kind, P1]);
        assert_eq!(o.code, 0, "{kind}: {}", o.stderr);
        let o = client_env_run(&s.base(), &["check", kind, P1]);
        assert!(
            o.code != 1 && o.stdout.lines().count() == 1,
            "{kind}: {} {}",
            o.stdout,
            o.stderr
        );
    }
}

#[test]
fn runs_over_a_window_that_holds_only_the_run_learn_history_beyond_it() {
    // `--since 13m` holds the current run alone: without history it would
    // count as finished after the default settle time (10 minutes quiet).
    let s = server(Utc::now());
    let o = client_env_run(&s.base(), &["runs", P1, "--since", "13m", "-o", "json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v[0]["run_uuid"], CURRENT, "{}", o.stdout);
    assert_eq!(v[0]["result"], "running", "{}", o.stdout);
    let args = [
        "runs",
        P1,
        "--run",
        CURRENT,
        "--since",
        "13m",
        "--exit-status",
    ];
    let o = client_env_run(&s.base(), &args);
    assert_eq!(o.code, 8, "not finished: {} {}", o.stdout, o.stderr);
    // A listing asks its window's log and, the first time, each run's basis
    // (issue 42: never the window's own history); kept, the log alone.
    let dir = std::env::temp_dir().join(format!("ylemctl-quiet-{}", std::process::id()));
    let mut env = token_env(&s.base());
    env.push(("YLEM_CONFIG_DIR", dir.to_str().unwrap().to_string()));
    let before = s.api().len();
    let o = run_env(&["runs", P1, "--since", "1d"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(s.api().len(), before + 1 + 3, "the log and three bases");
    let before = s.api().len();
    let o = run_env(&["runs", P1, "--since", "1d"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(s.api().len(), before + 1, "one log request");
    let _ = std::fs::remove_dir_all(dir);
}
