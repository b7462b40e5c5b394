//! `logs --follow` against a sandbox process while runs are started: every
//! task entry printed once and in order across polls and token renewals;
//! `--run` ends when the run is complete; Ctrl-C and --max-time end it
//! cleanly (exit 0, output whole). The tests wait on what the follow says
//! (`-v`'s line after each request, its entries), not for fixed times.

use crate::common;

use std::collections::HashSet;
use std::time::Duration;

use common::process::{Killed, Lines, exit_within, signal};
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

/// The longest wait for one thing the follow does (a poll, an entry).
const LIMIT: Duration = Duration::from_secs(30);
/// In `-v`'s line after each request: one of a poll of the log.
const POLLED: &str = "/logs/";

/// A follow: the child (killed when dropped, as when a test fails), its
/// stdout and stderr read as they come.
struct Follow {
    child: Killed,
    out: Lines,
    err: Lines,
}

/// `ylemctl ARGS` against the sandbox, as a child process with piped output.
fn spawn(sb: &Sandbox, args: &[&str]) -> Follow {
    let mut child = sb.spawn("follow", args);
    let (out, err) = (Lines::stdout(&mut child), Lines::stderr(&mut child));
    let child = Killed(child);
    Follow { child, out, err }
}

impl Follow {
    /// Wait (bounded) for the end; its exit code, stdout and stderr.
    fn finish(mut self, limit: Duration) -> (i32, String, String) {
        let Some(status) = exit_within(&mut self.child.0, limit) else {
            panic!("follow did not end within {limit:?}");
        };
        let code = status.code().unwrap_or(-1);
        (code, self.out.rest(LIMIT), self.err.rest(LIMIT))
    }

    /// Ctrl-C once `polls` more polls were made (the entries of the ones
    /// before are then printed); its exit code, stdout and stderr.
    fn interrupt_after(mut self, polls: usize) -> (i32, String, String) {
        self.err.mark();
        for _ in 0..polls {
            self.err.wait_line(POLLED, LIMIT);
        }
        let code = signal(&mut self.child.0, libc::SIGINT, Duration::from_secs(15));
        let code = code.expect("follow did not end within 15 s of SIGINT");
        (code, self.out.rest(LIMIT), self.err.rest(LIMIT))
    }
}

fn start_run(sb: &Sandbox, p: &str) -> String {
    let v = sb.json(&["run", "pipeline", p]);
    v["run_uuid"].as_str().unwrap().to_string()
}

fn wait_finished(sb: &Sandbox, run: &str) -> Value {
    sb.finished(run, Duration::from_secs(20))
}

/// Whether `lines` hold `n` entries of `run` (at least).
fn has_entries(lines: &[String], run: &str, n: u64) -> bool {
    lines.iter().filter(|l| l.contains(run)).count() as u64 >= n
}

#[test]
fn every_entry_once_in_order_across_polls_and_token_renewals() {
    // Tokens live 3 s and are renewed at half that: the polls of a few
    // seconds keep renewing them.
    let sb = start_with("ylem", &["--task-delay", "100ms", "--token-ttl", "3s"]);
    let p = sb.pipelines[0].0.clone();
    // A poll every 500 ms; ended by Ctrl-C once all is seen (--max-time
    // only in case).
    let mut f = spawn(
        &sb,
        &[
            "logs",
            &p,
            "--follow",
            "--since",
            "now",
            "--poll",
            "500ms",
            "--max-time",
            "120s",
            "-o",
            "jsonl",
            "-v",
        ],
    );
    // Following; then each run started, with a poll after it.
    f.err.wait_line(POLLED, LIMIT);
    let runs: Vec<String> = (0..3)
        .map(|_| {
            let r = start_run(&sb, &p);
            f.err.mark();
            f.err.wait_line(POLLED, LIMIT);
            r
        })
        .collect();
    let truths: Vec<Value> = runs.iter().map(|r| wait_finished(&sb, r)).collect();
    f.out
        .wait_until(LIMIT, "every entry of the started runs", |l| {
            runs.iter()
                .zip(&truths)
                .all(|(r, t)| has_entries(l, r, t["reported"].as_u64().unwrap()))
        });
    f.err
        .wait_until(LIMIT, "three polls and a renewed token", |l| {
            let polls = l
                .iter()
                .filter(|l| l.starts_with("GET ") && l.contains(POLLED));
            let tokens = l.iter().filter(|l| l.starts_with("POST /v1/oauth/token"));
            polls.count() >= 3 && tokens.count() >= 2
        });
    // Two polls more: an entry printed twice would be by then.
    let (code, out, err) = f.interrupt_after(2);
    assert_eq!(code, 0, "{err}");
    let entries: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Every task entry of every started run, each once.
    for (run, t) in runs.iter().zip(&truths) {
        let n = entries
            .iter()
            .filter(|e| e["workflow_run_uuid"] == run.as_str())
            .count();
        assert_eq!(
            n as u64,
            t["reported"].as_u64().unwrap(),
            "run {run}: {out}"
        );
    }
    let keys: HashSet<String> = entries.iter().map(|e| e.to_string()).collect();
    assert_eq!(keys.len(), entries.len(), "an entry printed twice: {out}");
    // Oldest first.
    let times: Vec<chrono::DateTime<chrono::Utc>> = entries
        .iter()
        .map(|e| e["executed_at"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    // Several polls, and tokens renewed while following.
    let polls = err
        .lines()
        .filter(|l| l.starts_with("GET ") && l.contains("/logs/"))
        .count();
    assert!(polls >= 3, "{err}");
    let tokens = err
        .lines()
        .filter(|l| l.starts_with("POST /v1/oauth/token"))
        .count();
    assert!(tokens >= 2, "{err}");
}

#[test]
fn run_ends_the_follow_when_the_run_is_complete() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    let run = start_run(&sb, &p);
    let f = spawn(
        &sb,
        &[
            "logs",
            &p,
            "-f",
            "--run",
            &run,
            "--since",
            "10m",
            "--max-time",
            "60s",
            "-o",
            "jsonl",
        ],
    );
    let (code, out, err) = f.finish(Duration::from_secs(70));
    assert_eq!(code, 0, "{err}");
    let t = sb.truth(&run);
    assert_eq!(t["finished"], true, "it ended before the run did: {err}");
    assert_eq!(
        out.lines().count() as u64,
        t["reported"].as_u64().unwrap(),
        "{out}"
    );
    assert!(out.lines().all(|l| l.contains(&run)));
}

#[test]
fn ctrl_c_and_max_time_end_it_cleanly() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    start_run(&sb, &p);
    // Ctrl-C once the entries of the first poll are in (a second poll
    // made: -v's line says it).
    let args = ["logs", &p, "-f", "--since", "1h", "--poll", "500ms"];
    let f = spawn(&sb, &[&args[..], &["-o", "json", "-v"]].concat());
    let (code, out, err) = f.interrupt_after(2);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(!v.as_array().unwrap().is_empty());
    // --max-time: a clean end too, and --to makes no sense here.
    let f = spawn(&sb, &["logs", &p, "-f", "--max-time", "2s", "-o", "csv"]);
    let (code, out, err) = f.finish(Duration::from_secs(15));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("workflow_run_uuid,"), "{out}");
    let o = sb.run(&["logs", &p, "-f", "--from", "1h", "--to", "now"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
}

#[test]
fn transient_failures_of_the_service_are_waited_out() {
    // A third of requests fail as the real gateway's do (500, 502-504).
    let sb = start_with("ylem", &["--task-delay", "100ms", "--fail-rate", "0.3"]);
    let p = sb.pipelines[0].0.clone();
    // Ended by Ctrl-C once the run is printed (--max-time only in case).
    let mut f = spawn(
        &sb,
        &[
            "logs",
            &p,
            "-f",
            "--since",
            "now",
            "--poll",
            "500ms",
            "--max-time",
            "120s",
            "--retries",
            "0",
            "-o",
            "jsonl",
            "-v",
        ],
    );
    // Following (its first answer, a fault or not).
    f.err.wait_line(POLLED, LIMIT);
    // Start a run; a start answered with a fault may be tried again here
    // (the sandbox's faults come before the run is made).
    let run = (0..20)
        .find_map(|_| {
            let o = sb.run(&["run", "pipeline", &p, "-o", "json", "--retries", "0"]);
            let v: Value = serde_json::from_str(&o.stdout).ok()?;
            v["run_uuid"].as_str().map(str::to_string)
        })
        .expect("a run started within 20 tries");
    let t = wait_finished(&sb, &run);
    let n = t["reported"].as_u64().unwrap();
    f.out
        .wait_until(LIMIT, "every entry of the run", |l| has_entries(l, &run, n));
    // Two polls more: an entry printed twice would be by then.
    let (code, out, err) = f.interrupt_after(2);
    assert_eq!(code, 0, "{err}");
    let n = out.lines().filter(|l| l.contains(&run)).count();
    assert_eq!(n as u64, t["reported"].as_u64().unwrap(), "{out}\n{err}");
}

/// A `--since` days back is caught up window by window, oldest first: the
/// same entries as `logs --since`, each once, in order, without holding the
/// whole span to sort it.
#[test]
fn a_since_far_back_is_caught_up_in_order() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    let all = sb.run(&["logs", &p, "--since", "3d", "-o", "jsonl"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    // Ended by Ctrl-C once caught up (--max-time only in case).
    let mut f = spawn(
        &sb,
        &[
            "logs",
            &p,
            "-f",
            "--since",
            "3d",
            "--poll",
            "500ms",
            "--max-time",
            "120s",
            "-o",
            "jsonl",
            "-v",
        ],
    );
    let n = all.stdout.lines().count();
    f.out
        .wait_until(LIMIT, "the entries of 3 days", |l| l.len() >= n);
    // A poll more, past the catch-up: anything printed twice is by then.
    let (code, out, err) = f.interrupt_after(1);
    assert_eq!(code, 0, "{err}");
    let mut want: Vec<&str> = all.stdout.lines().collect();
    let mut got: Vec<&str> = out.lines().collect();
    assert!(got.len() > 10, "{out}");
    let times: Vec<chrono::DateTime<chrono::Utc>> = got
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["executed_at"].as_str().unwrap().parse().unwrap()
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "out of order");
    want.sort();
    got.sort();
    assert_eq!(got, want, "the same entries as logs --since 3d");
    // 3 days in windows of 6 hours: a dozen or so requests, not one.
    let polls = err
        .lines()
        .filter(|l| l.starts_with("GET ") && l.contains("/logs/"))
        .count();
    assert!(polls >= 12, "{err}");
}
