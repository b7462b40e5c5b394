//! `stats`, `last-run` and `aggregate` against a recording fault server on
//! loopback: the exact requests and the output in every format, several
//! IDs in the order given, never ran, a last run's 403 told apart.

use crate::common;

use common::faultserver::{self, FaultServer, Seen, route};
use common::*;
use serde_json::{Value, json};

const STATS: &str = r#"{"num_of_successes":12,"num_of_failures":3,"average_duration":1534,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1200}"#;
const NEVER: &str = r#"{"num_of_successes":0,"num_of_failures":0,"average_duration":0,"is_last_run_successful":false,"last_run_executed_at":"0001-01-01 00:00:00","last_run_duration":0}"#;

fn server() -> FaultServer {
    FaultServer::routed()
}

fn ok_json(body: &str) -> Vec<u8> {
    faultserver::json(200, body)
}

fn requests(s: &FaultServer) -> Vec<Seen> {
    s.seen()
}

/// The raw request target (path and query) exactly as sent.
fn target(r: &Seen) -> String {
    r.path.clone()
}

#[test]
fn range_stats_for_each_kind_exact_path_and_header() {
    let s = server();
    s.on(route()
        .method("GET")
        .path_like("/v1/stats/*/stats/*")
        .answer(ok_json(STATS)));
    let env = token_env(&s.base());
    for (kind, seg) in [
        ("task", "tasks"),
        ("pipeline", "pipelines"),
        ("workflow", "workflows"),
    ] {
        let o = run_env(
            &[
                "stats",
                kind,
                &P1.to_uppercase(),
                "--from",
                "2024-01-01",
                "--to",
                "2024-01-31",
                "-o",
                "json",
            ],
            &env,
        );
        assert_eq!(o.code, 0, "{}", o.stderr);
        let v: Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(v["num_of_successes"], 12);
        assert_eq!(v["average_duration"], 1534);
        assert_eq!(v["last_run_executed_at"], "2024-01-13T18:36:58Z");
        let r = requests(&s).pop().unwrap();
        assert_eq!(r.method, "GET");
        assert_eq!(
            target(&r),
            format!("/v1/stats/{seg}/{P1}/stats/2024-01-01%2000:00:00/2024-01-31%2023:59:59")
        );
        assert_eq!(
            r.header("authorization").unwrap(),
            format!("Bearer {TOKEN}")
        );
        assert!(r.body.is_empty());
    }
}

#[test]
fn range_stats_in_every_format() {
    let s = server();
    s.on(route().path_like("*/stats/*").answer(ok_json(STATS)));
    let env = token_env(&s.base());
    let o = run_env(&["stats", "pipeline", P1], &env);
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.contains("num_of_successes")
            && o.stdout.contains("1.5s")
            && o.stdout.contains("ok"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("2024-01-13 18:36:58"));
    let o = run_env(&["stats", "pipeline", P1, "-o", "jsonl"], &env);
    assert_eq!(o.stdout.lines().count(), 1);
    serde_json::from_str::<Value>(o.stdout.trim()).unwrap();
    let o = run_env(&["stats", "pipeline", P1, "-o", "csv"], &env);
    assert_eq!(
        o.stdout,
        "num_of_successes,num_of_failures,average_duration,is_last_run_successful,last_run_executed_at,last_run_duration\n12,3,1534,true,2024-01-13T18:36:58Z,1200\n"
    );
    let o = run_env(
        &[
            "stats",
            "pipeline",
            P1,
            "-o",
            "csv",
            "--no-header",
            "--fields",
            "num_of_failures,num_of_successes",
        ],
        &env,
    );
    assert_eq!(o.stdout, "3,12\n");
}

#[test]
fn several_ids_concurrently_in_the_order_given() {
    let s = server();
    // The first ID answers last, once the second's request has come (the
    // nth answer of P1 waits for the nth request of P2, 10 s at most): the
    // output must still start with it.
    let p2 = s.on(route().path_like(format!("*{P2}*")).answer(ok_json(NEVER)));
    let p1 = std::sync::atomic::AtomicUsize::new(0);
    s.on(route().path_like(format!("*{P1}*")).answer_with(move |_| {
        let n = p1.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        let limit = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while p2.get() < n && std::time::Instant::now() < limit {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        faultserver::Action::Raw(ok_json(STATS))
    }));
    let env = token_env(&s.base());
    let o = run_env(&["stats", "pipeline", P1, P2, "-o", "json"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v[0]["uuid"], P1);
    assert_eq!(v[1]["uuid"], P2);
    // Never ran: null in JSON, every last-run field.
    for k in [
        "last_run_executed_at",
        "is_last_run_successful",
        "last_run_duration",
    ] {
        assert_eq!(v[1][k], Value::Null, "{k}");
    }
    let o = run_env(&["stats", "pipeline", P1, P2, "-o", "csv"], &env);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(lines[0].starts_with("uuid,"));
    assert!(lines[1].starts_with(P1) && lines[2].starts_with(P2));
    // Never ran: the last run's fields are empty, not a `false` that never happened.
    assert!(
        lines[2].ends_with(",0,0,0,,,,,"),
        "never ran is empty in CSV: {}",
        lines[2]
    );
    let o = run_env(&["stats", "pipeline", P1, P2], &env);
    assert!(o.stdout.contains("never"));
    assert!(
        o.stderr
            .contains(&format!("{P2}: no run ever; the ID may be unknown")),
        "{}",
        o.stderr
    );
}

#[test]
fn last_run_for_each_kind_and_never_ran() {
    let s = server();
    let body = r#"{"is_successful":false,"executed_at":"2024-02-01 10:00:00","duration":900}"#;
    for kind in ["tasks", "pipelines", "workflows"] {
        s.on(route()
            .method("GET")
            .path(format!("/v1/stats/{kind}/{P1}/last-run/stats"))
            .answer(ok_json(body)));
    }
    // The pipeline's confirmation: its log over the run's window, here
    // without the run (a log that lags its statistics).
    s.on(route()
        .method("GET")
        .path_like(format!("/v1/stats/pipelines/{P1}/logs/*"))
        .answer(ok_json("[]")));
    // The open-source server: 403 with a statistics error body means never
    // ran, unknown, other kind or another organisation's; range statistics
    // up to now ("never" here) tell which it can.
    s.on(route()
        .path(format!("/v1/stats/pipelines/{P2}/last-run/stats"))
        .answer(faultserver::json(
            403,
            r#"{"code":403,"message":"Forbidden","errors":[]}"#,
        )));
    s.on(route()
        .path_like(format!("/v1/stats/pipelines/{P2}/stats/*"))
        .answer(ok_json(
            r#"{"num_of_successes":0,"num_of_failures":0,"average_duration":0,"is_last_run_successful":false,"last_run_executed_at":"0001-01-01 00:00:00","last_run_duration":0}"#,
        )));
    let env = token_env(&s.base());
    for kind in ["task", "pipeline", "workflow"] {
        let o = run_env(&["last-run", kind, P1, "-o", "json"], &env);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let mut v: Value = serde_json::from_str(&o.stdout).unwrap();
        // A failed last run carries its failure; no log here says why.
        let fields = v.as_object_mut().unwrap();
        for k in ["failed_task", "failed_task_type", "failed_tasks"] {
            assert_eq!(fields.remove(k), Some(Value::Null), "{kind} {k}");
        }
        let why = fields.remove("failure").unwrap();
        assert!(
            why.as_str().unwrap().starts_with("reason "),
            "{kind}: {why}"
        );
        // What the model adds: how it knows, and no run or task count
        // where statistics name none.
        assert!(fields.remove("evidence").unwrap().is_string(), "{kind}");
        assert_eq!(fields.remove("run_uuid"), Some(Value::Null), "{kind}");
        assert_eq!(fields.remove("tasks"), Some(Value::Null), "{kind}");
        let elapsed = fields.remove("elapsed").unwrap();
        assert!(elapsed == 900 || elapsed.is_null(), "{kind}: {elapsed}");
        // The tool's own times; `executed_at` stays the server's.
        assert_eq!(
            fields.remove("ended"),
            Some(json!("2024-02-01T10:00:00Z")),
            "{kind}"
        );
        let started = fields.remove("started").unwrap();
        assert!(
            started.is_null() || started.is_string(),
            "{kind}: {started}"
        );
        assert_eq!(
            v,
            json!({"is_successful": false, "executed_at": "2024-02-01T10:00:00Z", "duration": 900, "last_run": "found"})
        );
    }
    let o = run_env(&["last-run", "pipeline", P1, P2, "-o", "jsonl"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let l: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        l[1],
        json!({"uuid": P2, "is_successful": null, "executed_at": null, "duration": null,
               "elapsed": null, "started": null, "ended": null, "tasks": null,
               "failed_task": null, "failed_task_type": null, "failure": null, "failed_tasks": null,
               "last_run": "not_found", "evidence": null, "run_uuid": null, "error": null})
    );
    // Said in words too, naming both readings; with --fail-on-failure there
    // is no run to vouch for: exit 4.
    let o = run_env(&["last-run", "pipeline", P2], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("never ran, or the service does not know this ID"),
        "{}",
        o.stderr
    );
    let o = run_env(&["last-run", "pipeline", P2, "--fail-on-failure"], &env);
    assert_eq!(o.code, 4, "{}", o.stderr);
    let o = run_env(&["last-run", "pipeline", P1, "-o", "csv"], &env);
    assert!(o.stdout.starts_with(
        "is_successful,executed_at,duration,elapsed,started,ended,tasks,failed_task,failed_task_type,failure,failed_tasks,last_run,evidence,run_uuid\n"
    ), "{}", o.stdout);
    let fields = "is_successful,executed_at,duration,last_run";
    let o = run_env(
        &["last-run", "pipeline", P1, "-o", "csv", "--fields", fields],
        &env,
    );
    assert_eq!(
        o.stdout,
        "is_successful,executed_at,duration,last_run\nfalse,2024-02-01T10:00:00Z,900,found\n"
    );
    let o = run_env(&["last-run", "pipeline", P1], &env);
    assert!(
        o.stdout.contains("failed") && o.stdout.contains("900ms"),
        "{}",
        o.stdout
    );
}

#[test]
fn aggregated_sorted_null_and_retry_with_a_time() {
    let s = server();
    let unsorted = r#"[{"date_from":"2024-03-01 00:00:00","date_to":"2024-03-31 23:59:59","num_of_successes":2,"num_of_failures":0,"average_duration":10},
                       {"date_from":"2024-01-01 00:00:00","date_to":"2024-01-31 23:59:59","num_of_successes":1,"num_of_failures":1,"average_duration":20}]"#;
    s.on(route()
        .method("GET")
        .path(format!(
            "/v1/stats/pipelines/{P1}/aggregated-stats/2024-01-01/month/3"
        ))
        .answer(ok_json(unsorted)));
    let env = token_env(&s.base());
    let o = run_env(
        &[
            "aggregate",
            "pipeline",
            P1,
            "--from",
            "2024-01-01",
            "--period",
            "month",
            "--count",
            "3",
            "-o",
            "json",
        ],
        &env,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    // Sorted, and the month the server left out shown as zeros, marked.
    assert_eq!(v[0]["date_from"], "2024-01-01T00:00:00Z");
    assert_eq!(v[1]["date_from"], "2024-02-01T00:00:00Z");
    assert_eq!(v[1]["filled"], true);
    assert_eq!(v[1]["num_of_successes"], 0);
    assert_eq!(v[2]["date_from"], "2024-03-01T00:00:00Z");
    assert_eq!(v[2]["filled"], false);

    // The real server: a bare date is a 400; the time form answers `null`.
    let s = server();
    s.on(route()
        .path(format!("/v1/stats/tasks/{P1}/aggregated-stats/2024-01-01/week/2"))
        .answer(faultserver::json(
            400,
            r#"{"code":400,"message":"Bad Request","errors":["parsing time \"2024-01-01\": cannot parse \"\" as \"15\""]}"#,
        )));
    s.on(route()
        .path(format!(
            "/v1/stats/tasks/{P1}/aggregated-stats/2024-01-01%2000:00:00/week/2"
        ))
        .answer(ok_json("null")));
    let env = token_env(&s.base());
    let o = run_env(
        &[
            "aggregate",
            "task",
            P1,
            "--from",
            "2024-01-01",
            "--period",
            "week",
            "--count",
            "2",
            "-o",
            "json",
        ],
        &env,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // `null`: both weeks empty, each shown as zeros.
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2, "{v}");
    assert!(v.as_array().unwrap().iter().all(|b| b["filled"] == true));
    let r = requests(&s);
    assert_eq!(r.len(), 2);
    assert_eq!(
        target(&r[1]),
        format!("/v1/stats/tasks/{P1}/aggregated-stats/2024-01-01%2000:00:00/week/2")
    );
}

/// Only the server's own words about a bare date bring the second request:
/// any other 400 is reported as it is.
#[test]
fn aggregated_other_bad_requests_are_not_asked_again() {
    let s = server();
    s.on(route()
        .path_like("*aggregated-stats*")
        .answer(faultserver::json(
            400,
            r#"{"code":400,"message":"Bad Request","errors":["count must be at most 100"]}"#,
        )));
    let env = token_env(&s.base());
    let o = run_env(&["aggregate", "task", P1, "--from", "2024-01-01"], &env);
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(
        o.stderr.contains("count must be at most 100"),
        "{}",
        o.stderr
    );
    assert_eq!(requests(&s).len(), 1);
}

#[test]
fn aggregated_defaults_to_the_last_seven_days() {
    let s = server();
    s.on(route()
        .path_like("*aggregated-stats*")
        .answer(ok_json("[]")));
    let o = run_env(
        &["aggregate", "workflow", P1, "-o", "csv"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "date_from,date_to,num_of_successes,num_of_failures,average_duration,filled"
    );
    assert_eq!(lines.len(), 8, "seven days, empty ones zero-filled");
    assert!(lines[1..].iter().all(|l| l.ends_with(",0,0,0,true")));
    let from = (chrono::Utc::now() - chrono::Duration::days(6))
        .format("%Y-%m-%d")
        .to_string();
    let r = requests(&s).pop().unwrap();
    assert_eq!(
        target(&r),
        format!("/v1/stats/workflows/{P1}/aggregated-stats/{from}/day/7")
    );
}

/// Last-run's 403 told apart by one range-statistics request: a last run
/// there is shown (exit 0); a 403 there too is an access error (exit 3),
/// also under --fail-on-failure; nothing is ever "never ran" silently.
#[test]
fn a_last_run_403_is_told_apart_by_range_statistics() {
    let s = server();
    let forbidden = || faultserver::json(403, r#"{"code":403,"message":"Forbidden"}"#);
    s.on(route().path_like("*/last-run/stats").answer(forbidden()));
    // P1: the last-run query failed, but range statistics know its last run.
    s.on(route()
        .path_like(format!("/v1/stats/pipelines/{P1}/stats/*"))
        .answer(ok_json(
            r#"{"num_of_successes":0,"num_of_failures":0,"average_duration":0,"is_last_run_successful":true,"last_run_executed_at":"2024-02-01 10:00:00","last_run_duration":1200}"#,
        )));
    // Those statistics' window held no row (zeros): the server checked no
    // organisation, so the run is confirmed from the log over its time.
    s.on(route()
        .path_like(format!("/v1/stats/pipelines/{P1}/logs/*"))
        .answer(ok_json(
            r#"[{"workflow_run_uuid":"60b04f58-0000-4000-8000-000000000001","task_uuid":"d29fdd6c-4a5b-466f-bcac-c82e7015a133","task_type":"query","is_successful":true,"duration":1200,"output":"","executed_at":"2024-02-01T10:00:00Z"}]"#,
        )));
    // P2: another organisation's pipeline with runs: 403 there too.
    s.on(route()
        .path_like(format!("/v1/stats/pipelines/{P2}/stats/*"))
        .answer(forbidden()));
    let env = token_env(&s.base());
    let o = run_env(&["last-run", "pipeline", P1, "-o", "json"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["executed_at"], "2024-02-01T10:00:00Z");
    assert_eq!(v["last_run"], "found");
    for extra in [&[][..], &["--fail-on-failure"][..]] {
        let mut a = vec!["last-run", "pipeline", P2];
        a.extend_from_slice(extra);
        let o = run_env(&a, &env);
        assert_eq!(o.code, 3, "{}", o.stderr);
        assert!(o.stderr.contains("another organisation"), "{}", o.stderr);
    }
    // The range request asks up to now: one request each, after last-run.
    let paths: Vec<String> = s
        .seen()
        .iter()
        .map(|r| r.path_only().to_string())
        .filter(|p| p.contains("/stats/pipelines/"))
        .collect();
    // P1: last-run, statistics, its log, its basis (the 3 days before its
    // day, kept after: issue 42); P2 twice: last-run, statistics.
    assert_eq!(paths.len(), 8, "{paths:?}");
}
