//! The failure of a run as data: its failed task entries and each one's
//! error messages, read from the pipeline's log (a failed task's `output`
//! is its errors array), found here once for everything that states a
//! run's failure. It belongs to one run, never to an older one. Reading an
//! output (Base64, the organisation's encryption key) and the words for a
//! failure are the caller's: it hands in an `Outputs`, and states what it
//! gets.

use std::collections::HashMap;

use serde_json::Value;

use crate::api::models::LogEntry;
use crate::kinds::Entity;
use crate::runs::view::RunView;

/// One error message of a failed task, as the server writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The `Code`, as the server sent it (a number, a string, or null).
    pub code: Value,
    /// The `Severity`, empty when there is none.
    pub severity: String,
    /// The `Message`.
    pub message: String,
}

/// What a failed task's output says.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// The errors array the server writes for a failed task.
    Errors(Vec<Message>),
    /// An output that is not an errors array, as `Outputs::excerpt` kept it.
    Output(String),
    /// No text, or only white space.
    Empty,
    /// Encrypted, and no key to open it.
    Encrypted,
    /// Not Base64, or the key does not open it: why.
    Unreadable(String),
}

/// One failed task entry.
#[derive(Debug, Clone, PartialEq)]
pub struct FailedTask {
    /// The task's UUID, as the log sent it.
    pub task_uuid: String,
    /// The task's type (`notification`, `query`...).
    pub task_type: String,
    /// The task's alias, when one names it.
    pub name: Option<String>,
    /// When the task ended (`executed_at`), as sent.
    pub executed_at: String,
    /// How long it ran (ms).
    pub duration: i64,
    /// What its output says.
    pub detail: Detail,
}

/// Why the failed tasks of a failed run are not known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unknown {
    /// Workflows leave no log: their failures cannot be read.
    Workflow,
    /// A task's entries are in its pipeline's log, which a task ID does not
    /// name: not looked up.
    Task,
    /// The pipeline's log holds no failed task of that run.
    NotInLog,
}

/// The failure of a run: its failed tasks (oldest first), or why they
/// cannot be known.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The failed tasks, oldest first (never empty).
    Tasks(Vec<FailedTask>),
    /// Why they cannot be known.
    Unknown(Unknown),
}

impl Failure {
    /// The failed tasks, none when they are not known.
    pub fn tasks(&self) -> &[FailedTask] {
        match self {
            Failure::Tasks(t) => t,
            Failure::Unknown(_) => &[],
        }
    }
}

/// Why an output's text could not be read: the decoder's answer.
pub use crate::output::Unreadable;

/// Reading a task's output, which the service sends Base64-encoded (and
/// encrypted, where the organisation encrypts outputs): the key is the
/// caller's, and so is how much of an output that is no errors array is
/// kept (a fold keeps one per failed run).
pub trait Outputs {
    /// The output's plain text, or why it cannot be read.
    fn plain_text(&self, output: &str) -> Result<String, Unreadable>;
    /// The text kept of an output that is no errors array (trimmed).
    fn excerpt(&self, text: &str) -> String;
}

/// Reads failures: the outputs, and the aliases that name tasks.
pub struct Finder {
    outputs: Box<dyn Outputs + Send + Sync>,
    names: HashMap<String, String>,
}

impl Finder {
    /// `names`: alias by task UUID (in lower case), for naming tasks.
    pub fn new(outputs: Box<dyn Outputs + Send + Sync>, names: HashMap<String, String>) -> Finder {
        Finder { outputs, names }
    }

    /// The alias that names a task, when one does.
    pub fn name_of(&self, task_uuid: &str) -> Option<&str> {
        self.names
            .get(&task_uuid.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// A failed entry, its output read.
    pub fn task(&self, e: &LogEntry) -> FailedTask {
        FailedTask {
            task_uuid: e.task_uuid.clone(),
            task_type: e.task_type.clone(),
            name: self.name_of(&e.task_uuid).map(str::to_string),
            executed_at: e.executed_at.0.clone(),
            duration: e.duration,
            detail: detail(self.outputs.as_ref(), &e.output),
        }
    }

    /// The failure among a run's entries (any order), or `None` when no
    /// entry failed.
    pub fn of_entries<'a>(
        &self,
        entries: impl IntoIterator<Item = &'a LogEntry>,
    ) -> Option<Failure> {
        let mut failed: Vec<&LogEntry> = entries.into_iter().filter(|e| !e.is_successful).collect();
        failed.sort_by_key(|e| e.executed_at.parsed());
        (!failed.is_empty())
            .then(|| Failure::Tasks(failed.into_iter().map(|e| self.task(e)).collect()))
    }

    /// The failure of a last run that failed, from the entries the model
    /// read (no request of its own); workflows and tasks say why it is
    /// unknown.
    pub fn of_run(&self, kind: Entity, run: &RunView) -> Option<Failure> {
        if run.success() != Some(false) {
            return None;
        }
        Some(match kind {
            Entity::Workflow => Failure::Unknown(Unknown::Workflow),
            Entity::Task => Failure::Unknown(Unknown::Task),
            Entity::Pipeline => self
                .of_entries(&run.failed)
                .unwrap_or(Failure::Unknown(Unknown::NotInLog)),
        })
    }
}

fn detail(outputs: &(dyn Outputs + Send + Sync), output: &str) -> Detail {
    if output.trim().is_empty() {
        return Detail::Empty;
    }
    let text = match outputs.plain_text(output) {
        Ok(t) => t,
        Err(Unreadable::Encrypted) => return Detail::Encrypted,
        Err(Unreadable::Invalid(why)) => return Detail::Unreadable(why),
    };
    match errors_array(&text) {
        Some(list) => Detail::Errors(list),
        None if text.trim().is_empty() => Detail::Empty,
        None => Detail::Output(outputs.excerpt(text.trim())),
    }
}

/// `[{"Code":…,"Severity":…,"Message":…}]`, keys in any case.
fn errors_array(text: &str) -> Option<Vec<Message>> {
    let Value::Array(items) = serde_json::from_str::<Value>(text).ok()? else {
        return None;
    };
    if items.is_empty() {
        return None;
    }
    items
        .iter()
        .map(|i| {
            let o = i.as_object()?;
            let get = |k: &str| {
                o.iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(k))
                    .map(|(_, v)| v)
            };
            let text = |v: Option<&Value>| match v {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(v) => v.to_string(),
            };
            let message = get("Message")?;
            Some(Message {
                code: get("Code").cloned().unwrap_or(Value::Null),
                severity: text(get("Severity")),
                message: text(Some(message)),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    fn entry(run: &str, at: &str, ok: bool, output: &str) -> LogEntry {
        LogEntry {
            workflow_run_uuid: run.into(),
            task_uuid: "a87db346-0000-4000-8000-000000000000".into(),
            task_type: "notification".into(),
            is_successful: ok,
            duration: 1100,
            output: STANDARD.encode(output),
            metric_value: None,
            executed_at: crate::api::models::Timestamp(at.into()),
        }
    }

    /// Base64 of text read as it is; anything else taken as encrypted.
    struct Plain;

    impl Outputs for Plain {
        fn plain_text(&self, output: &str) -> Result<String, Unreadable> {
            let bytes = STANDARD
                .decode(output.trim())
                .map_err(|e| Unreadable::Invalid(e.to_string()))?;
            String::from_utf8(bytes).map_err(|_| Unreadable::Encrypted)
        }
        fn excerpt(&self, text: &str) -> String {
            text.to_string()
        }
    }

    fn finder() -> Finder {
        Finder::new(Box::new(Plain), HashMap::new())
    }

    #[test]
    fn reads_the_errors_array_and_outputs_that_are_not_one() {
        let e = entry(
            "r",
            "2026-01-01T00:00:01Z",
            false,
            r#"[{"code":4029,"Severity":"critical","MESSAGE":"quota exceeded"}]"#,
        );
        assert_eq!(
            finder().task(&e).detail,
            Detail::Errors(vec![Message {
                code: Value::from(4029),
                severity: "critical".into(),
                message: "quota exceeded".into(),
            }])
        );
        let other = finder().task(&entry("r", "2026-01-01T00:00:01Z", false, " boom "));
        assert_eq!(other.detail, Detail::Output("boom".into()));
        let sealed = LogEntry {
            output: STANDARD.encode([0xffu8; 40]),
            ..e.clone()
        };
        assert_eq!(finder().task(&sealed).detail, Detail::Encrypted);
        assert_eq!(
            finder()
                .task(&LogEntry {
                    output: String::new(),
                    ..e
                })
                .detail,
            Detail::Empty
        );
    }

    #[test]
    fn failed_entries_oldest_first_and_none_without_one() {
        let late = entry("r", "2026-01-01T00:00:09Z", false, "late");
        let early = entry("r", "2026-01-01T00:00:01Z", false, "early");
        let ok = entry("r", "2026-01-01T00:00:05Z", true, "");
        let Some(Failure::Tasks(t)) = finder().of_entries([&late, &ok, &early]) else {
            panic!("a failure");
        };
        let details: Vec<_> = t.iter().map(|t| t.detail.clone()).collect();
        assert_eq!(
            details,
            [
                Detail::Output("early".into()),
                Detail::Output("late".into())
            ]
        );
        assert_eq!(finder().of_entries([&ok]), None);
    }
}
