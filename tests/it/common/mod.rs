//! Helpers for black-box tests: run the built binary with a clean environment
//! and look at what it printed.
#![allow(dead_code)]

pub mod certs;
pub mod docs;
pub mod exporter;
pub mod faultserver;
pub mod login;
pub mod measured;
pub mod process;
pub mod pty;
pub mod receiver;
pub mod report;
pub mod sandbox;

use std::process::{Command, Stdio};

pub const TOKEN: &str = "tok-AAAABBBBCCCCDDDDEEEEFFFF0000111122223333";
pub const SECRET: &str = "sec-ZZZZYYYYXXXXWWWWVVVVUUUU9999888877776666";
pub const REFRESH: &str = "ref-QQQQPPPPOOOONNNNMMMMLLLL5555444433332222";
pub const CLIENT_ID: &str = "0b0e8b5c-3c1a-4f6e-9a57-2f0c7d8e9f10";
pub const P1: &str = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";
pub const P2: &str = "7c9d2e1f-0a1b-4c2d-9e3f-4a5b6c7d8e9f";

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    /// Both streams, for searching for leaked secrets.
    pub fn all(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// Run `ylemctl` with only the given environment (plus PATH).
pub fn ylem(args: &[&str], env: &[(&str, &str)]) -> Out {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    // Never the user's own profiles: a config directory of the test's own
    // unless the test names one.
    if !env.iter().any(|(k, _)| *k == "YLEM_CONFIG_DIR") {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("ylemctl-test-{}-{n}", std::process::id()));
        c.env("YLEM_CONFIG_DIR", dir);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let o = c
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ylemctl");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Environment for a fixed token against `base`.
pub fn token_env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("YLEM_BASE_URL", base.to_string()),
        ("YLEM_TOKEN", TOKEN.to_string()),
    ]
}

/// Environment for the client credentials (CLIENT_ID, SECRET) against
/// `base`: the CLI fetches its token from `base`'s token endpoint.
pub fn client_env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("YLEM_BASE_URL", base.to_string()),
        ("YLEM_CLIENT_ID", CLIENT_ID.to_string()),
        ("YLEM_CLIENT_SECRET", SECRET.to_string()),
    ]
}

/// No secret value (the client secret, the access or the refresh token)
/// anywhere in the command's stdout or stderr.
pub fn assert_no_secret(o: &Out) {
    for s in [SECRET, TOKEN, REFRESH] {
        assert!(
            !o.all().contains(s),
            "a secret reached the output:\n{}",
            o.all()
        );
    }
}

pub fn run_env(args: &[&str], env: &[(&'static str, String)]) -> Out {
    let e: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    ylem(args, &e)
}

/// A fault server whose token endpoint answers TOKEN and REFRESH for a
/// day; tests add the routes they are about.
pub fn token_server() -> faultserver::FaultServer {
    let s = faultserver::FaultServer::routed();
    s.on(faultserver::route()
        .path("/v1/oauth/token")
        .answer_with(|_| faultserver::token_response()));
    s
}

/// Sleep until just past the system clock's next whole second: the second
/// of anything that happened before the call is then over.
pub fn next_second() {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};
    let into = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    std::thread::sleep(
        Duration::from_nanos(1_000_000_000 - u64::from(into)) + Duration::from_millis(10),
    );
}
