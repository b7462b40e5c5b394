//! The runs in a pipeline's log, told from its entries as they stream
//! past: per-run totals only (times, task UUIDs, counts, the first failed
//! entry), never the entries themselves, so memory grows with the number
//! of runs, not with the size of the log; then each run's result by
//! `run --wait`'s completion rule.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::finished::{Evidence, History, Rule, Verdict};
use crate::api::models::{LogEntry, LogEntryRef};
use crate::time;

/// A run that ended this recently may still be going: it is not history.
const STILL_RUNNING: chrono::Duration = chrono::Duration::minutes(10);
/// At most this many recent complete runs make the history, as for `--wait`.
const HISTORY_RUNS: usize = 20;

/// What the log says of one run so far.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// The run's UUID (lower case), set when the runs are judged: while
    /// folding, it is the key of `Runs::runs` and not kept twice.
    pub run: String,
    pub first: Option<DateTime<Utc>>,
    pub last: Option<DateTime<Utc>>,
    /// The duration of the entry at `last`.
    pub last_duration: i64,
    /// Task UUIDs (lower case) and how many entries each has, sorted: a
    /// run's distinct tasks, never one item per entry (a `for_each` run can
    /// report the same few tasks a million times). A sorted vector, not a
    /// map: a run has a handful of tasks, and a map's node is larger.
    pub tasks: Vec<(String, usize)>,
    /// Its entries.
    pub entries: usize,
    pub failed: usize,
    /// The earliest failed entry, whole: its output says why. Boxed: most
    /// runs have none, and every run's tally is in one table.
    pub first_failed: Option<Box<LogEntry>>,
    /// The longest gap between two consecutive entries.
    pub longest_gap: Duration,
    /// The time of the entry before, in the order they came.
    prev: Option<DateTime<Utc>>,
}

impl Tally {
    /// The last entry's time plus its duration.
    pub fn ended(&self) -> Option<DateTime<Utc>> {
        self.last
            .map(|t| t + chrono::Duration::milliseconds(self.last_duration))
    }

    pub fn duration_ms(&self) -> Option<i64> {
        Some((self.ended()? - self.first?).num_milliseconds().max(0))
    }

    fn add(&mut self, at: Option<DateTime<Utc>>, e: &LogEntryRef) {
        let task = lower(e.task_uuid.as_str());
        let task = task.as_ref();
        match self.tasks.binary_search_by(|(t, _)| t.as_str().cmp(task)) {
            Ok(i) => self.tasks[i].1 += 1,
            Err(i) => self.tasks.insert(i, (task.to_string(), 1)),
        }
        self.entries += 1;
        if let Some(at) = at {
            // The server sends newest first, so the entry before this one
            // (of the same run) is its neighbour in time.
            if let Some(p) = self.prev {
                self.longest_gap = self
                    .longest_gap
                    .max((p - at).abs().to_std().unwrap_or_default());
            }
            self.prev = Some(at);
            if self.first.is_none_or(|f| at < f) {
                self.first = Some(at);
            }
            if self.last.is_none_or(|l| at >= l) {
                self.last = Some(at);
                self.last_duration = e.duration;
            }
        }
        if !e.is_successful {
            self.failed += 1;
            let earlier = self
                .first_failed
                .as_ref()
                .and_then(|f| f.executed_at.parsed())
                .is_none_or(|f| at.is_some_and(|a| a < f));
            if earlier {
                self.first_failed = Some(Box::new(e.to_owned_entry()));
            }
        }
    }
}

/// Every run of the log, folded entry by entry.
#[derive(Default)]
pub struct Runs {
    pub runs: HashMap<String, Tally>,
    /// `runs --run R`: the one run whose entries are kept whole.
    pub keep: Option<String>,
    pub kept: Vec<LogEntry>,
}

/// A run with its result by the completion rule.
pub struct Judged {
    pub tally: Tally,
    /// `failed`, `succeeded` or `running`.
    pub result: &'static str,
    pub evidence: Option<Evidence>,
    /// How many tasks the history says a run has, when it knows.
    pub expected: Option<usize>,
}

impl Runs {
    pub fn add(&mut self, e: &LogEntryRef) {
        let at = time::parse_server_time(e.executed_at().as_str());
        let run = e.workflow_run_uuid.as_str();
        if self
            .keep
            .as_deref()
            .is_some_and(|k| k.eq_ignore_ascii_case(run))
        {
            self.kept.push(e.to_owned_entry());
        }
        let run = lower(run);
        let run = run.as_ref();
        match self.runs.get_mut(run) {
            Some(t) => t.add(at, e),
            None => {
                let mut t = Tally::default();
                t.add(at, e);
                self.runs.insert(run.to_string(), t);
            }
        }
    }

    /// What the complete runs without a failure say: the same history
    /// `run --wait` looks up, from the totals.
    fn history(&self, now: DateTime<Utc>) -> History {
        let mut complete: Vec<&Tally> = self
            .runs
            .values()
            .filter(|t| t.last.is_some_and(|l| now - l >= STILL_RUNNING))
            .collect();
        let longest_gap = complete.iter().map(|t| t.longest_gap).max();
        complete.retain(|t| t.failed == 0);
        complete.sort_by_key(|t| std::cmp::Reverse(t.last));
        let runs = complete
            .iter()
            .take(HISTORY_RUNS)
            .map(|t| history_tasks(&t.tasks))
            .collect();
        History { runs, longest_gap }
    }

    /// Every run judged, newest (by its first entry) first.
    pub fn judged(self, now: DateTime<Utc>) -> Vec<Judged> {
        let rule = Rule::new(&self.history(now), None, None, Duration::from_secs(1));
        let expected = rule.expected_total();
        let mut out: Vec<Judged> = self
            .runs
            .into_iter()
            .map(|(run, t)| judge(&rule, expected, Tally { run, ..t }, now))
            .collect();
        out.sort_by(|a, b| (b.tally.first, &b.tally.run).cmp(&(a.tally.first, &a.tally.run)));
        out
    }
}

/// A UUID in lower case, the key runs and tasks are kept by: borrowed as it
/// came (every entry of the servers seen), allocated only for one written
/// in upper case.
fn lower(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        s.to_ascii_lowercase().into()
    } else {
        s.into()
    }
}

/// A run's tasks as `History` keeps them (sorted, one per entry), without
/// one item per entry: a run with a task repeated is kept as its distinct
/// tasks plus that task once more. `History` only asks whether every run
/// has the same tasks with none repeated, and that answer is unchanged.
fn history_tasks(tasks: &[(String, usize)]) -> Vec<String> {
    let mut v: Vec<String> = tasks.iter().map(|(t, _)| t.clone()).collect();
    if let Some((t, _)) = tasks.iter().find(|(_, n)| *n > 1) {
        let at = v.binary_search(t).unwrap_or_else(|i| i);
        v.insert(at, t.clone());
    }
    v
}

fn judge(rule: &Rule, expected: Option<usize>, t: Tally, now: DateTime<Utc>) -> Judged {
    let quiet = t
        .ended()
        .map(|e| (now - e).to_std().unwrap_or_default())
        .unwrap_or_default();
    let (result, evidence) = match rule.decide_tasks(&t.tasks, t.failed, quiet) {
        Verdict::Failed { .. } => ("failed", None),
        Verdict::Succeeded(ev) => ("succeeded", Some(ev)),
        Verdict::Pending => ("running", None),
    };
    Judged {
        tally: t,
        result,
        evidence,
        expected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(runs: &mut Runs, run: &str, task: &str, ok: bool, at: &str) {
        let json = format!(
            r#"{{"workflow_run_uuid":"{run}","task_uuid":"{task}","task_type":"query","is_successful":{ok},"duration":1000,"output":"","executed_at":"{at}"}}"#
        );
        let e: LogEntryRef = serde_json::from_str(&json).unwrap();
        runs.add(&e);
    }

    /// A run keeps its distinct tasks, however many entries repeat them
    /// (and whatever case the server writes them in), and a run with a
    /// task repeated is never taken for the graph of runs without.
    #[test]
    fn repeats_are_counted_not_kept_and_never_match_a_graph() {
        let mut runs = Runs::default();
        // Two complete past runs of tasks a, b: a known graph.
        for (run, hour) in [("r1", "01"), ("r2", "02")] {
            add(
                &mut runs,
                run,
                "B",
                true,
                &format!("2026-01-01T{hour}:00:02Z"),
            );
            add(
                &mut runs,
                run,
                "a",
                true,
                &format!("2026-01-01T{hour}:00:01Z"),
            );
        }
        // A run of a, b, a, b, ...: 1000 entries, two tasks kept.
        for i in 0..1000 {
            let t = if i % 2 == 0 { "A" } else { "b" };
            add(&mut runs, "r3", t, true, "2026-01-01T03:00:01Z");
        }
        assert_eq!(runs.runs["r3"].tasks.len(), 2);
        assert_eq!(runs.runs["r3"].entries, 1000);
        // r3 may still be going (too recent to be history), as a run being
        // judged while the two before it made the graph.
        let now = "2026-01-01T03:05:00Z".parse().unwrap();
        let judged = runs.judged(now);
        assert_eq!(judged[0].tally.run, "r3");
        // Not the graph's two tasks: settled, never "as in the last runs".
        assert_eq!(judged[0].evidence.as_ref().unwrap().name(), "settled");
        assert_eq!(judged[1].evidence.as_ref().unwrap().name(), "history");
        assert_eq!(judged[1].expected, Some(2));
    }
}
