//! `logs` against a recording fault server and the sandbox: every format
//! with `--failed` and `--run`, the exact request, and an empty log said
//! as a note (naming the window and how to widen it) with exit 0.

use crate::common;

use common::faultserver::{self, FaultServer, route};
use common::sandbox;
use common::*;
use serde_json::Value;

#[test]
fn an_empty_log_of_one_run_names_the_window_and_how_to_widen_it() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let run = "0b6c2d3e-4f50-4a1b-8c2d-3e4f5a6b7c8d";
    let o = s.run(&["logs", p, "--run", run]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("UTC"), "{}", o.stderr);
    assert!(o.stderr.contains("--since"), "{}", o.stderr);
    assert!(o.stderr.contains("last 24 hours"), "{}", o.stderr);
}

const LOG: &str = r#"[
 {"pipeline_run_uuid":"11111111-1111-4111-8111-111111111111","task_uuid":"aaaaaaaa-0000-4000-8000-000000000001","task_type":"query","is_successful":true,"duration":120,"output":"eyJyb3dzIjoxfQ==","metric_value":1.5,"executed_at":"2024-01-13T18:36:58.123456Z"},
 {"pipeline_run_uuid":"11111111-1111-4111-8111-111111111111","task_uuid":"aaaaaaaa-0000-4000-8000-000000000002","task_type":"notification","is_successful":false,"duration":80,"output":"","metric_value":0,"executed_at":"2024-01-13T18:36:59Z"},
 {"pipeline_run_uuid":"22222222-2222-4222-8222-222222222222","task_uuid":"aaaaaaaa-0000-4000-8000-000000000001","task_type":"query","is_successful":true,"duration":130,"output":"","metric_value":2,"executed_at":"2024-01-14T18:36:58Z"}
]"#;

#[test]
fn logs_in_every_format_with_filters() {
    let s = FaultServer::routed();
    s.on(route()
        .method("GET")
        .path(format!(
            "/v1/stats/pipelines/{P1}/logs/2024-01-13%2000:00:00/2024-01-14%2023:59:59"
        ))
        .answer(faultserver::json(200, LOG)));
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
    let r = s.seen().pop().unwrap();
    assert_eq!(
        r.path.clone(),
        format!("/v1/stats/pipelines/{P1}/logs/2024-01-13%2000:00:00/2024-01-14%2023:59:59")
    );
}

#[test]
fn empty_log_is_a_note_and_success() {
    let s = FaultServer::routed();
    s.on(route()
        .path_like("*/logs/*")
        .answer(faultserver::json(200, "[]")));
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
