//! Response bodies that are not what the spec says, driven through the
//! binary: resets and truncation mid-body (exit 5, and no partial result
//! presented as complete), wrong types and missing fields (exit 5 naming the
//! field), and bodies that trickle or stall (`--timeout` bounds the
//! whole request: exit 6).

use crate::common;

use std::time::{Duration, Instant};

use common::faultserver::*;
use common::report::Scenario;
use common::*;
use serde_json::Value;

fn run(s: &FaultServer, sc: &mut Scenario, args: &[&str]) -> Out {
    let dir = tempfile::tempdir().unwrap();
    let o = client_run(&s.base(), dir.path(), args);
    sc.check(&o);
    sc.check_dir(dir.path());
    o
}

/// Exit 5 and the message: the exit code says the result is partial. A
/// `logs -o json` stdout is still a closed array of the rows that came
/// whole (fewer than the 40 sent), so a reader parses it; a result read
/// whole (`stats`) prints nothing.
fn assert_cut(o: &Out, what: &str) {
    assert_eq!(o.code, 5, "{what}: {}", o.stderr);
    assert!(
        o.stderr.contains("cut off") || o.stderr.contains("ended before"),
        "{what}: {}",
        o.stderr
    );
    if !o.stdout.is_empty() {
        let v: Value = serde_json::from_str(&o.stdout)
            .unwrap_or_else(|e| panic!("{what}: not a closed array: {e}: {}", o.stdout));
        assert!(
            v.as_array().is_some_and(|a| a.len() < 40),
            "{what}: {}",
            o.stdout
        );
    }
}

#[test]
fn a_reset_or_truncated_body_exits_5_with_whole_rows_only() {
    let mut sc = Scenario::new(
        "reset-and-truncated-bodies",
        "fault",
        "a body cut by a reset, a short Content-Length or a closed connection exits 5 with 'cut off'; logs -o json prints a closed array of the whole rows only, stats nothing",
    );
    let logs = log_array(40);
    let half = logs.len() / 2;
    let head = |len: usize| {
        format!("HTTP/1.1 200 X\r\ncontent-type: application/json\r\ncontent-length: {len}\r\n\r\n")
            .into_bytes()
    };
    // Reset in the middle of a log (a streamed array) and of a stats object.
    let l = logs.clone();
    let s = with_token(move |_, _| {
        let mut b = head(l.len());
        b.extend_from_slice(&l.as_bytes()[..half]);
        Action::ResetAfter(b)
    });
    let o = run(&s, &mut sc, &["logs", P1, "-o", "json", "--retries", "0"]);
    assert_cut(&o, "logs reset");
    assert!(
        o.stdout.starts_with('['),
        "rows seen before the reset stream"
    );
    let s = with_token(move |_, _| {
        let mut b = head(STATS.len());
        b.extend_from_slice(&STATS.as_bytes()[..40]);
        Action::ResetAfter(b)
    });
    let o = run(&s, &mut sc, &["stats", "task", P1, "-o", "json"]);
    assert_cut(&o, "stats reset");
    assert!(o.stdout.is_empty());
    // Fewer bytes than Content-Length, then a clean close.
    let l = logs.clone();
    let s = with_token(move |_, _| {
        let mut b = head(l.len());
        b.extend_from_slice(&l.as_bytes()[..half]);
        Action::Raw(b)
    });
    let o = run(&s, &mut sc, &["logs", P1, "-o", "json"]);
    assert_cut(&o, "logs short");
    // No length: the connection closes in the middle of the array.
    let l = logs.clone();
    let s = with_token(move |_, _| {
        let mut b = open_head(200);
        b.extend_from_slice(&l.as_bytes()[..half]);
        Action::Raw(b)
    });
    let o = run(&s, &mut sc, &["logs", P1, "-o", "json"]);
    assert_cut(&o, "logs closed");
    let o = run(&s, &mut sc, &["logs", P1, "-o", "jsonl"]);
    assert_eq!(o.code, 5);
    for line in o.stdout.lines() {
        serde_json::from_str::<Value>(line).expect("each jsonl row is whole");
    }
    sc.done();
}

#[test]
fn wrong_types_and_missing_fields_exit_5_naming_the_field() {
    let mut sc = Scenario::new(
        "wrong-types-missing-fields",
        "fault",
        "a JSON body with a wrong type or a missing field exits 5 and names the field",
    );
    let cases: [(&str, &[&str], &str); 4] = [
        (
            r#"{"num_of_successes":"12","num_of_failures":3,"average_duration":1,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1}"#,
            &["stats", "task", P1],
            "num_of_successes",
        ),
        (
            r#"{"num_of_successes":12,"average_duration":1,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1}"#,
            &["stats", "task", P1],
            "num_of_failures",
        ),
        (
            r#"{"is_successful":"yes","executed_at":"2024-01-13 18:36:58","duration":1}"#,
            &["last-run", "task", P1],
            "is_successful",
        ),
        (
            r#"[{"workflow_run_uuid":"r","task_uuid":"t","task_type":"query","is_successful":true,"duration":"slow","executed_at":"2024-01-13T18:36:58Z"}]"#,
            &["logs", P1],
            "duration",
        ),
    ];
    for (body, args, field) in cases {
        let s = with_token(move |_, _| Action::Raw(json(200, body)));
        let o = run(&s, &mut sc, args);
        assert_eq!(o.code, 5, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains(field),
            "{args:?} should name {field}: {}",
            o.stderr
        );
        assert_eq!(s.api().len(), 1, "a bad body is not retried");
    }
    sc.done();
}

#[test]
fn timeout_bounds_stalls_not_bodies_that_keep_arriving() {
    let mut sc = Scenario::new(
        "trickling-and-stalled-bodies",
        "fault",
        "a body that arrives a few bytes at a time for longer than --timeout is read whole (exit 0); a response that stalls fails with exit 6 in about --timeout",
    );
    // 30 entries, 64 bytes every 50 ms: about 4 s in all, never idle for
    // the 1 s of --timeout.
    let logs = log_array(30);
    let s = with_token(move |_, _| Action::Trickle {
        head: open_head(200),
        body: logs.clone().into_bytes(),
        chunk: 64,
        every: Duration::from_millis(50),
    });
    let started = Instant::now();
    let o = run(&s, &mut sc, &["logs", P1, "--timeout", "1s", "-o", "jsonl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout.lines().count(), 30);
    assert!(started.elapsed() > Duration::from_secs(1), "it did trickle");
    // The head, then nothing: a stall, in the body or before the first byte.
    let s = with_token(|_, _| Action::Hang {
        head: open_head(200),
        hold: Duration::from_secs(20),
    });
    for args in [&["stats", "task", P1][..], &["logs", P1][..]] {
        let mut a = args.to_vec();
        a.extend(["--timeout", "800ms", "--retries", "0"]);
        let started = Instant::now();
        let o = run(&s, &mut sc, &a);
        assert_eq!(o.code, 6, "{a:?}: {}", o.stderr);
        assert!(o.stderr.contains("--timeout"), "{}", o.stderr);
        assert!(started.elapsed() < Duration::from_secs(15), "{a:?}");
    }
    sc.done();
}
