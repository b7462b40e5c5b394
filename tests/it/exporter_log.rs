//! A long-running `metrics serve` logs quietly: an ID that fails is logged
//! once when it starts failing and once when it recovers (with how many
//! scrapes it failed), while `ylem_up` says its state at every scrape.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::common::faultserver::*;
use crate::common::process::Killed;
use crate::common::{CLIENT_ID, P1, SECRET};

/// The exporter, killed when dropped (also when an assertion fails).
/// A plain GET of /metrics on `addr`: the body.
fn scrape(addr: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(s, "GET /metrics HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    assert!(
        text.starts_with("HTTP/1.1 200") || text.starts_with("HTTP/1.0 200"),
        "{text}"
    );
    text.split_once("\r\n\r\n").unwrap().1.to_string()
}

#[test]
fn a_failing_id_is_logged_when_it_fails_and_when_it_recovers() {
    let down = Arc::new(AtomicBool::new(true));
    let d = down.clone();
    let s = with_token(move |r, _| {
        if d.load(Ordering::SeqCst) {
            Action::Raw(json(500, r#"{"code":500,"message":"Internal error"}"#))
        } else if r.path.contains("/last-run/") {
            let last =
                r#"{"is_successful":true,"executed_at":"2024-01-13 18:36:58","duration":1200}"#;
            Action::Raw(json(200, last))
        } else if r.path.contains("/logs/") {
            // The last run's own entries, which confirm it.
            let log = r#"[{"workflow_run_uuid":"60b04f58-0000-4000-8000-000000000001","task_uuid":"d29fdd6c-4a5b-466f-bcac-c82e7015a133","task_type":"query","is_successful":true,"duration":1200,"output":"","executed_at":"2024-01-13T18:36:58Z"}]"#;
            Action::Raw(json(200, log))
        } else {
            Action::Raw(json(200, STATS))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_ylemctl"))
            .env_clear()
            .env("YLEM_CONFIG_DIR", dir.path())
            .env("YLEM_BASE_URL", s.base())
            .env("YLEM_CLIENT_ID", CLIENT_ID)
            .env("YLEM_CLIENT_SECRET", SECRET)
            .args(["metrics", "serve", "--listen", "127.0.0.1:0"])
            .args(["--cache", "0s", "--retries", "0", P1])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .strip_prefix("Serving http://")
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
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
