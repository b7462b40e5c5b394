//! The exported run: a finished run of a pipeline and its task entries,
//! as the caller judged and read them.

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// A finished run of a pipeline, as exported.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedRun {
    /// The pipeline.
    pub pipeline: Uuid,
    /// What the pipeline is called: the caller's name for it (an alias),
    /// or its UUID.
    pub pipeline_name: String,
    /// The run: its UUID's 16 bytes are the trace ID.
    pub run: Uuid,
    /// Whether a task of it failed.
    pub failed: bool,
    /// The failure in words (a failed run), for the root span's status and
    /// the `errorMessage` facet.
    pub failure: Option<String>,
    /// Its first task's start (`executed_at - duration`).
    pub started: DateTime<Utc>,
    /// Its last task's end (the latest `executed_at`).
    pub ended: DateTime<Utc>,
    /// The sum of its task durations (ms): the server's `duration`.
    pub duration_ms: i64,
    /// How the run was judged finished (`history`, `settled`,
    /// `failed_task`, ...), for the reader who asks why.
    pub completion: String,
    /// Its task entries, in the order they ran.
    pub tasks: Vec<TaskRun>,
    /// Entries of the run beyond `tasks` that were not kept (a bound on
    /// memory): said on the root span, never silently dropped.
    pub omitted: usize,
}

/// One task entry of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRun {
    /// The task.
    pub task: Uuid,
    /// The caller's name for it (an alias), if any.
    pub name: Option<String>,
    /// Its type as the service says it (`query`, `condition`, ...).
    pub task_type: String,
    /// Whether it succeeded.
    pub is_successful: bool,
    /// When it ended, as the log says.
    pub executed_at: DateTime<Utc>,
    /// How long it ran (ms).
    pub duration_ms: i64,
    /// Its `metric_value`, as sent.
    pub metric: Option<serde_json::Number>,
    /// Its error messages in words, for a failed task.
    pub message: Option<String>,
}

impl TaskRun {
    /// When it started: `executed_at - duration`.
    pub fn started(&self) -> DateTime<Utc> {
        self.executed_at - chrono::Duration::milliseconds(self.duration_ms)
    }
}
