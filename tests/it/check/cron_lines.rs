//! The shipped cron lines themselves (examples/crontab, the guide's),
//! run by `sh` against the sandbox: a job that lands while a run is going
//! prints nothing (no mail, no alert), a failed last run prints its alert.
//! The same line without `--running-ok` alerts mid-run: the test tells
//! the two apart.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::sandbox::{Sandbox, start_with};

const EXAMPLE_ID: &str = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";

/// The `last-run` cron lines shipped: examples/crontab's (its UUID) and the
/// guide's (docs/monitoring.md: the alias `orders`), without their five
/// time fields.
fn lines() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut v = Vec::new();
    for file in ["examples/crontab", "docs/monitoring.md"] {
        let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
        for l in text.lines() {
            let f: Vec<&str> = l.split_whitespace().collect();
            let cron = f.len() > 5
                && f[..5]
                    .iter()
                    .all(|x| x.chars().all(|c| c.is_ascii_digit() || "*/,-".contains(c)));
            if cron
                && l.contains("last-run")
                && l.contains("--fail-on-failure")
                && !l.contains("ylemctl.env")
            {
                v.push(f[5..].join(" "));
            }
        }
    }
    assert!(v.len() >= 2, "the shipped last-run cron lines: {v:?}");
    v
}

/// `line` by `sh` for the pipeline `p`: what it printed (cron mails it).
fn cron(sb: &Sandbox, dir: &std::path::Path, line: &str, p: &str) -> String {
    let line = line
        .replace("/usr/bin/ylemctl", env!("CARGO_BIN_EXE_ylemctl"))
        .replace(EXAMPLE_ID, p);
    let o = Command::new("sh")
        .args(["-c", &line])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir)
        .env("YLEM_BASE_URL", &sb.base)
        .env("YLEM_CLIENT_ID", &sb.client_id)
        .env("YLEM_CLIENT_SECRET", &sb.secret)
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn start_run(sb: &Sandbox, dir: &std::path::Path, p: &str) -> String {
    let o = sb.run_with(
        &["run", "pipeline", p, "-o", "json"],
        &[("YLEM_CONFIG_DIR", dir.to_str().unwrap())],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    v["run_uuid"].as_str().unwrap().to_string()
}

fn alias(sb: &Sandbox, dir: &std::path::Path, p: &str) {
    let o = sb.run_with(
        &["alias", "set", "orders", p],
        &[("YLEM_CONFIG_DIR", dir.to_str().unwrap())],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn the_shipped_cron_lines_alert_on_a_failed_run_and_not_mid_run() {
    for dialect in ["spec", "ylem"] {
        // Slow tasks: a run stays going for seconds after its first entry.
        let sb = start_with(dialect, &["--task-delay", "1s"]);
        let dir = tempfile::tempdir().unwrap();
        let (reliable, flaky) = (sb.pipelines[0].0.clone(), sb.pipelines[1].0.clone());
        // Mid-run: after the run's first entry, before its end.
        alias(&sb, dir.path(), &reliable);
        let run = start_run(&sb, dir.path(), &reliable);
        let end = Instant::now() + Duration::from_secs(60);
        while sb.truth(&run)["reported"].as_u64().unwrap_or(0) == 0 {
            assert!(Instant::now() < end, "the run never reported");
            std::thread::sleep(Duration::from_millis(100));
        }
        for line in lines() {
            let said = cron(&sb, dir.path(), &line, &reliable);
            assert_eq!(said, "", "{dialect}: mid-run, {line}");
            // Without --running-ok the same job mails "not finished".
            let plain = line.replace(" --running-ok", "");
            let said = cron(&sb, dir.path(), &plain, &reliable);
            assert!(!said.is_empty(), "{dialect}: {plain}");
        }
        assert_eq!(
            sb.truth(&run)["finished"],
            false,
            "{dialect}: it was mid-run throughout"
        );
        // A failed last run: started until one failed (its own config, so
        // that `orders` names it).
        let dir = tempfile::tempdir().unwrap();
        alias(&sb, dir.path(), &flaky);
        let mut failed = false;
        for _ in 0..8 {
            let o = sb.run_with(
                &["run", "pipeline", &flaky, "--wait", "--poll", "300ms"],
                &[("YLEM_CONFIG_DIR", dir.path().to_str().unwrap())],
            );
            if o.code == 7 {
                failed = true;
                break;
            }
        }
        assert!(failed, "{dialect}: no failed run in 8 starts");
        for line in lines() {
            let said = cron(&sb, dir.path(), &line, &flaky);
            assert!(
                said.contains("last run failed"),
                "{dialect}: {line}: {said}"
            );
        }
    }
}
