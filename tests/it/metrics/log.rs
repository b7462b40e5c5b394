//! A long-running `metrics serve` logs quietly: an ID that fails is logged
//! once when it starts failing and once when it recovers (with how many
//! scrapes it failed), while `ylem_up` says its state at every scrape.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::common::P1;
use crate::common::exporter::{scrape_body, serve_p1};
use crate::common::faultserver::*;

/// A GET of /metrics on `addr`: the body.
fn scrape(addr: &str) -> String {
    scrape_body(addr, Duration::from_secs(20))
}

#[test]
fn a_failing_id_is_logged_when_it_fails_and_when_it_recovers() {
    let down = Arc::new(AtomicBool::new(true));
    let d = down.clone();
    let s = with_token(move |r, _| {
        if d.load(Ordering::SeqCst) {
            Action::Raw(json(500, r#"{"code":500,"message":"Internal error"}"#))
        } else if r.path.contains("/last-run/") {
            Action::Raw(json(200, LAST_RUN))
        } else if r.path.contains("/logs/") {
            // The last run's own entries, which confirm it.
            Action::Raw(json(200, LAST_RUN_LOG))
        } else {
            Action::Raw(json(200, STATS))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    let (child, addr) = serve_p1(
        &s.base(),
        dir.path(),
        std::fs::File::create(&err).unwrap().into(),
    );
    let up = |v: u8| format!("ylem_up{{kind=\"pipeline\",uuid=\"{P1}\"}} {v}");
    for _ in 0..3 {
        assert!(scrape(&addr).contains(&up(0)));
    }
    down.store(false, Ordering::SeqCst);
    for _ in 0..2 {
        assert!(scrape(&addr).contains(&up(1)));
    }
    drop(child);
    let stderr = std::fs::read_to_string(&err).unwrap();
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains(P1) && errors[0].contains("failing"),
        "{stderr}"
    );
    let recovered: Vec<&str> = stderr.lines().filter(|l| l.contains("recovered")).collect();
    assert_eq!(recovered.len(), 1, "{stderr}");
    assert!(
        recovered[0].contains(P1) && recovered[0].contains("after failing 3 scrapes"),
        "{stderr}"
    );
    // Three failing scrapes, each one fetch: the service was asked each time.
    assert!(s.api().len() >= 5, "{} requests", s.api().len());
}
