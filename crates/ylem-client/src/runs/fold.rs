//! One model of a pipeline run, for everything that states a run's
//! outcome, duration or failure (waiting for a run, listing a log's runs,
//! one run whole, an entity's last run and its health): the run folded from its log
//! entries, and judged by `finished.rs`'s one rule. The server's last-run
//! answer only says which run is last; this says whether it finished.
//!
//! Times, by the server's meaning (`executed_at` is when a task *ended*,
//! `duration` how long it ran): `duration` is the sum of the run's task
//! durations (as statistics and last-run give it), `started` the first
//! task's start (`executed_at - duration`, the earliest), `ended` the last
//! task's end (the latest `executed_at`), `elapsed` the wall clock between.

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::models::LogEntryRef;
use crate::runs::failure::{Detail, Finder};
use crate::runs::finished::{Evidence, Rule, Verdict};
use crate::time;

/// What the log says of one run so far: totals, never its entries, so a
/// log of 40 000 runs costs 40 000 of these (UUIDs as 16 bytes, times as
/// microseconds, a run's distinct tasks once each however many entries
/// repeat them).
#[derive(Debug, Clone, Default)]
pub struct RunFold {
    /// The run's UUID (for a run named otherwise, derived from its name: `id_of`).
    pub run: Uuid,
    /// The run's identifier as sent, when it is not a UUID (never on the
    /// servers seen; kept so that it is shown as it came).
    // A thin pointer on purpose: 8 bytes in each of 40 000 folds, where a
    // `String` takes 24 and almost always holds nothing.
    #[allow(clippy::box_collection)]
    pub raw: Option<Box<String>>,
    /// Distinct tasks, sorted, shared with every run that has the same set
    /// (`TaskSets`: a pipeline's runs have a few sets between them, so 40 000
    /// runs hold 40 000 pointers, not 40 000 copies). How many entries each
    /// task has is not kept: the rule asks only how many in all (`entries`)
    /// and whether a task repeated (more entries than tasks).
    pub tasks: Tasks,
    /// Its entries so far.
    pub entries: u32,
    /// How many of them failed.
    pub failed: u32,
    /// The sum of its task durations (ms): the run's duration.
    pub duration_ms: i64,
    /// The first task's start (the earliest `executed_at - duration`) and
    /// the last task's end (the latest `executed_at`), in Unix µs (the
    /// log's precision); `NO_TIME` until an entry with a time is folded in.
    start_us: i64,
    end_us: i64,
    /// The earliest failed task, its output read (what a list of runs
    /// shows of the failure). Boxed: most runs have none.
    pub first_failed: Option<Box<FirstFailed>>,
    /// The longest gap between two consecutive entries (ms), for history's
    /// settle time, and the time of the entry before, in the order they came.
    longest_gap_ms: u32,
    prev_us: i64,
}

const NO_TIME: i64 = i64::MIN;

/// Sets of at most this many tasks are shared; a bigger one (a run with
/// many distinct tasks) is its run's own, so that its growth, a set per
/// new task, is never kept.
const SHARED_SET: usize = 32;

/// A run's distinct tasks, in order: up to `SHARED_SET`, a set shared
/// with the runs that have the same (`TaskSets`), made anew for each new
/// task (at most 32 copies of at most 32 tasks); past it, a tree of the
/// run's own that each new task is inserted into. Never a sorted array
/// copied for each new task: a run of 100 000 distinct tasks would copy
/// 5 billion of them (quadratic in its task count).
#[derive(Debug, Clone)]
pub enum Tasks {
    /// At most `SHARED_SET` tasks, sorted.
    Shared(Arc<[Uuid]>),
    /// More: the run's own.
    Own(Box<BTreeSet<Uuid>>),
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks::Shared(Arc::from([]))
    }
}

impl Tasks {
    /// How many distinct tasks.
    pub fn len(&self) -> usize {
        match self {
            Tasks::Shared(a) => a.len(),
            Tasks::Own(t) => t.len(),
        }
    }

    /// No task yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tasks in order (the UUIDs' order, which is their text's).
    pub fn iter(&self) -> Box<dyn Iterator<Item = &Uuid> + '_> {
        match self {
            Tasks::Shared(a) => Box::new(a.iter()),
            Tasks::Own(t) => Box::new(t.iter()),
        }
    }

    /// `task` added, if new: a shared set made anew while small (`sets`),
    /// else the run's own tree grown in place.
    fn add(&mut self, task: Uuid, sets: &mut TaskSets) {
        match self {
            Tasks::Own(t) => {
                t.insert(task);
            }
            Tasks::Shared(a) => {
                let Err(at) = a.binary_search(&task) else {
                    return;
                };
                let grown = sets.with(a, task, at);
                *self = grown;
            }
        }
    }
}

/// The task sets of the runs folded so far, each kept once.
#[derive(Default)]
pub struct TaskSets(HashSet<Arc<[Uuid]>>);

impl TaskSets {
    /// `set` with `task` inserted at `at` (its sorted place): shared while
    /// at most `SHARED_SET`, the run's own tree once past it.
    fn with(&mut self, set: &[Uuid], task: Uuid, at: usize) -> Tasks {
        if set.len() >= SHARED_SET {
            let mut t: BTreeSet<Uuid> = set.iter().copied().collect();
            t.insert(task);
            return Tasks::Own(Box::new(t));
        }
        let mut v = Vec::with_capacity(set.len() + 1);
        v.extend_from_slice(&set[..at]);
        v.push(task);
        v.extend_from_slice(&set[at..]);
        if let Some(a) = self.0.get(v.as_slice()) {
            return Tasks::Shared(a.clone());
        }
        let a: Arc<[Uuid]> = v.into();
        self.0.insert(a.clone());
        Tasks::Shared(a)
    }
}

/// A run's earliest failed task as a list of runs keeps it for 40 000 runs: its
/// output already read (`Detail`: the messages, or the output shortened),
/// the task as 16 bytes, the rest exact-size.
#[derive(Debug, Clone)]
pub struct FirstFailed {
    /// The task's UUID.
    pub task: Uuid,
    /// The task's type.
    pub task_type: Box<str>,
    /// When it ended (`executed_at`), as sent.
    pub executed_at: Box<str>,
    /// How long it ran (ms).
    pub duration: i64,
    /// What its output says.
    pub detail: Detail,
}

fn at_us(us: i64) -> Option<DateTime<Utc>> {
    (us != NO_TIME)
        .then(|| DateTime::from_timestamp_micros(us))
        .flatten()
}

/// A task or run identifier as 16 bytes: the UUID, or for anything else a
/// stable hash of it (a task's identity only decides "same task or not").
pub(crate) fn id_of(s: &str) -> (Uuid, bool) {
    match Uuid::try_parse(s) {
        Ok(u) => (u, true),
        Err(_) => {
            use std::hash::{Hash, Hasher};
            let mut a = std::collections::hash_map::DefaultHasher::new();
            s.to_ascii_lowercase().hash(&mut a);
            let hi = a.finish();
            hi.hash(&mut a);
            (Uuid::from_u64_pair(hi, a.finish()), false)
        }
    }
}

impl RunFold {
    /// No entry yet of run `run` (its identifier as sent).
    pub fn new(run: &str) -> RunFold {
        let (id, parsed) = id_of(run);
        RunFold {
            run: id,
            raw: (!parsed).then(|| Box::new(run.to_string())),
            start_us: NO_TIME,
            end_us: NO_TIME,
            prev_us: NO_TIME,
            ..RunFold::default()
        }
    }

    /// The first task's start.
    pub fn started(&self) -> Option<DateTime<Utc>> {
        at_us(self.start_us)
    }

    /// The last task's end.
    pub fn ended(&self) -> Option<DateTime<Utc>> {
        at_us(self.end_us)
    }

    /// The longest gap between two consecutive entries.
    pub fn longest_gap(&self) -> Duration {
        Duration::from_millis(u64::from(self.longest_gap_ms))
    }

    /// The run's identifier as shown: its UUID in lower case.
    pub fn id(&self) -> String {
        match &self.raw {
            Some(r) => r.as_ref().clone(),
            None => self.run.to_string(),
        }
    }

    /// Fold one entry of this run in; with a `finder`, the earliest failed
    /// entry is kept, read (its output decoded to its messages, not kept).
    pub fn add(&mut self, e: &LogEntryRef, finder: Option<&Finder>, sets: &mut TaskSets) {
        // The time as sent, fraction and all.
        let at = time::parse_server_time(e.executed_at_raw.as_str())
            .or_else(|| time::parse_server_time(e.executed_at().as_str()))
            .map(|t| t.timestamp_micros());
        let task = id_of(e.task_uuid.as_str()).0;
        self.tasks.add(task, sets);
        self.entries += 1;
        // A server's figure: a duration of 9e18 must not overflow the sum
        // or a start (saturated, and a start before any real time is none).
        let d = e.duration.max(0);
        self.duration_ms = self.duration_ms.saturating_add(d);
        if let Some(at) = at {
            // Newest first from the server: the entry before is the
            // neighbour in time.
            if self.prev_us != NO_TIME {
                let gap = ((self.prev_us - at).unsigned_abs() / 1000).min(u64::from(u32::MAX));
                self.longest_gap_ms = self.longest_gap_ms.max(gap as u32);
            }
            self.prev_us = at;
            let start = at.saturating_sub(d.saturating_mul(1000));
            self.start_us = if self.start_us == NO_TIME {
                start
            } else {
                self.start_us.min(start)
            };
            self.end_us = self.end_us.max(at);
        }
        if !e.is_successful {
            self.failed += 1;
            let earlier = match &self.first_failed {
                None => true,
                Some(f) => at.is_some_and(|a| {
                    time::parse_server_time(&f.executed_at)
                        .is_some_and(|t| a < t.timestamp_micros())
                }),
            };
            if let (true, Some(f)) = (earlier, finder) {
                let mut t = f.task(&e.to_owned_entry());
                // Exact-size text: kept for every failed run of the log.
                if let Detail::Output(s) | Detail::Unreadable(s) = &mut t.detail {
                    s.shrink_to_fit();
                }
                self.first_failed = Some(Box::new(FirstFailed {
                    task,
                    task_type: t.task_type.into(),
                    executed_at: t.executed_at.into(),
                    duration: t.duration,
                    detail: t.detail,
                }));
            }
        }
    }

    /// Wall clock from the first task's start to the last task's end.
    pub fn elapsed_ms(&self) -> Option<i64> {
        (self.start_us != NO_TIME && self.end_us != NO_TIME)
            .then(|| ((self.end_us - self.start_us) / 1000).max(0))
    }

    /// The tasks as the rule counts them: each once, the repeats (entries
    /// beyond one a task) counted on the first, so that the total and
    /// "a task repeated" are the run's.
    pub(crate) fn task_counts(&self) -> Vec<(String, usize)> {
        let surplus = (self.entries as usize).saturating_sub(self.tasks.len());
        self.tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.to_string(), 1 + if i == 0 { surplus } else { 0 }))
            .collect()
    }
}

/// A run with its result by the one rule.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The run's totals.
    pub tally: RunFold,
    /// `failed`, `succeeded` or `running`.
    pub result: &'static str,
    /// How it was found to have succeeded.
    pub evidence: Option<Evidence>,
    /// How many tasks the history says a run has, when it knows.
    pub expected: Option<usize>,
}

/// The rule applied to one folded run at `now`: quiet is the time since
/// its last task ended.
pub fn judge(rule: &Rule, t: RunFold, now: DateTime<Utc>) -> Judged {
    let quiet = t
        .ended()
        .map(|e| (now - e).to_std().unwrap_or_default())
        .unwrap_or_default();
    let (result, evidence) = match rule.decide_tasks(&t.task_counts(), t.failed as usize, quiet) {
        Verdict::Failed { .. } => ("failed", None),
        Verdict::Succeeded(ev) => ("succeeded", Some(ev)),
        Verdict::Pending => ("running", None),
    };
    Judged {
        tally: t,
        result,
        evidence,
        expected: rule.expected_total(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(task: &str, ok: bool, ms: i64, at: &str) -> String {
        format!(
            r#"{{"workflow_run_uuid":"00000000-0000-4000-8000-000000000001","task_uuid":"{task}","task_type":"query","is_successful":{ok},"duration":{ms},"output":"","executed_at":"{at}"}}"#
        )
    }

    /// A 3 s query that ended at :03.5, then a 0.2 s task that ended at
    /// :04: duration 3.2 s (the sum), elapsed 3.5 s (from :00.5 to :04).
    #[test]
    fn duration_is_the_sum_and_elapsed_the_wall_clock_from_the_first_start() {
        let mut f = RunFold::new("00000000-0000-4000-8000-000000000001");
        for json in [
            entry("b", true, 200, "2026-01-01T00:00:04Z"),
            entry("a", true, 3000, "2026-01-01T00:00:03.5Z"),
        ] {
            let e: LogEntryRef = serde_json::from_str(&json).unwrap();
            f.add(&e, None, &mut TaskSets::default());
        }
        assert_eq!(f.duration_ms, 3200);
        assert_eq!(f.elapsed_ms(), Some(3500));
        assert_eq!(
            f.started().unwrap().to_rfc3339(),
            "2026-01-01T00:00:00.500+00:00"
        );
        assert_eq!(f.tasks.len(), 2);
        assert_eq!(f.id(), "00000000-0000-4000-8000-000000000001");
    }

    #[test]
    fn a_name_that_is_not_a_uuid_is_kept_as_sent() {
        let f = RunFold::new("run-7");
        assert_eq!(f.id(), "run-7");
        assert_eq!(id_of("T1").0, id_of("t1").0);
    }

    /// A run of many distinct tasks (in no order, some repeated) keeps each
    /// once, in order, with the repeats counted: the same as a small one,
    /// past the shared sets' size, in time linear in its entries.
    #[test]
    fn a_run_of_many_tasks_keeps_each_once_in_order() {
        let mut f = RunFold::new("00000000-0000-4000-8000-000000000001");
        let mut sets = TaskSets::default();
        let n: u64 = 20_000;
        // A permutation of 0..n (7919 is prime to n), then 100 repeats.
        let ids: Vec<u64> = (0..n).map(|i| (i * 7919) % n).chain(0..100).collect();
        for i in &ids {
            let task = Uuid::from_u64_pair(0x1b2c_3d4e_5f60_4a7b, *i);
            let json = entry(&task.to_string(), true, 1, "2026-01-01T00:00:04Z");
            let e: LogEntryRef = serde_json::from_str(&json).unwrap();
            f.add(&e, None, &mut sets);
        }
        assert_eq!(f.tasks.len(), n as usize);
        assert_eq!(f.entries, n as u32 + 100);
        let counts = f.task_counts();
        assert_eq!(counts.len(), n as usize);
        assert!(
            counts.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, once each"
        );
        assert_eq!(
            counts.iter().map(|(_, c)| c).sum::<usize>(),
            n as usize + 100
        );
        // Past the shared size the set is the run's own: none was kept
        // beyond the small ones on the way.
        assert!(matches!(f.tasks, Tasks::Own(_)));
        assert!(sets.0.len() <= SHARED_SET);
        // A small run's set is shared as before.
        let mut g = RunFold::new("00000000-0000-4000-8000-000000000002");
        let mut h = RunFold::new("00000000-0000-4000-8000-000000000003");
        for r in [&mut g, &mut h] {
            for t in ["b", "a"] {
                let json = entry(t, true, 1, "2026-01-01T00:00:04Z");
                let e: LogEntryRef = serde_json::from_str(&json).unwrap();
                r.add(&e, None, &mut sets);
            }
        }
        match (&g.tasks, &h.tasks) {
            (Tasks::Shared(a), Tasks::Shared(b)) => assert!(Arc::ptr_eq(a, b)),
            other => panic!("not shared: {other:?}"),
        }
    }
}
