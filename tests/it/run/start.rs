//! `run pipeline|workflow` against a recording fault server: both answer
//! shapes (the records array and the `{"pipeline_run_uuid"}` object), in
//! every format, each start a POST with no body to the trailing-slash path.

use crate::common;

use common::faultserver::{self, FaultServer, route};
use common::*;
use serde_json::{Value, json};

#[test]
fn run_start_both_shapes_trailing_slash_post() {
    let s = FaultServer::routed();
    let records = r#"[{"id":1,"state":"pending","task_uuid":"aaaaaaaa-0000-4000-8000-000000000001","task_run_uuid":"bbbbbbbb-0000-4000-8000-000000000001","workflow_run_uuid":"cccccccc-0000-4000-8000-000000000001","is_successful":false,"output":null,"errors":null,"created_at":"","updated_at":""}]"#;
    s.on(route()
        .method("POST")
        .path(format!("/v1/pipelines/{P1}/runs/"))
        .answer(faultserver::json(200, records)));
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
    let r = s.seen();
    assert!(r.iter().all(|r| r.method == "POST" && r.body.is_empty()));
    assert_eq!(r.len(), 5);
}
