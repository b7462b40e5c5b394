//! `runs` keeps per-run totals, never the entries: over a log of few runs
//! with many entries each (a `for_each` pipeline's), the runs are all
//! reported and the process's peak memory does not grow with the log. The
//! log is generated while it is sent, by a loopback server that answers
//! every request with it; peak RSS is the child's own high-water mark.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use crate::common::measured;

const PIPELINE: &str = "3f2a1b4c-0000-4000-8000-000000000001";
const RUNS: usize = 4;
const TASKS: [&str; 3] = [
    "d29fdd6c-4a5b-466f-bcac-c82e7015a133",
    "280e5dbf-cda6-4b75-9774-347fefe353a9",
    "06ed84ac-9122-42a5-93f9-6449c3ff3d65",
];

/// Serve one log of `entries` entries (newest first, `RUNS` runs, the last
/// run's middle task failed) to each connection, generated as it is sent.
fn serve(entries: usize) -> (String, std::thread::JoinHandle<()>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let h = std::thread::spawn(move || {
        // One request is expected; a second would be a bug the test sees
        // as a wrong row count, so serve at most two and stop.
        for s in l.incoming().take(2) {
            let Ok(mut s) = s else { return };
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut line = String::new();
            while r.read_line(&mut line).map(|n| n > 2).unwrap_or(false) {
                line.clear();
            }
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut s);
            let _ = w.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[",
            );
            let per_run = entries / RUNS;
            for i in 0..entries {
                let run = RUNS - 1 - i / per_run.max(1);
                let k = i % per_run.max(1);
                let task = TASKS[k % TASKS.len()];
                // Newest first: times fall as i grows; one entry a second.
                let sec = 1_000_000 - i as i64;
                let t = chrono::DateTime::from_timestamp(1_700_000_000 + sec, 0).unwrap();
                let ok = !(run == RUNS - 1 && k == per_run / 2);
                let _ = write!(
                    w,
                    "{}{{\"workflow_run_uuid\":\"00000000-0000-4000-8000-{run:012}\",\
                     \"task_uuid\":\"{task}\",\"task_type\":\"for_each\",\
                     \"is_successful\":{ok},\"duration\":5,\"output\":\"eyJvayI6dHJ1ZX0=\",\
                     \"metric_value\":null,\"executed_at\":\"{}\"}}",
                    if i > 0 { "," } else { "" },
                    t.format("%Y-%m-%dT%H:%M:%SZ"),
                );
            }
            let _ = w.write_all(b"]");
        }
    });
    (base, h)
}

/// `runs` over a generated log, run as `common::measured` runs every
/// memory test: (exit code, stdout, peak RSS in KiB, as last sampled
/// before it exited: it only grows, and a growth with the log would show
/// long before the end).
fn runs_over(entries: usize) -> (i32, String, i64) {
    let (base, _server) = serve(entries);
    let dir = tempfile::tempdir().unwrap();
    let mut c = measured::command(dir.path());
    c.args([
        "runs",
        PIPELINE,
        "--from",
        "2023-01-01",
        "--to",
        "2024-12-31",
        "-o",
        "jsonl",
    ])
    .env("YLEM_BASE_URL", &base)
    .env("YLEM_TOKEN", "runs-memory-token")
    .env("NO_COLOR", "1");
    let m = measured::run(c, true, std::time::Duration::from_secs(120));
    (m.code, m.stdout, m.peak_kib)
}

#[test]
fn runs_of_a_large_log_are_reported_with_flat_memory() {
    // About 260 bytes an entry: 8 MB, then 62 MB of log.
    let (small, big) = (30_000, 240_000);
    let (code, out, rss_small) = runs_over(small);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().count(), RUNS, "{out}");
    let (code, out, rss_big) = runs_over(big);
    assert_eq!(code, 0, "{out}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), RUNS, "{out}");
    // Newest first: run 3 (with the failure) down to run 0.
    for (i, r) in rows.iter().enumerate() {
        let run = RUNS - 1 - i;
        assert_eq!(
            r["run_uuid"],
            format!("00000000-0000-4000-8000-{run:012}"),
            "{r}"
        );
        assert_eq!(r["tasks"], big / RUNS, "{r}");
        let failed = if run == RUNS - 1 { 1 } else { 0 };
        assert_eq!(r["tasks_failed"], failed, "{r}");
    }
    assert_eq!(rows[0]["result"], "failed");
    // Eight times the log, the same memory: the entries are never kept
    // (the 54 MB more log grows the peak by about 70 MB when they are). The
    // bound leaves room for a loaded CI machine's noise.
    let grew_kib = rss_big - rss_small;
    eprintln!("peak RSS {rss_small} KiB -> {rss_big} KiB");
    assert!(
        grew_kib < 16 * 1024,
        "peak RSS grew by {grew_kib} KiB ({rss_small} -> {rss_big}) over 8x the log"
    );
    // And the issue's bound on every command, on the binary measured.
    let bound = measured::bound(measured::ISSUE_KIB);
    assert!(rss_big < bound, "peak RSS {rss_big} KiB, over {bound} KiB");
}

/// Serve one run of `tasks` distinct tasks (one entry each, newest first,
/// task UUIDs in no sorted order) to each of at most `conns` connections:
/// the log the fold reads and the history look-ups after it.
fn serve_one_run_of(tasks: usize, conns: usize) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    std::thread::spawn(move || {
        for s in l.incoming().take(conns) {
            let Ok(mut s) = s else { return };
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut line = String::new();
            while r.read_line(&mut line).map(|n| n > 2).unwrap_or(false) {
                line.clear();
            }
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut s);
            let _ = w.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[",
            );
            for i in 0..tasks {
                // A permutation of 0..tasks: 7919 is prime to the counts used.
                let t = (i * 7919) % tasks;
                let at = chrono::DateTime::from_timestamp(1_700_000_000 - i as i64, 0).unwrap();
                let _ = write!(
                    w,
                    "{}{{\"workflow_run_uuid\":\"{MANY_RUN}\",\
                     \"task_uuid\":\"1b2c3d4e-5f60-4a7b-8c9d-{t:012x}\",\"task_type\":\"query\",\
                     \"is_successful\":true,\"duration\":5,\"output\":\"\",\
                     \"metric_value\":null,\"executed_at\":\"{}\"}}",
                    if i > 0 { "," } else { "" },
                    at.format("%Y-%m-%dT%H:%M:%SZ"),
                );
            }
            let _ = w.write_all(b"]");
        }
    });
    base
}

const MANY_RUN: &str = "00000000-0000-4000-8000-0000000000aa";

/// One run of 60 000 distinct tasks shown whole (`runs P --run R`) and
/// listed (`runs P`): every task counted once, the newest 10 000 entries
/// shown with a word on the rest; the fold's task set grows in place (it
/// was copied for each new task: quadratic in the run's task count). How
/// long it took is printed, not asserted (BENCHMARKS figures).
#[test]
fn one_run_of_many_distinct_tasks_is_shown_whole_and_counted_once_each() {
    let tasks = 60_000;
    for (what, extra) in [
        ("runs --run R", vec!["--run", MANY_RUN, "-o", "json"]),
        ("runs", vec!["-o", "jsonl"]),
    ] {
        let base = serve_one_run_of(tasks, 8);
        let dir = tempfile::tempdir().unwrap();
        let mut c = measured::command(dir.path());
        c.args([
            "runs",
            PIPELINE,
            "--from",
            "2023-01-01",
            "--to",
            "2024-12-31",
        ])
        .args(&extra)
        .env("YLEM_BASE_URL", &base)
        .env("YLEM_TOKEN", "runs-memory-token")
        .env("NO_COLOR", "1");
        let m = measured::run(c, true, std::time::Duration::from_secs(120));
        eprintln!(
            "{what} over one run of {tasks} distinct tasks: {:?}, peak {} KiB",
            m.took, m.peak_kib
        );
        assert_eq!(m.code, 0, "{what}: {}", m.stderr);
        let row: serde_json::Value = serde_json::from_str(m.stdout.trim()).unwrap();
        let row = if row.is_array() { &row[0] } else { &row };
        assert_eq!(row["run_uuid"], MANY_RUN, "{what}");
        assert_eq!(row["tasks"], tasks, "{what}: {row}");
        assert_eq!(row["tasks_failed"], 0, "{what}");
        if what == "runs --run R" {
            let entries = row["entries"].as_array().expect("entries");
            assert_eq!(entries.len(), 10_000, "{what}: the newest kept");
            assert!(
                m.stderr.contains("has 50000 entries more than are listed"),
                "{what}: {}",
                m.stderr
            );
        }
    }
}
