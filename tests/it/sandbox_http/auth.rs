//! Token endpoint and bearer checks.

use super::*;

#[tokio::test]
async fn token_success_in_both_dialects() {
    for (dialect, scope) in [
        (Dialect::Spec, "workflows:run"),
        (Dialect::Ylem, "pipelines:run,stats:read"),
    ] {
        let sb = Sb::new(dialect, |_| {}).await;
        let body = format!(
            "grant_type=client_credentials&client_id={}&client_secret={}",
            sb.run.client_id, sb.run.client_secret
        );
        let req = sb.http.post(format!("{}/v1/oauth/token", sb.run.base_url));
        let r = sb
            .send(
                req.header("content-type", "application/x-www-form-urlencoded")
                    .body(body),
            )
            .await;
        assert_eq!(r.status, 200);
        assert!(r.ctype.as_ref().unwrap().starts_with("application/json"));
        let j = r.json();
        assert_eq!(j["access_token"].as_str().unwrap().len(), 48);
        assert_eq!(j["refresh_token"].as_str().unwrap().len(), 48);
        assert_eq!(j["expires_in"], 86400);
        assert_eq!(j["scope"], scope);
        assert_eq!(j["token_type"], "Bearer");
        sb.token().await;
        assert_eq!(sb.run.token_requests(), 2);
        assert_eq!(sb.run.requests(), 2);
        sb.run.shutdown().await;
    }
}

#[tokio::test]
async fn token_errors() {
    for dialect in [Dialect::Spec, Dialect::Ylem] {
        let sb = Sb::new(dialect, |_| {}).await;
        let (id, secret) = (sb.run.client_id.clone(), sb.run.client_secret.clone());
        let unknown = if dialect == Dialect::Ylem {
            (500, "server_error")
        } else {
            (401, "invalid_client")
        };
        let cases = [
            (
                format!("client_id={id}&client_secret={secret}"),
                (401, "unsupported_grant_type"),
            ),
            (
                format!("grant_type=client_credentials&client_secret={secret}"),
                (401, "invalid_client"),
            ),
            (
                format!("grant_type=client_credentials&client_id={id}&client_secret=nope"),
                (401, "invalid_client"),
            ),
            (
                format!(
                    "grant_type=client_credentials&client_id=0f0e0d0c-0000-4000-8000-000000000000&client_secret={secret}"
                ),
                unknown,
            ),
        ];
        for (query, (status, code)) in cases {
            let r = sb.token_query(&query).await;
            assert_eq!(r.status, status, "{dialect:?} {query}");
            let j = r.json();
            assert_eq!(j["error"], code, "{query}");
            assert!(j["error_description"].is_string());
        }
        sb.run.shutdown().await;
    }
}

#[tokio::test]
async fn refresh_rotates_tokens_and_is_single_use() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let q = format!(
        "grant_type=client_credentials&client_id={}&client_secret={}",
        sb.run.client_id, sb.run.client_secret
    );
    let first = sb.token_query(&q).await.json();
    let (old, rt) = (
        first["access_token"].as_str().unwrap(),
        first["refresh_token"].as_str().unwrap(),
    );
    let refresh = format!(
        "grant_type=refresh_token&refresh_token={rt}&client_id={}",
        sb.run.client_id
    );
    let second = sb.token_query(&refresh).await.json();
    let new = second["access_token"].as_str().unwrap();
    assert_ne!(new, old);
    let path = format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(0));
    assert_eq!(
        sb.get(&path, Some(old)).await.status,
        401,
        "refresh revokes the old access token"
    );
    assert_eq!(sb.get(&path, Some(new)).await.status, 200);
    let again = sb.token_query(&refresh).await;
    assert_eq!(
        (again.status, again.json()["error"].as_str()),
        (401, Some("invalid_grant"))
    );
    sb.run.shutdown().await;
}

#[tokio::test]
async fn unauthorized_is_empty_401() {
    let sb = Sb::new(Dialect::Ylem, |o| o.token_ttl = Duration::from_secs(1)).await;
    let path = format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(0));
    let token = sb.token().await;
    assert_eq!(sb.get(&path, Some(&token)).await.status, 200);
    for t in [None, Some("garbage")] {
        let r = sb.get(&path, t).await;
        assert_eq!((r.status, r.body.as_str(), r.ctype), (401, "", None));
    }
    let r = sb
        .post(
            &format!("/v1/pipelines/{}/runs/", sb.pipeline(0)),
            "garbage",
        )
        .await;
    assert_eq!((r.status, r.body.as_str()), (401, ""));
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let r = sb.get(&path, Some(&token)).await;
    assert_eq!(
        (r.status, r.body.as_str(), r.ctype),
        (401, "", None),
        "expired token"
    );
    sb.run.shutdown().await;
}
