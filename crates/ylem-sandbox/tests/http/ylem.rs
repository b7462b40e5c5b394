//! The open-source server's dialect.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::*;

#[tokio::test]
async fn ylem_workflows_are_not_routed() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let w = sb.run.workflows[0].uuid.to_string();
    for path in [
        format!("/v1/stats/workflows/{w}/last-run/stats"),
        format!("/v1/stats/workflows/{w}/stats/{}", wide()),
    ] {
        let r = sb.get(&path, Some(&token)).await;
        assert_eq!((r.status, r.body.trim()), (404, "404 page not found"));
        assert!(r.ctype.unwrap().starts_with("text/plain"));
    }
    assert_eq!(
        sb.post(&format!("/v1/workflows/{w}/runs/"), &token)
            .await
            .status,
        404
    );
    sb.run.shutdown().await;
}

#[tokio::test]
async fn ylem_errors_and_empty_results() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(0);
    let bare = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/aggregated-stats/2024-01-01/month/3"),
            Some(&token),
        )
        .await;
    assert_eq!(bare.status, 400);
    let expected = r#"{"code":400,"message":"Bad Request","errors":["parsing time \"2024-01-01\" as \"2006-01-02 15:04:05\": cannot parse \"\" as \"15\""]}"#;
    assert_eq!(
        bare.json(),
        serde_json::from_str::<Value>(expected).unwrap()
    );
    let null = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/aggregated-stats/2001-01-01%2000:00:00/month/3"),
            Some(&token),
        )
        .await;
    assert_eq!((null.status, null.body.as_str()), (200, "null"));
    let never = sb
        .get(
            "/v1/stats/pipelines/0f0e0d0c-0000-4000-8000-000000000000/last-run/stats",
            Some(&token),
        )
        .await;
    assert_eq!(
        (never.status, never.json()),
        (403, serde_json::json!({"code":403,"message":"Forbidden"}))
    );
    sb.run.shutdown().await;
}

#[tokio::test]
async fn ylem_unaligned_start_gives_an_extra_aligned_bucket() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(0);
    // A Wednesday start is not aligned: n+1 buckets, each starting on a Monday.
    let wed = monday_weeks_ago(6) + chrono::Duration::days(2);
    let r = sb
        .getj(
            &format!("/v1/stats/pipelines/{p}/aggregated-stats/{wed}%2012:00:00/week/3"),
            &token,
        )
        .await;
    let mut starts = bucket_starts(&r);
    starts.sort();
    assert_eq!(starts.len(), 4);
    assert!(starts.iter().all(|s| s.weekday() == Weekday::Mon));
    sb.run.shutdown().await;
}

#[tokio::test]
async fn ylem_run_start_and_plain_output() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(0);
    let started = sb.post(&format!("/v1/pipelines/{p}/runs/"), &token).await;
    assert_eq!(started.status, 201);
    let run = started.json()["pipeline_run_uuid"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(started.json().as_object().unwrap().len(), 1);
    let entries = wait_for_run(
        &sb,
        &token,
        "pipeline_run_uuid",
        &run,
        sb.run.pipelines[0].tasks.len(),
    )
    .await;
    let out = entries
        .iter()
        .find_map(|e| e["output"].as_str().filter(|s| !s.is_empty()));
    if let Some(out) = out {
        serde_json::from_slice::<Value>(&STANDARD.decode(out).unwrap())
            .expect("ylem output is plain JSON");
    }
    sb.run.shutdown().await;
}

#[tokio::test]
async fn ylem_log_format_and_task_run_counting() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    // The first pipeline is the metric pipeline: its aggregator reports metrics.
    let p = sb.pipeline(0);
    let w = wide();
    let log = sb
        .getj(&format!("/v1/stats/pipelines/{p}/logs/{w}"), &token)
        .await;
    let log = log.as_array().unwrap();
    let mut fractional = false;
    for e in log {
        assert!(is_uuid(&e["pipeline_run_uuid"]) && e.get("workflow_run_uuid").is_none());
        let at = e["executed_at"].as_str().unwrap();
        let frac = at
            .strip_suffix('Z')
            .unwrap()
            .split_once('.')
            .map_or("", |(_, f)| f);
        assert!(
            frac.len() <= 6 && DateTime::parse_from_rfc3339(at).is_ok(),
            "{at}"
        );
        fractional |= e["metric_value"].as_f64().unwrap().fract() != 0.0;
    }
    assert!(fractional, "some ylem metric values are fractional");
    // Ylem counts failed task rows as failures, runs minus those as successes.
    let s = sb
        .getj(&format!("/v1/stats/pipelines/{p}/stats/{w}"), &token)
        .await;
    let failed = log.iter().filter(|e| e["is_successful"] == false).count();
    let runs = runs_of(log, "pipeline_run_uuid").len();
    assert_eq!(s["num_of_failures"], failed);
    assert_eq!(s["num_of_successes"], runs - failed);
    sb.run.shutdown().await;
}
