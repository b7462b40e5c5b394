//! Validation, injected faults, redirects, methods and seeding.

use super::*;

#[tokio::test]
async fn validation_errors_are_400() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(0);
    let cases = [
        format!("/v1/stats/pipelines/not-a-uuid/stats/{}", wide()),
        format!("/v1/stats/pipelines/{p}/logs/2024-01-01+00:00:00/2024-02-01%2000:00:00"),
        format!("/v1/stats/tasks/{p}/stats/2024-01-01%2000:00:00/2024-02-31%2000:00:00"),
        format!("/v1/stats/pipelines/{p}/aggregated-stats/2024-01-01/fortnight/3"),
        format!("/v1/stats/pipelines/{p}/aggregated-stats/2024-01-01/day/0"),
        format!("/v1/stats/pipelines/{p}/aggregated-stats/2024-01-01/day/x"),
        "/v1/stats/tasks/123/last-run/stats".to_string(),
    ];
    for path in cases {
        let r = sb.get(&path, Some(&token)).await;
        assert_eq!(r.status, 400, "{path}");
        let j = r.json();
        assert_eq!(
            (j["code"].as_u64(), j["message"].as_str()),
            (Some(400), Some("Bad Request"))
        );
        assert!(!j["errors"].as_array().unwrap().is_empty(), "{path}");
    }
    sb.run.shutdown().await;
}

#[tokio::test]
async fn faults_redirects_and_methods() {
    let sb = Sb::new(Dialect::Spec, |o| o.fail_rate = 1.0).await;
    for r in [
        sb.token_query("grant_type=client_credentials").await,
        sb.post(&format!("/v1/pipelines/{}/runs/", sb.pipeline(0)), "x")
            .await,
    ] {
        assert_eq!(r.status, 503);
        assert_eq!(
            r.json(),
            serde_json::json!({"code":503,"message":"Service Unavailable"})
        );
    }
    assert_eq!((sb.run.requests(), sb.run.token_requests()), (2, 1));
    sb.run.shutdown().await;
    let sb = Sb::new(Dialect::Ylem, |o| o.latency = Duration::from_millis(150)).await;
    let begun = std::time::Instant::now();
    let r = sb
        .get("/v1/stats//pipelines/x/last-run/stats?a=1", None)
        .await;
    assert!(
        begun.elapsed() >= Duration::from_millis(150),
        "latency applies to every response"
    );
    assert_eq!(
        (r.status, r.location.as_deref()),
        (301, Some("/v1/stats/pipelines/x/last-run/stats?a=1"))
    );
    let r = sb
        .send(
            sb.http
                .delete(format!("{}/v1/oauth/token", sb.run.base_url)),
        )
        .await;
    assert_eq!((r.status, r.body.as_str()), (405, ""));
    let r = sb.get("/v1/nothing/here", None).await;
    assert_eq!((r.status, r.body.trim()), (404, "404 page not found"));
    sb.run.shutdown().await;
}

#[tokio::test]
async fn same_seed_same_catalogue_and_credentials() {
    let names = |r: &Running| {
        r.pipelines
            .iter()
            .chain(&r.workflows)
            .map(|e| (e.uuid, e.name.clone(), e.tasks.len()))
            .collect::<Vec<_>>()
    };
    let a = Sb::new(Dialect::Spec, |o| o.seed = 42).await;
    let b = Sb::new(Dialect::Ylem, |o| o.seed = 42).await;
    let c = Sb::new(Dialect::Spec, |o| o.seed = 43).await;
    assert_eq!((a.run.pipelines.len(), a.run.workflows.len()), (5, 3));
    assert_eq!(names(&a.run), names(&b.run));
    assert_eq!(
        (&a.run.client_id, &a.run.client_secret, &a.run.key_hex),
        (&b.run.client_id, &b.run.client_secret, &b.run.key_hex)
    );
    assert_ne!(a.run.client_id, c.run.client_id);
    assert_eq!(a.run.key_hex.len(), 64);
    let banner = a.run.banner();
    assert!(banner.contains(&a.run.base_url) && banner.contains(&a.run.client_secret));
    assert!(
        a.run
            .pipelines
            .iter()
            .flat_map(|p| &p.tasks)
            .all(|t| banner.contains(&t.uuid.to_string()))
    );
    for sb in [a, b, c] {
        sb.run.shutdown().await;
    }
}
