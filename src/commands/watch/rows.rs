//! What `watch`'s board shows: one row per entity, the runs of one entity and
//! the task bars of one run. The engine fills them from the one model of a
//! run; the board draws them and never asks the service itself.

use std::time::Instant;

use chrono::{DateTime, Utc};

/// One entity as the board shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityRow {
    /// `pipeline`, `workflow` or `task`.
    pub kind: &'static str,
    /// The UUID, lower case.
    pub id: String,
    /// The alias that names it, if any.
    pub alias: Option<String>,
    /// `status`'s health word: failed, unknown, degraded, never, running, ok.
    pub health: &'static str,
    /// The last finished run.
    pub last: Option<FinishedRun>,
    /// The run in progress, if one is going.
    pub running: Option<RunningRun>,
    /// Runs and failed runs per hour over the last 24 hours, oldest first.
    pub runs_per_hour: Vec<u32>,
    pub failures_per_hour: Vec<u32>,
    /// The day's runs and failed runs as the 24-hour statistics count them,
    /// for a workflow or a task (`stats_only::counts`: no hourly figures, so
    /// no bars); `None`: the sum of the hours (a pipeline, from its log).
    pub counts: Option<(u32, u32)>,
    /// The latest failure: its task (alias or type) and first message.
    pub failure: Option<FailureLine>,
    /// When something shown in this row last changed (highlighted a while).
    pub changed_at: Option<Instant>,
    /// The error kind (`network`, `auth`, `server`, ...) and message when the
    /// entity could not be read at the last refresh; the rest of the row is
    /// what was last known.
    pub error: Option<(String, String)>,
    /// Nothing was ever read of it (its error came first): its last run
    /// and day are unknown (`-`), not none.
    pub unread: bool,
}

impl EntityRow {
    /// The alias, or the UUID.
    pub fn name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.id)
    }
}

/// A finished run: its verdict and when it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedRun {
    pub run_uuid: Option<String>,
    /// `succeeded` or `failed`.
    pub result: &'static str,
    pub ended: DateTime<Utc>,
    /// The sum of its task durations (the service's meaning).
    pub duration_ms: i64,
    /// Wall clock from its first task's start to its last task's end.
    pub elapsed_ms: Option<i64>,
}

/// A run still going.
#[derive(Debug, Clone, PartialEq)]
pub struct RunningRun {
    pub run_uuid: Option<String>,
    pub tasks: usize,
    pub expected: Option<usize>,
    pub started: Option<DateTime<Utc>>,
}

/// A failed task and its first message.
#[derive(Debug, Clone, PartialEq)]
pub struct FailureLine {
    pub run_uuid: Option<String>,
    /// The task's alias, else its type: what a person reads first.
    pub task: String,
    /// The task's UUID, for the detail line.
    pub task_uuid: String,
    pub message: String,
}

/// The whole board at one refresh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Board {
    pub rows: Vec<EntityRow>,
    /// When the last refresh completed.
    pub refreshed: Option<DateTime<Utc>>,
}

/// One run of an entity in the runs view (newest first).
#[derive(Debug, Clone, PartialEq)]
pub struct RunLine {
    pub run_uuid: String,
    /// succeeded, failed, running, unsettled.
    pub result: &'static str,
    pub started: Option<DateTime<Utc>>,
    pub ended: DateTime<Utc>,
    pub duration_ms: i64,
    pub elapsed_ms: Option<i64>,
    pub tasks: usize,
    pub failure: Option<FailureLine>,
}

/// One task entry of a run, for the waterfall: a bar from start to end.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskBar {
    /// The task's alias or UUID.
    pub task: String,
    /// The task's type (`query`, `external_trigger`, ...).
    pub task_type: String,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub failed: bool,
    /// Its error messages (decoded where a key allows), escaped for the terminal.
    pub messages: Vec<String>,
}

/// What the board asks of the engine (over a channel), for the entity or run
/// under the cursor.
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    /// The entity's recent runs (the `runs` view), newest first.
    Runs {
        kind: &'static str,
        id: String,
    },
    /// One run whole, for the waterfall.
    Run {
        id: String,
        run_uuid: String,
    },
    /// Start a run (after the user's y/N confirmation on the board).
    Start {
        kind: &'static str,
        id: String,
    },
    /// Follow the run's log: each entry as one line, until `StopLog`.
    Log {
        id: String,
        run_uuid: String,
    },
    StopLog,
}

/// The engine's answers (over a channel); errors are one line of text.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Runs {
        id: String,
        runs: Result<Vec<RunLine>, String>,
    },
    Run {
        run_uuid: String,
        tasks: Result<Vec<TaskBar>, String>,
    },
    /// The started run's UUID, or why it could not be started.
    Started {
        id: String,
        run: Result<String, String>,
    },
    /// One line of the followed log (escaped for the terminal).
    LogLine(String),
}
