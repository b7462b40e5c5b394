//! A scrape always answers by its deadline: one ID's upstream stalled 25 s
//! (no answer at all) is `ylem_up 0` while a good ID has its values; the
//! deadline is `--scrape-timeout` or Prometheus' header when shorter; a
//! SIGTERM during a scrape that waits on the stalled ID ends the exporter
//! with exit 0 within the stop's grace (5 s), the scrape answered, as one
//! in flight against a slow sandbox is.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::Command;
use std::time::Duration;

use super::{exporter, scrape};
use crate::common::faultserver::*;
use crate::common::process::{exit_within, wait_until};
use crate::common::sandbox::start_with;
use crate::common::{P1, P2};
use crate::ending::sigterm::{spawn, terminate, until_request};

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

/// A scrape started before SIGTERM is answered whole; then exit 0.
#[test]
fn sigterm_lets_the_exporter_finish_the_scrape_in_flight() {
    // Every sandbox answer takes 1.5 s, so the scrape is in flight for a
    // while after its first request reached the sandbox.
    let sb = start_with("spec", &["--latency", "1500ms"]);
    let p0 = sb.pipelines[0].0.clone();
    let mut child = spawn(
        &sb,
        &[
            "metrics",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--cache",
            "1s",
            &p0,
        ],
    );
    let mut line = String::new();
    BufReader::new(child.0.as_mut().unwrap().stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("Serving http://")
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    let scrape = std::thread::spawn(move || {
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(s, "GET /metrics HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        text
    });
    until_request(&sb, "scraped", |r| {
        r.iter().any(|l| l.contains("/v1/stats/"))
    });
    let (code, _, err) = terminate(child);
    assert_eq!(code, 0, "{err}");
    let text = scrape.join().unwrap();
    assert!(
        text.starts_with("HTTP/1.0 200") || text.starts_with("HTTP/1.1 200"),
        "{text}"
    );
    assert!(
        text.contains(&format!("ylem_up{{kind=\"pipeline\",uuid=\"{p0}\"}} 1")),
        "{text}"
    );
}
