//! The knobs `doctor`'s checks are tested with: `clock_skew` (every `Date`
//! header off the true time), `scopes` (what tokens grant, enforced with 403
//! per endpoint, in each dialect's shape) and `plan_disabled` (401 on every
//! authenticated endpoint with a fresh token; the token endpoint works).

use super::*;

/// Every authenticated endpoint of a dialect's sandbox: (method, path, the
/// scope that guards it).
fn endpoints(sb: &Sb, dialect: Dialect) -> Vec<(&'static str, String, &'static str)> {
    let p = sb.pipeline(0);
    let t = sb.run.pipelines[0].tasks[0].uuid.to_string();
    let w = sb.run.workflows[0].uuid.to_string();
    let mut out = vec![
        ("POST", format!("/v1/pipelines/{p}/runs/"), "pipelines:run"),
        (
            "GET",
            format!("/v1/stats/pipelines/{p}/logs/{}", wide()),
            "stats:read",
        ),
    ];
    let mut ids = vec![("tasks", t), ("pipelines", p)];
    if dialect == Dialect::Spec {
        out.push(("POST", format!("/v1/workflows/{w}/runs/"), "workflows:run"));
        ids.push(("workflows", w));
    }
    // The aggregated form each dialect reads, so that a granted request
    // is answered 200.
    let from = match dialect {
        Dialect::Spec => "2024-01-01",
        Dialect::Ylem => "2024-01-01%2000:00:00",
    };
    for (kind, id) in ids {
        let base = format!("/v1/stats/{kind}/{id}");
        out.push(("GET", format!("{base}/stats/{}", wide()), "stats:read"));
        out.push((
            "GET",
            format!("{base}/aggregated-stats/{from}/month/3"),
            "stats:read",
        ));
        out.push(("GET", format!("{base}/last-run/stats"), "stats:read"));
    }
    out
}

async fn call(sb: &Sb, method: &str, path: &str, token: &str) -> Resp {
    match method {
        "POST" => sb.post(path, token).await,
        _ => sb.get(path, Some(token)).await,
    }
}

/// The `Date` header of a GET to `path` (with a token if given).
async fn date_of(sb: &Sb, path: &str, token: Option<&str>) -> DateTime<Utc> {
    let mut req = sb.http.get(format!("{}{path}", sb.run.base_url));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await.unwrap();
    let date = r.headers()["date"].to_str().unwrap().to_string();
    assert!(date.ends_with(" GMT"), "{date}");
    DateTime::parse_from_rfc2822(&date)
        .unwrap_or_else(|e| panic!("{e}: {date}"))
        .with_timezone(&Utc)
}

/// How far `at` is from the true time plus `skew`, in whole seconds.
fn off_by(at: DateTime<Utc>, skew: chrono::TimeDelta) -> i64 {
    (at - (Utc::now() + skew)).num_seconds().abs()
}

#[tokio::test]
async fn clock_skew_moves_every_date_header_both_ways_and_nothing_else() {
    for (dialect, skew) in [
        (Dialect::Ylem, chrono::TimeDelta::seconds(90)),
        (Dialect::Spec, chrono::TimeDelta::minutes(-10)),
        (Dialect::Spec, chrono::TimeDelta::zero()),
    ] {
        let sb = Sb::new(dialect, |o| o.clock_skew = skew).await;
        let token = sb.token().await;
        let last_run = format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(0));
        // An answer, the token endpoint's, a 401, a 404 and the ground truth.
        let credentials = format!(
            "grant_type=client_credentials&client_id={}&client_secret={}",
            sb.run.client_id, sb.run.client_secret
        );
        let token_path = format!("/v1/oauth/token?{credentials}");
        for (path, token) in [
            (last_run.as_str(), Some(token.as_str())),
            (token_path.as_str(), None),
            (last_run.as_str(), None),
            ("/v1/nowhere", None),
            ("/_sandbox/requests", None),
        ] {
            let at = date_of(&sb, path, token).await;
            assert!(off_by(at, skew) <= 2, "{path}: {at} with skew {skew}");
        }
        // The data stays true: the last run is in the past, tokens live
        // their full lifetime.
        let last = sb.getj(&last_run, &token).await;
        let executed = chrono::NaiveDateTime::parse_from_str(
            last["executed_at"].as_str().unwrap(),
            "%Y-%m-%d %H:%M:%S",
        )
        .unwrap()
        .and_utc();
        assert!(executed <= Utc::now(), "{executed}");
        assert_eq!(
            sb.token_query(&credentials).await.json()["expires_in"],
            86400
        );
        sb.run.shutdown().await;
    }
}

#[tokio::test]
async fn scopes_are_granted_as_given() {
    for (dialect, given, want) in [
        (Dialect::Ylem, vec![Scope::StatsRead], vec!["stats:read"]),
        (
            Dialect::Spec,
            vec![Scope::PipelinesRun, Scope::StatsRead, Scope::WorkflowsRun],
            vec!["pipelines:run", "stats:read", "workflows:run"],
        ),
        (Dialect::Ylem, vec![], vec![]),
    ] {
        let sb = Sb::new(dialect, |o| o.scopes = Some(given.clone())).await;
        let base = format!(
            "grant_type=client_credentials&client_id={}&client_secret={}",
            sb.run.client_id, sb.run.client_secret
        );
        let j = sb.token_query(&base).await.json();
        let scope = j["scope"].as_str().unwrap();
        let mut granted: Vec<&str> = scope.split(',').filter(|s| !s.is_empty()).collect();
        granted.sort();
        assert_eq!(granted, want, "{scope}");
        // A token request may ask for what is granted, not for more.
        for asked in ["stats:read", "workflows:run"] {
            let status = match want.contains(&asked) {
                true => 200,
                false => 400,
            };
            let r = sb.token_query(&format!("{base}&scope={asked}")).await;
            assert_eq!(r.status, status, "{asked}: {}", r.body);
            if status == 400 {
                assert_eq!(r.json()["error"], "invalid_scope");
            }
        }
        sb.run.shutdown().await;
    }
}

/// Each endpoint answers 403 exactly when its scope is not granted: ylem
/// empty (no Content-Type), spec its error shape naming the scope; a
/// request without a token is still a 401 first.
#[tokio::test]
async fn scopes_are_enforced_per_endpoint_in_each_dialects_shape() {
    let cases = [
        (Dialect::Ylem, vec![Scope::StatsRead]),
        (Dialect::Ylem, vec![Scope::PipelinesRun]),
        (Dialect::Spec, vec![Scope::PipelinesRun]),
        (Dialect::Spec, vec![Scope::StatsRead, Scope::WorkflowsRun]),
        (Dialect::Spec, vec![]),
    ];
    for (dialect, given) in cases {
        let sb = Sb::new(dialect, |o| o.scopes = Some(given.clone())).await;
        let token = sb.token().await;
        let names: Vec<&str> = given.iter().map(|s| s.as_str()).collect();
        for (method, path, scope) in endpoints(&sb, dialect) {
            let r = call(&sb, method, &path, &token).await;
            let what = format!("{dialect:?} {names:?} {method} {path}");
            if names.contains(&scope) {
                assert!(r.status == 200 || r.status == 201, "{what}: {}", r.status);
                continue;
            }
            assert_eq!(r.status, 403, "{what}: {}", r.body);
            match dialect {
                Dialect::Ylem => {
                    assert_eq!(r.body, "", "{what}");
                    assert_eq!(r.ctype, None, "{what}");
                }
                Dialect::Spec => {
                    assert!(r.ctype.as_deref().unwrap().starts_with("application/json"));
                    assert_eq!(
                        r.json(),
                        serde_json::json!({
                            "code": 403,
                            "message": "Forbidden",
                            "errors": [format!("the token lacks the scope {scope}")],
                        }),
                        "{what}"
                    );
                }
            }
            // The bearer check comes first.
            let r = match method {
                "POST" => {
                    sb.send(sb.http.post(format!("{}{path}", sb.run.base_url)))
                        .await
                }
                _ => sb.get(&path, None).await,
            };
            assert_eq!((r.status, r.body.as_str()), (401, ""), "{what}");
        }
        sb.run.shutdown().await;
    }
}

/// Without the knob every token grants the dialect's scope and nothing is
/// refused for want of one (as before the knob existed).
#[tokio::test]
async fn without_scopes_nothing_is_enforced() {
    for dialect in [Dialect::Spec, Dialect::Ylem] {
        let sb = Sb::new(dialect, |_| {}).await;
        let token = sb.token().await;
        for (method, path, _) in endpoints(&sb, dialect) {
            let r = call(&sb, method, &path, &token).await;
            assert!(
                r.status == 200 || r.status == 201,
                "{dialect:?} {method} {path}: {} {}",
                r.status,
                r.body
            );
        }
        sb.run.shutdown().await;
    }
}

#[tokio::test]
async fn plan_disabled_refuses_every_authenticated_endpoint_with_a_fresh_token() {
    for dialect in [Dialect::Spec, Dialect::Ylem] {
        let sb = Sb::new(dialect, |o| o.plan_disabled = true).await;
        // The token endpoint works: a token, and a refresh of it.
        let q = format!(
            "grant_type=client_credentials&client_id={}&client_secret={}",
            sb.run.client_id, sb.run.client_secret
        );
        let first = sb.token_query(&q).await;
        assert_eq!(first.status, 200, "{}", first.body);
        let refresh = first.json()["refresh_token"].as_str().unwrap().to_string();
        let again = sb
            .token_query(&format!(
                "grant_type=refresh_token&client_id={}&refresh_token={refresh}",
                sb.run.client_id
            ))
            .await;
        assert_eq!(again.status, 200, "{}", again.body);
        let token = again.json()["access_token"].as_str().unwrap().to_string();
        for (method, path, _) in endpoints(&sb, dialect) {
            let r = call(&sb, method, &path, &token).await;
            let what = format!("{dialect:?} {method} {path}");
            assert_eq!(r.status, 401, "{what}");
            assert_eq!(r.body, "", "{what}");
            assert_eq!(r.ctype, None, "{what}");
        }
        // A path the server does not route is still its 404.
        assert_eq!(sb.get("/v1/nowhere", Some(&token)).await.status, 404);
        sb.run.shutdown().await;
    }
}
