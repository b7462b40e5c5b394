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

/// Server (go-oauth2): unknown grant_type 401 unauthorized_client, empty
/// refresh_token 400 invalid_request, a refresh token works once and revokes
/// its access token, scopes split on commas only, no-store and no-cache
/// headers, 64-hex secrets, the bearer header matched exactly.
#[tokio::test]
async fn token_endpoint_details() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let id = sb.run.client_id.clone();
    let secret = &sb.run.client_secret;
    assert!(secret.len() == 64 && secret.bytes().all(|b| b.is_ascii_hexdigit()));
    let r = sb
        .token_query(&format!("grant_type=password&client_id={id}"))
        .await;
    assert_eq!(
        (r.status, r.json()["error"].as_str()),
        (401, Some("unauthorized_client"))
    );
    let r = sb
        .token_query(&format!(
            "grant_type=refresh_token&client_id={id}&refresh_token="
        ))
        .await;
    assert_eq!(
        (r.status, r.json()["error"].as_str()),
        (400, Some("invalid_request"))
    );
    let creds = format!("grant_type=client_credentials&client_id={id}&client_secret={secret}");
    let r = sb
        .token_query(&format!("{creds}&scope=stats:read%20pipelines:run"))
        .await;
    assert_eq!(r.status, 400, "a space does not separate scopes");
    let r = sb
        .token_query(&format!("{creds}&scope=stats:read,pipelines:run"))
        .await;
    assert_eq!(r.status, 200);
    let first = r.json();
    let mut scopes: Vec<&str> = first["scope"].as_str().unwrap().split(',').collect();
    scopes.sort();
    assert_eq!(scopes, ["pipelines:run", "stats:read"]);
    let r = sb.token_query(&creds).await;
    let access = r.json()["access_token"].as_str().unwrap().to_string();
    let refresh = r.json()["refresh_token"].as_str().unwrap().to_string();
    let probe = format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(0));
    for header in [
        format!("bearer {access}"),
        format!("Bearer  {access}"),
        format!("Token {access}"),
    ] {
        let req = sb
            .http
            .get(format!("{}{probe}", sb.run.base_url))
            .header("authorization", header);
        assert_eq!(sb.send(req).await.status, 401);
    }
    assert_eq!(sb.get(&probe, Some(&access)).await.status, 200);
    let again = format!("grant_type=refresh_token&client_id={id}&refresh_token={refresh}");
    let r = sb.token_query(&again).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        sb.get(&probe, Some(&access)).await.status,
        401,
        "old access revoked"
    );
    assert_eq!(
        sb.token_query(&again).await.status,
        401,
        "refresh token used once"
    );
    let raw = sb
        .http
        .get(format!("{}/v1/oauth/token?{creds}", sb.run.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.headers()["cache-control"], "no-store");
    assert_eq!(raw.headers()["pragma"], "no-cache");
    sb.run.shutdown().await;
}
