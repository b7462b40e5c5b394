//! Followers end with their reader (issue 44): `logs -f`, `watch`'s event
//! stream, `run --wait` and `runs --run R --wait` on a quiet pipeline,
//! their output piped to `head -1`, `grep -m1` or a reader that closes at
//! once, end within 2 s of the reader going (the descriptor is polled, as
//! GNU `tail -f` does), exit 0, and a run waited for is named on stderr.
//! Each child runs under `timeout`, so a regression fails the test (the
//! shell's status is `timeout`'s 137), not the run.

use crate::common;

use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::faultserver::*;
use common::process::try_wait_for;
use common::sandbox::start_with;
use common::*;

/// The longest a follower may outlive its reader.
const WITHIN: Duration = Duration::from_secs(2);

/// One entry a minute old, then nothing new: a quiet pipeline's log.
fn quiet_log() -> FaultServer {
    let at = (chrono::Utc::now() - chrono::Duration::minutes(1))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let body = format!(
        r#"[{{"workflow_run_uuid":"9d1c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a","task_uuid":"1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d","task_type":"query","is_successful":true,"duration":5,"output":"eyJvayI6dHJ1ZX0=","metric_value":null,"executed_at":"{at}"}}]"#
    );
    FaultServer::start(move |_, _| Action::Raw(json(200, &body)))
}

/// `ylemctl ARGS | READER` under bash's pipefail, the child under
/// `timeout -s KILL 30`: the pipeline's status and how long it took.
fn piped(args: &[&str], env: &[(&str, &str)], reader: &str) -> (i32, Duration, String) {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let o = Command::new("bash")
        .args([
            "-o",
            "pipefail",
            "-c",
            &format!("timeout -s KILL 30 \"$@\" | {reader} >/dev/null"),
            "follower",
            env!("CARGO_BIN_EXE_ylemctl"),
        ])
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir.path())
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        started.elapsed(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `ylemctl ARGS` with its stdout read until `first` lines came, then
/// closed: how long it lived on after, its exit code and stderr.
fn after_reader(args: &[&str], env: &[(&str, &str)], first: usize) -> (Duration, i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Command::new("timeout")
        .args(["-s", "KILL", "30", env!("CARGO_BIN_EXE_ylemctl")])
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir.path())
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(c.stdout.take().unwrap());
    for _ in 0..first {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "{args:?}: no line");
    }
    drop(out);
    let gone = Instant::now();
    let status = c.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut c.stderr.take().unwrap(), &mut err).unwrap();
    (gone.elapsed(), status.code().unwrap_or(-1), err)
}

#[test]
fn logs_follow_ends_with_head_and_grep_on_a_quiet_pipeline() {
    let s = quiet_log();
    let env = token_env(&s.base());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for format in ["table", "jsonl", "csv"] {
        let args = ["logs", P1, "-f", "-o", format];
        let (gone, code, err) = after_reader(&args, &env, 1);
        assert_eq!(code, 0, "{format}: {err}");
        assert!(gone < WITHIN, "{format}: ended {gone:?} after its reader");
        for reader in ["head -1", "grep -m1 ."] {
            let (code, took, err) = piped(&args, &env, reader);
            assert_eq!(code, 0, "{format} | {reader}: {err}");
            eprintln!("logs -f -o {format} | {reader}: {took:?}");
        }
    }
}

#[test]
fn watch_run_wait_and_runs_wait_end_when_their_output_goes() {
    // Tasks of 20 s: the runs stay going while the followers wait.
    let sb = start_with("ylem", &["--task-delay", "20s"]);
    let p = sb.pipelines[0].0.clone();
    let env = [
        ("YLEM_BASE_URL", sb.base.as_str()),
        ("YLEM_CLIENT_ID", sb.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", sb.secret.as_str()),
    ];
    // watch's stream (off a terminal): the history's runs replayed, then
    // quiet; it ends with `head -1` and `grep -m1`.
    for reader in ["head -1", "grep -m1 ."] {
        let (code, took, err) = piped(&["watch", &p, "--since", "7d", "-o", "jsonl"], &env, reader);
        assert_eq!(code, 0, "watch | {reader}: {err}");
        eprintln!("watch | {reader}: {took:?}");
    }
    // run --wait prints nothing until the run ends: its reader goes after
    // a second of the wait (`sleep 1`), the heartbeat on stderr meanwhile.
    let (code, took, err) = piped(
        &["run", "pipeline", &p, "--wait", "--heartbeat", "1s"],
        &env,
        "sleep 1",
    );
    assert_eq!(code, 0, "run --wait | sleep 1: {err}");
    assert!(
        took < Duration::from_secs(1) + WITHIN,
        "run --wait took {took:?}"
    );
    assert!(
        err.contains("output closed: the run goes on on the server: "),
        "{err}"
    );
    let run = sb.json(&["run", "pipeline", &p])["run_uuid"]
        .as_str()
        .unwrap()
        .to_string();
    let (code, took, err) = piped(
        &["runs", &p, "--run", &run, "--wait", "--heartbeat", "1s"],
        &env,
        "sleep 1",
    );
    assert_eq!(code, 0, "runs --wait | sleep 1: {err}");
    assert!(
        took < Duration::from_secs(1) + WITHIN,
        "runs --wait took {took:?}"
    );
    assert!(err.contains(&run), "{err}");
}

/// `run pipeline P` whose stdout is a pipe closed before it writes: the
/// run started goes on on the server, so its UUID is said on stderr (the
/// one place left), exit 0 as a closed pipe is (issue 43).
#[test]
fn a_run_started_with_stdout_closed_is_named_on_stderr() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    let mut c = sb.spawn("closed-run", &["run", "pipeline", &p]);
    drop(c.stdout.take());
    let status = c.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut c.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    let said = err
        .lines()
        .find_map(|l| l.strip_prefix("output closed: the run goes on on the server: "))
        .unwrap_or_else(|| panic!("no run named: {err}"));
    // The sandbox's truth knows the run named: it started.
    assert!(sb.truth(said.trim())["reported"].is_number(), "{err}");
}

/// `run --wait -o junit` stopped by SIGINT or SIGTERM while it waits
/// writes the report of what is known: the run started, not ended, going
/// on on the server (issue 43; it used to write nothing).
#[test]
fn an_interrupted_junit_wait_writes_its_report() {
    let sb = start_with("ylem", &["--task-delay", "20s"]);
    let p = sb.pipelines[0].0.clone();
    for (sig, code) in [("-INT", 130), ("-TERM", 143)] {
        let before = sb.requests().len();
        let mut c = sb.spawn(
            "junit-stop",
            &["run", "pipeline", &p, "--wait", "-o", "junit"],
        );
        // Wait (bounded) for the wait's first look at the log after the
        // start: the run is started and known to the command.
        let looked = try_wait_for(std::time::Duration::from_secs(10), || {
            let r = sb.requests().split_off(before);
            let start = r
                .iter()
                .rposition(|q| q.contains("POST") && q.contains("/runs"));
            start
                .is_some_and(|i| r[i..].iter().any(|q| q.contains("/logs")))
                .then_some(())
        });
        assert!(looked.is_some(), "{sig}: the wait never looked at the log");
        Command::new("kill")
            .args([sig, &c.id().to_string()])
            .status()
            .unwrap();
        let status = c.wait().unwrap();
        let mut out = String::new();
        std::io::Read::read_to_string(&mut c.stdout.take().unwrap(), &mut out).unwrap();
        assert_eq!(status.code(), Some(code), "{sig}: {out}");
        assert!(out.starts_with("<?xml"), "{sig}: {out}");
        assert!(out.contains("run_uuid"), "{sig}: {out}");
        assert!(out.contains("goes on on the server"), "{sig}: {out}");
        // Whole: one run, one suite, closed.
        assert!(out.trim_end().ends_with("</testsuite>"), "{sig}: {out}");
    }
}
