//! Following a fleet's runs as they happen, the pure part: what is known of
//! each entity between two looks, which looks are worth a request, and which
//! events a new look makes (a run's first entry seen, each task entry, the
//! run's verdict), each run once and in order. A pipeline's runs are folded
//! from its log entries (`fold.rs`) and each is judged by the rule of its
//! own basis (`basis.rs`: anchored at the run's first task, as every
//! command judges it; the caller reads the bases `wanted` names): a
//! run is reported finished only when the rule has established its
//! verdict, never while it may still be going. A workflow
//! or a task leaves no log: its runs are told from the statistics' last run
//! (`Statistics`), judged as every command judges them (`stats_only`), and
//! a run told started is always told finished once that verdict is known.
//! No I/O, no clock: the caller asks, and hands in `now`.

// Only with the `fleet` feature: a program that asks for one run at a
// time does not build the fleet engine.
#![cfg(feature = "fleet")]

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::models::{LogEntryRef, RangeStats};
use crate::kinds::Entity;
use crate::runs::basis;
use crate::runs::entry_key::{Key, key};
use crate::runs::finished::{History, Rule};
use crate::runs::fold::{Judged, RunFold, TaskSets, id_of, judge};
use crate::runs::stats_only;
use crate::runs::tally::{listed_rule, rule_of};
use crate::runs::view::{Established, RunView};
use crate::time::{self, Window};

/// How far before the newest entry seen each look's window starts: the
/// log gives every entry of each run with one in the window, so a run that
/// goes on is seen whole, and clocks that differ a little lose nothing.
pub const OVERLAP: chrono::Duration = chrono::Duration::minutes(2);
/// How far past `now` a window reaches: a server clock a little ahead.
const AHEAD: chrono::Duration = chrono::Duration::minutes(1);
/// Runs counted per hour over this long (the board's sparkline).
const DAY: chrono::Duration = chrono::Duration::hours(24);
/// Runs reported are remembered this long after their end, so that a later
/// window that holds them again does not report them twice.
const REMEMBER: chrono::Duration = chrono::Duration::hours(1);
/// At most this many failed entries of one run are kept for its failure.
const FAILED_KEPT: usize = 32;

/// What the cheap request (statistics) says of an entity's last run: when
/// this changes, something happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glance {
    /// The last run's time as sent (normalised), `None`: never ran.
    pub at: Option<String>,
    /// Whether it succeeded (so far).
    pub ok: bool,
    /// Its duration (so far), ms.
    pub duration: i64,
}

impl Glance {
    /// The last run as range statistics give it.
    pub fn of(s: &RangeStats) -> Glance {
        Glance {
            at: s.last_run_executed_at.as_ref().map(|t| t.0.clone()),
            ok: s.is_last_run_successful,
            duration: s.last_run_duration,
        }
    }

    /// Its time, when it ran.
    pub fn time(&self) -> Option<DateTime<Utc>> {
        time::parse_server_time(self.at.as_deref()?)
    }
}

/// What a look found worth telling, in the order it happened.
#[derive(Debug, Clone)]
pub enum Event {
    /// The first entry of a run was seen (for a workflow or a task: a new
    /// last run in the statistics).
    RunStarted {
        /// The run's UUID (pipelines).
        run: Option<String>,
        /// Its first task's start, where known.
        started: Option<DateTime<Utc>>,
    },
    /// One task entry of a pipeline run.
    Task {
        /// The run's UUID.
        run: String,
        /// The entry.
        entry: Box<LogEntryRef<'static>>,
    },
    /// A run's verdict, established.
    RunFinished(Box<Finished>),
}

/// A run whose verdict is established.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The run's UUID (pipelines).
    pub run: Option<String>,
    /// `succeeded` or `failed`.
    pub verdict: &'static str,
    /// How its verdict was established (`completion`, `evidence`).
    pub evidence: Established,
    /// The sum of its task durations (ms).
    pub duration_ms: i64,
    /// From its first task's start to its last task's end (ms).
    pub elapsed_ms: Option<i64>,
    /// Its first task's start and last task's end.
    pub started: Option<DateTime<Utc>>,
    /// When it ended.
    pub ended: Option<DateTime<Utc>>,
    /// Task entries it had.
    pub tasks: usize,
    /// Its failed entries, oldest first (pipelines).
    pub failed: Vec<LogEntryRef<'static>>,
}

impl Finished {
    fn of(j: &Judged, failed: Vec<LogEntryRef<'static>>) -> Finished {
        let t = &j.tally;
        Finished {
            run: Some(t.id()),
            verdict: j.result,
            evidence: match &j.evidence {
                Some(e) => Established::Rule(e.clone()),
                None => Established::FailedTask,
            },
            duration_ms: t.duration_ms,
            elapsed_ms: t.elapsed_ms(),
            started: t.started(),
            ended: t.ended(),
            tasks: t.entries as usize,
            failed,
        }
    }
}

/// A run still going, as the board shows it.
#[derive(Debug, Clone)]
pub struct Going {
    /// The run's UUID (pipelines).
    pub run: Option<String>,
    /// Task entries so far.
    pub tasks: usize,
    /// How many the history says a run has, when it knows.
    pub expected: Option<usize>,
    /// Its first task's start.
    pub started: Option<DateTime<Utc>>,
}

/// A run seen, its verdict not yet established.
struct Open {
    fold: RunFold,
    keys: HashSet<Key>,
    failed: Vec<LogEntryRef<'static>>,
    /// Its `RunStarted` was told (a run passed over at the start never is).
    told: bool,
}

/// At most this many bases are wanted for one look (the newest runs'), as
/// `runs` asks at most this many (`history::rules_of`).
const MAX_BASES: usize = 31;
/// A run that ended this long before the time the watch replays from is
/// passed over: it is judged by its own basis only if it is the newest
/// (the board's latest), else by the nearest one read (as `runs` judges a
/// run past its cap), so a first look costs few bases.
const PASSED_OVER: chrono::Duration = chrono::Duration::hours(1);

/// An entry folded in, not yet told: (its time, its place in its look, run).
type Fresh = (Option<i64>, usize, Uuid, LogEntryRef<'static>);

/// One pipeline's runs as they are followed: the runs going, the runs
/// already told (each once), and the runs of the last day per hour.
pub struct Pipeline {
    /// The rules of the open runs' bases, by anchor (`basis::anchor_of`).
    rules: BTreeMap<DateTime<Utc>, Rule>,
    /// The last look's entries, folded in (`take`), to be told (`tell`).
    fresh: Vec<Fresh>,
    open: HashMap<Uuid, Open>,
    told: HashMap<Uuid, DateTime<Utc>>,
    sets: TaskSets,
    /// When the last look was.
    looked: Option<DateTime<Utc>>,
    /// Runs that finished in the last day: (end, failed), oldest first.
    day: VecDeque<(DateTime<Utc>, bool)>,
    /// The latest finished run and the latest failed one, told or not.
    latest: Latest,
    /// The settle setting its runs are judged by (`Client::settle`).
    settle: Option<std::time::Duration>,
}

/// The latest finished run seen and the latest failed one (told or passed
/// over), for a board.
#[derive(Debug, Clone, Default)]
pub struct Latest {
    /// The finished run that ended last.
    pub finished: Option<Finished>,
    /// The failed run that ended last.
    pub failed: Option<Finished>,
}

impl Latest {
    fn add(&mut self, f: &Finished) {
        let newer = |o: &Option<Finished>| o.as_ref().is_none_or(|o| o.ended <= f.ended);
        if newer(&self.finished) {
            self.finished = Some(f.clone());
        }
        if f.verdict == "failed" && newer(&self.failed) {
            self.failed = Some(f.clone());
        }
    }
}

impl Default for Pipeline {
    fn default() -> Pipeline {
        Pipeline::new()
    }
}

impl Pipeline {
    /// A pipeline whose runs are each judged by their own basis (handed in
    /// with `basis`), by the rule a run read from a log is judged by
    /// (`listed_rule`: a second's grace once history's tasks are in), so
    /// that a run's verdict here is the one a listed run is given, and comes
    /// with the look that sees its last task.
    pub fn new() -> Pipeline {
        Pipeline {
            rules: BTreeMap::new(),
            fresh: Vec::new(),
            open: HashMap::new(),
            told: HashMap::new(),
            sets: TaskSets::default(),
            looked: None,
            day: VecDeque::new(),
            latest: Latest::default(),
            settle: None,
        }
    }

    /// Its runs judged with the settle setting `settle`, as every command
    /// judges them (`Client::settle`).
    pub fn with_settle(mut self, settle: Option<std::time::Duration>) -> Pipeline {
        self.settle = settle;
        self
    }

    /// The latest finished and failed runs seen.
    pub fn latest(&self) -> &Latest {
        &self.latest
    }

    /// The rule `run` is judged by: its basis's.
    fn rule_of(&self, run: &RunFold) -> &Rule {
        rule_of(&self.rules, run)
    }

    /// The anchors whose bases the open runs want and this watch has not
    /// read yet, newest first, at most `MAX_BASES`: each a basis the caller
    /// reads (`history::history`, kept once read) and hands in (`basis`)
    /// before `tell`. A failed run wants none (a failed task decides it); a
    /// run passed over (ended `PASSED_OVER` before `quiet_before`) only
    /// when it is the newest.
    pub fn wanted(&self, quiet_before: Option<DateTime<Utc>>) -> Vec<DateTime<Utc>> {
        let mut v: Vec<(Option<DateTime<Utc>>, DateTime<Utc>)> = self
            .open
            .values()
            .filter(|o| o.fold.entries > 0 && o.fold.failed == 0)
            .filter_map(|o| {
                let at = o.fold.started().or(o.fold.ended()).map(basis::anchor_of)?;
                Some((o.fold.ended(), at))
            })
            .filter(|(_, at)| !self.rules.contains_key(at))
            .collect();
        v.sort_by_key(|x| std::cmp::Reverse(*x));
        let newest = v.first().map(|x| x.1);
        let old = |ended: Option<DateTime<Utc>>| {
            quiet_before.is_some_and(|q| ended.is_some_and(|e| e < q - PASSED_OVER))
        };
        let mut out: Vec<DateTime<Utc>> = v
            .into_iter()
            .filter(|(ended, at)| !old(*ended) || Some(*at) == newest)
            .map(|(_, at)| at)
            .collect();
        out.sort_by_key(|at| std::cmp::Reverse(*at));
        out.dedup();
        out.truncate(MAX_BASES);
        out
    }

    /// The basis anchored at `at` (`wanted`), as read.
    pub fn basis(&mut self, at: DateTime<Utc>, history: &History) {
        self.rules.insert(at, listed_rule(history, self.settle));
    }

    /// Whether a run is going (or not yet judged): the log is worth asking
    /// even when the statistics did not change.
    pub fn going(&self) -> bool {
        !self.open.is_empty()
    }

    /// The window the next look reads: from a little before the last
    /// look that worked (entries that came since end after it, give or take
    /// the clocks) to a little past `now`.
    pub fn window(&self, now: DateTime<Utc>) -> Window {
        Window {
            from: self.looked.unwrap_or(now) - OVERLAP,
            to: now + AHEAD,
        }
    }

    /// The runs going, oldest first.
    pub fn runs_going(&self) -> Vec<Going> {
        let mut v: Vec<&Open> = self.open.values().filter(|o| o.told).collect();
        v.sort_by_key(|o| o.fold.started());
        v.into_iter()
            .map(|o| Going {
                run: Some(o.fold.id()),
                tasks: o.fold.entries as usize,
                expected: self.rule_of(&o.fold).expected_total(),
                started: o.fold.started(),
            })
            .collect()
    }

    /// Runs and failed runs per hour over the last 24 hours, oldest hour
    /// first, as far as the looks saw them.
    pub fn per_hour(&self, now: DateTime<Utc>) -> (Vec<u32>, Vec<u32>) {
        per_hour(&self.day, now)
    }

    /// One look's entries, folded in and told at once (`take`, then
    /// `tell`), judged by the bases handed in so far.
    pub fn look(
        &mut self,
        entries: Vec<LogEntryRef<'static>>,
        now: DateTime<Utc>,
        quiet_before: Option<DateTime<Utc>>,
    ) -> Vec<Event> {
        self.take(entries, now);
        self.tell(now, quiet_before)
    }

    /// One look's entries (the log over `window`, any order) folded in:
    /// `wanted` then names the bases the runs they belong to want.
    pub fn take(&mut self, entries: Vec<LogEntryRef<'static>>, now: DateTime<Utc>) {
        self.looked = Some(now);
        // Oldest first; the log is newest first, so among equal times the
        // later in the response came first.
        let mut fresh: Vec<Fresh> = Vec::new();
        let n = entries.len();
        for (i, e) in entries.into_iter().enumerate() {
            let run = id_of(e.workflow_run_uuid.as_str()).0;
            if self.told.contains_key(&run) {
                continue;
            }
            let open = self.open.entry(run).or_insert_with(|| Open {
                fold: RunFold::new(e.workflow_run_uuid.as_str()),
                keys: HashSet::new(),
                failed: Vec::new(),
                told: false,
            });
            if !open.keys.insert(key(&e)) {
                continue;
            }
            open.fold.add(&e, None, &mut self.sets);
            if !e.is_successful && open.failed.len() < FAILED_KEPT {
                open.failed.push(e.clone());
            }
            let at = time::parse_server_time(e.executed_at_raw.as_str());
            fresh.push((at.map(|t| t.timestamp_micros()), n - i, run, e));
        }
        fresh.sort_by_key(|(at, order, _, _)| (*at, *order));
        self.fresh.append(&mut fresh);
    }

    /// The events the entries taken in make, in order, each run judged by
    /// its basis's rule. Runs that finished before `quiet_before` are
    /// taken in without a word (the first look: what ended before the watch
    /// began, or before the time the caller replays from); every other run
    /// is told once: started, its tasks as they come, finished when its
    /// verdict is established.
    pub fn tell(&mut self, now: DateTime<Utc>, quiet_before: Option<DateTime<Utc>>) -> Vec<Event> {
        let fresh = std::mem::take(&mut self.fresh);
        // Judged before anything is told: a run that had finished before
        // the watch began is passed over whole.
        let mut verdicts: Vec<(Uuid, Judged)> = self
            .open
            .iter()
            .map(|(run, o)| (*run, judge(self.rule_of(&o.fold), o.fold.clone(), now)))
            .filter(|(_, j)| j.result != "running")
            .collect();
        verdicts.sort_by_key(|(_, j)| (j.tally.started(), j.tally.run));
        let mut quiet: HashSet<Uuid> = HashSet::new();
        for (run, j) in &verdicts {
            let before = quiet_before.is_some_and(|q| j.tally.ended().is_none_or(|e| e < q));
            if before && !self.open[run].told {
                quiet.insert(*run);
            }
        }
        let mut events = Vec::new();
        for (_, _, run, e) in fresh {
            if quiet.contains(&run) {
                continue;
            }
            let open = self.open.get_mut(&run).expect("an open run");
            if !open.told {
                open.told = true;
                events.push(Event::RunStarted {
                    run: Some(open.fold.id()),
                    started: open.fold.started(),
                });
            }
            events.push(Event::Task {
                run: open.fold.id(),
                entry: Box::new(e),
            });
        }
        for (run, j) in verdicts {
            let open = self.open.remove(&run).expect("an open run");
            let ended = j.tally.ended().unwrap_or(now);
            self.told.insert(run, ended);
            if ended > now - DAY {
                self.day.push_back((ended, j.result == "failed"));
            }
            let mut failed = open.failed;
            failed.sort_by_key(|e| time::parse_server_time(e.executed_at_raw.as_str()));
            let f = Finished::of(&j, failed);
            self.latest.add(&f);
            if open.told {
                events.push(Event::RunFinished(Box::new(f)));
            }
        }
        self.forget(now);
        events
    }

    /// Forget what no later window can hold again, and the day's counts
    /// older than a day: memory stays flat however long the watch runs.
    fn forget(&mut self, now: DateTime<Utc>) {
        let before = self.window(now).from - REMEMBER;
        self.told.retain(|_, ended| *ended >= before);
        // The bases the open runs are judged by, no other.
        let anchors: HashSet<DateTime<Utc>> = self
            .open
            .values()
            .filter_map(|o| o.fold.started().or(o.fold.ended()).map(basis::anchor_of))
            .collect();
        self.rules.retain(|at, _| anchors.contains(at));
        let mut day: Vec<(DateTime<Utc>, bool)> = self.day.drain(..).collect();
        day.sort_by_key(|(t, _)| *t);
        day.retain(|(t, _)| *t > now - DAY);
        self.day = day.into();
    }
}

fn per_hour(day: &VecDeque<(DateTime<Utc>, bool)>, now: DateTime<Utc>) -> (Vec<u32>, Vec<u32>) {
    let (mut runs, mut failures) = (vec![0u32; 24], vec![0u32; 24]);
    for (t, failed) in day {
        let ago = (now - *t).num_hours();
        if (0..24).contains(&ago) {
            let i = 23 - ago as usize;
            runs[i] += 1;
            failures[i] += u32::from(*failed);
        }
    }
    (runs, failures)
}

/// A workflow's or a task's runs, told from the statistics' last run (they
/// leave no log) and judged by `stats_only::last_run`, as `last-run`,
/// `status` and `check` judge them: a task's run is finished when
/// reported, a failure at once, a workflow's success once it has been the
/// last run for the settle time after its own time. A run told started is
/// told finished when that verdict comes; counts are the statistics'
/// (`stats_only::counts`), not runs seen.
pub struct Statistics {
    kind: Entity,
    last: Option<Glance>,
    /// The last run, its verdict not yet established, and whether its
    /// start was told (a run passed over at the start is not).
    open: Option<(Glance, bool)>,
    latest: Latest,
    /// The settle setting its runs are judged by (`Client::settle`).
    settle: Option<std::time::Duration>,
}

impl Statistics {
    /// For an entity of `kind` (a workflow or a task).
    pub fn new(kind: Entity) -> Statistics {
        Statistics {
            kind,
            last: None,
            open: None,
            latest: Latest::default(),
            settle: None,
        }
    }

    /// Its runs judged with the settle setting `settle`, as every command
    /// judges them (`Client::settle`).
    pub fn set_settle(&mut self, settle: Option<std::time::Duration>) {
        self.settle = settle;
    }

    /// The latest finished and failed runs seen.
    pub fn latest(&self) -> &Latest {
        &self.latest
    }

    /// Whether a run is going, not yet judged (and told started).
    pub fn going(&self) -> Option<&Glance> {
        self.open.as_ref().filter(|(_, told)| *told).map(|(g, _)| g)
    }

    /// One look's answer: the events it makes. The first look tells the
    /// last run only if it ended at or after `quiet_before`.
    pub fn look(
        &mut self,
        g: Glance,
        now: DateTime<Utc>,
        quiet_before: Option<DateTime<Utc>>,
    ) -> Vec<Event> {
        let first = self.last.is_none();
        let changed = self.last.as_ref() != Some(&g);
        self.last = Some(g.clone());
        let mut events = Vec::new();
        if changed && g.time().is_some() {
            let tell = !first || is_after(&g, quiet_before);
            // A newer answer than the run open: the run goes on, or another
            // began; either way it is the one followed now.
            let was_told = self.open.as_ref().is_some_and(|(_, t)| *t);
            if tell && !was_told {
                events.push(self.started(&g));
            }
            self.open = Some((g, tell || was_told));
        }
        if let Some((o, told)) = self.open.clone()
            && let Some(f) = self.judged(&o, now)
        {
            self.open = None;
            self.latest.add(&f);
            if told {
                events.push(Event::RunFinished(Box::new(f)));
            }
        }
        events
    }

    /// A run's start as `stats_only` knows it: a task's, `duration` before
    /// its time; a workflow's is not known.
    fn started(&self, g: &Glance) -> Event {
        let started = g
            .time()
            .and_then(|at| stats_only::last_run(self.kind, g.ok, at, g.duration, at, None).started);
        Event::RunStarted { run: None, started }
    }

    /// The run's verdict at `now`, when it is established.
    fn judged(&self, g: &Glance, now: DateTime<Utc>) -> Option<Finished> {
        let at = g.time()?;
        let v: RunView = stats_only::last_run(self.kind, g.ok, at, g.duration, now, self.settle);
        v.success()?;
        Some(Finished {
            run: None,
            verdict: v.result,
            evidence: v.evidence.clone().unwrap_or(Established::FailedTask),
            duration_ms: v.duration_ms,
            elapsed_ms: v.elapsed_ms(),
            started: v.started,
            ended: Some(v.ended),
            tasks: usize::from(self.kind == Entity::Task),
            failed: Vec::new(),
        })
    }
}

fn is_after(g: &Glance, quiet_before: Option<DateTime<Utc>>) -> bool {
    match (quiet_before, g.time()) {
        (None, _) => true,
        (Some(q), Some(t)) => t >= q,
        (Some(_), None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runs::finished::Entry;

    const T0: i64 = 1_800_000_000;

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(T0 + s, 0).unwrap()
    }

    /// A task's UUID from its one-letter name (a to f).
    fn tid(t: &str) -> String {
        format!("00000000-0000-4000-9000-{t:0>12}")
    }

    fn entry(run: &str, task: &str, ok: bool, s: i64) -> LogEntryRef<'static> {
        let task = tid(task);
        let json = format!(
            r#"{{"workflow_run_uuid":"{run}","task_uuid":"{task}","task_type":"query","is_successful":{ok},"duration":1000,"output":"","executed_at":"{}"}}"#,
            at(s).to_rfc3339()
        );
        let e: LogEntryRef = serde_json::from_str(&json).unwrap();
        e.into_static()
    }

    const R1: &str = "00000000-0000-4000-8000-000000000001";
    const R2: &str = "00000000-0000-4000-8000-000000000002";
    const R3: &str = "00000000-0000-4000-8000-000000000003";

    /// Two past runs of tasks a, b: a fixed graph the rule knows.
    fn history() -> History {
        let mut v = Vec::new();
        for (r, s) in [("p1", -7200), ("p2", -3600)] {
            for (t, d) in [("a", 0), ("b", 5)] {
                v.push(Entry {
                    run: r.into(),
                    task: tid(t),
                    ok: true,
                    at: Some(at(s + d)),
                });
            }
        }
        History::from_entries(&v, "", at(0))
    }

    /// A pipeline whose looks hand in `history()` as every wanted basis.
    struct Based(Pipeline);

    impl Based {
        fn look(
            &mut self,
            entries: Vec<LogEntryRef<'static>>,
            now: DateTime<Utc>,
            quiet_before: Option<DateTime<Utc>>,
        ) -> Vec<Event> {
            self.0.take(entries, now);
            for at in self.0.wanted(quiet_before) {
                self.0.basis(at, &history());
            }
            self.0.tell(now, quiet_before)
        }
        fn going(&self) -> bool {
            self.0.going()
        }
        fn per_hour(&self, now: DateTime<Utc>) -> (Vec<u32>, Vec<u32>) {
            self.0.per_hour(now)
        }
        fn window(&self, now: DateTime<Utc>) -> Window {
            self.0.window(now)
        }
    }

    fn names(ev: &[Event]) -> Vec<String> {
        ev.iter()
            .map(|e| match e {
                Event::RunStarted { run, .. } => {
                    format!("started {}", &run.as_deref().unwrap()[35..])
                }
                Event::Task { run, entry } => {
                    format!("task {} {}", &run[35..], &entry.task_uuid.as_str()[35..])
                }
                Event::RunFinished(f) => {
                    format!(
                        "finished {} {}",
                        &f.run.as_deref().unwrap()[35..],
                        f.verdict
                    )
                }
            })
            .collect()
    }

    #[test]
    fn a_run_is_told_once_in_order_and_finished_only_on_evidence() {
        let mut p = Based(Pipeline::new());
        // Before the watch: R1 whole and long finished: passed over.
        let ev = p.look(
            vec![entry(R1, "b", true, -595), entry(R1, "a", true, -600)],
            at(0),
            Some(at(0)),
        );
        assert!(ev.is_empty(), "{:?}", names(&ev));
        // R2 begins: started and its task, never finished with a task to go.
        let ev = p.look(vec![entry(R2, "a", true, 10)], at(12), None);
        assert_eq!(names(&ev), ["started 2", "task 2 a"]);
        assert!(p.going());
        let ev = p.look(vec![entry(R2, "a", true, 10)], at(20), None);
        assert!(ev.is_empty(), "history says b is to come: {:?}", names(&ev));
        // The whole run again and its last task: told once, then finished
        // after the grace (a second), as `runs` would judge it.
        let again = || vec![entry(R2, "b", true, 110), entry(R2, "a", true, 10)];
        let ev = p.look(again(), at(110), None);
        assert_eq!(names(&ev), ["task 2 b"]);
        let ev = p.look(again(), at(111), None);
        assert_eq!(names(&ev), ["finished 2 succeeded"]);
        // Never again, whatever window holds it.
        assert!(p.look(again(), at(130), None).is_empty());
        assert!(!p.going());
        let (runs, _) = p.per_hour(at(130));
        assert_eq!(runs.iter().sum::<u32>(), 2);
    }

    #[test]
    fn each_run_is_judged_by_the_basis_of_its_own_minute() {
        let mut p = Pipeline::new();
        // R2 at 0 s and R3 two minutes on: two anchors, two bases wanted.
        p.take(
            vec![
                entry(R3, "b", true, 125),
                entry(R3, "a", true, 120),
                entry(R2, "b", true, 5),
                entry(R2, "a", true, 0),
            ],
            at(130),
        );
        let wanted = p.wanted(None);
        assert_eq!(wanted.len(), 2, "{wanted:?}");
        // R3's basis knows the graph a, b; R2's (older) knows nothing.
        p.basis(wanted[0], &history());
        p.basis(wanted[1], &History::default());
        let ev = p.tell(at(130), None);
        let done: Vec<String> = names(&ev)
            .into_iter()
            .filter(|n| n.starts_with("finished"))
            .collect();
        assert_eq!(
            done,
            ["finished 3 succeeded"],
            "R2 waits its own settle time"
        );
        assert!(p.wanted(None).is_empty(), "a basis is read once");
    }

    #[test]
    fn a_failed_task_finishes_its_run_at_once_and_runs_keep_their_order() {
        let mut p = Based(Pipeline::new());
        let ev = p.look(
            vec![
                entry(R3, "a", true, 20),
                entry(R2, "a", false, 15),
                entry(R2, "c", true, 11),
            ],
            at(21),
            None,
        );
        assert_eq!(
            names(&ev),
            [
                "started 2",
                "task 2 c",
                "task 2 a",
                "started 3",
                "task 3 a",
                "finished 2 failed"
            ]
        );
        let Event::RunFinished(f) = &ev[5] else {
            panic!()
        };
        assert_eq!(f.failed.len(), 1);
        assert_eq!(f.duration_ms, 2000);
        assert_eq!(f.elapsed_ms, Some(5000));
        let (_, failures) = p.per_hour(at(21));
        assert_eq!(failures[23], 1);
    }

    #[test]
    fn since_replays_the_runs_that_ended_after_it() {
        let mut p = Based(Pipeline::new());
        let ev = p.look(
            vec![
                entry(R2, "b", true, -55),
                entry(R2, "a", true, -60),
                entry(R1, "b", true, -595),
                entry(R1, "a", true, -600),
            ],
            at(0),
            Some(at(-120)),
        );
        assert_eq!(
            names(&ev),
            ["started 2", "task 2 a", "task 2 b", "finished 2 succeeded"]
        );
        // The next window starts a little before this look.
        assert_eq!(p.window(at(5)).from, at(0) - OVERLAP);
    }

    #[test]
    fn a_run_going_when_the_watch_begins_is_told() {
        let mut p = Pipeline::new();
        let ev = p.look(vec![entry(R2, "a", true, -3)], at(0), Some(at(0)));
        assert_eq!(names(&ev), ["started 2", "task 2 a"]);
        // No history: settled only after the default settle time.
        assert!(p.look(vec![], at(300), None).is_empty());
        let ev = p.look(vec![], at(-3 + 600), None);
        assert_eq!(names(&ev), ["finished 2 succeeded"]);
    }

    fn glance(s: i64, ok: bool) -> Glance {
        Glance {
            at: Some(at(s).format("%Y-%m-%dT%H:%M:%SZ").to_string()),
            ok,
            duration: 1000,
        }
    }

    #[test]
    fn a_task_run_is_started_and_finished_by_a_new_answer() {
        let mut s = Statistics::new(Entity::Task);
        assert!(s.look(glance(-100, true), at(0), Some(at(0))).is_empty());
        assert!(s.look(glance(-100, true), at(5), None).is_empty());
        let ev = s.look(glance(3, false), at(10), None);
        assert_eq!(ev.len(), 2);
        assert!(matches!(&ev[1], Event::RunFinished(f) if f.verdict == "failed"));
        let ev = s.look(glance(20, true), at(21), None);
        let [Event::RunStarted { .. }, Event::RunFinished(f)] = &ev[..] else {
            panic!("{ev:?}")
        };
        assert_eq!(
            (f.verdict, f.evidence.completion()),
            ("succeeded", "task_reported")
        );
    }

    #[test]
    fn a_workflow_run_succeeds_after_the_settle_time_and_fails_at_once() {
        let mut s = Statistics::new(Entity::Workflow);
        assert!(s.look(glance(-700, true), at(0), Some(at(0))).is_empty());
        let ev = s.look(glance(5, true), at(10), None);
        assert!(matches!(&ev[..], [Event::RunStarted { .. }]));
        assert!(s.going().is_some());
        assert!(s.look(glance(5, true), at(300), None).is_empty());
        // Settled by the run's own time, as `last-run` judges it.
        let ev = s.look(glance(5, true), at(5 + 600), None);
        assert!(matches!(&ev[..], [Event::RunFinished(f)] if f.verdict == "succeeded"));
        let ev = s.look(glance(700, false), at(705), None);
        assert_eq!(ev.len(), 2, "started and failed at once");
    }

    #[test]
    fn since_replays_a_settled_workflow_run_closed_at_once() {
        let mut s = Statistics::new(Entity::Workflow);
        // Ended 14 minutes ago, inside a 1-hour replay: told and closed at once.
        let ev = s.look(glance(-840, true), at(0), Some(at(-3600)));
        let [Event::RunStarted { .. }, Event::RunFinished(f)] = &ev[..] else {
            panic!("{ev:?}")
        };
        assert_eq!(f.evidence.completion(), "statistics_settled");
        assert_eq!(f.elapsed_ms, None, "a workflow's start is not known");
        // A young run passed over at the start is never opened on the stream.
        let mut s = Statistics::new(Entity::Workflow);
        assert!(s.look(glance(-5, true), at(0), Some(at(0))).is_empty());
        assert!(s.going().is_none());
        assert!(s.look(glance(-5, true), at(600), None).is_empty());
        assert!(s.latest().finished.is_some());
    }
}
