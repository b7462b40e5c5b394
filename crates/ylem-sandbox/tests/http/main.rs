//! Black-box HTTP checks of the embedded sandbox in both dialects, over
//! loopback with reqwest, against the field tables of the service spec and
//! the open-source server's documented quirks.

use std::time::Duration;

use chrono::{DateTime, Datelike, Utc, Weekday};
use serde_json::Value;
use ylem_sandbox::{Dialect, Options, Running, Scope};

mod auth;
mod edges;
mod knobs;
mod like_runs;
mod like_stats;
mod runs;
mod spec_stats;
mod ylem;

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
        let run = ylem_sandbox::start(opts).await.unwrap();
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

    /// GET with a token, answer parsed as JSON.
    async fn getj(&self, path: &str, token: &str) -> Value {
        self.get(path, Some(token)).await.json()
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

/// Polls the log until `run` has `want` entries (or fails after ~15 s);
/// returns them oldest first.
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
    for _ in 0..300 {
        let log = sb.get(&path, Some(token)).await.json();
        let mine: Vec<Value> = oldest_first(&log)
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

/// The log (newest first, as the server sends it) in the order it happened.
fn oldest_first(log: &Value) -> Vec<Value> {
    log.as_array().unwrap().iter().rev().cloned().collect()
}

/// The sandbox's ground truth about a run: its real size and outcome.
async fn truth(sb: &Sb, run: &str) -> Value {
    sb.get(&format!("/_sandbox/runs/{run}"), None).await.json()
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
