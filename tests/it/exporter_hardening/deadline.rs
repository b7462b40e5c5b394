//! A scrape always answers by its deadline: one ID's upstream stalled 25 s
//! (no answer at all) is `ylem_up 0` while a good ID has its values; the
//! deadline is `--scrape-timeout` or Prometheus' header when shorter; a
//! SIGTERM during a scrape that waits on the stalled ID ends the exporter
//! with exit 0 within the stop's grace (5 s), the scrape answered.

use std::process::Command;
use std::time::Duration;

use super::{exporter, scrape};
use crate::common::faultserver::*;
use crate::common::process::{exit_within, wait_until};
use crate::common::{P1, P2};

/// P1 answers, P2 is held 25 s without a byte of answer.
fn one_stalled() -> FaultServer {
    with_token(|r, _| {
        if r.path.contains(P2) {
            Action::Hang {
                head: Vec::new(),
                hold: Duration::from_secs(25),
            }
        } else if r.path.contains("/logs/") {
            // The last run's own entries, which confirm and judge it.
            Action::Raw(json(200, &log_array(1)))
        } else if r.path.contains("/last-run/") {
            let last =
                r#"{"is_successful":true,"executed_at":"2024-01-13 18:36:58","duration":1200}"#;
            Action::Raw(json(200, last))
        } else {
            Action::Raw(json(200, STATS))
        }
    })
}

fn up(uuid: &str, v: u8) -> String {
    format!("ylem_up{{kind=\"pipeline\",uuid=\"{uuid}\"}} {v}")
}

#[test]
fn a_scrape_with_one_stalled_id_answers_within_the_deadline() {
    let s = one_stalled();
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    let e = exporter(
        &s.base(),
        dir.path(),
        &["--scrape-timeout", "3s", P1, P2],
        &err,
    );
    for n in 0..2 {
        let (status, body, took) = scrape(&e.addr, &[], 30).expect("an answer");
        assert!(status.contains(" 200 "), "{status}");
        assert!(took < Duration::from_secs(3 + 3), "scrape {n}: {took:?}");
        assert!(body.contains(&up(P1, 1)), "{body}");
        assert!(body.contains(&up(P2, 0)), "{body}");
        // The good ID's figures: STATS has 12 successes and 3 failures.
        let runs = format!("ylem_runs{{kind=\"pipeline\",uuid=\"{P1}\",window=\"24h\"}} 15");
        assert!(body.contains(&runs), "{body}");
        assert!(!body.contains(&format!("uuid=\"{P2}\",window")), "{body}");
    }
    drop(e);
    let stderr = std::fs::read_to_string(&err).unwrap();
    let said: Vec<&str> = stderr.lines().filter(|l| l.contains(P2)).collect();
    assert_eq!(said.len(), 1, "logged once, not per scrape: {stderr}");
    assert!(said[0].contains("no answer within"), "{stderr}");
}

#[test]
fn prometheus_scrape_timeout_header_shortens_the_deadline() {
    let s = one_stalled();
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    let e = exporter(
        &s.base(),
        dir.path(),
        &["--scrape-timeout", "20s", P1, P2],
        &err,
    );
    let h = ["X-Prometheus-Scrape-Timeout-Seconds: 3".to_string()];
    let (status, body, took) = scrape(&e.addr, &h, 30).expect("an answer");
    assert!(status.contains(" 200 "), "{status}");
    // 3 s less 0.5 s for the answer to travel; far below the flag's 20 s.
    assert!(took < Duration::from_millis(2500 + 3000), "{took:?}");
    assert!(
        body.contains(&up(P1, 1)) && body.contains(&up(P2, 0)),
        "{body}"
    );
}

#[test]
fn sigterm_during_a_stalled_scrape_exits_0_within_seconds() {
    let s = one_stalled();
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    let mut e = exporter(
        &s.base(),
        dir.path(),
        &["--scrape-timeout", "20s", P1, P2],
        &err,
    );
    let addr = e.addr.clone();
    let scraping = std::thread::spawn(move || scrape(&addr, &[], 30));
    // The scrape is in: P2's request reached the stalled upstream.
    wait_until(Duration::from_secs(20), "P2's request", || {
        s.api().iter().any(|r| r.path.contains(P2))
    });
    let pid = e.child.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let code = exit_within(&mut e.child, Duration::from_secs(5 + 4))
        .expect("still running 9 s after SIGTERM")
        .code();
    assert_eq!(code, Some(0));
    let (status, body, _) = scraping.join().unwrap().expect("the scrape answered");
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains(&up(P2, 0)), "{body}");
}
