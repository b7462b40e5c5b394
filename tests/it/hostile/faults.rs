//! Fault scenarios of the Requests § of the contract, driven through the
//! binary against a raw loopback server that records every request: retries
//! with backoff and jitter, `Retry-After`, a run start that must never be
//! sent twice, refused connections, and redirects.

use crate::common;

use std::time::Duration;

use common::faultserver::*;
use common::report::Scenario;
use common::*;

const P: &str = "/v1/stats/tasks/3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b/stats/";

/// Gaps between the API requests the server saw.
fn gaps(s: &FaultServer) -> Vec<Duration> {
    let api = s.api();
    api.windows(2).map(|w| w[1].at - w[0].at).collect()
}

#[test]
fn a_get_answered_500_once_succeeds_with_two_requests_and_a_run_start_is_sent_once() {
    let mut sc = Scenario::new(
        "500-get-retried",
        "fault",
        "a statistics GET answered 500 (the gateway's transient answer) once succeeds on the 2nd request; a run start answered 500 is sent once",
    );
    let s = with_token(|_, n| match n {
        0 => Action::Raw(json(500, r#"{"code":500,"message":"Internal error"}"#)),
        _ => Action::Raw(json(200, STATS)),
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "task", P1, "-o", "json"]);
    sc.check(&o);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(s.api().len(), 2, "one retry");
    let s = with_token(|_, _| Action::Raw(json(500, r#"{"code":500,"message":"Internal error"}"#)));
    let o = client_run(&s.base(), dir.path(), &["run", "pipeline", P1]);
    sc.check(&o);
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert_eq!(s.count("POST") - token_posts(&s), 1, "one run start");
    assert!(o.stderr.contains("may have started"), "{}", o.stderr);
    sc.done();
}

fn token_posts(s: &FaultServer) -> usize {
    s.seen()
        .iter()
        .filter(|r| r.method == "POST" && r.path.starts_with("/v1/oauth/token"))
        .count()
}

#[test]
fn a_get_answered_503_twice_succeeds_on_the_third_attempt_after_jittered_backoff() {
    let mut sc = Scenario::new(
        "503-503-200",
        "fault",
        "a GET is retried on 503 with growing, jittered pauses and succeeds on the 3rd attempt",
    );
    let mut runs = Vec::new();
    for _ in 0..2 {
        let s = with_token(|_, n| match n {
            0 | 1 => Action::Raw(response(503, &[], b"busy")),
            _ => Action::Raw(json(200, STATS)),
        });
        let dir = tempfile::tempdir().unwrap();
        let o = client_run(&s.base(), dir.path(), &["stats", "task", P1, "-o", "json"]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert_eq!(s.api().len(), 3, "three attempts");
        assert!(s.api().iter().all(|r| r.path.starts_with(P)));
        serde_json::from_str::<serde_json::Value>(&o.stdout).unwrap();
        let g = gaps(&s);
        // The backoff floor is 125 ms; no upper bound: a slow machine passes.
        assert!(g.iter().all(|d| *d >= Duration::from_millis(100)), "{g:?}");
        sc.check(&o);
        sc.check_dir(dir.path());
        runs.push(g);
    }
    assert_ne!(runs[0], runs[1], "jitter: the pauses differ between runs");
    sc.done();
}

#[test]
fn a_429_with_retry_after_waits_that_long() {
    let mut sc = Scenario::new(
        "429-retry-after",
        "fault",
        "429 with Retry-After: 1 is retried after at least 0.9 s",
    );
    let s = with_token(|_, n| match n {
        0 => Action::Raw(response(429, &[("retry-after", "1")], b"")),
        _ => Action::Raw(json(200, STATS)),
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "task", P1]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let g = gaps(&s);
    assert_eq!(g.len(), 1);
    assert!(g[0] >= Duration::from_millis(900), "{g:?}");
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}

/// A run start answered by `action`: one POST only, exit `code`, the hint.
fn run_start_fails_once(action: fn() -> Action, extra: &[&str], code: i32) -> Out {
    let s = with_token(move |_, _| action());
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["run", "pipeline", P1];
    args.extend_from_slice(extra);
    let o = client_run(&s.base(), dir.path(), &args);
    assert_eq!(o.code, code, "{}", o.stderr);
    assert_eq!(
        s.count("POST") - 1,
        1,
        "exactly one run start reached the server"
    );
    assert_eq!(s.api().len(), 1);
    assert!(o.stderr.contains("may have started"), "{}", o.stderr);
    o
}

#[test]
fn a_run_start_that_fails_after_sending_is_never_repeated() {
    let mut sc = Scenario::new(
        "run-start-500-502-timeout",
        "fault",
        "a run start answered 500, 502 (HTML) or too slowly reaches the server once, exits 5 or 6, hints the run may have started",
    );
    let o = run_start_fails_once(|| Action::Raw(response(500, &[], b"")), &[], 5);
    sc.check(&o);
    let o = run_start_fails_once(
        || {
            Action::Raw(response(
                502,
                &[("content-type", "text/html")],
                b"<html><body><h1>502 Bad Gateway</h1></body></html>",
            ))
        },
        &[],
        5,
    );
    assert!(o.stderr.contains("HTML error page") && !o.stderr.contains("<h1>"));
    sc.check(&o);
    let o = run_start_fails_once(
        || Action::Hang {
            head: Vec::new(),
            hold: Duration::from_secs(8),
        },
        &["--timeout", "700ms"],
        6,
    );
    sc.check(&o);
    sc.done();
}

/// A port nothing listens on: bound, then closed.
fn refused_port() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://127.0.0.1:{}", l.local_addr().unwrap().port())
}

#[test]
fn a_refused_connection_is_retried_for_gets_and_for_a_run_start_not_yet_sent() {
    let mut sc = Scenario::new(
        "connection-refused",
        "fault",
        "refused connections exit 6 after the retries; a run start is retried too (nothing was sent) and gets no 'may have started' hint",
    );
    let base = refused_port();
    let env = [("YLEM_BASE_URL", base.as_str()), ("YLEM_TOKEN", TOKEN)];
    for args in [
        ["stats", "task", P1, "--retries", "2", "-v"],
        ["run", "pipeline", P1, "--retries", "2", "-v"],
    ] {
        let o = ylem(&args, &env);
        assert_eq!(o.code, 6, "{args:?}: {}", o.stderr);
        let retries = o
            .stderr
            .lines()
            .filter(|l| l.contains("retrying in"))
            .count();
        assert_eq!(retries, 2, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains("cannot connect"), "{}", o.stderr);
        assert!(!o.stderr.contains("may have started"), "{}", o.stderr);
        sc.check(&o);
    }
    sc.done();
}

#[test]
fn a_redirect_to_another_origin_loses_the_bearer_token() {
    let mut sc = Scenario::new(
        "redirect-other-origin",
        "fault",
        "a GET redirected to another origin is followed without the Authorization header",
    );
    let other = FaultServer::start(|_, _| Action::Raw(json(200, STATS)));
    let target = format!("{}/elsewhere", other.base());
    let s = with_token(move |_, _| Action::Raw(response(302, &[("location", &target)], b"")));
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "task", P1, "-vv"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let first = &s.api()[0];
    assert_eq!(
        first.header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    let moved = other.seen();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].path, "/elsewhere");
    assert_eq!(
        moved[0].header("authorization"),
        None,
        "bearer sent to another origin"
    );
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}

#[test]
fn a_301_on_a_run_start_is_not_followed() {
    let mut sc = Scenario::new(
        "post-301",
        "fault",
        "a 301 answering a run start is not followed (no second POST, no GET): exit 5",
    );
    let other = FaultServer::start(|_, _| Action::Raw(json(201, r#"{"pipeline_run_uuid":"x"}"#)));
    let target = format!("{}/v1/pipelines/{P1}/runs/", other.base());
    let s = with_token(move |_, _| Action::Raw(response(301, &[("location", &target)], b"")));
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["run", "pipeline", P1]);
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("301"), "{}", o.stderr);
    assert_eq!(s.api().len(), 1, "one POST");
    assert_eq!(s.api()[0].method, "POST");
    assert!(other.seen().is_empty(), "the redirect was followed");
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}

#[test]
fn max_time_caps_the_whole_command_and_check_says_unknown_in_time() {
    let mut sc = Scenario::new(
        "max-time",
        "fault",
        "--max-time caps the whole command, retries and a body that keeps trickling included (exit 6); check against a hanging service is UNKNOWN (exit 3) within its --max-time",
    );
    // A body that keeps arriving is not a stall, so only --max-time ends it.
    let logs = log_array(2000);
    let s = with_token(move |_, _| Action::Trickle {
        head: open_head(200),
        body: logs.clone().into_bytes(),
        chunk: 16,
        every: Duration::from_millis(50),
    });
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let o = client_run(
        &s.base(),
        dir.path(),
        &["logs", P1, "--max-time", "1500ms", "-o", "jsonl"],
    );
    sc.check(&o);
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stderr.contains("--max-time"), "{}", o.stderr);
    assert!(started.elapsed() < Duration::from_secs(20));
    // Retries stop at the deadline too: 503s with a long Retry-After.
    let s = with_token(|_, _| Action::Raw(response(503, &[("retry-after", "30")], b"busy")));
    let started = std::time::Instant::now();
    let o = client_run(
        &s.base(),
        dir.path(),
        &["stats", "task", P1, "--max-time", "2s", "--retries", "5"],
    );
    sc.check(&o);
    assert_eq!(o.code, 5, "no wait past the deadline: {}", o.stderr);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(s.api().len(), 1, "a 30 s Retry-After does not fit in 2 s");
    // check: one UNKNOWN line on stdout, exit 3, within the limit.
    let s = with_token(|_, _| Action::Hang {
        head: open_head(200),
        hold: Duration::from_secs(30),
    });
    let started = std::time::Instant::now();
    let o = client_run(
        &s.base(),
        dir.path(),
        &[
            "check",
            "pipeline",
            P1,
            "--max-age",
            "25h",
            "--max-time",
            "2s",
        ],
    );
    sc.check(&o);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.starts_with("UNKNOWN - "), "{}", o.stdout);
    assert!(o.stdout.contains("--max-time"), "{}", o.stdout);
    assert!(started.elapsed() < Duration::from_secs(20));
    sc.done();
}

#[test]
fn a_log_whose_first_byte_does_not_come_says_the_server_builds_it_whole() {
    let mut sc = Scenario::new(
        "first-byte-timeout",
        "fault",
        "a log response whose first byte does not come within --timeout exits 6 with a hint that the server builds the whole log first (narrow the window or raise --timeout)",
    );
    let s = with_token(|_, _| Action::Hang {
        head: Vec::new(),
        hold: Duration::from_secs(20),
    });
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let o = client_run(
        &s.base(),
        dir.path(),
        &["logs", P1, "--timeout", "800ms", "--retries", "0"],
    );
    sc.check(&o);
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stderr.contains("builds the whole log"), "{}", o.stderr);
    assert!(o.stderr.contains("narrow the window"), "{}", o.stderr);
    assert!(started.elapsed() < Duration::from_secs(15));
    sc.done();
}
