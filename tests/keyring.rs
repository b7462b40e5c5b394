//! The OS keyring store against a real Secret Service, and the fallback
//! when there is none. The real-keyring test is ignored by a plain `cargo
//! test` (counted as ignored, never passed by skipping); `scripts/test.sh`
//! runs it inside a session bus with an unlocked keyring:
//!
//!   dbus-run-session -- bash -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; cargo test --test keyring -- --ignored'

#[path = "it/common/mod.rs"]
mod common;

use common::login;

use std::path::Path;
use std::time::{Duration, Instant};

use common::faultserver::{FaultServer, json, route};
use common::*;
use login::ylem_in;

const STATS1: &str = r#"{"num_of_successes":1,"num_of_failures":0,"average_duration":5,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":5}"#;

fn server() -> FaultServer {
    let s = token_server();
    s.on(route()
        .path_like("*/stats/*")
        .header("authorization", format!("Bearer {TOKEN}"))
        .answer(json(200, STATS1)));
    s
}

fn token_requests(s: &FaultServer) -> usize {
    s.count_where(|r| r.path_only() == "/v1/oauth/token")
}

/// No file under `dir` holds a secret.
fn assert_no_secret_files(dir: &Path) {
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            for s in [SECRET, TOKEN, REFRESH] {
                assert!(!text.contains(s), "a secret is in {}", p.display());
            }
        }
    }
}

fn login_args<'a>(base: &'a str, store: &'a str) -> Vec<&'a str> {
    vec![
        "login",
        "--base-url",
        base,
        "--client-id",
        CLIENT_ID,
        "--client-secret-stdin",
        "--store",
        store,
    ]
}

#[test]
#[ignore = "needs a Secret Service: scripts/test.sh runs it in dbus-run-session"]
fn the_keyring_store_keeps_the_secret_out_of_the_config_dir() {
    let bus = std::env::var("DBUS_SESSION_BUS_ADDRESS")
        .expect("a session bus: run it as the top of tests/keyring.rs says");
    let env = [("DBUS_SESSION_BUS_ADDRESS", bus.as_str())];
    let s = server();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = ylem_in(d, &login_args(&s.base(), "keyring"), Some(SECRET), &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    assert!(config.contains("store = \"keyring\""), "{config}");
    assert!(!d.join("credentials").exists());
    assert_no_secret_files(d);

    for _ in 0..3 {
        let o = ylem_in(d, &["stats", "task", P1, "-vv"], None, &env);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert!(!o.all().contains(TOKEN) && !o.all().contains(SECRET));
    }
    assert_eq!(
        token_requests(&s),
        1,
        "the token was not cached in the keyring"
    );
    let o = ylem_in(d, &["auth", "status"], None, &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("keyring") && o.stdout.contains("stored"),
        "{}",
        o.stdout
    );
    let o = ylem_in(d, &["auth", "token"], None, &env);
    assert_eq!(o.stdout, format!("{TOKEN}\n"), "{}", o.stderr);

    let o = ylem_in(d, &["logout"], None, &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = ylem_in(d, &["stats", "task", P1], None, &env);
    assert_eq!(
        o.code, 3,
        "the secret is still in the keyring: {}",
        o.stderr
    );
    assert_no_secret_files(d);
}

#[test]
fn without_a_session_bus_auto_falls_back_to_the_file_and_keyring_fails_fast() {
    // The binary runs with a clean environment: no DBUS_SESSION_BUS_ADDRESS.
    let s = server();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = ylem_in(d, &login_args(&s.base(), "auto"), Some(SECRET), &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stderr.matches("warning").count(), 1, "{}", o.stderr);
    assert!(o.stderr.contains("0600"), "{}", o.stderr);
    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    assert!(config.contains("store = \"file\""), "{config}");
    let o = ylem_in(d, &["stats", "task", P1], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stderr.contains("warning"), "{}", o.stderr);

    // Asked for explicitly, a missing keyring is an error with a hint, fast.
    let other = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let o = ylem_in(
        other.path(),
        &login_args(&s.base(), "keyring"),
        Some(SECRET),
        &[],
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(
        o.stderr.contains("hint:") && o.stderr.contains("--store file"),
        "{}",
        o.stderr
    );
    assert!(!other.path().join("config.toml").exists());
    // CI means the file store, with no warning.
    let o = ylem_in(
        other.path(),
        &login_args(&s.base(), "auto")[..6],
        Some(SECRET),
        &[("CI", "true")],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stderr.contains("warning"), "{}", o.stderr);
}
