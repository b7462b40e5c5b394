//! The failure of a run in words and values: one line per failed task, a
//! summary for a row or a status line, and the columns and cells that
//! `run --wait`, `last-run` and `status` add to their rows.

use serde_json::{Value, json};

use crate::commands::kit::columns::{FAILED_TASK, FAILED_TASK_TYPE, FAILED_TASKS, FAILURE};
use crate::output::column::position;
use crate::output::{Cell, Column, Row, table};
use crate::time;
use ylem_client::runs::failure::{Detail, FailedTask, Failure, Message, Unknown};

/// How to open an encrypted output, said wherever one could not be read.
pub const HOW_TO_DECRYPT: &str =
    "output encrypted: give the key with --decrypt-key-file FILE or YLEM_DECRYPT_KEY_FILE";

/// Workflows leave no log: their failures cannot be read.
pub const WORKFLOW_UNKNOWN: &str = "reason unknown: the service keeps no log for workflows";

/// A task's entries are in its pipeline's log, which a task ID does not name.
pub const TASK_UNKNOWN: &str = "reason not looked up: a task's log is its pipeline's; see 'ylemctl logs PIPELINE --run RUN --failed'";

/// Why a failure's tasks are not known, in words.
pub fn unknown_text(why: Unknown) -> &'static str {
    match why {
        Unknown::Workflow => WORKFLOW_UNKNOWN,
        Unknown::Task => TASK_UNKNOWN,
        Unknown::NotInLog => "reason unknown: no failed task of that run in the log",
    }
}

/// `[4029 critical] quota exceeded`.
fn message_text(m: &Message) -> String {
    let code = match &m.code {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    let tag = [code, m.severity.clone()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let msg = table::escape(&m.message);
    if tag.is_empty() {
        msg
    } else {
        format!("[{}] {msg}", table::escape(&tag))
    }
}

/// A failed task in words and as a JSON value (the service's `FailedTask`
/// is data; its words are the CLI's).
pub trait TaskText {
    /// All its messages, or what stands in for them.
    fn messages(&self) -> Vec<String>;
    /// `task notification (a87db346…) failed after 1.1s: [4029 critical] quota exceeded`.
    fn line(&self) -> String;
    fn to_json(&self) -> Value;
}

/// `notification (a87db346…)`, or the task's alias in place of its type;
/// with `whole`, the UUID whole, for lines meant to be pasted into the next
/// command (`check`'s alert never cuts a UUID).
fn label_as(t: &FailedTask, whole: bool) -> String {
    let name = table::escape(t.name.as_deref().unwrap_or(&t.task_type));
    if whole {
        return format!("{name} ({})", t.task_uuid);
    }
    let short: String = t.task_uuid.chars().take(8).collect();
    format!("{name} ({short}…)")
}

fn line_as(t: &FailedTask, whole: bool) -> String {
    format!(
        "task {} failed after {}: {}",
        label_as(t, whole),
        time::human_ms(t.duration),
        t.messages().join("; ")
    )
}

impl TaskText for FailedTask {
    fn messages(&self) -> Vec<String> {
        match &self.detail {
            Detail::Errors(list) => list.iter().map(message_text).collect(),
            Detail::Output(s) => vec![format!("output: {s}")],
            Detail::Empty => vec!["no error message in its output".into()],
            Detail::Encrypted => vec![HOW_TO_DECRYPT.into()],
            Detail::Unreadable(why) => vec![format!("output unreadable: {why}")],
        }
    }

    fn line(&self) -> String {
        line_as(self, false)
    }

    fn to_json(&self) -> Value {
        let (errors, output, note) = match &self.detail {
            Detail::Errors(list) => (
                Value::Array(
                    list.iter()
                        .map(|m| json!({"Code": m.code, "Severity": m.severity, "Message": m.message}))
                        .collect(),
                ),
                Value::Null,
                Value::Null,
            ),
            Detail::Output(s) => (Value::Null, Value::from(s.as_str()), Value::Null),
            _ => (Value::Null, Value::Null, Value::from(self.messages().join("; "))),
        };
        json!({
            "task_uuid": self.task_uuid,
            "task_type": self.task_type,
            "executed_at": self.executed_at,
            "duration": self.duration,
            "errors": errors,
            "output": output,
            "note": note,
        })
    }
}

/// A run's failure in words (the service's `Failure` is data).
pub trait FailureText {
    /// One line: the first failed task and its first message (and how many
    /// more failed), or why the reason is unknown.
    fn summary(&self) -> String;
    /// `summary` and `lines` with task UUIDs whole: `check`'s status line
    /// and long output are pasted into the next command.
    fn summary_whole(&self) -> String;
    fn lines_whole(&self) -> Vec<String>;
    /// A line per failed task (`TaskText::line`), or the unknown reason.
    fn lines(&self) -> Vec<String>;
}

fn summary_as(f: &Failure, whole: bool) -> String {
    match f {
        Failure::Unknown(why) => unknown_text(*why).to_string(),
        Failure::Tasks(t) => {
            let first = &t[0];
            let msg = first.messages().into_iter().next().unwrap_or_default();
            let more = match t.len() {
                1 => String::new(),
                n => format!(" (and {} more failed tasks)", n - 1),
            };
            format!("task {}: {msg}{more}", label_as(first, whole))
        }
    }
}

impl FailureText for Failure {
    fn summary(&self) -> String {
        summary_as(self, false)
    }

    fn summary_whole(&self) -> String {
        summary_as(self, true)
    }

    fn lines_whole(&self) -> Vec<String> {
        match self {
            Failure::Unknown(why) => vec![unknown_text(*why).to_string()],
            Failure::Tasks(t) => t.iter().map(|t| line_as(t, true)).collect(),
        }
    }

    fn lines(&self) -> Vec<String> {
        match self {
            Failure::Unknown(why) => vec![unknown_text(*why).to_string()],
            Failure::Tasks(t) => t.iter().map(TaskText::line).collect(),
        }
    }
}

/// The columns the failure adds: machine formats also carry the whole
/// list of failed tasks with their messages; a table shows one line.
pub fn columns(machine: bool) -> &'static [Column] {
    const ALL: &[Column] = &[FAILED_TASK, FAILED_TASK_TYPE, FAILURE, FAILED_TASKS];
    const TABLE: &[Column] = ALL.split_at(position(ALL, "failed_tasks")).0;
    if machine { ALL } else { TABLE }
}

/// `base` with the failure's columns put in before `before` (at the end
/// without one).
pub fn with_columns(base: &[Column], before: Option<&Column>, machine: bool) -> Vec<Column> {
    let mut v = base.to_vec();
    let at = before
        .and_then(|b| v.iter().position(|c| c.name == b.name))
        .unwrap_or(v.len());
    v.splice(at..at, columns(machine).iter().copied());
    v
}

/// Set the failure's cells of `row` (left empty without one); the whole
/// list only where the row has its column (machine formats).
pub fn fill(row: &mut Row, f: Option<&Failure>) {
    let Some(f) = f else {
        return;
    };
    let first = f.tasks().first();
    row.set(
        &FAILED_TASK,
        Cell::opt_str(first.map(|t| t.task_uuid.clone())),
    )
    .set(
        &FAILED_TASK_TYPE,
        Cell::opt_str(first.map(|t| t.task_type.clone())),
    )
    .set(&FAILURE, Cell::Str(f.summary()));
    if let Failure::Tasks(t) = f {
        row.set(
            &FAILED_TASKS,
            Cell::Json(Value::Array(t.iter().map(TaskText::to_json).collect())),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(detail: Detail) -> FailedTask {
        FailedTask {
            task_uuid: "a87db346-6235-4ec9-bc1b-2f789e252f09".into(),
            task_type: "notification".into(),
            name: None,
            executed_at: "2026-01-01T00:00:01Z".into(),
            duration: 1100,
            detail,
        }
    }

    #[test]
    fn a_line_per_task_and_one_for_the_row() {
        let m = |c: i64, s: &str, t: &str| Message {
            code: c.into(),
            severity: s.into(),
            message: t.into(),
        };
        let t = task(Detail::Errors(vec![m(4029, "critical", "quota exceeded")]));
        assert_eq!(
            t.line(),
            "task notification (a87db346…) failed after 1.1s: [4029 critical] quota exceeded"
        );
        let named = FailedTask {
            name: Some("notify-email".into()),
            ..task(Detail::Encrypted)
        };
        let f = Failure::Tasks(vec![named, t]);
        assert_eq!(
            f.summary(),
            format!("task notify-email (a87db346…): {HOW_TO_DECRYPT} (and 1 more failed tasks)")
        );
        assert_eq!(f.lines().len(), 2);
        let mut row = Row::new(columns(true));
        fill(&mut row, Some(&f));
        assert!(row.into_cells().iter().all(|c| *c != Cell::Null));
        let mut row = Row::new(columns(false));
        fill(&mut row, None);
        assert_eq!(row.into_cells(), vec![Cell::Null; 3]);
    }
}
