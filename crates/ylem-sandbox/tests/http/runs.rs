//! Run start and the simulated execution of started runs.

use super::*;

#[tokio::test]
async fn spec_run_start_and_execution() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let tasks = &sb.run.pipelines[0].tasks;
    let r = sb
        .post(&format!("/v1/pipelines/{}/runs/", sb.pipeline(0)), &token)
        .await;
    assert!(r.status == 200 || r.status == 201);
    let records = r.json();
    let records = records.as_array().unwrap();
    // The documented start response lists the initial tasks only.
    assert_eq!(records.len(), 1);
    for (rec, task) in records.iter().zip(tasks) {
        assert!(rec["id"].is_u64() && rec["state"] == "pending" && rec["is_successful"] == false);
        assert!(rec["output"].is_null() && rec["errors"].is_null());
        assert_eq!(rec["task_uuid"], task.uuid.to_string());
        assert!(is_uuid(&rec["task_run_uuid"]) && is_uuid(&rec["workflow_run_uuid"]));
        assert!(rec["created_at"].is_string() && rec["updated_at"].is_string());
    }
    let run = records[0]["workflow_run_uuid"].as_str().unwrap();
    // The first pipeline is a straight chain: every task reports.
    let entries = wait_for_run(&sb, &token, "workflow_run_uuid", run, tasks.len()).await;
    assert!(
        entries.iter().all(|e| e["is_successful"] == true),
        "the first pipeline is reliable"
    );
    let last = sb
        .getj(
            &format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(0)),
            &token,
        )
        .await;
    assert_eq!(last["is_successful"], true);
    let sum: u64 = entries
        .iter()
        .map(|e| e["duration"].as_u64().unwrap())
        .sum();
    assert_eq!(last["duration"], sum);
    sb.run.shutdown().await;
}

#[tokio::test]
async fn spec_workflow_start_and_run_start_errors() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let w = sb
        .post(
            &format!("/v1/workflows/{}/runs/", sb.run.workflows[0].uuid),
            &token,
        )
        .await;
    assert_eq!(w.json().as_array().unwrap().len(), 1, "initial task only");
    for bad in [
        "/v1/pipelines/0f0e0d0c-0000-4000-8000-000000000000/runs/",
        "/v1/pipelines/nope/runs/",
    ] {
        let r = sb.post(bad, &token).await;
        assert_eq!((r.status, r.body.as_str()), (404, ""));
        assert_eq!(r.ctype.as_deref(), Some("application/json"));
    }
    let r = sb
        .post(&format!("/v1/pipelines/{}/runs", sb.pipeline(0)), &token)
        .await;
    assert_eq!(
        (r.status, r.body.trim()),
        (404, "404 page not found"),
        "trailing slash is required"
    );
    sb.run.shutdown().await;
}

#[tokio::test]
async fn flaky_pipeline_runs_fail_on_their_last_task() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let mut failures = 0;
    for _ in 0..3 {
        let r = sb
            .post(&format!("/v1/pipelines/{}/runs/", sb.pipeline(1)), &token)
            .await;
        let run = r.json()[0]["workflow_run_uuid"]
            .as_str()
            .unwrap()
            .to_string();
        let size = truth(&sb, &run).await["tasks"].as_u64().unwrap() as usize;
        let entries = wait_for_run_of(&sb, 1, &token, "workflow_run_uuid", &run, size).await;
        let ok: Vec<bool> = entries.iter().map(|e| e["is_successful"] == true).collect();
        assert!(
            ok[..size - 1].iter().all(|b| *b),
            "only the last task may fail"
        );
        failures += usize::from(!ok[size - 1]);
        assert_eq!(truth(&sb, &run).await["is_successful"], ok[size - 1]);
        let last = sb
            .getj(
                &format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(1)),
                &token,
            )
            .await;
        assert_eq!(last["is_successful"], ok[size - 1]);
    }
    assert!(failures > 0, "the flaky pipeline fails most started runs");
    sb.run.shutdown().await;
}
