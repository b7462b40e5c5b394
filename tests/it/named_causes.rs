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
