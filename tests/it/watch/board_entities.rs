//! `watch`'s board in a real terminal (tmux, as `tty.rs`) for a
//! pipeline, a workflow and a task by alias: its `24H RUNS/FAILED` are
//! `stats --since 24h`'s, and the health beside them is `status`'s. Both
//! dialects (the open-source server has no workflows: a pipeline and a
//! task only). Needs tmux. And the event stream's count: a day's replay
//! (`watch -o jsonl --since 24h`) closes as many pipeline runs as `stats
//! --since 24h` counts; a workflow or a task has no log, so its stream
//! tells its last run only (statistics cannot list runs) and carries no
//! count to compare.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::sandbox::{Sandbox, start};

/// A tmux server of the test's own, killed when dropped.
struct Tmux(String);

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .output();
    }
}

impl Tmux {
    fn run(sb: &Sandbox, dir: &std::path::Path, args: &[&str], tag: &str) -> Tmux {
        let t = Tmux(format!("ylemctl-entities-{tag}-{}", std::process::id()));
        let mut cmd = vec![env!("CARGO_BIN_EXE_ylemctl")];
        cmd.extend_from_slice(args);
        let ok = Command::new("tmux")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color")
            .env("YLEM_CONFIG_DIR", dir)
            .env("YLEM_BASE_URL", &sb.base)
            .env("YLEM_CLIENT_ID", &sb.client_id)
            .env("YLEM_CLIENT_SECRET", &sb.secret)
            .args(["-L", &t.0, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "120", "-y", "20"])
            .args(cmd)
            .status()
            .expect("tmux is needed for this test (.ci/run installs it)");
        assert!(ok.success());
        t
    }

    fn screen(&self) -> String {
        let o = Command::new("tmux")
            .args(["-L", &self.0, "capture-pane", "-p"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    }
}

fn counts(sb: &Sandbox, kind: &str, id: &str) -> String {
    let v = sb.json(&["stats", kind, id, "--since", "24h"]);
    let (s, f) = (
        v["num_of_successes"].as_i64().unwrap(),
        v["num_of_failures"].as_i64().unwrap(),
    );
    format!("{}/{f}", s + f)
}

#[test]
fn the_boards_counts_for_pipelines_workflows_and_tasks_are_the_statistics() {
    for dialect in ["spec", "ylem"] {
        let sb = start(dialect);
        let dir = tempfile::tempdir().unwrap();
        let mut ents = vec![
            ("qevents", "task", sb.pipelines[0].1[0].clone()),
            ("inventory", "pipeline", sb.pipelines[0].0.clone()),
        ];
        if dialect == "spec" {
            ents.push(("triage", "workflow", sb.workflows[0].clone()));
        }
        for (alias, kind, id) in &ents {
            let o = sb.run_with(
                &["alias", "set", alias, &format!("{kind}:{id}")],
                &[("YLEM_CONFIG_DIR", dir.path().to_str().unwrap())],
            );
            assert_eq!(o.code, 0, "{}", o.stderr);
        }
        let names: Vec<&str> = ents.iter().map(|e| e.0).collect();
        let mut args = vec!["watch"];
        args.extend(&names);
        let t = Tmux::run(&sb, dir.path(), &args, dialect);
        let end = Instant::now() + Duration::from_secs(30);
        let screen = loop {
            let s = t.screen();
            if s.contains("refreshed") && names.iter().all(|n| s.contains(n)) {
                break s;
            }
            assert!(Instant::now() < end, "{dialect}: no board:\n{s}");
            std::thread::sleep(Duration::from_millis(200));
        };
        for (alias, kind, id) in &ents {
            let want = counts(&sb, kind, id);
            let status = sb.json(&["status", &format!("{kind}:{id}")]);
            let health = status["status"].as_str().unwrap().to_string();
            let line = screen
                .lines()
                .find(|l| l.split_whitespace().any(|w| w == *alias))
                .unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            assert!(
                words.contains(&want.as_str()),
                "{dialect} {alias}: {want} in {line}"
            );
            assert!(
                words.contains(&health.as_str()),
                "{dialect} {alias}: {health} in {line}"
            );
        }
    }
}

/// The `run_finished` events of a day's replay of `ps` (one watch): read
/// until each pipeline has closed `runs[i]` runs (bounded), then two more
/// polls' worth, so one too many would be seen too.
fn replayed(sb: &Sandbox, tag: &str, ps: &[&str], runs: &[usize]) -> Vec<serde_json::Value> {
    use std::io::BufRead;
    let mut a = vec!["watch", "-o", "jsonl", "--since", "24h", "--interval", "1s"];
    a.extend(ps);
    let mut child = sb.spawn(tag, &a);
    let out = child.stdout.take().unwrap();
    let _child = crate::common::process::Killed(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for l in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&l)
                && v["event"] == "run_finished"
                && tx.send(v).is_err()
            {
                break;
            }
        }
    });
    let mut got: Vec<serde_json::Value> = Vec::new();
    let all_in = |got: &[serde_json::Value]| {
        ps.iter()
            .zip(runs)
            .all(|(p, n)| got.iter().filter(|e| e["id"] == *p).count() >= *n)
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while !all_in(&got) && Instant::now() < deadline {
        if let Ok(v) = rx.recv_timeout(Duration::from_millis(200)) {
            got.push(v);
        }
    }
    let more = Instant::now() + Duration::from_secs(2);
    while let Some(left) = more.checked_duration_since(Instant::now()) {
        if let Ok(v) = rx.recv_timeout(left) {
            got.push(v);
        }
    }
    let dir = std::env::temp_dir().join(format!("ylemctl-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(dir);
    got
}

/// One day's replay of three pipelines (one watch, both dialects at once):
/// each pipeline's closed runs and failed ones are `stats --since 24h`'s.
#[test]
fn a_days_stream_closes_as_many_pipeline_runs_as_the_statistics_count() {
    std::thread::scope(|s| {
        for dialect in ["spec", "ylem"] {
            s.spawn(move || {
                let sb = start(dialect);
                let ps: Vec<&str> = sb.pipelines.iter().take(3).map(|p| p.0.as_str()).collect();
                let want: Vec<String> = ps.iter().map(|p| counts(&sb, "pipeline", p)).collect();
                let runs: Vec<usize> = want
                    .iter()
                    .map(|w| w.split('/').next().unwrap().parse().unwrap())
                    .collect();
                let events = replayed(&sb, &format!("replay-{dialect}"), &ps, &runs);
                for (p, want) in ps.iter().zip(&want) {
                    let mine: Vec<_> = events.iter().filter(|e| e["id"] == *p).collect();
                    let failed = mine.iter().filter(|e| e["verdict"] == "failed").count();
                    let got = format!("{}/{failed}", mine.len());
                    assert_eq!(
                        &got, want,
                        "{dialect} {p}: the stream's runs/failed vs stats"
                    );
                }
            });
        }
    });
}
