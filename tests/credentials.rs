//! Black-box tests of `login`, `logout`, `auth status|token` and the token
//! cache with the file store: the built binary with a clean environment and
//! `YLEM_CONFIG_DIR` in a temp dir, against wiremock on loopback. Token
//! traffic is counted at the server.

mod common;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use common::*;
use wiremock::matchers::{header, method, path, path_regex, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

const STATS: &str = r#"{"num_of_successes":12,"num_of_failures":3,"average_duration":1534,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1200}"#;
const TOKEN2: &str = "tok-2222BBBBCCCCDDDDEEEEFFFF0000111122223333";
const REFRESH2: &str = "ref-2222PPPPOOOONNNNMMMMLLLL5555444433332222";

fn token_json(token: &str, refresh: &str, expires_in: u64) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(
        format!(r#"{{"access_token":"{token}","expires_in":{expires_in},"refresh_token":"{refresh}","scope":"pipelines:run,stats:read","token_type":"Bearer"}}"#),
        "application/json",
    )
}

/// Run with `YLEM_CONFIG_DIR=dir`, optional stdin and extra variables.
fn ylem_in(dir: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Out {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir);
    for (k, v) in env {
        c.env(k, v);
    }
    c.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("run ylemctl");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn login(dir: &Path, base: &str, secret: &str) -> Out {
    ylem_in(
        dir,
        &[
            "login",
            "--base-url",
            base,
            "--client-id",
            CLIENT_ID,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{secret}\n")),
        &[],
    )
}

/// A server answering the client-credentials grant with `expires_in` and
/// the refresh grant with TOKEN2 for a day; stats need TOKEN or TOKEN2.
async fn server(expires_in: u64) -> MockServer {
    let s = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/oauth/token"))
        .and(query_param("grant_type", "client_credentials"))
        .and(query_param("client_secret", SECRET))
        .respond_with(token_json(TOKEN, REFRESH, expires_in))
        .mount(&s)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/oauth/token"))
        .and(query_param("grant_type", "refresh_token"))
        .and(query_param("refresh_token", REFRESH))
        .respond_with(token_json(TOKEN2, REFRESH2, 86400))
        .mount(&s)
        .await;
    Mock::given(path("/v1/oauth/token"))
        .respond_with(ResponseTemplate::new(401).set_body_raw(
            r#"{"error":"invalid_client","error_description":"bad"}"#,
            "application/json",
        ))
        .mount(&s)
        .await;
    for t in [TOKEN, TOKEN2] {
        Mock::given(path_regex("/stats/"))
            .and(header("authorization", format!("Bearer {t}").as_str()))
            .respond_with(ResponseTemplate::new(200).set_body_raw(STATS, "application/json"))
            .mount(&s)
            .await;
    }
    s
}

/// Token requests received with this grant type.
async fn grants(s: &MockServer, grant: &str) -> usize {
    let want = format!("grant_type={grant}");
    s.received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| {
            r.url.path() == "/v1/oauth/token" && r.url.query().unwrap_or("").contains(&want)
        })
        .count()
}

async fn stats_requests(s: &MockServer) -> usize {
    s.received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| r.url.path().contains("/stats/"))
        .count()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Every file under `dir` outside the file store, with its contents.
fn files_outside_store(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p != dir.join("credentials") {
                    todo.push(p);
                }
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                out.push((p.display().to_string(), text));
            }
        }
    }
    out
}

fn assert_clean(o: &Out, dir: &Path) {
    for s in [SECRET, TOKEN, REFRESH, TOKEN2, REFRESH2] {
        assert!(
            !o.all().contains(s),
            "a secret reached the output:\n{}",
            o.all()
        );
        for (f, text) in files_outside_store(dir) {
            assert!(!text.contains(s), "a secret is in {f}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn login_with_the_file_store_then_use_status_token_and_logout() {
    let s = server(86400).await;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = login(d, &s.uri(), SECRET);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_clean(&o, d);

    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    assert!(
        config.contains(&s.uri()) && config.contains(CLIENT_ID),
        "{config}"
    );
    assert!(config.contains("store = \"file\""), "{config}");
    let creds = d.join("credentials");
    assert_eq!(mode(&creds), 0o700);
    let names: Vec<_> = std::fs::read_dir(&creds)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    for p in &names {
        assert_eq!(mode(p), 0o600, "{}", p.display());
    }
    let secret_file = std::fs::read_to_string(creds.join("default.secret.json")).unwrap();
    assert!(secret_file.contains(SECRET));

    // No env credentials, no base URL: the profile gives both.
    let o = ylem_in(d, &["stats", "task", P1, "-o", "json"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("num_of_successes"));

    let o = ylem_in(d, &["auth", "status"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains(CLIENT_ID) && o.stdout.contains("file"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("expires"), "{}", o.stdout);
    assert_clean(&o, d);

    let o = ylem_in(d, &["auth", "token"], None, &[]);
    assert_eq!(
        (o.code, o.stdout.as_str()),
        (0, format!("{TOKEN}\n").as_str()),
        "{}",
        o.stderr
    );
    // Asking for more life than the cached token has left gets a new one.
    let o = ylem_in(d, &["auth", "token", "--min-ttl", "2d"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(grants(&s, "refresh_token").await, 1);
    assert_eq!(grants(&s, "client_credentials").await, 1);

    let o = ylem_in(d, &["logout"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::read_dir(&creds).unwrap().count(), 0);
    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    assert!(
        config.contains(CLIENT_ID),
        "the profile entry stays: {config}"
    );
    let o = ylem_in(d, &["stats", "task", P1], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("ylemctl login"), "{}", o.stderr);
    let o = ylem_in(d, &["auth", "status"], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_login_saves_nothing_and_exits_3() {
    let s = server(86400).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "[profiles.other]\nbase_url = \"http://o\"\n",
    )
    .unwrap();
    let o = login(dir.path(), &s.uri(), "wrong-secret-value");
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(!o.all().contains("wrong-secret-value"), "{}", o.all());
    assert!(!dir.path().join("credentials").exists());
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap();
    assert_eq!(config, "[profiles.other]\nbase_url = \"http://o\"\n");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_corrupt_config_is_a_usage_error_and_is_kept() {
    let s = server(86400).await;
    let dir = tempfile::tempdir().unwrap();
    let bad = "[profiles.default]\nbase_url = \"http://x\"\nclient_id = = 1\n";
    std::fs::write(dir.path().join("config.toml"), bad).unwrap();
    let o = login(dir.path(), &s.uri(), SECRET);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("config.toml at line 3"), "{}", o.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("config.toml")).unwrap(),
        bad
    );
    assert_eq!(grants(&s, "client_credentials").await, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn ten_commands_make_one_token_request() {
    let s = server(86400).await;
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.uri(), SECRET).code, 0);
    for _ in 0..10 {
        let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    assert_eq!(grants(&s, "client_credentials").await, 1);
    assert_eq!(grants(&s, "refresh_token").await, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_near_expiry_is_refreshed_once() {
    // 30 s left is inside the 60 s margin: stale at once.
    let s = server(30).await;
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.uri(), SECRET).code, 0);
    for _ in 0..3 {
        let o = ylem_in(dir.path(), &["stats", "pipeline", P1, "-vv"], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert_clean(&o, dir.path());
    }
    assert_eq!(grants(&s, "refresh_token").await, 1);
    assert_eq!(grants(&s, "client_credentials").await, 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_401_gets_one_new_token_and_one_repeat() {
    let s = server(86400).await;
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.uri(), SECRET).code, 0);
    // Make the server forget the cached token: the first stats call fails.
    Mock::given(path_regex("/stats/"))
        .respond_with(ResponseTemplate::new(401))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&s)
        .await;
    let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(grants(&s, "client_credentials").await, 2);
    assert_eq!(grants(&s, "refresh_token").await, 0);
    assert_eq!(stats_requests(&s).await, 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn sixteen_parallel_commands_share_one_refresh() {
    let s = server(30).await;
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.uri(), SECRET).code, 0);
    let d = dir.path().to_path_buf();
    let handles: Vec<_> = (0..16)
        .map(|_| {
            let d = d.clone();
            std::thread::spawn(move || ylem_in(&d, &["stats", "pipeline", P1], None, &[]))
        })
        .collect();
    for h in handles {
        let o = h.join().unwrap();
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let after_login =
        grants(&s, "refresh_token").await + grants(&s, "client_credentials").await - 1;
    assert!(after_login <= 2, "{after_login} token requests");
    assert_eq!(stats_requests(&s).await, 16);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_corrupt_token_cache_means_one_fresh_token() {
    let s = server(86400).await;
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.uri(), SECRET).code, 0);
    let cache = dir.path().join("credentials/default.token.json");
    std::fs::write(&cache, "{\"access_token\": \"tok-trunc").unwrap();
    for _ in 0..2 {
        let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    assert_eq!(grants(&s, "client_credentials").await, 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn secrets_stay_out_of_output_and_config_on_failures() {
    let s = server(86400).await;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = login(d, &s.uri(), SECRET);
    assert_clean(&o, d);
    for args in [
        vec!["auth", "status", "-vv"],
        vec!["auth", "status", "-o", "json"],
        vec!["stats", "task", P1, "-vv"],
    ] {
        let o = ylem_in(d, &args, None, &[]);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        assert_clean(&o, d);
    }
    // A bad secret at login, a server error, a refused connection.
    let o = ylem_in(
        d,
        &["login", "--client-secret-stdin", "--store", "file", "-vv"],
        Some("sec-WRONGWRONGWRONG"),
        &[],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(!o.all().contains("sec-WRONGWRONGWRONG"));
    assert_clean(&o, d);
    let broken = MockServer::start().await;
    Mock::given(path_regex(".*"))
        .respond_with(ResponseTemplate::new(500).set_body_string(TOKEN))
        .mount(&broken)
        .await;
    // The cached token goes to the broken server, which echoes it back.
    for base in [broken.uri(), "http://127.0.0.1:9".to_string()] {
        let o = ylem_in(
            d,
            &[
                "stats",
                "task",
                P1,
                "-vv",
                "--retries",
                "0",
                "--base-url",
                &base,
            ],
            None,
            &[],
        );
        assert!(matches!(o.code, 5 | 6), "{}: {}", o.code, o.stderr);
        assert_clean(&o, d);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_profile_remembers_a_server_that_wants_a_time_in_aggregate() {
    let s = server(86400).await;
    Mock::given(path_regex("aggregated-stats/[0-9-]{10}/day/"))
        .respond_with(ResponseTemplate::new(400).set_body_raw(
            r#"{"code":400,"message":"Bad Request","errors":["cannot parse \"\" as \"15\""]}"#,
            "application/json",
        ))
        .with_priority(1)
        .mount(&s)
        .await;
    Mock::given(path_regex("aggregated-stats/[0-9-]{10}%2000:00:00/day/"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("null", "application/json"))
        .with_priority(1)
        .mount(&s)
        .await;
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.uri(), SECRET).code, 0);
    for _ in 0..2 {
        let o = ylem_in(dir.path(), &["aggregate", "pipeline", P1, "-q"], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap();
    assert!(config.contains("aggregate_date_time = true"), "{config}");
    let asked: Vec<_> = s
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path().contains("aggregated-stats"))
        .collect();
    assert_eq!(
        asked.len(),
        3,
        "the second command should ask once, with a time"
    );
}
