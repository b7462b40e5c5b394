//! Interrupts and closed pipes: SIGINT during `run --wait` and during a
//! long `logs` exits 130 and leaves the token cache and config as they were;
//! `ylemctl logs ... | head -1` exits 0 with nothing on stderr.

use crate::common;
use crate::common::login;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::faultserver::*;
use common::report::Scenario;
use common::*;

const RUN: &str = "9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a";

/// The config file and the credential store, byte for byte.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = vec![dir.join("config.toml")];
    for e in std::fs::read_dir(dir.join("credentials")).unwrap() {
        files.push(e.unwrap().path());
    }
    files
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

/// Start `args` logged in at `dir`, SIGINT it once `ready` holds for the
/// server, and return what it printed. Every wait is bounded.
fn interrupt(s: &FaultServer, dir: &Path, args: &[&str], ready: fn(&Seen) -> bool) -> Out {
    let out = dir.join("out.txt");
    let err = dir.join("err.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    process::wait_until(Duration::from_secs(20), "the command to get going", || {
        s.api().iter().any(ready)
    });
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own child by its pid.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let Some(status) = process::exit_within(&mut child, Duration::from_secs(15)) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{args:?} ignored SIGINT");
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    let o = Out {
        code: status.code().unwrap_or(-1),
        stdout: read(&out),
        stderr: read(&err),
    };
    std::fs::remove_file(out).unwrap();
    std::fs::remove_file(err).unwrap();
    o
}

fn logged_in(s: &FaultServer) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let o = login::login(dir.path(), &s.base(), SECRET);
    assert_eq!(o.code, 0, "{}", o.stderr);
    dir
}

#[test]
fn ctrl_c_during_run_wait_and_logs_exits_130_and_keeps_the_files() {
    let mut sc = Scenario::new(
        "sigint-wait-and-logs",
        "interrupt",
        "SIGINT during run --wait and during a slow logs stream exits 130; config and credential files unchanged",
    );
    let s = with_token(|r, _| {
        if r.method == "POST" {
            Action::Raw(json(201, &format!(r#"{{"pipeline_run_uuid":"{RUN}"}}"#)))
        } else if r.path.contains("/logs/") && r.path.contains("2000-01-01") {
            Action::Trickle {
                head: open_head(200),
                body: log_array(3000).into_bytes(),
                chunk: 64,
                every: Duration::from_millis(50),
            }
        } else {
            Action::Raw(json(200, "[]"))
        }
    });
    let dir = logged_in(&s);
    let before = snapshot(dir.path());
    let wait = [
        "run",
        "pipeline",
        P1,
        "--wait",
        "--poll",
        "200ms",
        "--timeout",
        "5m",
    ];
    let o = interrupt(&s, dir.path(), &wait, |r| r.path.contains("/logs/"));
    assert_eq!(o.code, 130, "{}", o.stderr);
    // After the start: the run goes on, and the hint says how to follow it.
    assert!(
        o.stderr.contains("goes on on the server")
            && o.stderr
                .contains(&format!("ylemctl runs {P1} --run {RUN} --wait")),
        "{}",
        o.stderr
    );
    assert_eq!(s.count("POST") - 1, 1, "one run start");
    assert_eq!(
        snapshot(dir.path()),
        before,
        "files changed by an interrupted wait"
    );
    sc.check(&o);
    let logs = ["logs", P1, "--from", "2000-01-01", "-o", "jsonl"];
    let o = interrupt(&s, dir.path(), &logs, |r| r.path.contains("2000-01-01"));
    assert_eq!(o.code, 130, "{}", o.stderr);
    assert_eq!(
        snapshot(dir.path()),
        before,
        "files changed by interrupted logs"
    );
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}

#[test]
fn a_reader_that_closes_the_pipe_early_is_not_an_error() {
    let mut sc = Scenario::new(
        "pipe-head-1",
        "interrupt",
        "logs | head -1 in each output format exits 0 with an empty stderr",
    );
    let big = log_array(20_000);
    let s = with_token(move |_, _| Action::Raw(json(200, &big)));
    let dir = tempfile::tempdir().unwrap();
    let err = dir.path().join("err.txt");
    for format in ["jsonl", "csv", "json", "table"] {
        let o = Command::new("bash")
            .arg("-c")
            .arg(r#""$0" logs "$1" -o "$2" 2>"$3" | head -1 >/dev/null; echo "${PIPESTATUS[0]}""#)
            .args([
                env!("CARGO_BIN_EXE_ylemctl"),
                P1,
                format,
                err.to_str().unwrap(),
            ])
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("YLEM_CONFIG_DIR", dir.path())
            .env("YLEM_BASE_URL", s.base())
            .env("YLEM_CLIENT_ID", CLIENT_ID)
            .env("YLEM_CLIENT_SECRET", SECRET)
            .output()
            .unwrap();
        let code = String::from_utf8_lossy(&o.stdout).trim().to_string();
        let stderr = std::fs::read_to_string(&err).unwrap();
        assert_eq!(code, "0", "-o {format}: {stderr}");
        assert_eq!(stderr, "", "-o {format}");
        sc.check_text("stderr", &stderr);
        std::fs::remove_file(&err).unwrap();
    }
    sc.check_dir(dir.path());
    sc.done();
}
