//! `logs --tail N` (read once, and before `-f` follows) and `logs -f --poll
//! D` (as often as asked), against the sandbox.

use serde_json::Value;

use crate::common::sandbox;

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn logs_tail_prints_the_newest_n_entries_read_once_and_before_following() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    // A run of four tasks, all within the last hour.
    let o = s.run(&["run", "pipeline", p, "--wait", "--poll", "200ms", "-q"]);
    assert!(o.code == 0 || o.code == 7, "{}", o.stderr);
    let all = lines(&s.run(&["logs", p, "--since", "1h", "-o", "jsonl"]).stdout);
    assert!(all.len() >= 3, "{all:?}");
    let o = s.run(&["logs", p, "--since", "1h", "--tail", "2", "-o", "jsonl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        lines(&o.stdout),
        all[..2],
        "the newest two, in the log's order"
    );
    // Followed: the newest two of the last hour, oldest first, then on
    // (nothing more comes: --max-time ends it, cleanly).
    let o = s.run(&[
        "logs",
        p,
        "-f",
        "--tail",
        "2",
        "--poll",
        "200ms",
        "--max-time",
        "2s",
        "-o",
        "jsonl",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let mut newest: Vec<Value> = all[..2].to_vec();
    newest.reverse();
    assert_eq!(lines(&o.stdout), newest);
    // --since replays everything since: with --tail, one or the other.
    let o = s.run(&["logs", p, "-f", "--tail", "2", "--since", "1h"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--tail"), "{}", o.stderr);
    // --poll needs -f.
    assert_eq!(s.run(&["logs", p, "--poll", "1s"]).code, 2);
}

#[test]
fn logs_follow_polls_as_often_as_asked() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let reads = |s: &sandbox::Sandbox| {
        s.requests()
            .iter()
            .filter(|r| r.contains(&format!("/pipelines/{p}/logs")) || r.contains(p))
            .count()
    };
    let before = reads(&s);
    // By default the first pause is 2 s: at most two looks in 3 s; every
    // 200 ms, many more (at least 5, however slow the machine: each look
    // is one loopback request).
    let o = s.run(&["logs", p, "-f", "--poll", "200ms", "--max-time", "3s"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let polled = reads(&s) - before;
    assert!(polled >= 5, "{polled} looks in 3 s at --poll 200ms");
}
