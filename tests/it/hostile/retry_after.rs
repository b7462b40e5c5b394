//! Errors that name the cause (issue 43): a redirect's target that refuses
//! is named (not the credentials); a 429 answering a run start hints only
//! flags that apply (never `--retries`); a `Retry-After` longer than the
//! total ylemctl waits is said at once, not waited out. (The TLS variables
//! and a refused proxy: `tls_proxy`.)

use crate::common;

use std::time::{Duration, Instant};

use common::faultserver::*;
use common::*;

#[test]
fn a_redirect_target_that_refuses_is_named_not_the_credentials() {
    let other = FaultServer::start(|_, _| Action::Raw(json(401, r#"{"error":"unauthorized"}"#)));
    let target = format!("{}/elsewhere", other.base());
    let s = with_token(move |_, _| Action::Raw(response(302, &[("location", &target)], b"")));
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["stats", "task", P1]);
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(
        o.stderr
            .contains(&format!("HTTP 401 from {}/elsewhere", other.base())),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("where a redirect from the service led"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("client credentials"), "{}", o.stderr);
    assert!(!o.stderr.contains("YLEM_CLIENT_SECRET"), "{}", o.stderr);
    assert_eq!(other.seen()[0].header("authorization"), None);
}

#[test]
fn a_429_on_a_run_start_hints_no_retries() {
    let s = with_token(|_, _| Action::Raw(response(429, &[("retry-after", "30")], b"")));
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(
        &s.base(),
        dir.path(),
        &["run", "pipeline", P1, "--retries", "5"],
    );
    assert_ne!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("HTTP 429"), "{}", o.stderr);
    assert!(o.stderr.contains("the run was not started"), "{}", o.stderr);
    assert!(!o.stderr.contains("--retries"), "{}", o.stderr);
    assert_eq!(
        s.count("POST") - token_posts(&s),
        1,
        "a run start is sent once"
    );
}

fn token_posts(s: &FaultServer) -> usize {
    s.seen()
        .iter()
        .filter(|r| r.path.starts_with("/v1/oauth/token"))
        .count()
}

#[test]
fn a_retry_after_past_the_total_cap_is_said_at_once() {
    let s = with_token(|_, _| Action::Raw(response(429, &[("retry-after", "999999")], b"")));
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
    assert_ne!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("Retry-After: 999999"), "{}", o.stderr);
    assert!(
        o.stderr.contains("longer waits than ylemctl waits in all"),
        "{}",
        o.stderr
    );
    assert_eq!(
        s.api().len(),
        1,
        "no wait, no second request: {:?}",
        s.api()
    );
    // Far below one capped wait (120 s): it did not wait.
    assert!(started.elapsed() < Duration::from_secs(100));
}

/// `client_run` with the debug build's total cap on asked waits set to
/// `cap_ms` (`YLEM_TEST_MAX_ASKED_WAITS_MS`, src/config/fault.rs): the same
/// accounting as the shipped 2 minutes, in seconds.
fn run_capped(base: &str, dir: &std::path::Path, cap_ms: &str, args: &[&str]) -> Out {
    ylem(
        args,
        &[
            ("YLEM_BASE_URL", base),
            ("YLEM_CLIENT_ID", CLIENT_ID),
            ("YLEM_CLIENT_SECRET", SECRET),
            ("YLEM_CONFIG_DIR", dir.to_str().unwrap()),
            ("YLEM_TEST_MAX_ASKED_WAITS_MS", cap_ms),
        ],
    )
}

#[test]
fn retry_after_waits_adding_up_past_the_total_cap_are_stopped() {
    // Each wait (3 s) is under the cap (5 s); the second would make 6 s.
    let s = with_token(|_, _| Action::Raw(response(429, &[("retry-after", "3")], b"")));
    let dir = tempfile::tempdir().unwrap();
    for output in ["table", "json"] {
        let o = run_capped(
            &s.base(),
            dir.path(),
            "5000",
            &["stats", "pipeline", P1, "--retries", "10", "-o", output],
        );
        assert_eq!(o.code, 5, "{}", o.stderr);
        // The one wait is announced with the cap (as text: with -o json
        // stderr holds only the error's JSON), the stop names the cause.
        if output == "table" {
            assert!(
                o.stderr
                    .contains("asked to wait 3.0s (Retry-After, HTTP 429)"),
                "{}",
                o.stderr
            );
            assert!(o.stderr.contains("at most 5.0s in all"), "{}", o.stderr);
        } else {
            assert!(o.stderr.starts_with(r#"{"error":"#), "{}", o.stderr);
        }
        assert!(
            o.stderr.contains("longer waits than ylemctl waits in all"),
            "{}",
            o.stderr
        );
        assert!(o.stdout.is_empty(), "{}", o.stdout);
    }
    // Two runs, two requests each: one wait, then the stop (not 11 sends).
    assert_eq!(s.api().len(), 4, "{:?}", s.api());
}

#[test]
fn retry_after_waits_stop_within_max_time_before_the_total_cap() {
    // Waits of 1 s under a cap of 60 s: --max-time (2.5 s) ends it first.
    let s = with_token(|_, _| Action::Raw(response(429, &[("retry-after", "1")], b"")));
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let o = run_capped(
        &s.base(),
        dir.path(),
        "60000",
        &[
            "stats",
            "pipeline",
            P1,
            "--retries",
            "50",
            "--max-time",
            "2500ms",
        ],
    );
    assert_ne!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("HTTP 429"), "{}", o.stderr);
    assert!(o.stderr.contains("--max-time"), "{}", o.stderr);
    // At most three 1 s waits fit in 2.5 s; never the 50 retries.
    let n = s.api().len();
    assert!((2..=4).contains(&n), "{n} requests: {:?}", s.api());
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn a_retry_after_longer_than_max_time_is_said_at_once() {
    let s = with_token(|_, _| Action::Raw(response(429, &[("retry-after", "60")], b"")));
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let o = client_run(
        &s.base(),
        dir.path(),
        &["stats", "pipeline", P1, "--max-time", "3s", "-o", "json"],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("Retry-After: 60"), "{}", o.stderr);
    assert!(
        o.stderr.contains("longer than --max-time leaves"),
        "{}",
        o.stderr
    );
    assert_eq!(s.api().len(), 1, "no wait: {:?}", s.api());
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// A 503 asking for a wait longer than `--max-time` leaves, or past the
/// total cap, is no bare "HTTP 503": the error names the wait the server
/// asked for and why it was not made, said at once (one request).
#[test]
fn a_503_whose_retry_after_is_longer_than_max_time_names_the_wait() {
    let s = with_token(|_, _| Action::Raw(response(503, &[("retry-after", "60")], b"")));
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let o = client_run(
        &s.base(),
        dir.path(),
        &["stats", "pipeline", P1, "--max-time", "3s"],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("503"), "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "the service asked to wait 1m 00s (Retry-After: 60), longer than --max-time allows"
        ),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("longer than --max-time leaves"),
        "the hint: {}",
        o.stderr
    );
    assert_eq!(s.api().len(), 1, "no wait: {:?}", s.api());
    assert!(started.elapsed() < Duration::from_secs(30));
    // Past the total cap, without --max-time: the wait named too.
    let s = with_token(|_, _| Action::Raw(response(503, &[("retry-after", "999999")], b"")));
    let o = client_run(&s.base(), dir.path(), &["stats", "pipeline", P1]);
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("(Retry-After: 999999)"), "{}", o.stderr);
    assert!(
        o.stderr.contains("longer waits than ylemctl waits in all"),
        "{}",
        o.stderr
    );
    assert_eq!(s.api().len(), 1, "no wait: {:?}", s.api());
}
