//! SIGTERM, a supervisor's request to stop: `logs --follow` ends with its
//! output whole (a closed JSON array, whole CSV rows) and exit 0; `run
//! --wait` exits 143 naming the run, which goes on, and the command
//! that follows it to its verdict (`runs P --run R --wait`). The helpers
//! here serve `metrics::deadline` too.

use std::io::Read;
use std::process::{Child, Command};
use std::time::Duration;

use serde_json::Value;

use crate::common::process::exit_within;
use crate::common::sandbox::{Sandbox, start_with};

/// A child killed when dropped, so that a failed assertion leaves nothing
/// running.
pub struct Running(pub Option<Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(c) = self.0.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// `ylemctl ARGS` against the sandbox, as a child with piped output.
pub fn spawn(sb: &Sandbox, args: &[&str]) -> Running {
    Running(Some(spawn_child(sb, args)))
}

fn spawn_child(sb: &Sandbox, args: &[&str]) -> Child {
    sb.spawn("sigterm", args)
}

/// Wait (at most 20 s) until the sandbox has seen a request that `f` likes.
pub fn until_request(sb: &Sandbox, what: &str, f: impl Fn(&[String]) -> bool) {
    sb.wait_requests(Duration::from_secs(20), what, |r| f(r));
}

/// SIGTERM the child, then wait (at most 20 s) for its code and output.
pub fn terminate(mut r: Running) -> (i32, String, String) {
    let c = r.0.as_mut().unwrap();
    let pid = c.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let Some(status) = exit_within(c, Duration::from_secs(20)) else {
        let _ = c.kill();
        panic!("SIGTERM was ignored");
    };
    let code = status.code().unwrap_or(-1);
    let (mut out, mut err) = (String::new(), String::new());
    c.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    c.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (code, out, err)
}

fn logs_polls(r: &[String]) -> usize {
    r.iter().filter(|l| l.contains("/logs/")).count()
}

#[test]
fn sigterm_ends_a_follow_with_its_output_whole() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    // Entries to print: a run, and then the follow reads it back.
    let o = sb.run(&["run", "pipeline", &p]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for format in ["json", "csv"] {
        let before = logs_polls(&sb.requests());
        let child = spawn(&sb, &["logs", &p, "-f", "--since", "1h", "-o", format]);
        // Two polls seen: the follow is past its first output, in its loop.
        until_request(&sb, "polled twice", |r| logs_polls(r) >= before + 2);
        let (code, out, err) = terminate(child);
        assert_eq!(code, 0, "-o {format}: {err}");
        if format == "json" {
            let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
            assert!(!v.as_array().unwrap().is_empty(), "{out}");
        } else {
            assert!(out.ends_with('\n'), "a cut row: {out}");
            let mut rows = csv::Reader::from_reader(out.as_bytes());
            let width = rows.headers().unwrap().len();
            let mut n = 0;
            for r in rows.records() {
                assert_eq!(r.unwrap().len(), width, "{out}");
                n += 1;
            }
            assert!(n > 0, "{out}");
        }
    }
}

#[test]
fn sigterm_during_run_wait_exits_143_and_names_the_run() {
    // Slow tasks: the run is still going when the signal comes.
    let sb = start_with("ylem", &["--task-delay", "2s"]);
    let p = sb.pipelines[0].0.clone();
    let child = spawn(&sb, &["run", "pipeline", &p, "--wait", "--poll", "200ms"]);
    // Waiting: the run was started and its log asked after.
    until_request(&sb, "waiting", |r| {
        r.iter()
            .position(|l| l.ends_with("/runs/"))
            .is_some_and(|i| r[i..].iter().any(|l| l.contains("/logs/")))
    });
    let (code, _, err) = terminate(child);
    assert_eq!(code, 143, "{err}");
    let run = err
        .split("the run goes on on the server: ")
        .nth(1)
        .and_then(|r| r.get(..36))
        .unwrap_or_else(|| panic!("no run named: {err}"));
    assert!(
        err.contains(&format!("'ylemctl runs {p} --run {run} --wait'")),
        "{err}"
    );
    // The run it names is the one the sandbox started, and it goes on.
    assert_eq!(sb.truth(run)["pipeline"], p.as_str());
    let starts: Vec<String> = sb
        .requests()
        .into_iter()
        .filter(|l| l.ends_with("/runs/"))
        .collect();
    assert_eq!(starts.len(), 1, "one run start: {starts:?}");
}
