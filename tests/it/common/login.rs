//! Shared by the credential tests: run the binary with `YLEM_CONFIG_DIR`
//! and stdin, log in with the file store, a token server that counts grants,
//! and checks that no secret reached the output or a file outside the store.
#![allow(dead_code)]

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use super::faultserver::{FaultServer, json, route};
use super::*;

pub const STATS: &str = r#"{"num_of_successes":12,"num_of_failures":3,"average_duration":1534,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1200}"#;
pub const TOKEN2: &str = "tok-2222BBBBCCCCDDDDEEEEFFFF0000111122223333";
pub const REFRESH2: &str = "ref-2222PPPPOOOONNNNMMMMLLLL5555444433332222";

/// A token answer: `token` and `refresh` for `expires_in` seconds.
pub fn token_json(token: &str, refresh: &str, expires_in: u64) -> Vec<u8> {
    json(
        200,
        &format!(
            r#"{{"access_token":"{token}","expires_in":{expires_in},"refresh_token":"{refresh}","scope":"pipelines:run,stats:read","token_type":"Bearer"}}"#
        ),
    )
}

/// Run with `YLEM_CONFIG_DIR=dir`, optional stdin and extra variables.
pub fn ylem_in(dir: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Out {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir);
    for (k, v) in env {
        c.env(k, v);
    }
    c.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("run ylemctl");
    if let Some(input) = stdin {
        // The child may exit before reading (e.g. a corrupt config stops a
        // login first): a broken pipe here is not the test's concern.
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    }
    let o = child.wait_with_output().unwrap();
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

pub fn login(dir: &Path, base: &str, secret: &str) -> Out {
    ylem_in(
        dir,
        &[
            "login",
            "--base-url",
            base,
            "--client-id",
            CLIENT_ID,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{secret}\n")),
        &[],
    )
}

/// A server answering the client-credentials grant with `expires_in` and
/// the refresh grant with TOKEN2 for a day; stats need TOKEN or TOKEN2.
pub fn server(expires_in: u64) -> FaultServer {
    let s = FaultServer::routed();
    let token = || route().method("POST").path("/v1/oauth/token");
    s.on(token()
        .body_has("grant_type=client_credentials")
        .body_has(format!("client_secret={SECRET}"))
        .answer(token_json(TOKEN, REFRESH, expires_in)));
    s.on(token()
        .body_has("grant_type=refresh_token")
        .body_has(format!("refresh_token={REFRESH}"))
        .answer(token_json(TOKEN2, REFRESH2, 86400)));
    s.on(route().path("/v1/oauth/token").answer(json(
        401,
        r#"{"error":"invalid_client","error_description":"bad"}"#,
    )));
    for t in [TOKEN, TOKEN2] {
        s.on(route()
            .path_like("*/stats/*")
            .header("authorization", format!("Bearer {t}"))
            .answer(json(200, STATS)));
    }
    s
}

/// Token requests received with this grant type.
pub fn grants(s: &FaultServer, grant: &str) -> usize {
    let want = format!("grant_type={grant}");
    s.count_where(|r| r.path_only() == "/v1/oauth/token" && r.body.contains(&want))
}

pub fn stats_requests(s: &FaultServer) -> usize {
    s.count_where(|r| r.path_only().contains("/stats/"))
}

pub fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Every file under `dir` outside the file store, with its contents.
pub fn files_outside_store(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p != dir.join("credentials") {
                    todo.push(p);
                }
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                out.push((p.display().to_string(), text));
            }
        }
    }
    out
}

pub fn assert_clean(o: &Out, dir: &Path) {
    for s in [SECRET, TOKEN, REFRESH, TOKEN2, REFRESH2] {
        assert!(
            !o.all().contains(s),
            "a secret reached the output:\n{}",
            o.all()
        );
        for (f, text) in files_outside_store(dir) {
            assert!(!text.contains(s), "a secret is in {f}");
        }
    }
}
