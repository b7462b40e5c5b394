//! Black-box HTTP checks of the embedded sandbox in both dialects, over
//! loopback with reqwest, against the field tables of the service spec and
//! the open-source server's documented quirks.

use std::time::Duration;

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Datelike, Utc, Weekday};
use serde_json::Value;
use ylemctl::sandbox::{self, Dialect, Options, Running};

struct Sb {
    run: Running,
    http: reqwest::Client,
}

struct Resp {
    status: u16,
    ctype: Option<String>,
    location: Option<String>,
    body: String,
}

impl Resp {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

impl Sb {
    async fn new(dialect: Dialect, tweak: impl FnOnce(&mut Options)) -> Sb {
        let mut opts = Options {
            listen: "127.0.0.1:0".parse().unwrap(),
            dialect,
            task_delay: Duration::from_millis(50),
            ..Options::default()
        };
        tweak(&mut opts);
        let run = sandbox::start(opts).await.unwrap();
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Sb { run, http }
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> Resp {
        let r = req.send().await.unwrap();
        let header = |n| {
            r.headers()
                .get(n)
                .map(|v: &reqwest::header::HeaderValue| v.to_str().unwrap().to_string())
        };
        let (ctype, location) = (header("content-type"), header("location"));
        Resp {
            status: r.status().as_u16(),
            ctype,
            location,
            body: r.text().await.unwrap(),
        }
    }

    async fn get(&self, path: &str, token: Option<&str>) -> Resp {
        let mut req = self.http.get(format!("{}{path}", self.run.base_url));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req).await
    }

    async fn post(&self, path: &str, token: &str) -> Resp {
        self.send(
            self.http
                .post(format!("{}{path}", self.run.base_url))
                .bearer_auth(token),
        )
        .await
    }

    async fn token_query(&self, query: &str) -> Resp {
        self.get(&format!("/v1/oauth/token?{query}"), None).await
    }

    async fn token(&self) -> String {
        let q = format!(
            "grant_type=client_credentials&client_id={}&client_secret={}",
            self.run.client_id, self.run.client_secret
        );
        let r = self.token_query(&q).await;
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()["access_token"].as_str().unwrap().to_string()
    }

    fn pipeline(&self, i: usize) -> String {
        self.run.pipelines[i].uuid.to_string()
    }
}

fn fmt(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d%%20%H:%M:%S").to_string()
}

/// Whole history plus a little future, as path segments.
fn wide() -> String {
    let now = Utc::now();
    format!(
        "{}/{}",
        fmt(now - chrono::Duration::days(100)),
        fmt(now + chrono::Duration::days(1))
    )
}

fn is_uuid(v: &Value) -> bool {
    v.as_str().is_some_and(|s| uuid::Uuid::parse_str(s).is_ok())
}

fn assert_stats_time(v: &Value) {
    let s = v.as_str().unwrap();
    assert!(
        chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").is_ok(),
        "{s}"
    );
}

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

/// Polls the log until `run` has `want` entries (or fails after ~5 s).
async fn wait_for_run(sb: &Sb, token: &str, field: &str, run: &str, want: usize) -> Vec<Value> {
    wait_for_run_of(sb, 0, token, field, run, want).await
}

async fn wait_for_run_of(
    sb: &Sb,
    pipeline: usize,
    token: &str,
    field: &str,
    run: &str,
    want: usize,
) -> Vec<Value> {
    let path = format!(
        "/v1/stats/pipelines/{}/logs/{}",
        sb.pipeline(pipeline),
        wide()
    );
    for _ in 0..100 {
        let log = sb.get(&path, Some(token)).await.json();
        let mine: Vec<Value> = log
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e[field] == run)
            .cloned()
            .collect();
        if mine.len() == want {
            return mine;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("run {run} never reached {want} log entries");
}

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
    assert_eq!(records.len(), tasks.len());
    for (rec, task) in records.iter().zip(tasks) {
        assert!(rec["id"].is_u64() && rec["state"] == "pending" && rec["is_successful"] == false);
        assert!(rec["output"].is_null() && rec["errors"].is_null());
        assert_eq!(rec["task_uuid"], task.uuid.to_string());
        assert!(is_uuid(&rec["task_run_uuid"]) && is_uuid(&rec["workflow_run_uuid"]));
        assert!(rec["created_at"].is_string() && rec["updated_at"].is_string());
    }
    let run = records[0]["workflow_run_uuid"].as_str().unwrap();
    let entries = wait_for_run(&sb, &token, "workflow_run_uuid", run, tasks.len()).await;
    assert!(
        entries.iter().all(|e| e["is_successful"] == true),
        "the first pipeline is reliable"
    );
    let last = sb
        .get(
            &format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(0)),
            Some(&token),
        )
        .await
        .json();
    assert_eq!(last["is_successful"], true);
    let sum: u64 = entries
        .iter()
        .map(|e| e["duration"].as_u64().unwrap())
        .sum();
    assert_eq!(last["duration"], sum);
    let w = sb
        .post(
            &format!("/v1/workflows/{}/runs/", sb.run.workflows[0].uuid),
            &token,
        )
        .await;
    assert_eq!(
        w.json().as_array().unwrap().len(),
        sb.run.workflows[0].tasks.len()
    );
    for bad in [
        "/v1/pipelines/0f0e0d0c-0000-4000-8000-000000000000/runs/",
        "/v1/pipelines/nope/runs/",
    ] {
        let r = sb.post(bad, &token).await;
        assert_eq!((r.status, r.body.as_str()), (404, ""));
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
async fn spec_log_fields_and_decryptable_output() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let log = sb
        .get(
            &format!("/v1/stats/pipelines/{}/logs/{}", sb.pipeline(2), wide()),
            Some(&token),
        )
        .await
        .json();
    let log = log.as_array().unwrap();
    assert!(log.len() > 100);
    let key: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&sb.run.key_hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let cipher = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(&key));
    let mut decrypted = 0;
    for e in log {
        assert!(is_uuid(&e["workflow_run_uuid"]) && is_uuid(&e["task_uuid"]));
        assert!(e["task_type"].is_string() && e["is_successful"].is_boolean());
        assert!(e["duration"].is_u64() && e["metric_value"].is_i64());
        let at = e["executed_at"].as_str().unwrap();
        assert!(
            chrono::NaiveDateTime::parse_from_str(at, "%Y-%m-%dT%H:%M:%SZ").is_ok(),
            "{at}"
        );
        let out = e["output"].as_str().unwrap();
        if !out.is_empty() {
            let raw = STANDARD.decode(out).unwrap();
            let plain = cipher
                .decrypt(Nonce::from_slice(&raw[..12]), &raw[12..])
                .unwrap();
            serde_json::from_slice::<Value>(&plain).unwrap();
            decrypted += 1;
        }
    }
    assert!(decrypted > 0);
    assert!(
        log.windows(2)
            .all(|w| w[0]["executed_at"].as_str() <= w[1]["executed_at"].as_str())
    );
    let old = format!(
        "/v1/stats/pipelines/{}/logs/2001-01-01%2000:00:00/2001-02-01%2000:00:00",
        sb.pipeline(2)
    );
    assert_eq!(sb.get(&old, Some(&token)).await.body, "[]");
    sb.run.shutdown().await;
}

/// Groups log entries into runs in first-seen order: (run, entries).
fn runs_of(log: &[Value], field: &str) -> Vec<(String, Vec<Value>)> {
    let mut order: Vec<(String, Vec<Value>)> = Vec::new();
    for e in log {
        let id = e[field].as_str().unwrap().to_string();
        match order.iter_mut().find(|(r, _)| *r == id) {
            Some((_, v)) => v.push(e.clone()),
            None => order.push((id, vec![e.clone()])),
        }
    }
    order
}

#[tokio::test]
async fn spec_range_stats_match_the_log() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(2);
    let full = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/logs/{}", wide()),
            Some(&token),
        )
        .await
        .json();
    let runs = runs_of(full.as_array().unwrap(), "workflow_run_uuid");
    // Window edges sit on run starts, so no run is cut in two.
    let start = |i: usize| {
        DateTime::parse_from_rfc3339(runs[i].1[0]["executed_at"].as_str().unwrap())
            .unwrap()
            .to_utc()
    };
    let (from, to) = (
        fmt(start(10)),
        fmt(start(60) - chrono::Duration::seconds(1)),
    );
    let log = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/logs/{from}/{to}"),
            Some(&token),
        )
        .await
        .json();
    let window = runs_of(log.as_array().unwrap(), "workflow_run_uuid");
    assert_eq!(window.len(), 50);
    let ok = |r: &Vec<Value>| r.iter().all(|e| e["is_successful"] == true);
    let dur = |r: &Vec<Value>| {
        r.iter()
            .map(|e| e["duration"].as_u64().unwrap())
            .sum::<u64>()
    };
    let successes = window.iter().filter(|(_, r)| ok(r)).count();
    let total: u64 = window.iter().map(|(_, r)| dur(r)).sum();
    let s = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/stats/{from}/{to}"),
            Some(&token),
        )
        .await
        .json();
    assert_eq!(s["num_of_successes"], successes);
    assert_eq!(s["num_of_failures"], 50 - successes);
    assert_eq!(s["average_duration"], total / 50);
    let last = &window[49].1;
    assert_eq!(s["is_last_run_successful"], ok(last));
    assert_eq!(s["last_run_duration"], dur(last));
    let last_at = last[0]["executed_at"]
        .as_str()
        .unwrap()
        .replace('T', " ")
        .replace('Z', "");
    assert_eq!(s["last_run_executed_at"], last_at);
    let t = &sb.run.pipelines[2].tasks[0].uuid;
    let ts = sb
        .get(
            &format!("/v1/stats/tasks/{t}/stats/{from}/{to}"),
            Some(&token),
        )
        .await
        .json();
    let task_runs = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["task_uuid"] == t.to_string())
        .count();
    assert_eq!(
        ts["num_of_successes"].as_u64().unwrap() + ts["num_of_failures"].as_u64().unwrap(),
        task_runs as u64
    );
    let empty = sb
        .get(
            &format!(
                "/v1/stats/workflows/{}/stats/2001-01-01%2000:00:00/2001-01-02%2000:00:00",
                sb.run.workflows[0].uuid
            ),
            Some(&token),
        )
        .await
        .json();
    assert_eq!(empty["last_run_executed_at"], "0001-01-01 00:00:00");
    assert_eq!(
        (
            empty["num_of_successes"].as_u64(),
            empty["average_duration"].as_u64()
        ),
        (Some(0), Some(0))
    );
    sb.run.shutdown().await;
}

fn monday_weeks_ago(weeks: i64) -> chrono::NaiveDate {
    let d = (Utc::now() - chrono::Duration::weeks(weeks)).date_naive();
    d - chrono::Duration::days(i64::from(d.weekday().num_days_from_monday()))
}

fn bucket_starts(v: &Value) -> Vec<chrono::NaiveDateTime> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert_stats_time(&b["date_to"]);
            assert!(
                b["num_of_successes"].is_u64()
                    && b["num_of_failures"].is_u64()
                    && b["average_duration"].is_u64()
            );
            chrono::NaiveDateTime::parse_from_str(
                b["date_from"].as_str().unwrap(),
                "%Y-%m-%d %H:%M:%S",
            )
            .unwrap()
        })
        .collect()
}

#[tokio::test]
async fn spec_aggregated_buckets_and_last_run() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let p = sb.pipeline(2);
    let r = sb
        .get(
            &format!(
                "/v1/stats/pipelines/{p}/aggregated-stats/{}/week/4",
                monday_weeks_ago(8)
            ),
            Some(&token),
        )
        .await
        .json();
    let starts = bucket_starts(&r);
    assert_eq!(starts.len(), 4);
    assert!(starts.iter().all(|s| s.weekday() == Weekday::Mon) && starts.is_sorted());
    let first = &r[0];
    let to = starts[0] + chrono::Duration::weeks(1) - chrono::Duration::seconds(1);
    assert_eq!(first["date_to"], to.format("%Y-%m-%d %H:%M:%S").to_string());
    let month = (Utc::now() - chrono::Duration::days(62))
        .date_naive()
        .with_day(1)
        .unwrap();
    let r = sb
        .get(
            &format!(
                "/v1/stats/tasks/{}/aggregated-stats/{month}%2000:00:00/month/2",
                sb.run.pipelines[2].tasks[0].uuid
            ),
            Some(&token),
        )
        .await
        .json();
    let starts = bucket_starts(&r);
    assert_eq!(starts.len(), 2);
    assert!(starts.iter().all(|s| s.day() == 1));
    let none = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/aggregated-stats/2001-01-01/year/2"),
            Some(&token),
        )
        .await;
    assert_eq!((none.status, none.body.as_str()), (200, "[]"));
    let last = sb
        .get(
            &format!(
                "/v1/stats/workflows/{}/last-run/stats",
                sb.run.workflows[1].uuid
            ),
            Some(&token),
        )
        .await
        .json();
    assert!(last["is_successful"].is_boolean() && last["duration"].is_u64());
    assert_stats_time(&last["executed_at"]);
    let never = sb
        .get(
            "/v1/stats/tasks/0f0e0d0c-0000-4000-8000-000000000000/last-run/stats",
            Some(&token),
        )
        .await;
    assert_eq!(never.status, 404);
    assert_eq!(
        (
            never.json()["code"].as_u64(),
            never.json()["errors"].as_array().map(Vec::len)
        ),
        (Some(404), Some(1))
    );
    sb.run.shutdown().await;
}

#[tokio::test]
async fn ylem_dialect_specifics() {
    let sb = Sb::new(Dialect::Ylem, |_| {}).await;
    let token = sb.token().await;
    let (p, w) = (sb.pipeline(0), sb.run.workflows[0].uuid.to_string());
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
        (
            403,
            serde_json::json!({"code":403,"message":"Forbidden","errors":[]})
        )
    );
    // A Wednesday start is not aligned: n+1 buckets, each starting on a Monday.
    let wed = monday_weeks_ago(6) + chrono::Duration::days(2);
    let r = sb
        .get(
            &format!("/v1/stats/pipelines/{p}/aggregated-stats/{wed}%2012:00:00/week/3"),
            Some(&token),
        )
        .await
        .json();
    let mut starts = bucket_starts(&r);
    starts.sort();
    assert_eq!(starts.len(), 4);
    assert!(starts.iter().all(|s| s.weekday() == Weekday::Mon));
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
    let p = sb.pipeline(1);
    let w = wide();
    let log = sb
        .get(&format!("/v1/stats/pipelines/{p}/logs/{w}"), Some(&token))
        .await
        .json();
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
    // Ylem counts task runs for pipelines, failures included.
    let s = sb
        .get(&format!("/v1/stats/pipelines/{p}/stats/{w}"), Some(&token))
        .await
        .json();
    let failed = log.iter().filter(|e| e["is_successful"] == false).count();
    assert_eq!(s["num_of_failures"], failed);
    assert_eq!(s["num_of_successes"], log.len() - failed);
    sb.run.shutdown().await;
}

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
            serde_json::json!({"code":503,"message":"Service Unavailable","errors":[]})
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
    assert_eq!((a.run.pipelines.len(), a.run.workflows.len()), (4, 3));
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

#[tokio::test]
async fn flaky_pipeline_runs_fail_on_the_last_task() {
    let sb = Sb::new(Dialect::Spec, |_| {}).await;
    let token = sb.token().await;
    let tasks = sb.run.pipelines[1].tasks.len();
    let mut failures = 0;
    for _ in 0..3 {
        let r = sb
            .post(&format!("/v1/pipelines/{}/runs/", sb.pipeline(1)), &token)
            .await;
        let run = r.json()[0]["workflow_run_uuid"]
            .as_str()
            .unwrap()
            .to_string();
        let entries = wait_for_run_of(&sb, 1, &token, "workflow_run_uuid", &run, tasks).await;
        let ok: Vec<bool> = entries.iter().map(|e| e["is_successful"] == true).collect();
        assert!(
            ok[..tasks - 1].iter().all(|b| *b),
            "only the last task may fail"
        );
        failures += usize::from(!ok[tasks - 1]);
        let last = sb
            .get(
                &format!("/v1/stats/pipelines/{}/last-run/stats", sb.pipeline(1)),
                Some(&token),
            )
            .await
            .json();
        assert_eq!(last["is_successful"], ok[tasks - 1]);
    }
    assert!(failures > 0, "the flaky pipeline fails most started runs");
    sb.run.shutdown().await;
}
