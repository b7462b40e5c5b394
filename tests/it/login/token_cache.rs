//! Black-box tests of the token cache of a logged-in profile (file store):
//! token traffic is counted at a fault server on loopback.

use crate::common;
use crate::common::login;

use common::faultserver::{json, response, route};
use common::*;
use login::*;

#[test]
fn ten_commands_make_one_token_request() {
    let s = server(86400);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.base(), SECRET).code, 0);
    for _ in 0..10 {
        let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    assert_eq!(grants(&s, "client_credentials"), 1);
    assert_eq!(grants(&s, "refresh_token"), 0);
}

#[test]
fn a_token_near_expiry_is_refreshed_once() {
    // A one-second token, renewed at half its lifetime: stale once the
    // second it was issued in is over.
    let s = server(1);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.base(), SECRET).code, 0);
    next_second();
    for _ in 0..3 {
        let o = ylem_in(dir.path(), &["stats", "pipeline", P1, "-vv"], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert_clean(&o, dir.path());
    }
    assert_eq!(grants(&s, "refresh_token"), 1);
    assert_eq!(grants(&s, "client_credentials"), 1);
}

#[test]
fn a_401_gets_one_new_token_and_one_repeat() {
    let s = server(86400);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.base(), SECRET).code, 0);
    // Make the server forget the cached token: the first stats call fails.
    s.first(
        route()
            .path_like("*/stats/*")
            .times(1)
            .answer(response(401, &[], b"")),
    );
    let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(grants(&s, "client_credentials"), 2);
    assert_eq!(grants(&s, "refresh_token"), 0);
    assert_eq!(stats_requests(&s), 2);
}

#[test]
fn sixteen_parallel_commands_share_one_refresh() {
    // A one-second token, past its renewal point when they start.
    let s = server(1);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.base(), SECRET).code, 0);
    next_second();
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
    let after_login = grants(&s, "refresh_token") + grants(&s, "client_credentials") - 1;
    assert!(after_login <= 2, "{after_login} token requests");
    assert_eq!(stats_requests(&s), 16);
}

#[test]
fn a_corrupt_token_cache_means_one_fresh_token() {
    let s = server(86400);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.base(), SECRET).code, 0);
    let cache = dir.path().join("credentials/default.token.json");
    std::fs::write(&cache, "{\"access_token\": \"tok-trunc").unwrap();
    for _ in 0..2 {
        let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    assert_eq!(grants(&s, "client_credentials"), 2);
}

#[test]
fn the_profile_remembers_a_server_that_wants_a_time_in_aggregate() {
    let s = server(86400);
    s.first(
        route()
            .path_like("*aggregated-stats/??????????%2000:00:00/day/*")
            .answer(json(200, "null")),
    );
    s.first(
        route()
            .path_like("*aggregated-stats/??????????/day/*")
            .answer(json(
                400,
                r#"{"code":400,"message":"Bad Request","errors":["cannot parse \"\" as \"15\""]}"#,
            )),
    );
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login(dir.path(), &s.base(), SECRET).code, 0);
    for _ in 0..2 {
        let o = ylem_in(dir.path(), &["aggregate", "pipeline", P1, "-q"], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap();
    assert!(config.contains("aggregate_date_time = true"), "{config}");
    let asked = s.count_where(|r| r.path_only().contains("aggregated-stats"));
    assert_eq!(asked, 3, "the second command should ask once, with a time");
}

/// A 60-second token is renewed at half its lifetime, not 60 s before it
/// expires (which would be at once): twelve requests in a row, one token.
#[test]
fn a_one_minute_token_serves_twelve_requests_in_a_row() {
    let sb = common::sandbox::start_with("spec", &["--token-ttl", "1m"]);
    let tasks: Vec<&str> = sb
        .pipelines
        .iter()
        .flat_map(|(_, t)| t.iter().map(String::as_str))
        .take(12)
        .collect();
    assert_eq!(tasks.len(), 12, "the sandbox has twelve tasks");
    let mut args = vec!["stats", "task"];
    args.extend(&tasks);
    args.extend(["--concurrency", "1", "-o", "json"]);
    let o = sb.run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let seen = sb.requests();
    let count = |p: &str| seen.iter().filter(|l| l.contains(p)).count();
    // At least one request per task (a last run before the window is
    // confirmed with a second, narrow one), all under one token.
    for t in &tasks {
        assert!(count(t) >= 1, "{t}: {seen:?}");
    }
    assert!(count("/v1/stats/tasks/") >= 12, "{seen:?}");
    assert_eq!(count("/v1/oauth/token"), 1, "{seen:?}");
}
