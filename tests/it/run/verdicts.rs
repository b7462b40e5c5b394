//! Verdict accuracy: `run --wait` and `last-run --fail-on-failure` against
//! sandboxes of both dialects with random seeds (so random task graphs, run
//! sizes and sub-second gaps) and injected faults, each verdict compared
//! with the sandbox's ground truth (`/_sandbox/runs/<run>`). A timeout or an
//! error is allowed; a false success or a false failure is not.

use crate::common;

use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::report::Scenario;
use common::sandbox::{Sandbox, start_with};
use serde_json::Value;

const SANDBOXES: usize = 5;
/// Each wave starts one run on every pipeline of every sandbox (20 runs).
const WAVES: usize = 6;
const DIALECTS: [&str; 2] = ["ylem", "spec"];
/// One second of task time takes this long: gaps up to about a second.
const TASK_DELAY: &str = "100ms";
/// A real 5 s poll scaled like the tasks' seconds.
const POLL: &str = "300ms";

/// Waits (bounded) until the run has finished; its truth then.
fn finished(sb: &Sandbox, run: &str) -> Value {
    for _ in 0..600 {
        let t = sb.truth(run);
        if t["finished"] == true {
            return t;
        }
        thread::sleep(Duration::from_millis(50));
    }
    panic!("run {run} never finished");
}

#[derive(Default, Debug)]
struct Tally {
    right: usize,
    wrong: Vec<String>,
    timeouts: usize,
    errors: usize,
}

impl Tally {
    fn judge(&mut self, what: &str, claimed_ok: bool, truth_ok: bool, premature: bool) {
        if claimed_ok == truth_ok && !premature {
            self.right += 1;
        } else {
            self.wrong.push(format!(
                "{what}: said {}, truth {}{}",
                if claimed_ok { "succeeded" } else { "failed" },
                if truth_ok { "succeeded" } else { "failed" },
                if premature {
                    " (run not finished yet)"
                } else {
                    ""
                }
            ));
        }
    }
}

/// What `run --wait` said: the run (if it got that far), its exit code, and
/// whether the run had finished when the CLI gave its verdict (by the truth
/// just after, and by the number of tasks the CLI saw).
struct Said {
    run: Option<String>,
    code: i32,
    finished: bool,
    tasks_seen: u64,
}

fn run_wait(sb: &Sandbox, pipeline: &str) -> Said {
    let o = sb.run(&[
        "run",
        "pipeline",
        pipeline,
        "--wait",
        "--poll",
        POLL,
        "--wait-timeout",
        "60s",
        "-o",
        "json",
    ]);
    let v: Value = serde_json::from_str(&o.stdout).unwrap_or(Value::Null);
    let row = if v.is_array() { &v[0] } else { &v };
    let run = row["workflow_run_uuid"].as_str().map(str::to_string);
    let finished = run
        .as_ref()
        .is_some_and(|r| sb.truth(r)["finished"] == true);
    Said {
        run,
        code: o.code,
        finished,
        tasks_seen: row["tasks_done"].as_u64().unwrap_or(0),
    }
}

fn seeds() -> Vec<u64> {
    let base = std::env::var("YLEM_VERDICT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_secs()
        });
    eprintln!("verdict seeds from {base} (set YLEM_VERDICT_SEED={base} to repeat)");
    (0..SANDBOXES as u64)
        .map(|i| base.wrapping_add(i * 7919))
        .collect()
}

#[test]
fn verdicts_match_the_ground_truth() {
    let sandboxes: Vec<Sandbox> = seeds()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let seed = s.to_string();
            let flags = [
                "--seed",
                &seed,
                "--task-delay",
                TASK_DELAY,
                "--fail-rate",
                "0.02",
            ];
            start_with(DIALECTS[i % 2], &flags)
        })
        .collect();
    let mut tally = Tally::default();
    let mut last = Tally::default();
    for _ in 0..WAVES {
        let results: Vec<(usize, String, Said)> = thread::scope(|s| {
            let handles: Vec<_> = sandboxes
                .iter()
                .enumerate()
                .flat_map(|(i, sb)| sb.pipelines.iter().map(move |(p, _)| (i, sb, p.clone())))
                .map(|(i, sb, p)| s.spawn(move || (i, p.clone(), run_wait(sb, &p))))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (i, p, said) in results {
            let sb = &sandboxes[i];
            let Some(run) = said.run else {
                tally.errors += 1;
                continue;
            };
            let t = finished(sb, &run);
            let truth_ok = t["is_successful"] == true;
            let premature = !said.finished || said.tasks_seen < t["tasks"].as_u64().unwrap();
            let what = format!(
                "{}: run --wait {run} ({} of {} tasks seen)",
                DIALECTS[i % 2],
                said.tasks_seen,
                t["tasks"]
            );
            match said.code {
                0 => tally.judge(&what, true, truth_ok, premature),
                7 => tally.judge(&what, false, truth_ok, false),
                8 => tally.timeouts += 1,
                _ => tally.errors += 1,
            }
            // The run is the pipeline's latest: last-run must agree with it.
            let o = sb.run(&["last-run", "pipeline", &p, "--fail-on-failure"]);
            match o.code {
                0 => last.judge(&format!("last-run {p}"), true, truth_ok, false),
                7 => last.judge(&format!("last-run {p}"), false, truth_ok, false),
                // Not finished on evidence yet (the model's grace, or a run
                // whose end only the settle time can tell): not a verdict.
                8 => last.timeouts += 1,
                _ => last.errors += 1,
            }
        }
    }
    eprintln!("run --wait: {tally:?}\nlast-run --fail-on-failure: {last:?}");
    let proves = format!(
        "random task graphs (chains, conditions, for_each, mid-run failures), 100 ms task seconds, 2% injected faults, both dialects: {} run --wait verdicts ({} timeouts, {} errors from faults) and {} last-run --fail-on-failure verdicts compared with the sandbox's ground truth; 0 wrong",
        tally.right + tally.wrong.len(),
        tally.timeouts,
        tally.errors,
        last.right + last.wrong.len()
    );
    let mut sc = Scenario::new(
        "verdict-accuracy",
        "verdict",
        Box::leak(proves.into_boxed_str()),
    );
    sc.cases(tally.right + tally.wrong.len() + tally.timeouts + last.right + last.wrong.len());
    assert!(
        tally.right + tally.wrong.len() + tally.timeouts >= 100,
        "{tally:?}"
    );
    let wrong: Vec<&String> = tally.wrong.iter().chain(&last.wrong).collect();
    assert!(
        wrong.is_empty(),
        "{} wrong verdicts of {}:\n{wrong:#?}",
        wrong.len(),
        tally.right + last.right + wrong.len()
    );
    sc.done();
}
