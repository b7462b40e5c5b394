//! Attaching to a run against the sandbox's ground truth
//! (`/_sandbox/runs/<run>`): `runs P --run R --wait --exit-status` for a run
//! started by another process gives 0 when the truth says it succeeded, 7
//! when it failed, 8 when `--wait-timeout` runs out first; a run not
//! reported yet is waited for; Ctrl-C/SIGTERM name the command that attaches
//! again; `logs -f --run R` says once that R has no entry yet; a kind
//! prefix that contradicts an alias's kind is exit 2 with nothing sent.

use std::io::Read;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::process::{exit_within, wait_until};
use crate::common::sandbox::{Sandbox, start_with};

/// Start a run of `p` as another process would (`run` without `--wait`):
/// its run UUID.
fn start(sb: &Sandbox, p: &str) -> String {
    let o = sb.run(&["run", "pipeline", p, "-o", "jsonl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(o.stdout.lines().next().unwrap()).unwrap();
    v["run_uuid"].as_str().unwrap().to_string()
}

/// `runs P --run R --wait --exit-status -o json`: exit code and the run.
fn attach(sb: &Sandbox, p: &str, run: &str) -> (i32, Value, String) {
    let o = sb.run(&[
        "runs",
        p,
        "--run",
        run,
        "--wait",
        "--exit-status",
        "--poll",
        "300ms",
        "-o",
        "json",
    ]);
    let v = serde_json::from_str(&o.stdout).unwrap_or(Value::Null);
    (o.code, v, o.stderr)
}

/// The verdict agrees with the truth: 0 for a run that succeeded (and has
/// finished), 7 for one that failed, with the truth's failed task.
fn agrees(sb: &Sandbox, run: &str, code: i32, v: &Value, err: &str) -> bool {
    let t = sb.truth(run);
    assert_eq!(v["run_uuid"], run, "{err}");
    if t["is_successful"] == true {
        assert_eq!(code, 0, "{run}: {t} {v} {err}");
        assert_eq!(t["finished"], true, "success before the end: {t}");
        assert_eq!(v["result"], "succeeded");
        assert_eq!(v["tasks"], t["reported"]);
        true
    } else {
        assert_eq!(code, 7, "{run}: {t} {v} {err}");
        assert_eq!(v["result"], "failed");
        assert_eq!(v["failed_task"], t["failed"][0]["task_uuid"], "{v}");
        false
    }
}

/// The flaky pipeline's started runs usually fail on their last task: start
/// runs (at most 8) until one the truth says will fail; each verdict, the
/// succeeded ones too, agrees with the truth.
fn zero_and_seven(dialect: &str) {
    let sb = start_with(dialect, &["--task-delay", "100ms"]);
    let (reliable, flaky) = (sb.pipelines[0].0.clone(), sb.pipelines[1].0.clone());
    let run = start(&sb, &reliable);
    let (code, v, err) = attach(&sb, &reliable, &run);
    assert!(agrees(&sb, &run, code, &v, &err), "a reliable run failed");
    let mut failed = false;
    for _ in 0..8 {
        let run = start(&sb, &flaky);
        let (code, v, err) = attach(&sb, &flaky, &run);
        if !agrees(&sb, &run, code, &v, &err) {
            failed = true;
            break;
        }
    }
    assert!(failed, "no failed run in 8 starts of the flaky pipeline");
}

#[test]
fn attach_gives_0_and_7_as_the_truth_ylem() {
    zero_and_seven("ylem");
}

#[test]
fn attach_gives_0_and_7_as_the_truth_spec() {
    zero_and_seven("spec");
}

/// Attached before the run's first entry (slow tasks: the first takes
/// seconds): waited for, not "not found", then its verdict; without
/// `--wait`, the same run is 8 with `--exit-status`, naming `--wait`.
fn waits_for_a_run_not_reported(dialect: &str) {
    let sb = start_with(dialect, &["--task-delay", "1s"]);
    let p = sb.pipelines[0].0.clone();
    let run = start(&sb, &p);
    let o = sb.run(&["runs", &p, "--run", &run, "--exit-status"]);
    let early = sb.truth(&run)["reported"] == 0;
    if early {
        assert_eq!(o.code, 8, "{}", o.stderr);
        assert!(o.stderr.contains("--wait"), "{}", o.stderr);
        assert!(o.stderr.contains("has not reported yet"), "{}", o.stderr);
    }
    let before = sb.truth(&run)["reported"] == 0;
    let o = sb.run(&[
        "runs",
        &p,
        "--run",
        &run,
        "--wait",
        "--exit-status",
        "--poll",
        "500ms",
    ]);
    let t = sb.truth(&run);
    assert_eq!(o.code, if t["is_successful"] == true { 0 } else { 7 });
    assert_eq!(t["finished"], true, "{t}");
    if before {
        let note = format!("no entry of run {run} yet: waiting for it");
        assert!(o.stderr.contains(&note), "{}", o.stderr);
    }
    assert!(early || before, "the run reported before it could be asked");
    assert!(o.stdout.contains(&run), "the run shown whole: {}", o.stdout);
}

#[test]
fn a_run_not_reported_yet_is_waited_for_ylem() {
    waits_for_a_run_not_reported("ylem");
}

#[test]
fn a_run_not_reported_yet_is_waited_for_spec() {
    waits_for_a_run_not_reported("spec");
}

/// A slow run and a short `--wait-timeout`: 8, the run goes on; a
/// heartbeat on stderr meanwhile.
#[test]
fn attach_gives_8_when_the_wait_runs_out() {
    let sb = start_with("ylem", &["--task-delay", "2s"]);
    let p = sb.pipelines[0].0.clone();
    let run = start(&sb, &p);
    let started = Instant::now();
    let o = sb.run(&[
        "runs",
        &p,
        "--run",
        &run,
        "--wait",
        "--wait-timeout",
        "2s",
        "--exit-status",
        "--heartbeat",
        "500ms",
    ]);
    assert_eq!(o.code, 8, "{}{}", o.stdout, o.stderr);
    // Off a terminal, the wait says now and then that it goes on.
    assert!(o.stderr.contains("still waiting"), "{}", o.stderr);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(sb.truth(&run)["finished"], false);
    assert!(
        o.stderr.contains(&format!("run {run}")) && o.stderr.contains("--wait-timeout"),
        "{}",
        o.stderr
    );
}

/// A child killed when dropped, so that a failed assertion leaves nothing
/// running.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Wait (at most 20 s) until the sandbox has seen `n` more log requests
/// than `before`.
fn until_logs(sb: &Sandbox, before: usize, n: usize) {
    wait_until(Duration::from_secs(20), "the polls of the log", || {
        logs_asked(sb) >= before + n
    });
}

fn logs_asked(sb: &Sandbox) -> usize {
    sb.requests()
        .iter()
        .filter(|l| l.contains("/logs/"))
        .count()
}

/// SIGTERM the child; its exit code and both streams (at most 20 s).
fn terminate(r: Running) -> (i32, String, String) {
    signal(r, "-TERM")
}

/// Send `sig` (`-TERM`, `-INT`); the exit code and both streams.
fn signal(mut r: Running, sig: &str) -> (i32, String, String) {
    let pid = r.0.id().to_string();
    assert!(
        Command::new("kill")
            .args([sig, &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = exit_within(&mut r.0, Duration::from_secs(20));
    let code = status.expect("SIGTERM ignored").code().unwrap_or(-1);
    let (mut out, mut err) = (String::new(), String::new());
    r.0.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    r.0.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (code, out, err)
}

/// SIGTERM (143) or Ctrl-C (130) while attached: the run named, and the
/// command that attaches to it again.
#[test]
fn sigterm_while_attached_names_the_command_that_attaches_again() {
    let sb = start_with("ylem", &["--task-delay", "2s"]);
    let p = sb.pipelines[0].0.clone();
    for (sig, want) in [("-TERM", 143), ("-INT", 130)] {
        let run = start(&sb, &p);
        let before = logs_asked(&sb);
        let child = Running(sb.spawn(
            "attach-term",
            &["runs", &p, "--run", &run, "--wait", "--poll", "200ms"],
        ));
        // The first fold, the history and a look of the watch.
        until_logs(&sb, before, 3);
        let (code, _, err) = signal(child, sig);
        assert_eq!(code, want, "{sig}: {err}");
        assert!(
            err.contains(&format!("'ylemctl runs {p} --run {run} --wait'")),
            "{err}"
        );
        assert_eq!(sb.truth(&run)["finished"], false, "the run goes on");
    }
}

/// `logs -f --run <a run with no entry>`: one note on stderr, not one per
/// poll; none with -q; SIGTERM ends it with 0.
#[test]
fn follow_of_a_run_with_no_entry_says_so_once() {
    let sb = start_with("spec", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    let unknown = "11111111-2222-4333-8444-555555555555";
    for quiet in [false, true] {
        let mut args = vec!["logs", p.as_str(), "-f", "--run", unknown];
        if quiet {
            args.push("-q");
        }
        let before = logs_asked(&sb);
        let child = Running(sb.spawn("attach-follow", &args));
        // The history look-up and three polls: the note had its chances.
        until_logs(&sb, before, 4);
        let (code, out, err) = terminate(child);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "");
        let said = err.matches(&format!("no entry of run {unknown}")).count();
        assert_eq!(said, usize::from(!quiet), "{err}");
    }
}

/// `status pipeline:<a workflow alias>` and `metrics serve` with it: exit 2
/// as `last-run` gives, before any request.
#[test]
fn a_kind_prefix_that_contradicts_an_alias_is_a_usage_error() {
    let sb = start_with("ylem", &[]);
    let dir = std::env::temp_dir().join(format!("ylemctl-attach-alias-{}", std::process::id()));
    let env = [("YLEM_CONFIG_DIR", dir.to_str().unwrap())];
    let w = format!("workflow:{}", sb.workflows[0]);
    assert_eq!(sb.run_with(&["alias", "set", "nightly", &w], &env).code, 0);
    let before = sb.requests().len();
    for args in [
        vec!["status", "pipeline:nightly"],
        vec![
            "metrics",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "pipeline:nightly",
        ],
        vec!["last-run", "pipeline", "nightly"],
    ] {
        let o = sb.run_with(&args, &env);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains("is a workflow, not a pipeline"),
            "{}",
            o.stderr
        );
    }
    assert_eq!(sb.requests().len(), before, "a request was sent");
    let _ = std::fs::remove_dir_all(dir);
}

/// A run long finished whose pipeline has no fixed task set (a condition,
/// a for_each: success by quiet): the attach judges it at once from how
/// long it has been quiet, as `runs --run` does, not after a settle time
/// counted from the attach (which a --wait-timeout shorter than the
/// shortest settle time, 10 s, would cut to 8).
#[test]
fn a_run_quiet_for_long_is_judged_at_once() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let mut found = None;
    for (p, _) in &sb.pipelines[..4] {
        let o = sb.run(&["runs", p, "--since", "3d", "-o", "json"]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        let list: Value = serde_json::from_str(&o.stdout).unwrap();
        let settled = list
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["completion"] == "settled" && r["result"] == "succeeded");
        if let Some(r) = settled {
            found = Some((p.clone(), r["run_uuid"].as_str().unwrap().to_string()));
            break;
        }
    }
    let (p, run) = found.expect("a run settled by quiet in 3 days");
    let o = sb.run(&[
        "runs",
        &p,
        "--run",
        &run,
        "--since",
        "3d",
        "--wait",
        "--wait-timeout",
        "5s",
        "--exit-status",
        "-o",
        "json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["result"], "succeeded");
    assert_eq!(sb.truth(&run)["is_successful"], true);
}

/// `--run latest --wait`: the newest run with an entry in the window, here
/// the one just started once it has reported, to the truth's verdict.
#[test]
fn latest_is_the_newest_run_in_the_window() {
    let sb = start_with("spec", &["--task-delay", "300ms"]);
    let p = sb.pipelines[0].0.clone();
    let run = start(&sb, &p);
    wait_until(Duration::from_secs(10), "the run's first entry", || {
        sb.truth(&run)["reported"] != 0
    });
    let (code, v, err) = attach(&sb, &p, "latest");
    agrees(&sb, &run, code, &v, &err);
}
