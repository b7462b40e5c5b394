//! The runs in a pipeline's log, told from its entries as they stream
//! past: per-run totals only (`fold::RunFold`), never the entries
//! themselves, so memory grows with the number of runs, not with the size
//! of the log; the history they make, and each run judged by the one rule
//! (`fold::judge`).

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::models::{LogEntry, LogEntryRef};
use crate::runs::basis;
use crate::runs::failure::Finder;
use crate::runs::finished::{History, Rule};
use crate::runs::fold::{Judged, RunFold, TaskSets, id_of, judge};

/// A run that ended this recently may still be going: it is not history.
const STILL_RUNNING: chrono::Duration = chrono::Duration::minutes(10);
/// At most this many recent complete runs make the history, as for the
/// history look-up (`history.rs`).
const HISTORY_RUNS: usize = 20;
/// At most this many failed entries of one run are kept whole, when asked
/// (`keep_failed`): the failure of a last run names them.
const FAILED_KEPT: usize = 32;

/// At most this many entries of the one run shown whole are kept (a run
/// of a `for_each` over a million rows is shown by its newest entries and
/// a count of the rest).
pub const KEPT_ENTRIES: usize = 10_000;
/// At most this much of a failed entry's output (Base64) is kept: its
/// messages are read from it. A longer one keeps its start (cut at a
/// Base64 quantum) and the cut marker, whose text is still shown; a
/// successful entry's output is never kept (nothing states it).
pub const KEPT_OUTPUT: usize = 256 << 10;

/// At most this much of the failed outputs of one run shown whole is kept
/// (`summary_within`), however many of its tasks failed.
pub const KEPT_RUN_OUTPUTS: usize = 2 << 20;

/// Folds are kept in chunks of this many: a table of 40 000 runs then has
/// at most one chunk of room to spare, where one vector would have 25 000
/// (it doubles), and growing never copies it.
const CHUNK: usize = 4096;

/// Every run of the log, folded entry by entry: the folds in the order
/// their runs first came, and an index by run.
#[derive(Default)]
pub struct Runs<'a> {
    chunks: Vec<Vec<RunFold>>,
    index: HashMap<Uuid, u32>,
    sets: TaskSets,
    /// Reads a run's earliest failed entry as it is folded (a list of runs).
    pub finder: Option<&'a Finder>,
    /// The one run whose entries are kept whole (one run shown whole).
    pub keep: Option<String>,
    /// The kept run's entries, as they came (at most `KEPT_ENTRIES`, each
    /// a `summary`).
    pub kept: Vec<LogEntry>,
    /// How many more entries the kept run had.
    pub kept_over: usize,
    /// What the kept run's failed outputs have taken of their budget.
    kept_outputs: usize,
    /// Keep each run's failed entries whole (a last run's window of few
    /// runs, never a list's thousands).
    pub keep_failed: bool,
    /// Each run's failed entries, with `keep_failed`.
    pub failed: HashMap<Uuid, Vec<LogEntry>>,
}

impl Runs<'_> {
    /// Fold one entry in; returns its run.
    pub fn add(&mut self, e: &LogEntryRef) -> Uuid {
        let raw = e.workflow_run_uuid.as_str();
        if self
            .keep
            .as_deref()
            .is_some_and(|k| k.eq_ignore_ascii_case(raw))
        {
            match self.kept.len() < KEPT_ENTRIES {
                true => {
                    let mut left = KEPT_RUN_OUTPUTS.saturating_sub(self.kept_outputs);
                    let s = summary_within(e, &mut left);
                    self.kept_outputs += s.output.len();
                    self.kept.push(s);
                }
                false => self.kept_over += 1,
            }
        }
        let run = id_of(raw).0;
        let chunks = &mut self.chunks;
        let i = *self.index.entry(run).or_insert_with(|| {
            if chunks.last().is_none_or(|c| c.len() == CHUNK) {
                chunks.push(Vec::with_capacity(CHUNK));
            }
            let n = chunks.len() - 1;
            chunks[n].push(RunFold::new(raw));
            (n * CHUNK + chunks[n].len() - 1) as u32
        });
        let i = i as usize;
        self.chunks[i / CHUNK][i % CHUNK].add(e, self.finder, &mut self.sets);
        if self.keep_failed && !e.is_successful {
            let v = self.failed.entry(run).or_default();
            if v.len() < FAILED_KEPT {
                let used: usize = v.iter().map(|e| e.output.len()).sum();
                let mut left = KEPT_RUN_OUTPUTS.saturating_sub(used);
                v.push(summary_within(e, &mut left));
            }
        }
        run
    }

    /// The folds, in the order their runs first came.
    pub fn iter(&self) -> impl Iterator<Item = &RunFold> {
        self.chunks.iter().flatten()
    }

    /// The folds, taken, in the order their runs first came.
    pub(crate) fn into_folds(self) -> impl Iterator<Item = RunFold> {
        self.chunks.into_iter().flatten()
    }

    /// Leave run `run` out (a run cut short by a bounded read).
    pub fn remove(&mut self, run: Uuid) {
        if let Some(i) = self.index.remove(&run) {
            let i = i as usize;
            // Its place stays, empty of entries: never a run.
            self.chunks[i / CHUNK][i % CHUNK] = RunFold::default();
        }
    }

    /// What the complete runs without a failure say: the same history
    /// the history look-up (`history.rs`) reads, from the totals.
    pub fn history(&self, now: DateTime<Utc>) -> History {
        self.history_without(now, None)
    }

    /// `history`, leaving out run `judged`: a run is never evidence of its
    /// own size (alone in a window, a run quiet for 10 minutes would vouch
    /// for itself).
    pub(crate) fn history_without(&self, now: DateTime<Utc>, judged: Option<Uuid>) -> History {
        let mut complete: Vec<&RunFold> = self
            .iter()
            .filter(|t| t.entries > 0 && Some(t.run) != judged)
            .filter(|t| t.ended().is_some_and(|l| now - l >= STILL_RUNNING))
            .collect();
        // A run of one entry has no gap: it says nothing of the pauses
        // between tasks (none, not a gap of 0 s, as `History::from_entries`
        // has it), else one-entry runs would shorten the settle to 10 s.
        let longest_gap = complete
            .iter()
            .filter(|t| t.entries > 1)
            .map(|t| t.longest_gap())
            .max();
        complete.retain(|t| t.failed == 0);
        complete.sort_by_key(|t| std::cmp::Reverse(t.ended()));
        let runs = complete
            .iter()
            .take(HISTORY_RUNS)
            .map(|t| history_tasks(&t.task_counts()))
            .collect();
        History {
            runs,
            longest_gap,
            // Totals keep no task types.
            task_types: Default::default(),
        }
    }

    /// The one rule for these runs: the history they make, with no
    /// expected task count and the learned (or default) settle time.
    pub fn rule(&self, now: DateTime<Utc>) -> Rule {
        listed_rule(&self.history(now), None)
    }

    /// Every run, newest (by its first task's start) first, judged as it
    /// is taken: the folds are sorted where they are, never copied into a
    /// second table.
    pub fn judged(self, now: DateTime<Utc>) -> impl Iterator<Item = Judged> {
        let rule = self.rule(now);
        self.judged_by(rule, now)
    }

    /// `judged`, each run by its anchor's rule among `rules`
    /// (`history::rules_of`: the run's basis, whatever the window).
    pub fn judged_by_basis(
        self,
        rules: BTreeMap<DateTime<Utc>, Rule>,
        now: DateTime<Utc>,
    ) -> impl Iterator<Item = Judged> {
        self.judged_each(move |t| rule_of(&rules, t).clone(), now)
    }

    /// `judged`, by `rule` (a history learnt beyond the window).
    pub fn judged_by(self, rule: Rule, now: DateTime<Utc>) -> impl Iterator<Item = Judged> {
        self.judged_each(move |_| rule.clone(), now)
    }

    /// `judged`, each run by the rule `rule` gives it.
    fn judged_each(
        self,
        rule: impl Fn(&RunFold) -> Rule,
        now: DateTime<Utc>,
    ) -> impl Iterator<Item = Judged> {
        let mut chunks = self.chunks;
        drop(self.index);
        // The order as positions (4 bytes a run), not the folds moved.
        // Unstable: no buffer of half the table (the keys are unique).
        let at = |c: &[Vec<RunFold>], i: u32| -> (Option<DateTime<Utc>>, Uuid) {
            let t = &c[i as usize / CHUNK][i as usize % CHUNK];
            (t.started(), t.run)
        };
        let n: usize = chunks.iter().map(Vec::len).sum();
        let mut order: Vec<u32> = (0..n as u32)
            .filter(|&i| chunks[i as usize / CHUNK][i as usize % CHUNK].entries > 0)
            .collect();
        order.sort_unstable_by_key(|&i| std::cmp::Reverse(at(&chunks, i)));
        order.into_iter().map(move |i| {
            let i = i as usize;
            let t = std::mem::take(&mut chunks[i / CHUNK][i % CHUNK]);
            judge(&rule(&t), t, now)
        })
    }
}

/// What a run shown whole keeps of an entry: all but its output, which
/// only a failed entry keeps, and at most `KEPT_OUTPUT` of it.
pub fn summary(e: &LogEntryRef) -> LogEntry {
    let mut left = usize::MAX;
    summary_within(e, &mut left)
}

/// `summary`, the failed output kept within what is `left` of a run's
/// budget (`KEPT_RUN_OUTPUTS`), which it takes from: a run with many
/// large failures keeps the first ones' messages, never all of them.
pub fn summary_within(e: &LogEntryRef, left: &mut usize) -> LogEntry {
    let output = match e.is_successful {
        true => String::new(),
        false => {
            let o = kept(e.output(), KEPT_OUTPUT.min(*left));
            *left = left.saturating_sub(o.len());
            o
        }
    };
    LogEntry {
        workflow_run_uuid: e.workflow_run_uuid.as_str().into(),
        task_uuid: e.task_uuid.as_str().into(),
        task_type: e.task_type.as_str().into(),
        is_successful: e.is_successful,
        duration: e.duration,
        output,
        metric_value: e.metric_value.clone(),
        executed_at: crate::api::models::Timestamp(e.executed_at().as_str().into()),
    }
}

/// What is kept of an output: all of it up to `n` bytes, else its first
/// `n` cut at a Base64 quantum (and a character boundary, for a hostile
/// text) and the cut marker (`api::cut`), whose count is the output's as
/// sent (the stream's, when the stream cut it already).
fn kept(s: &str, n: usize) -> String {
    let cut = crate::api::cut::cut_of(s);
    let (text, sent) = match cut {
        Some(c) => (c.kept, c.sent),
        None => (s, s.len() as u64),
    };
    if text.len() <= n {
        return s.to_string();
    }
    let mut end = n - n % 4;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{}", &text[..end], crate::api::cut::marker(sent))
}

/// An owned output cut to what a failure keeps (`KEPT_OUTPUT`).
pub fn cut_output(output: &mut String) {
    if output.len() > KEPT_OUTPUT {
        *output = kept(output, KEPT_OUTPUT);
    }
}

/// The rule a run is judged by in every command: `history` (its basis),
/// no expected task count, the settle setting (`settle`, else learned or
/// the default) and the one-second grace (`finished::GRACE`) for a run
/// that has its history's tasks.
pub fn listed_rule(history: &History, settle: Option<Duration>) -> Rule {
    Rule::new(history, None, settle)
}

/// The rule `t` is judged by among `rules` (`history::rules_of`, by the
/// run's anchor). A failed run is failed by any rule: it takes none, so
/// that what it says (no expected count) is the same in every command.
pub fn rule_of<'r>(rules: &'r BTreeMap<DateTime<Utc>, Rule>, t: &RunFold) -> &'r Rule {
    static NONE: std::sync::OnceLock<Rule> = std::sync::OnceLock::new();
    let none = || NONE.get_or_init(|| listed_rule(&History::default(), None));
    if t.failed > 0 {
        return none();
    }
    let at = t.started().or(t.ended()).map(basis::anchor_of);
    at.and_then(|a| rules.get(&a))
        .or_else(|| rules.values().next())
        .unwrap_or_else(none)
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
        let r3 = runs.iter().find(|r| r.run == id_of("r3").0).unwrap();
        assert_eq!(r3.tasks.len(), 2);
        assert_eq!(r3.entries, 1000);
        // r3 may still be going (too recent to be history), as a run being
        // judged while the two before it made the graph.
        let now = "2026-01-01T03:05:00Z".parse().unwrap();
        let judged: Vec<Judged> = runs.judged(now).collect();
        assert_eq!(judged[0].tally.id(), "r3");
        // Not the graph's two tasks: settled, never "as in the last runs".
        assert_eq!(judged[0].evidence.as_ref().unwrap().name(), "settled");
        assert_eq!(judged[1].evidence.as_ref().unwrap().name(), "history");
        assert_eq!(judged[1].expected, Some(2));
    }
}
