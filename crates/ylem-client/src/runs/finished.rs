//! When a followed pipeline run counts as finished: the evidence rule of
//! waiting for a run (and of following one run's log). The service has no
//! "run finished" marker and no task count, so success needs evidence: the
//! tasks the pipeline's own history says a run has, or a task count the
//! caller expects, all reported and nothing more for a grace; or no new
//! task for the settle time (given, or learnt). A failed task entry is a
//! failed run at once. Pure: no I/O, no clock. The rule and its evidence
//! are data: saying them in words is the caller's.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use chrono::{DateTime, Utc};

/// The settle time when the history has no run with two tasks to learn a
/// gap from: long enough for a slow query between two tasks.
pub const DEFAULT_SETTLE: Duration = Duration::from_secs(10 * 60);
/// A learned settle time is this many times the longest gap seen...
const SETTLE_FACTOR: u32 = 3;
/// ...and never shorter than this.
const MIN_SETTLE: Duration = Duration::from_secs(10);
/// Quiet after the expected tasks before they count: a second, so a
/// bigger run than expected still has a chance to show its next task. One
/// value for every caller (a wait's polling interval only sets how often
/// it looks), so a run's verdict and evidence are the same everywhere.
pub const GRACE: Duration = Duration::from_secs(1);
/// Past runs with an entry this recent may still be running: not evidence.
const STILL_RUNNING: chrono::Duration = chrono::Duration::minutes(10);
/// At most this many of the newest complete runs are kept as evidence.
const MAX_RUNS: usize = 20;

/// One log entry, as much of it as the rule needs.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The run's identifier.
    pub run: String,
    /// The task's UUID.
    pub task: String,
    /// Whether the task succeeded.
    pub ok: bool,
    /// When the task ended, when the entry's time can be read.
    pub at: Option<DateTime<Utc>>,
}

/// What the pipeline's recent complete runs say about its runs.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct History {
    /// Complete runs without a failed task, newest first, at most `MAX_RUNS`:
    /// each run's task UUIDs, sorted.
    pub runs: Vec<Vec<String>>,
    /// The longest gap between two consecutive tasks of one past run
    /// (failed runs too: their gaps are real).
    pub longest_gap: Option<Duration>,
    /// Each task's type by its UUID (lower case), when the history was read
    /// from log entries (`history::lookup`): a report can name a task the
    /// run did not reach as the runs that reached it do. Empty otherwise.
    pub task_types: BTreeMap<String, String>,
}

impl History {
    /// From the entries of a log lookup (any order), leaving out the run
    /// being followed and runs that may still be going at `now`.
    pub(crate) fn from_entries(entries: &[Entry], followed: &str, now: DateTime<Utc>) -> History {
        let mut by_run: HashMap<&str, Vec<&Entry>> = HashMap::new();
        for e in entries
            .iter()
            .filter(|e| !e.run.eq_ignore_ascii_case(followed))
        {
            by_run.entry(e.run.as_str()).or_default().push(e);
        }
        let mut complete: Vec<(DateTime<Utc>, Vec<&Entry>)> = Vec::new();
        let mut longest_gap: Option<Duration> = None;
        for (_, mut es) in by_run {
            // A run without times cannot be placed: no evidence.
            let Some(mut times) = es.iter().map(|e| e.at).collect::<Option<Vec<_>>>() else {
                continue;
            };
            times.sort();
            let last = *times.last().expect("a run has an entry");
            if now - last < STILL_RUNNING {
                continue;
            }
            for w in times.windows(2) {
                let gap = (w[1] - w[0]).to_std().unwrap_or_default();
                longest_gap = Some(longest_gap.map_or(gap, |g| g.max(gap)));
            }
            if es.iter().all(|e| e.ok) {
                es.sort_by(|a, b| a.task.cmp(&b.task));
                complete.push((last, es));
            }
        }
        complete.sort_by_key(|r| std::cmp::Reverse(r.0));
        let runs = complete
            .into_iter()
            .take(MAX_RUNS)
            .map(|(_, es)| es.iter().map(|e| e.task.to_ascii_lowercase()).collect())
            .collect();
        History {
            runs,
            longest_gap,
            task_types: BTreeMap::new(),
        }
    }

    /// The task set every recent complete run had, when they all had the
    /// same one, no task twice (a `for_each` repeats its branch) and there
    /// are at least two of them: a pipeline whose graph does not vary.
    fn fixed_graph(&self) -> Option<&Vec<String>> {
        let first = self.runs.first()?;
        let repeats = first.windows(2).any(|w| w[0] == w[1]);
        (self.runs.len() >= 2 && !repeats && self.runs.iter().all(|r| r == first)).then_some(first)
    }
}

/// How long "no new task" must last before a run counts as settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    /// The caller's settle setting (`ClientBuilder::settle`): one for
    /// every judgement made through that client.
    Given(Duration),
    /// `SETTLE_FACTOR` times the longest gap in the history.
    Learned(Duration),
    /// No history to learn from.
    Default(Duration),
}

impl Settle {
    /// A workflow's settle time: the setting, else `DEFAULT_SETTLE` (a
    /// workflow leaves no log to learn one from).
    pub fn for_workflow(setting: Option<Duration>) -> Settle {
        setting.map_or(Settle::Default(DEFAULT_SETTLE), Settle::Given)
    }

    /// How long, whatever its origin.
    pub fn duration(self) -> Duration {
        match self {
            Settle::Given(d) | Settle::Learned(d) | Settle::Default(d) => d,
        }
    }
}

/// The rule for one run, fixed before the first poll.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// The task count the caller expects, when it gives one.
    pub expect_tasks: Option<usize>,
    /// The sorted task UUIDs of a pipeline whose recent runs all had them,
    /// and how many runs said so.
    pub graph: Option<(Vec<String>, usize)>,
    /// How long no new task must last.
    pub settle: Settle,
    /// Quiet after the expected tasks before it counts (`GRACE`).
    pub grace: Duration,
    /// The fewest tasks a recent complete run had, when history knows.
    pub history_fewest: Option<usize>,
}

impl Rule {
    /// The rule for a run: `history`, the task count the caller expects (if
    /// any) and the settle setting (if any). Nothing of how often a caller
    /// looks: every command judges a run by the same rule.
    pub fn new(history: &History, expect_tasks: Option<usize>, settle: Option<Duration>) -> Rule {
        let settle = match (settle, history.longest_gap) {
            (Some(d), _) => Settle::Given(d),
            (None, Some(gap)) => Settle::Learned((gap * SETTLE_FACTOR).max(MIN_SETTLE)),
            (None, None) => Settle::Default(DEFAULT_SETTLE),
        };
        Rule {
            expect_tasks,
            graph: history
                .fixed_graph()
                .map(|g| (g.clone(), history.runs.len())),
            settle,
            grace: GRACE,
            history_fewest: history.runs.iter().map(Vec::len).min(),
        }
    }

    /// The expected task count below every recent complete run's task
    /// count (the count, and history's fewest): a count history
    /// contradicts, which then needs the settle time's quiet too (a run
    /// that failed on a later task must not pass as complete).
    pub fn expect_contradicted(&self) -> Option<(usize, usize)> {
        let (n, fewest) = (self.expect_tasks?, self.history_fewest?);
        (n < fewest).then_some((n, fewest))
    }

    /// What the evidence says now: `seen` is the followed run's entries so
    /// far, `quiet` how long since their number last changed.
    pub fn decide(&self, seen: &[Entry], quiet: Duration) -> Verdict {
        let failed = seen.iter().filter(|e| !e.ok).count();
        let mut tasks: BTreeMap<String, usize> = BTreeMap::new();
        for e in seen {
            *tasks.entry(e.task.to_ascii_lowercase()).or_default() += 1;
        }
        let tasks: Vec<(String, usize)> = tasks.into_iter().collect();
        self.decide_tasks(&tasks, failed, quiet)
    }

    /// `decide` from a run's tasks counted (task UUID in lower case and how
    /// many entries it has, sorted by UUID): what a fold keeps per run, so
    /// a run of a million entries costs its distinct tasks, not its entries.
    pub(crate) fn decide_tasks(
        &self,
        tasks: &[(String, usize)],
        failed: usize,
        quiet: Duration,
    ) -> Verdict {
        if failed > 0 {
            return Verdict::Failed { failed };
        }
        let done: usize = tasks.iter().map(|(_, n)| n).sum();
        if done == 0 {
            // Not started as far as the log says: only the time limit ends this.
            return Verdict::Pending;
        }
        if let Some(n) = self.expect_tasks {
            let wait = match self.expect_contradicted() {
                Some(_) => self.settle.duration().max(self.grace),
                None => self.grace,
            };
            if done >= n && quiet >= wait {
                return Verdict::Succeeded(Evidence::Expected { done, expected: n });
            }
        } else if let Some((graph, runs)) = &self.graph {
            // The graph has no task twice (`fixed_graph`): the run matches
            // when it has each of its tasks once and no other.
            let same = done == graph.len() && tasks.iter().map(|(t, _)| t).eq(graph.iter());
            if same && quiet >= self.grace {
                return Verdict::Succeeded(Evidence::AsHistory { done, runs: *runs });
            }
        }
        if quiet >= self.settle.duration() {
            return Verdict::Succeeded(Evidence::Settled {
                done,
                quiet,
                settle: self.settle,
            });
        }
        Verdict::Pending
    }

    /// The total a progress line can show, when one is known.
    pub fn expected_total(&self) -> Option<usize> {
        self.expect_tasks
            .or_else(|| self.graph.as_ref().map(|(g, _)| g.len()))
    }
}

/// How a run was found to have succeeded.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// The expected task count reached, then a quiet grace.
    Expected {
        /// Tasks reported.
        done: usize,
        /// Tasks expected.
        expected: usize,
    },
    /// Exactly the tasks of the last `runs` complete runs, then a quiet grace.
    AsHistory {
        /// Tasks reported.
        done: usize,
        /// The complete runs that had the same tasks.
        runs: usize,
    },
    /// No new task for the settle time.
    Settled {
        /// Tasks reported.
        done: usize,
        /// How long no new task came.
        quiet: Duration,
        /// The settle time it reached.
        settle: Settle,
    },
    /// A workflow's last-run statistics showed a new run and then stayed
    /// the same for the settle time.
    Statistics {
        /// The settle time it stayed the same for.
        settle: Settle,
    },
}

impl Evidence {
    /// The machine name of the evidence (`completion` field).
    pub fn name(&self) -> &'static str {
        match self {
            Evidence::Expected { .. } => "expected_tasks",
            Evidence::AsHistory { .. } => "history",
            Evidence::Settled { .. } => "settled",
            Evidence::Statistics { .. } => "statistics_settled",
        }
    }
}

/// The rule's answer at one poll.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Not decided yet.
    Pending,
    /// A task failed (`failed`: how many entries did).
    Failed {
        /// Failed entries.
        failed: usize,
    },
    /// Succeeded, and how that was found.
    Succeeded(Evidence),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(min: i64) -> Option<DateTime<Utc>> {
        Some(DateTime::from_timestamp(1_700_000_000 + min * 60, 0).unwrap())
    }

    fn e(run: &str, task: &str, ok: bool, min: i64) -> Entry {
        Entry {
            run: run.into(),
            task: task.into(),
            ok,
            at: at(min),
        }
    }

    fn now() -> DateTime<Utc> {
        at(1000).unwrap()
    }

    /// Three past runs of a fixed a-b-c chain, tasks 2 minutes apart.
    fn chain_history() -> Vec<Entry> {
        let mut v = Vec::new();
        for (r, start) in [("r1", 0), ("r2", 100), ("r3", 200)] {
            for (i, t) in ["a", "b", "c"].iter().enumerate() {
                v.push(e(r, t, true, start + 2 * i as i64));
            }
        }
        v
    }

    const POLL: Duration = Duration::from_secs(5);

    #[test]
    fn a_fixed_graph_is_learned_with_its_longest_gap() {
        let h = History::from_entries(&chain_history(), "now", now());
        assert_eq!(h.runs.len(), 3);
        assert_eq!(h.longest_gap, Some(Duration::from_secs(120)));
        let r = Rule::new(&h, None, None);
        assert_eq!(r.graph, Some((vec!["a".into(), "b".into(), "c".into()], 3)));
        assert_eq!(r.settle, Settle::Learned(Duration::from_secs(360)));
    }

    #[test]
    fn the_followed_run_and_runs_still_going_are_not_history() {
        let mut v = chain_history();
        v.push(e("now", "a", true, 995));
        v.push(e("recent", "a", true, 999));
        let h = History::from_entries(&v, "NOW", now());
        assert_eq!(h.runs.len(), 3);
    }

    #[test]
    fn half_a_run_is_pending_and_the_whole_graph_succeeds_after_one_poll() {
        let r = Rule::new(
            &History::from_entries(&chain_history(), "x", now()),
            None,
            None,
        );
        let half = [e("x", "a", true, 0), e("x", "b", true, 1)];
        assert_eq!(r.decide(&half, Duration::from_secs(100)), Verdict::Pending);
        let all = [
            e("x", "a", true, 0),
            e("x", "c", true, 2),
            e("x", "b", true, 1),
        ];
        assert_eq!(r.decide(&all, Duration::ZERO), Verdict::Pending);
        assert_eq!(
            r.decide(&all, POLL),
            Verdict::Succeeded(Evidence::AsHistory { done: 3, runs: 3 })
        );
    }

    #[test]
    fn runs_of_varying_size_only_settle() {
        // A for_each: the branch task repeats a varying number of times.
        let mut v = Vec::new();
        for (r, n) in [("r1", 2), ("r2", 3)] {
            v.push(e(r, "a", true, 0));
            for i in 0..n {
                v.push(e(r, "each", true, 1 + i));
            }
        }
        let h = History::from_entries(&v, "x", now());
        let r = Rule::new(&h, None, None);
        assert_eq!(r.graph, None);
        let seen = [
            e("x", "a", true, 0),
            e("x", "each", true, 1),
            e("x", "each", true, 2),
        ];
        assert_eq!(r.decide(&seen, Duration::from_secs(179)), Verdict::Pending);
        assert!(matches!(
            r.decide(&seen, Duration::from_secs(180)),
            Verdict::Succeeded(Evidence::Settled { done: 3, .. })
        ));
    }

    #[test]
    fn a_branch_unseen_in_history_does_not_match_and_a_bigger_run_is_not_cut_short() {
        let r = Rule::new(
            &History::from_entries(&chain_history(), "x", now()),
            None,
            None,
        );
        // Other tasks than history's: only the settle time ends it.
        let other = [
            e("x", "a", true, 0),
            e("x", "d", true, 1),
            e("x", "c", true, 2),
        ];
        assert_eq!(r.decide(&other, Duration::from_secs(300)), Verdict::Pending);
        // More tasks than history: not the graph either.
        let more = [
            e("x", "a", true, 0),
            e("x", "b", true, 1),
            e("x", "c", true, 2),
            e("x", "d", true, 3),
        ];
        assert_eq!(r.decide(&more, Duration::from_secs(300)), Verdict::Pending);
    }

    #[test]
    fn a_failed_task_fails_at_once_and_failed_runs_are_no_size_evidence() {
        let mut v = chain_history();
        v.push(e("bad", "a", false, 300));
        let h = History::from_entries(&v, "x", now());
        assert_eq!(h.runs.len(), 3);
        let r = Rule::new(&h, None, None);
        assert_eq!(
            r.decide(&[e("x", "a", false, 0)], Duration::ZERO),
            Verdict::Failed { failed: 1 }
        );
    }

    #[test]
    fn no_history_means_the_default_settle_and_expect_tasks_overrides() {
        let r = Rule::new(&History::default(), None, None);
        assert_eq!(r.settle, Settle::Default(DEFAULT_SETTLE));
        assert_eq!(r.decide(&[], Duration::from_secs(3600)), Verdict::Pending);
        let r = Rule::new(&History::default(), Some(2), Some(Duration::from_secs(30)));
        let one = [e("x", "a", true, 0)];
        assert_eq!(r.decide(&one, Duration::from_secs(10)), Verdict::Pending);
        let two = [e("x", "a", true, 0), e("x", "b", true, 1)];
        assert_eq!(
            r.decide(&two, POLL),
            Verdict::Succeeded(Evidence::Expected {
                done: 2,
                expected: 2
            })
        );
    }

    #[test]
    fn expect_tasks_below_history_warns_and_waits_for_the_settle_time() {
        let h = History::from_entries(&chain_history(), "x", now());
        let r = Rule::new(&h, Some(2), None);
        assert_eq!(r.expect_contradicted(), Some((2, 3)));
        let two = [e("x", "a", true, 0), e("x", "b", true, 1)];
        assert_eq!(r.decide(&two, POLL), Verdict::Pending);
        assert!(matches!(
            r.decide(&two, Duration::from_secs(360)),
            Verdict::Succeeded(Evidence::Expected { .. })
        ));
        assert_eq!(Rule::new(&h, Some(3), None).expect_contradicted(), None);
    }

    #[test]
    fn one_past_run_is_not_enough_to_trust_a_graph() {
        let v: Vec<Entry> = chain_history()
            .into_iter()
            .filter(|e| e.run == "r1")
            .collect();
        let r = Rule::new(&History::from_entries(&v, "x", now()), None, None);
        assert_eq!(r.graph, None);
    }
}
