//! Black-box tests of every endpoint: the built binary against a recording
//! fault server on loopback, checking the exact requests and the output
//! in every format.

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
    // The first ID answers last: the output must still start with it.
    s.on(route()
        .path_like(format!("*{P1}*"))
        .after(std::time::Duration::from_millis(400))
        .answer(ok_json(STATS)));
    s.on(route().path_like(format!("*{P2}*")).answer(ok_json(NEVER)));
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

const LOG: &str = r#"[
 {"pipeline_run_uuid":"11111111-1111-4111-8111-111111111111","task_uuid":"aaaaaaaa-0000-4000-8000-000000000001","task_type":"query","is_successful":true,"duration":120,"output":"eyJyb3dzIjoxfQ==","metric_value":1.5,"executed_at":"2024-01-13T18:36:58.123456Z"},
 {"pipeline_run_uuid":"11111111-1111-4111-8111-111111111111","task_uuid":"aaaaaaaa-0000-4000-8000-000000000002","task_type":"notification","is_successful":false,"duration":80,"output":"","metric_value":0,"executed_at":"2024-01-13T18:36:59Z"},
 {"pipeline_run_uuid":"22222222-2222-4222-8222-222222222222","task_uuid":"aaaaaaaa-0000-4000-8000-000000000001","task_type":"query","is_successful":true,"duration":130,"output":"","metric_value":2,"executed_at":"2024-01-14T18:36:58Z"}
]"#;

#[test]
fn logs_in_every_format_with_filters() {
    let s = server();
    s.on(route()
        .method("GET")
        .path(format!(
            "/v1/stats/pipelines/{P1}/logs/2024-01-13%2000:00:00/2024-01-14%2023:59:59"
        ))
        .answer(ok_json(LOG)));
    let env = token_env(&s.base());
    let w = ["--from", "2024-01-13", "--to", "2024-01-14"];
    let args = |extra: &[&'static str]| -> Vec<&str> {
        let mut v = vec!["logs", P1];
        v.extend_from_slice(&w);
        v.extend_from_slice(extra);
        v
    };
    let o = run_env(&args(&["-o", "json"]), &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
    assert_eq!(
        v[0]["workflow_run_uuid"],
        "11111111-1111-4111-8111-111111111111"
    );
    assert_eq!(v[0]["metric_value"], 1.5);
    assert_eq!(v[0]["executed_at"], "2024-01-13T18:36:58.123456Z");
    let o = run_env(&args(&["-o", "jsonl", "--failed"]), &env);
    assert_eq!(o.stdout.lines().count(), 1);
    assert!(o.stdout.contains("notification"));
    let o = run_env(
        &args(&["-o", "csv", "--run", "22222222-2222-4222-8222-222222222222"]),
        &env,
    );
    assert_eq!(o.stdout.lines().count(), 2, "{}", o.stdout);
    assert!(o.stdout.starts_with("workflow_run_uuid,task_uuid,task_type,is_successful,duration,output,metric_value,executed_at\n"));
    let o = run_env(&args(&[]), &env);
    assert!(
        o.stdout.contains("failed") && o.stdout.contains("120ms"),
        "{}",
        o.stdout
    );
    assert_eq!(o.stdout.lines().count(), 4);
    let r = requests(&s).pop().unwrap();
    assert_eq!(
        target(&r),
        format!("/v1/stats/pipelines/{P1}/logs/2024-01-13%2000:00:00/2024-01-14%2023:59:59")
    );
}

#[test]
fn empty_log_is_a_note_and_success() {
    let s = server();
    s.on(route().path_like("*/logs/*").answer(ok_json("[]")));
    let o = run_env(&["logs", P1, "--since", "1h"], &token_env(&s.base()));
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, "");
    assert!(o.stderr.contains("no log entries"));
    let o = run_env(
        &["logs", P1, "--since", "1h", "-o", "json"],
        &token_env(&s.base()),
    );
    assert_eq!(o.stdout.trim(), "[]");
}

#[test]
fn run_start_both_shapes_trailing_slash_post() {
    let s = server();
    let records = r#"[{"id":1,"state":"pending","task_uuid":"aaaaaaaa-0000-4000-8000-000000000001","task_run_uuid":"bbbbbbbb-0000-4000-8000-000000000001","workflow_run_uuid":"cccccccc-0000-4000-8000-000000000001","is_successful":false,"output":null,"errors":null,"created_at":"","updated_at":""}]"#;
    s.on(route()
        .method("POST")
        .path(format!("/v1/pipelines/{P1}/runs/"))
        .answer(ok_json(records)));
    s.on(route()
        .method("POST")
        .path(format!("/v1/workflows/{P2}/runs/"))
        .answer(faultserver::json(
            201,
            r#"{"pipeline_run_uuid":"dddddddd-0000-4000-8000-000000000001"}"#,
        )));
    let env = token_env(&s.base());
    let o = run_env(&["run", "pipeline", P1, "-o", "json"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["records"][0]["state"], "pending");
    assert_eq!(v["run_uuid"], "cccccccc-0000-4000-8000-000000000001");
    assert_eq!(
        v["records"][0]["workflow_run_uuid"],
        "cccccccc-0000-4000-8000-000000000001"
    );
    let o = run_env(
        &[
            "run",
            "workflow",
            P2,
            "-o",
            "json",
            "--fields",
            "run_uuid,records",
        ],
        &env,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    // The object answer has no records: `null`, the key kept.
    assert_eq!(
        v,
        json!({"run_uuid": "dddddddd-0000-4000-8000-000000000001", "records": null})
    );
    // Other formats: one row per start, whatever the answer's shape.
    let o = run_env(&["run", "workflow", P2, "-o", "jsonl"], &env);
    assert_eq!(
        o.stdout.trim(),
        format!(
            r#"{{"uuid":"{P2}","run_uuid":"dddddddd-0000-4000-8000-000000000001","outcome":"started","records":null}}"#
        )
    );
    let o = run_env(
        &["run", "pipeline", P1, "-o", "json", "--fields", "records"],
        &env,
    );
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["records"][0]["state"], "pending");
    assert_eq!(
        v["records"][0]["task_uuid"],
        "aaaaaaaa-0000-4000-8000-000000000001"
    );
    let o = run_env(&["run", "pipeline", P1], &env);
    assert!(
        o.stdout.contains("started") && o.stdout.contains("cccccccc-0000-4000-8000-000000000001"),
        "{}",
        o.stdout
    );
    let r = requests(&s);
    assert!(r.iter().all(|r| r.method == "POST" && r.body.is_empty()));
    assert_eq!(r.len(), 5);
}

#[test]
fn client_credentials_fetch_one_token_for_many_requests() {
    let s = server();
    let token = s.on(route()
        .method("POST")
        .path("/v1/oauth/token")
        .body_has("grant_type=client_credentials")
        .body_has(format!("client_id={CLIENT_ID}"))
        .body_has(format!("client_secret={SECRET}"))
        .answer(ok_json(&format!(
            r#"{{"access_token":"{TOKEN}","expires_in":86400,"refresh_token":"{REFRESH}","scope":"workflows:run","token_type":"Bearer"}}"#
        ))));
    s.on(route()
        .path_like("*/stats/*")
        .header("authorization", format!("Bearer {TOKEN}"))
        .answer(ok_json(STATS)));
    let env = vec![
        ("YLEM_BASE_URL", format!("{}/", s.base())),
        ("YLEM_CLIENT_ID", CLIENT_ID.to_string()),
        ("YLEM_CLIENT_SECRET", SECRET.to_string()),
    ];
    let o = run_env(&["stats", "task", P1, P2, "-vv", "-o", "json"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for secret in [SECRET, TOKEN, REFRESH] {
        assert!(!o.all().contains(secret), "secret leaked: {}", o.all());
    }
    assert!(o.stderr.contains("client_secret=***"), "{}", o.stderr);
    let r = requests(&s);
    let token_req = &r[0];
    // The parameters in a form body, none in the URL.
    assert!(!token_req.path.contains('?'), "{}", token_req.path);
    assert_eq!(
        token_req.header("content-type").unwrap(),
        "application/x-www-form-urlencoded"
    );
    assert!(token_req.header("authorization").is_none());
    assert!(r.iter().all(|r| !r.path_only().contains("//")));
    assert_eq!(token.get(), 1, "one token request, for every request");
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
