//! One run as a program states it (`RunView`) and how its result was
//! established: the shape a last run (`last.rs`) is given in, and a failed
//! run's failure (`failure.rs`) is read from; the statistics-only facts'
//! names (`Fact`, judged in `stats_only.rs`).

use chrono::{DateTime, Utc};

use crate::api::models::LogEntry;
use crate::runs::finished::{Evidence, Settle};

/// One run as a program states it: its result, times and failed entries.
#[derive(Debug, Clone)]
pub struct RunView {
    /// The run's UUID (pipelines only: statistics name no run).
    pub run: Option<String>,
    /// `succeeded`, `failed`, `running` or `unsettled`.
    pub result: &'static str,
    /// How the result was established.
    pub evidence: Option<Established>,
    /// Its last task's end (for workflows and tasks: the server's time).
    pub ended: DateTime<Utc>,
    /// The server's `executed_at` for it, as the last-run answer gave it
    /// (the server's last run only): never the tool's own times, which are
    /// `started` and `ended`.
    pub executed_at: Option<DateTime<Utc>>,
    /// Its first task's start, where it is known.
    pub started: Option<DateTime<Utc>>,
    /// The sum of its task durations.
    pub duration_ms: i64,
    /// Task entries so far, and how many the history expects.
    pub tasks: Option<usize>,
    /// How many tasks the history says a run has, when it knows.
    pub expected: Option<usize>,
    /// Its failed entries, whole (pipelines).
    pub failed: Vec<LogEntry>,
}

impl RunView {
    /// `Some(true)` succeeded, `Some(false)` failed, `None` not finished.
    pub fn success(&self) -> Option<bool> {
        match self.result {
            "succeeded" => Some(true),
            "failed" => Some(false),
            _ => None,
        }
    }

    /// The wall clock from its first task's start to its last task's end.
    pub fn elapsed_ms(&self) -> Option<i64> {
        Some((self.ended - self.started?).num_milliseconds().max(0))
    }

    /// `2 of 5 tasks`, `2 tasks`, or nothing for a run without a log.
    pub fn progress(&self) -> Option<String> {
        let n = self.tasks?;
        Some(match self.expected {
            Some(t) => format!("{n} of {}", crate::count::count(t, "task", "tasks")),
            None => crate::count::count(n, "task", "tasks"),
        })
    }
}

/// How a run's result was established.
#[derive(Debug, Clone, PartialEq)]
pub enum Established {
    /// By the evidence rule over the run's log.
    Rule(Evidence),
    /// A task reported a failure.
    FailedTask,
    /// Not complete on evidence: this many task entries so far.
    SoFar(u32),
    /// Said by what the service answered (a run the log did not hold).
    Said(&'static str),
    /// A workflow's or a task's run, from statistics alone (`stats_only`).
    Statistics(Fact),
}

impl Established {
    /// The machine name (`completion`): the rule's evidence, `failed_task`,
    /// `running` (not complete on evidence), `not_in_log`, or a
    /// statistics-only fact (`stats_only::Fact::name`).
    pub fn completion(&self) -> &'static str {
        match self {
            Established::Rule(e) => e.name(),
            Established::FailedTask => "failed_task",
            Established::SoFar(_) => "running",
            Established::Said(_) => "not_in_log",
            Established::Statistics(f) => f.name(),
        }
    }
}

/// How a statistics-only run's result was established (`completion`),
/// as `stats_only::last_run` judges it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// A task's success: one entry, finished when reported.
    TaskReported,
    /// A workflow's success, the last run for the settle time (and where
    /// that time came from: the setting, or the default).
    Settled(Settle),
    /// The statistics say the last run failed.
    Failed,
    /// A workflow's success younger than the settle time: not yet counted.
    Unsettled,
}

impl Fact {
    /// The machine name (`completion`).
    pub fn name(self) -> &'static str {
        match self {
            Fact::TaskReported => "task_reported",
            Fact::Settled(_) => "statistics_settled",
            Fact::Failed => "statistics_failed",
            Fact::Unsettled => "unsettled",
        }
    }

    /// For people (`evidence`); a workflow's success names its settle time,
    /// which is the caller's to say (`None` here).
    pub fn text(self) -> Option<&'static str> {
        Some(match self {
            Fact::TaskReported => "a task is one entry, finished when reported",
            Fact::Settled(_) => return None,
            Fact::Failed => "the last-run statistics say it failed",
            Fact::Unsettled => {
                "a workflow leaves no log: its run counts after the settle time without a newer one"
            }
        })
    }
}
