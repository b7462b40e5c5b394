//! `logs` (one read, not `--follow`) leaves its output whole however it
//! ends: a body cut off (exit 5), Ctrl-C (130), SIGTERM (143) or
//! `--max-time` (6) after some rows gives a JSON array that parses with
//! every row that came, and CSV of whole rows.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::faultserver::*;
use common::report::Scenario;
use common::*;

const FROM: &str = "2024-01-13 00:00:00";
const TO: &str = "2024-01-14 00:00:00";

/// The first `n` rows of a log, as a body cut after them.
fn rows(n: usize) -> String {
    let all = log_array(n);
    all[..all.len() - 1].to_string() + ","
}

/// A server that sends three rows, then nothing for a minute.
fn stalling() -> FaultServer {
    FaultServer::start(|_, _| {
        let mut head = open_head(200);
        head.extend_from_slice(rows(3).as_bytes());
        Action::Trickle {
            head,
            body: b" ".to_vec(),
            chunk: 1,
            every: Duration::from_secs(60),
        }
    })
}

/// Start `logs` with `format` against `base`, send `signal` once its three
/// rows are out (or, with none, let `--max-time` end it), and return what
/// it printed. Every wait is bounded.
fn stopped(base: &str, dir: &Path, format: &str, signal: Option<i32>) -> Out {
    let out = dir.join(format!("out-{format}-{signal:?}"));
    let err = dir.join(format!("err-{format}-{signal:?}"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir)
        .env("YLEM_BASE_URL", base)
        .env("YLEM_TOKEN", TOKEN)
        .args(["logs", P1, "--from", FROM, "--to", TO, "-o", format]);
    if signal.is_none() {
        c.args(["--max-time", "3s"]);
    }
    let mut child = c
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let printed = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    if let Some(sig) = signal {
        while printed(&out).matches("query").count() < 3 {
            assert!(started.elapsed() < Duration::from_secs(20), "no rows came");
            std::thread::sleep(Duration::from_millis(50));
        }
        // SAFETY: signalling our own child by its pid.
        assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("logs -o {format} did not end on {signal:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Out {
        code: status.code().unwrap_or(-1),
        stdout: printed(&out),
        stderr: printed(&err),
    }
}

fn assert_three_rows(what: &str, format: &str, o: &Out) {
    match format {
        "json" => {
            let v: serde_json::Value = serde_json::from_str(&o.stdout)
                .unwrap_or_else(|e| panic!("{what}: not a JSON array: {e}: {:?}", o.stdout));
            assert_eq!(v.as_array().map(Vec::len), Some(3), "{what}: {}", o.stdout);
        }
        _ => {
            let mut r = csv::Reader::from_reader(o.stdout.as_bytes());
            let mut n = 0;
            for rec in r.records() {
                rec.expect("a whole CSV row");
                n += 1;
            }
            assert_eq!(n, 3, "{what}: {}", o.stdout);
            assert!(o.stdout.ends_with('\n'), "{what}: {:?}", o.stdout);
        }
    }
}

#[test]
fn a_cut_off_body_still_closes_the_array() {
    let mut sc = Scenario::new(
        "logs-cut-off-json",
        "fault",
        "logs -o json|csv on a body cut off after three rows: exit 5 and a JSON array that parses with the three rows (CSV: three whole rows)",
    );
    for cut_after in ["", "{\"workflow_run_uuid\":\"9d1c"] {
        let mut head = open_head(200);
        head.extend_from_slice(format!("{}{cut_after}", rows(3)).as_bytes());
        let s = FaultServer::start(move |_, _| Action::Raw(head.clone()));
        for format in ["json", "csv"] {
            let o = run_env(
                &["logs", P1, "--from", FROM, "--to", TO, "-o", format],
                &token_env(&s.base()),
            );
            sc.check(&o);
            assert_eq!(o.code, 5, "{format}: {}", o.stderr);
            assert_three_rows("cut off", format, &o);
        }
    }
    sc.done();
}

#[test]
fn sigint_sigterm_and_max_time_leave_a_whole_array() {
    let mut sc = Scenario::new(
        "logs-stopped-json",
        "interrupt",
        "logs -o json|csv stopped after three rows by SIGINT (130), SIGTERM (143) or --max-time (6): a JSON array that parses with the three rows, CSV of whole rows",
    );
    let s = stalling();
    let dir = tempfile::tempdir().unwrap();
    for format in ["json", "csv"] {
        for (signal, code) in [
            (Some(libc::SIGINT), 130),
            (Some(libc::SIGTERM), 143),
            (None, 6),
        ] {
            let o = stopped(&s.base(), dir.path(), format, signal);
            sc.check(&o);
            let what = format!("{format} {signal:?}");
            assert_eq!(o.code, code, "{what}: {}", o.stderr);
            assert_three_rows(&what, format, &o);
        }
    }
    sc.done();
}
