//! The consistency matrix for the runs of a workflow and of a task (issue
//! 42), stepped through the moments of one run against the sandbox's truth:
//! before its first entry, mid-run, just after its last entry, inside the
//! settle time and after it. At each moment `last-run`, `check`, `status -o
//! json`, `status -o prometheus`, the exporter and `watch -o jsonl` are
//! asked at once and must give one verdict, one evidence text and one
//! duration/elapsed/started/ended; once the run has finished they must be
//! the truth's. Spec dialect: a workflow and a task; ylem dialect: a task
//! (the open-source server has no workflows).
//!
//! What statistics alone can tell (no log for either kind), so which
//! command has which field: `runs --run R` needs a log and is refused for
//! both kinds (not asked); no command names the run's UUID; `status -o
//! json` has no evidence, duration, elapsed or start (its `last_run_at` is
//! the end); `check` has the duration (to 10 ms) but no evidence or times;
//! the expositions have the duration and the end, no evidence, no start; a
//! workflow's start and elapsed are not known anywhere (null, asserted); a
//! task started `duration` before it ended. A field a command lacks is left
//! out of the comparison, never filled in.
//!
//! After the settle time (a workflow's success counts ten minutes after its
//! time): every process of the test (the commands, the exporter and the
//! `watch` that has followed the run from its start) runs under libfaketime
//! reading one clock file, moved 11 minutes ahead for the last moment rather
//! than the test waiting ten minutes; so the same stream that opened the run
//! must close it.

use crate::common;

use std::io::{BufRead, BufReader};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::process::{Killed, free_port};
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

use crate::model::said::{
    Row, agree, from_check, from_events, from_exposition, from_last, from_status, parse, secs,
};

/// How many times one moment is asked before a disagreement counts (the
/// exporter answers from a one-second cache, `watch` polls every second).
const TRIES: usize = 12;
const LIMIT: Duration = Duration::from_secs(120);
/// The clock of the last moment: past a workflow's ten-minute settle time.
const AHEAD: &str = "+11m";

/// Debian's libfaketime (`.ci/run` installs `faketime`).
fn libfaketime() -> std::path::PathBuf {
    [
        "x86_64-linux-gnu/faketime",
        "aarch64-linux-gnu/faketime",
        "faketime",
    ]
    .iter()
    .map(|d| std::path::PathBuf::from(format!("/usr/lib/{d}/libfaketime.so.1")))
    .find(|p| p.exists())
    .expect("libfaketime: install Debian's faketime (.ci/run does)")
}

/// The environment of a command: the sandbox's, a config directory, and
/// the clock of the file `clock` (libfaketime). The monotonic clock moves
/// with the wall clock, as on a machine that ran for that long: `watch`
/// counts time on the monotonic clock (its wall clock is read once), so a
/// wall clock set ahead alone is rightly not the settle time passing.
fn command(sb: &Sandbox, dir: &str, clock: &str, args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ylemctl"));
    c.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir)
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    c.env("LD_PRELOAD", libfaketime())
        .env("FAKETIME_TIMESTAMP_FILE", clock)
        .env("FAKETIME_NO_CACHE", "1");
    c
}

fn out(sb: &Sandbox, dir: &str, clock: &str, args: &[&str]) -> String {
    let o = command(sb, dir, clock, args).output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A child whose stdout lines are gathered as JSON values (the exporter's
/// first line, "Serving ...", is not JSON and is waited for).
fn gather(mut c: std::process::Command, serving: bool) -> (Killed, Arc<Mutex<Vec<Value>>>) {
    let mut child = c.stdout(std::process::Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    if serving {
        let mut first = String::new();
        lines.read_line(&mut first).unwrap();
        assert!(first.starts_with("Serving http://"), "{first}");
    }
    let got = Arc::new(Mutex::new(Vec::new()));
    let g = got.clone();
    thread::spawn(move || {
        for l in lines.lines().map_while(Result::ok) {
            g.lock().unwrap().push(parse(&l));
        }
    });
    (Killed(child), got)
}

/// A plain HTTP/1.0 GET of the exporter's `/metrics` on loopback.
fn scrape(port: u16) -> String {
    crate::common::exporter::scrape_raw(&format!("127.0.0.1:{port}"), Duration::from_secs(30))
}

/// The exporter of `target` on a free port, once it serves.
fn exporter(sb: &Sandbox, dir: &str, clock: &str, target: &str) -> (Killed, u16) {
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let args = [
        "metrics", "serve", "--listen", &listen, "--cache", "1s", target,
    ];
    let (k, _) = gather(command(sb, dir, clock, &args), true);
    (k, port)
}

/// Where a moment is asked: the clock, the exporter, the stream's events.
struct Askers<'a> {
    sb: &'a Sandbox,
    dir: String,
    clock: String,
    port: u16,
    events: Arc<Mutex<Vec<Value>>>,
}

impl Askers<'_> {
    /// Every command at once about `kind` `id`.
    fn ask(&self, kind: &str, id: &str) -> Vec<Row> {
        let typed = format!("{kind}:{id}");
        let (sb, dir, ahead) = (self.sb, self.dir.as_str(), self.clock.as_str());
        thread::scope(|s| {
            let last = s.spawn(|| out(sb, dir, ahead, &["last-run", kind, id, "-o", "json"]));
            let check = s.spawn(|| {
                let a = ["check", kind, id, "--max-age", "1000h,2000h", "-o", "json"];
                out(sb, dir, ahead, &a)
            });
            let status = s.spawn(|| out(sb, dir, ahead, &["status", &typed, "-o", "json"]));
            let prom = s.spawn(|| out(sb, dir, ahead, &["status", &typed, "-o", "prometheus"]));
            let served = s.spawn(|| scrape(self.port));
            let mut rows = vec![
                from_last(&parse(&last.join().unwrap())),
                from_check(&parse(&check.join().unwrap())),
                from_status(&parse(&status.join().unwrap())),
                from_exposition("status -o prometheus", &prom.join().unwrap(), id),
                from_exposition("metrics serve", &served.join().unwrap(), id),
            ];
            rows.extend(from_events(&self.events.lock().unwrap(), id));
            rows
        })
    }

    /// Ask until the answers agree (bounded); `Err` with all that was seen.
    fn agreed(&self, kind: &str, id: &str, strict: bool) -> Result<Vec<Row>, String> {
        let mut seen = Vec::new();
        for _ in 0..TRIES {
            let rows = self.ask(kind, id);
            if agree(&rows, strict) {
                return Ok(rows);
            }
            seen.push(rows);
            thread::sleep(Duration::from_millis(300));
        }
        Err(format!("no one answer: {seen:#?}"))
    }
}

/// Wait on the truth of `run` until `done` holds (bounded).
fn until(sb: &Sandbox, run: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + LIMIT;
    loop {
        let t = sb.truth(run);
        if done(&t) || Instant::now() > deadline {
            return t;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// Start a run that makes `kind` `id` run (a workflow's own; a task's
/// pipeline `pipeline`), step through the moments, check the end against
/// the truth. Returns what went wrong.
fn matrix_of(sb: &Sandbox, tag: &str, kind: &str, id: &str, pipeline: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("ylemctl-moments-{tag}-{}", std::process::id()));
    let dir = dir.to_str().unwrap().to_string();
    std::fs::create_dir_all(&dir).unwrap();
    let clock = format!("{dir}/faketime");
    std::fs::write(&clock, "+0").unwrap();
    let target = format!("{kind}:{id}");
    let (_exp, port) = exporter(sb, &dir, &clock, &target);
    let watch = ["watch", "-o", "jsonl", "--interval", "1s", &target];
    let (_watch, events) = gather(command(sb, &dir, &clock, &watch), false);
    let now = Askers {
        sb,
        dir: dir.clone(),
        clock: clock.clone(),
        port,
        events,
    };
    let family = if kind == "workflow" {
        "workflow"
    } else {
        "pipeline"
    };
    let started = parse(&out(
        sb,
        &dir,
        &clock,
        &["run", family, pipeline, "-o", "json"],
    ));
    let run = started["run_uuid"]
        .as_str()
        .expect("a run started")
        .to_string();
    let mut wrong = Vec::new();
    let mut at = |moment: &str, r: Result<Vec<Row>, String>| match r {
        Ok(rows) => Some(rows),
        Err(e) => {
            wrong.push(format!("{tag} {kind} {moment}: {e}"));
            None
        }
    };
    at("before the first entry", now.agreed(kind, id, false));
    until(sb, &run, |t| t["reported"].as_u64() >= Some(1));
    at("mid-run", now.agreed(kind, id, false));
    let truth = until(sb, &run, |t| t["finished"] == true);
    at("just after the last entry", now.agreed(kind, id, true));
    let inside = at("inside the settle time", now.agreed(kind, id, true));
    // After the settle time: every process's clock ahead at once.
    std::fs::write(&clock, AHEAD).unwrap();
    let end = at("after the settle time", now.agreed(kind, id, true));
    if let Some(end) = end {
        wrong.extend(against_truth(sb, kind, id, &truth, &end, inside.as_deref()));
    }
    let _ = std::fs::remove_dir_all(&dir);
    wrong
        .into_iter()
        .map(|w| format!("{tag} {kind}: {w}"))
        .collect()
}

/// The end against the truth: every command (the stream included) says it,
/// with the truth's verdict and duration; a task's end is its entry's, a
/// workflow's start and elapsed are unknown. Inside the settle time a task
/// already had its verdict (one entry), a workflow's success did not count.
fn against_truth(
    sb: &Sandbox,
    kind: &str,
    id: &str,
    truth: &Value,
    end: &[Row],
    inside: Option<&[Row]>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    let (ok, duration, ended) = match kind {
        "task" => {
            let e = truth["entries"]
                .as_array()
                .and_then(|l| l.iter().find(|e| e["task_uuid"] == id))
                .cloned()
                .unwrap_or(Value::Null);
            (
                e["is_successful"] == true,
                e["duration"].as_f64(),
                secs(&e["executed_at"]),
            )
        }
        _ => {
            // A workflow's time is the statistics' own: nothing else knows it.
            let s = sb.json(&["stats", kind, id, "--since", "1h"]);
            let t = secs(&s["last_run_executed_at"]);
            (
                truth["is_successful"] == true,
                truth["duration"].as_f64(),
                t,
            )
        }
    };
    let want = if ok { "succeeded" } else { "failed" };
    if end.len() != 6 {
        wrong.push(format!("not every command answered: {end:#?}"));
    }
    for r in end {
        let bad = r.verdict.as_deref() != Some(want)
            || r.duration_ms
                .zip(duration)
                .is_some_and(|(a, b)| (a - b).abs() > 5.0)
            || r.ended.is_some_and(|e| Some(e) != ended);
        let times = match kind {
            "task" => {
                let d = duration.unwrap_or(0.0);
                r.elapsed.as_ref().is_some_and(|e| e.as_f64() != Some(d))
                    || r.started
                        .zip(ended)
                        .is_some_and(|(s, e)| (e - s - (d / 1000.0) as i64).abs() > 1)
            }
            _ => r.elapsed.as_ref().is_some_and(|e| !e.is_null()) || r.started.is_some(),
        };
        if bad || times {
            wrong.push(format!(
                "{} said {r:?}; truth {want} {duration:?} ended {ended:?}",
                r.what
            ));
        }
    }
    let first = inside
        .and_then(|rows| rows.first())
        .and_then(|r| r.verdict.clone());
    let expect_inside = if kind == "task" || !ok {
        want
    } else {
        "running"
    };
    if first.as_deref() != Some(expect_inside) {
        wrong.push(format!(
            "inside the settle time: {first:?}, not {expect_inside}"
        ));
    }
    wrong
}

#[test]
fn workflows_and_tasks_say_one_verdict_at_each_moment_of_a_run() {
    let t0 = Instant::now();
    let wrong: Vec<String> = thread::scope(|s| {
        let hs: Vec<_> = ["spec", "ylem"]
            .into_iter()
            .map(|d| {
                s.spawn(move || {
                    let sb = start_with(d, &["--task-delay", "300ms"]);
                    let (p, tasks) = sb.pipelines[0].clone();
                    let mut jobs = vec![("task", tasks[0].clone(), p)];
                    if d == "spec" {
                        let w = sb.workflows.last().unwrap().clone();
                        jobs.push(("workflow", w.clone(), w));
                    }
                    let sb = &sb;
                    thread::scope(|s| {
                        let hs: Vec<_> = jobs
                            .iter()
                            .map(|(k, id, p)| {
                                s.spawn(move || matrix_of(sb, &format!("{d}-{k}"), k, id, p))
                            })
                            .collect();
                        hs.into_iter()
                            .flat_map(|h| h.join().unwrap())
                            .collect::<Vec<_>>()
                    })
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    eprintln!("entities_moments: {:.1}s", t0.elapsed().as_secs_f64());
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
