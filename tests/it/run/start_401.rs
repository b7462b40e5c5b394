//! A 401 answering a run start (issue 43): the real server answers 401
//! only before a run is scheduled (the gateway's token check in
//! `api/api/authenticated_http_handler.go`, and the pipelines service's
//! `InitialAuthorization` at the top of `initiatePipelineRun`, before its
//! transaction), so a fresh token and one more POST cannot start a second
//! run. The tool does that once, never more.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::faultserver::*;
use common::*;

const STARTED: &str = r#"{"pipeline_run_uuid":"5a0f3c2e-1b4d-4e6f-8a9b-0c1d2e3f4a5b"}"#;

fn run_starts(s: &FaultServer) -> Vec<Seen> {
    s.api().into_iter().filter(|r| r.method == "POST").collect()
}

#[test]
fn a_401_on_a_run_start_gets_a_fresh_token_and_one_more_post() {
    let n = AtomicUsize::new(0);
    let s = with_token(move |_, _| match n.fetch_add(1, Ordering::SeqCst) {
        0 => Action::Raw(json(401, "")),
        _ => Action::Raw(json(200, STARTED)),
    });
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["run", "pipeline", P1]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("5a0f3c2e-1b4d-4e6f-8a9b-0c1d2e3f4a5b"),
        "{}",
        o.stdout
    );
    assert_eq!(run_starts(&s).len(), 2, "{:?}", s.api());
    // The second with another token than the first.
    let tokens = s
        .seen()
        .iter()
        .filter(|r| r.path.starts_with("/v1/oauth/token"))
        .count();
    assert_eq!(tokens, 2, "a fresh token for the second POST");
}

#[test]
fn a_second_401_ends_it_after_two_posts() {
    let s = with_token(|_, _| Action::Raw(json(401, "")));
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), &["run", "pipeline", P1]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(
        o.stderr.contains("again, with a token issued a moment ago"),
        "{}",
        o.stderr
    );
    assert_eq!(run_starts(&s).len(), 2, "{:?}", s.api());
}
