//! The runs in a pipeline's log, told from its entries as they stream
//! past: per-run totals only (times, task UUIDs, counts, the first failed
//! entry), never the entries themselves, so memory grows with the number
//! of runs, not with the size of the log; then each run's result by
//! `run --wait`'s completion rule.

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::completion::{Entry, Evidence, History, Rule, Verdict};
use crate::api::models::{LogEntry, LogEntryRef};
use crate::time;

/// A run that ended this recently may still be going: it is not history.
const STILL_RUNNING: chrono::Duration = chrono::Duration::minutes(10);
/// At most this many recent complete runs make the history, as for `--wait`.
const HISTORY_RUNS: usize = 20;

/// What the log says of one run so far.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub run: String,
    pub first: Option<DateTime<Utc>>,
    pub last: Option<DateTime<Utc>>,
    /// The duration of the entry at `last`.
    pub last_duration: i64,
    /// Task UUIDs (lower case), one per entry.
    pub tasks: Vec<String>,
    pub failed: usize,
    /// The earliest failed entry, whole: its output says why.
    pub first_failed: Option<LogEntry>,
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
        self.tasks.push(e.task_uuid.as_str().to_ascii_lowercase());
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
                self.first_failed = Some(e.to_owned_entry());
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
        match self.runs.get_mut(run) {
            Some(t) => t.add(at, e),
            None => {
                let mut t = Tally {
                    run: run.to_ascii_lowercase(),
                    ..Tally::default()
                };
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
            .map(|t| {
                let mut v = t.tasks.clone();
                v.sort();
                v
            })
            .collect();
        History { runs, longest_gap }
    }

    /// Every run judged, newest (by its first entry) first.
    pub fn judged(self, now: DateTime<Utc>) -> Vec<Judged> {
        let rule = Rule::new(&self.history(now), None, None, Duration::from_secs(1));
        let expected = rule.expected_total();
        let mut out: Vec<Judged> = self
            .runs
            .into_values()
            .map(|t| judge(&rule, expected, t, now))
            .collect();
        out.sort_by_key(|j| std::cmp::Reverse((j.tally.first, j.tally.run.clone())));
        out
    }
}

fn judge(rule: &Rule, expected: Option<usize>, t: Tally, now: DateTime<Utc>) -> Judged {
    let seen: Vec<Entry> = t
        .tasks
        .iter()
        .enumerate()
        .map(|(i, task)| Entry {
            run: t.run.clone(),
            task: task.clone(),
            // The count is what matters to the rule: mark that many failed.
            ok: i >= t.failed,
            at: t.last,
        })
        .collect();
    let quiet = t
        .ended()
        .map(|e| (now - e).to_std().unwrap_or_default())
        .unwrap_or_default();
    let (result, evidence) = match rule.decide(&seen, quiet) {
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
