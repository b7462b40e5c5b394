//! One run as a program states it (`RunView`) and how its result was
//! established: the shape a last run (`last.rs`) is given in, and a failed
//! run's failure (`failure.rs`) is read from.

use chrono::{DateTime, Utc};

use crate::api::models::LogEntry;
use crate::runs::finished::Evidence;

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
    /// Said by what the service answered (statistics; a run the log did
    /// not hold).
    Said(&'static str),
}
