//! `watch -o jsonl` under libfaketime (Debian's `faketime`): the wall
//! clock moved back a day, 7 and 30 days, and forward a day, while the
//! monotonic clock goes on (a clock stepped by hand or by NTP): each run
//! started meanwhile is told once, started and finished, and no run of
//! the sandbox's history (older than the watch) is announced.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::Value;

use crate::common::process::wait_until;
use crate::common::sandbox::{Sandbox, start_with};

fn libfaketime() -> PathBuf {
    let candidates = [
        "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/faketime/libfaketime.so.1",
    ];
    candidates
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("libfaketime: install Debian's faketime (.ci/run does)")
}

fn start_run(sb: &Sandbox, p: &str) -> String {
    let o = sb.run(&["run", "pipeline", p, "-o", "json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    v["run_uuid"].as_str().unwrap().to_string()
}

struct Watch {
    lines: Arc<Mutex<Vec<Value>>>,
    refreshes: Arc<AtomicUsize>,
    clock: PathBuf,
}

impl Watch {
    /// Wait for `n` more refreshes (the watch's `-v` line), at most a minute.
    fn refreshes(&self, n: usize) {
        let want = self.refreshes.load(Ordering::SeqCst) + n;
        wait_until(Duration::from_secs(60), "a refresh", || {
            self.refreshes.load(Ordering::SeqCst) >= want
        });
    }

    /// Set the wall clock's offset (`-1d`, `+0`), then let 3 refreshes pass.
    fn set(&self, offset: &str) {
        std::fs::write(&self.clock, offset).unwrap();
        self.refreshes(3);
    }

    /// Wait until `run` is told finished, at most two minutes.
    fn finished(&self, run: &str) {
        wait_until(
            Duration::from_secs(120),
            &format!("{run} told finished"),
            || {
                self.lines
                    .lock()
                    .unwrap()
                    .iter()
                    .any(|v| v["event"] == "run_finished" && v["run_uuid"] == run)
            },
        );
    }
}

fn spawn(sb: &Sandbox, dir: &Path, clock: &Path) -> std::process::Child {
    let pipelines: Vec<&str> = sb.pipelines.iter().map(|(p, _)| p.as_str()).collect();
    Command::new(env!("CARGO_BIN_EXE_ylemctl"))
        .arg("watch")
        .args(&pipelines)
        .args(["--interval", "300ms", "-o", "jsonl", "-v"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir)
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .env("LD_PRELOAD", libfaketime())
        .env("FAKETIME_TIMESTAMP_FILE", clock)
        .env("FAKETIME_NO_CACHE", "1")
        // The wall clock jumps; the monotonic clock does not, as on a
        // real machine whose clock is set.
        .env("FAKETIME_DONT_FAKE_MONOTONIC", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_wall_clock_jump_announces_nothing_old_and_repeats_nothing() {
    let sb = start_with("ylem", &["--task-delay", "100ms"]);
    let p = sb.pipelines[0].0.clone();
    let dir = tempfile::tempdir().unwrap();
    let clock = dir.path().join("faketime");
    std::fs::write(&clock, "+0").unwrap();
    let mut child = spawn(&sb, &dir.path().join("config"), &clock);
    let w = Watch {
        lines: Arc::new(Mutex::new(Vec::new())),
        refreshes: Arc::new(AtomicUsize::new(0)),
        clock,
    };
    let (out, err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let lines = w.lines.clone();
    let reader = thread::spawn(move || {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            let v: Value = serde_json::from_str(&l).unwrap_or_else(|e| panic!("{e}: {l}"));
            lines.lock().unwrap().push(v);
        }
    });
    let refreshes = w.refreshes.clone();
    let stderr = thread::spawn(move || {
        for l in BufReader::new(err).lines().map_while(Result::ok) {
            if l.contains("watch: refreshed") {
                refreshes.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    let body = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        w.refreshes(2);
        let mut runs = vec![start_run(&sb, &p)];
        w.finished(&runs[0]);
        // Back a day: a run started while the clock is off is told at once.
        w.set("-1d");
        runs.push(start_run(&sb, &p));
        w.finished(&runs[1]);
        w.set("+0");
        w.set("-7d");
        w.set("+0");
        // Forward a day, a run meanwhile, and back.
        w.set("+1d");
        runs.push(start_run(&sb, &p));
        w.finished(&runs[2]);
        w.set("+0");
        w.set("-30d");
        w.set("+0");
        runs
    }));
    let _ = child.kill();
    let _ = child.wait();
    let _ = (reader.join(), stderr.join());
    let runs = body.unwrap_or_else(|e| std::panic::resume_unwind(e));
    let lines = w.lines.lock().unwrap();
    for event in ["run_started", "run_finished"] {
        let mut told: HashMap<String, usize> = HashMap::new();
        for v in lines.iter().filter(|v| v["event"] == event) {
            *told
                .entry(v["run_uuid"].as_str().unwrap_or("?").to_string())
                .or_default() += 1;
        }
        let want: HashMap<String, usize> = runs.iter().map(|r| (r.clone(), 1)).collect();
        assert_eq!(
            told, want,
            "{event}: each run started in the watch once, nothing else"
        );
    }
}
