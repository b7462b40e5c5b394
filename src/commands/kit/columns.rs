//! The columns of the commands' rows, each described once: its field name,
//! its table header, and how a narrow table treats it. A command lists the
//! ones its rows have (`COLUMNS`) and fills a row by column
//! (`output::Row`); nothing finds a column by its position. A run's time
//! is written one way in all of them (`time_cell`).
//!
//! The ranks say which columns a table too wide for the terminal leaves out
//! first, the least useful first; one order for every command, so that a
//! column goes at the same point wherever it shows. Columns without a rank
//! go after them, from the right; free text is shortened before any column
//! is left out.
//!
//! The columns that name a row or say what went wrong are kept longest
//! (`Column::kept`), whatever their place in the table: left out only when
//! nothing else is left, in the order below, which is also one order for
//! every command; while one is left out, no other column takes its room
//! (but a second UUID's: `SECOND_UUID`). A column named in `--fields` is never left out at all
//! (`output::fit`).

use crate::output::{Cell, Column};

// How long a narrow table keeps a column, the lowest kept longest.
/// Which row it is: the entity, the run, a run's task (by its alias).
const WHICH: u8 = 0;
/// How it ended.
const HOW: u8 = 1;
/// Why it failed.
const WHY: u8 = 2;
/// When it ran.
const WHEN: u8 = 3;
/// What the row's task is (a log entry's task type): it says what failed,
/// where a second UUID only names it.
const WHAT: u8 = 4;
/// A second UUID in a row another column names (a log entry's task, a
/// last run's run): 39 cells with its frame, so on 80 columns the row's
/// name, its result and its time stay and it goes (`--fields` keeps both).
/// Such a column is also a `second_name`: once it is out, the room it
/// leaves may take ordinary columns back (a log at 100 columns shows its
/// task's type and duration), where any other kept column left out keeps
/// them out.
const SECOND_UUID: u8 = 5;

/// A run's time as every command writes it (RFC 3339, UTC).
pub fn time_cell(t: chrono::DateTime<chrono::Utc>) -> Cell {
    Cell::Time(t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
}

// What a row is about.
pub const UUID: Column = Column::new("uuid", "UUID").kept(WHICH);
pub const NAME: Column = Column::new("name", "NAME").kept(WHICH);
pub const KIND: Column = Column::new("kind", "KIND").ranked(26);

// Several IDs: what became of each (`kit/ids.rs`'s `multi_columns`).
pub const ERROR_KIND: Column = Column::new("error_kind", "ERROR_KIND").kept(WHY);
pub const ERROR: Column = Column::new("error", "ERROR").free(12).also(&["error_kind"]);

// A log entry (`logs`, the records of a run start).
pub const WORKFLOW_RUN_UUID: Column = Column::new("workflow_run_uuid", "RUN_UUID").kept(WHICH);
pub const TASK_UUID: Column = Column::new("task_uuid", "TASK_UUID")
    .kept(SECOND_UUID)
    .second_name();
pub const TASK_TYPE: Column = Column::new("task_type", "TASK_TYPE").kept(WHAT);
pub const IS_SUCCESSFUL: Column = Column::new("is_successful", "RESULT").kept(HOW);
pub const DURATION: Column = Column::new("duration", "DURATION").ranked(24);
pub const OUTPUT: Column = Column::new("output", "OUTPUT").free(13);
/// `logs --decode`'s output: what the decoding is for, it says why a task
/// failed: kept as long as a failure (with the decoding's own error).
pub const DECODED_OUTPUT: Column = Column::new("output", "OUTPUT").free(29).kept(WHY);
pub const METRIC_VALUE: Column = Column::new("metric_value", "METRIC").ranked(4).idle("0");
pub const EXECUTED_AT: Column = Column::new("executed_at", "EXECUTED_AT").kept(WHEN);
pub const DECODE_ERROR: Column = Column::new("decode_error", "DECODE_ERROR")
    .free(0)
    .kept(WHY);

// A run: started (`run`), waited for (`run --wait`), listed (`runs`).
pub const RUN_UUID: Column = Column::new("run_uuid", "RUN_UUID").kept(WHICH);
/// A last run's run, in a row about its entity (`last-run`): a second UUID.
pub const LAST_RUN_UUID: Column = Column::new("run_uuid", "RUN_UUID")
    .kept(SECOND_UUID)
    .second_name();
pub const OUTCOME: Column = Column::new("outcome", "OUTCOME");
pub const RECORDS: Column = Column::new("records", "RECORDS");
pub const VERDICT: Column = Column::new("verdict", "VERDICT");
pub const RESULT: Column = Column::new("result", "RESULT").kept(HOW);
pub const TASKS: Column = Column::new("tasks", "TASKS");
pub const TASKS_TOTAL: Column = Column::new("tasks_total", "TASKS_TOTAL").ranked(20);
pub const TASKS_DONE: Column = Column::new("tasks_done", "TASKS_DONE");
pub const TASKS_FAILED: Column = Column::new("tasks_failed", "TASKS_FAILED").ranked(21);
pub const TASKS_EXPECTED: Column = Column::new("tasks_expected", "TASKS_EXPECTED");
pub const STARTED: Column = Column::new("started", "STARTED");
pub const ENDED: Column = Column::new("ended", "ENDED");
pub const ELAPSED: Column = Column::new("elapsed", "ELAPSED").ranked(16);
pub const COMPLETION: Column = Column::new("completion", "COMPLETION").ranked(22);
pub const EVIDENCE: Column = Column::new("evidence", "EVIDENCE").free(14);
pub const TASK: Column = Column::new("task", "TASK").kept(WHICH);
pub const ENTRIES: Column = Column::new("entries", "ENTRIES");

// A failed run's failure (`failure_text`): the table shows one line, the
// machine formats every failed task too.
pub const FAILED_TASK: Column = Column::new("failed_task", "FAILED_TASK").ranked(2);
pub const FAILED_TASK_TYPE: Column = Column::new("failed_task_type", "FAILED_TASK_TYPE").ranked(3);
pub const FAILURE: Column = Column::new("failure", "FAILURE")
    .free(15)
    .kept(WHY)
    .also(&["failed_tasks"]);
pub const FAILED_TASKS: Column = Column::new("failed_tasks", "FAILED_TASKS").free(1);

// Statistics (`stats`, `aggregate`, `last-run`).
pub const NUM_OF_SUCCESSES: Column = Column::new("num_of_successes", "SUCCESSES");
pub const NUM_OF_FAILURES: Column = Column::new("num_of_failures", "FAILURES");
pub const AVERAGE_DURATION: Column = Column::new("average_duration", "AVG_DURATION").ranked(18);
pub const IS_LAST_RUN_SUCCESSFUL: Column = Column::new("is_last_run_successful", "LAST_RESULT");
pub const LAST_RUN_EXECUTED_AT: Column = Column::new("last_run_executed_at", "LAST_RUN").aged();
pub const LAST_RUN_DURATION: Column = Column::new("last_run_duration", "LAST_DURATION").ranked(19);
pub const DATE_FROM: Column = Column::new("date_from", "DATE_FROM");
pub const DATE_TO: Column = Column::new("date_to", "DATE_TO").ranked(25);
pub const FILLED: Column = Column::new("filled", "FILLED");
/// The board's last run says what its health mostly says already.
pub const LAST_RUN: Column = Column::new("last_run", "LAST_RUN")
    .ranked(30)
    .also(&["last_run_successful"]);

// The board (`status`).
pub const STATUS: Column = Column::new("status", "STATUS").kept(HOW);
pub const LAST_RUN_SUCCESSFUL: Column =
    Column::new("last_run_successful", "LAST_RUN_SUCCESSFUL").also(&["last_run"]);
pub const LAST_RUN_AT: Column = Column::new("last_run_at", "LAST_RUN_AT");
pub const LAST_RUN_AGE: Column = Column::new("last_run_age", "LAST_RUN_AGE").also(&["age"]);
pub const RUNS_24H: Column = Column::new("runs_24h", "RUNS_24H").ranked(27);
pub const FAILURES_24H: Column = Column::new("failures_24h", "FAILURES_24H").also(&["fails_24h"]);
pub const FAILURES_7D: Column = Column::new("failures_7d", "FAILURES_7D").also(&["fails_7d"]);
pub const AGE: Column = Column::new("age", "AGE").also(&["last_run_age"]);
pub const FAILS_24H: Column = Column::new("fails_24h", "FAILS_24H").also(&["failures_24h"]);
pub const AVG_DURATION: Column = Column::new("avg_duration", "AVG_DURATION")
    .ranked(28)
    .also(&["average_duration"]);
pub const FAILS_7D: Column = Column::new("fails_7d", "FAILS_7D").also(&["failures_7d"]);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each rank says one place in the order.
    #[test]
    fn ranks_are_distinct() {
        let all = [
            ERROR,
            TASK_TYPE,
            DURATION,
            OUTPUT,
            DECODED_OUTPUT,
            METRIC_VALUE,
            DECODE_ERROR,
            TASKS_TOTAL,
            TASKS_FAILED,
            ELAPSED,
            COMPLETION,
            EVIDENCE,
            FAILED_TASK,
            FAILED_TASK_TYPE,
            FAILURE,
            FAILED_TASKS,
            AVERAGE_DURATION,
            LAST_RUN_DURATION,
            DATE_TO,
            KIND,
            RUNS_24H,
            AVG_DURATION,
            LAST_RUN,
        ];
        let mut ranks: Vec<u8> = all.iter().filter_map(|c| c.rank()).collect();
        let ranked = all.iter().filter(|c| c.rank().is_some()).count();
        assert_eq!(ranks.len(), ranked);
        ranks.sort();
        ranks.dedup();
        assert_eq!(ranks.len(), ranked);
    }
}
