//! The failure of a run: its failed task entries and each one's error
//! messages, read from the pipeline's log (a failed task's `output` is its
//! errors array), found here once and shown by `run --wait`, `last-run`,
//! `check` and `status`. It belongs to one run, never to an older one.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::api::models::LogEntry;
use crate::context::Context;
use crate::error::Result;
use crate::kinds::Entity;
use crate::output::decode::{self, Decoder, Unreadable};
use crate::output::table;
use crate::service::last_model::RunView;

/// How to open an encrypted output, said wherever one could not be read.
pub const HOW_TO_DECRYPT: &str =
    "output encrypted: give the key with --decrypt-key-file FILE or YLEM_DECRYPT_KEY_FILE";

/// Workflows leave no log: their failures cannot be read.
pub const WORKFLOW_UNKNOWN: &str = "reason unknown: the service keeps no log for workflows";

/// A task's entries are in its pipeline's log, which a task ID does not name.
pub const TASK_UNKNOWN: &str = "reason not looked up: a task's log is its pipeline's; see 'ylemctl logs PIPELINE --run RUN --failed'";

/// One error message of a failed task, as the server writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub code: Value,
    pub severity: String,
    pub message: String,
}

/// What a failed task's output says.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    Errors(Vec<Message>),
    /// An output that is not an errors array, shortened.
    Output(String),
    Empty,
    Encrypted,
    Unreadable(String),
}

/// One failed task entry.
#[derive(Debug, Clone, PartialEq)]
pub struct FailedTask {
    pub task_uuid: String,
    pub task_type: String,
    /// The task's alias, when one names it.
    pub name: Option<String>,
    pub executed_at: String,
    pub duration: i64,
    pub detail: Detail,
}

/// The failure of a run: its failed tasks (oldest first), or why they
/// cannot be known.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    Tasks(Vec<FailedTask>),
    Unknown(String),
}

/// Reads failures: the decryption key and the aliases that name tasks.
pub struct Finder {
    decoder: Decoder,
    names: HashMap<String, String>,
}

/// The key: the flag, else `YLEM_DECRYPT_KEY_FILE`, else the profile's
/// `decrypt_key_file`.
pub fn key(ctx: &Context, flag: Option<&Path>) -> Result<Option<[u8; 32]>> {
    let from_profile = || -> Result<Option<std::path::PathBuf>> {
        match ctx.config()? {
            Some(c) => c.decrypt_key_file(&ctx.settings.profile),
            None => Ok(None),
        }
    };
    let path = match (flag, &ctx.settings.decrypt_key_file) {
        (Some(p), _) => Some(p.to_path_buf()),
        (None, Some(p)) => Some(p.clone()),
        (None, None) => from_profile()?,
    };
    path.as_deref().map(decode::read_key).transpose()
}

impl Finder {
    /// Read the key (an unreadable key file is a usage error, before any
    /// request) and the aliases, once per command.
    pub fn new(ctx: &Context, flag: Option<&Path>) -> Result<Finder> {
        let key = key(ctx, flag)?;
        // Aliases only name tasks here: a config that cannot be read costs
        // the names, not the command (its own error shows elsewhere).
        let names = match ctx.config() {
            Ok(Some(c)) => c
                .aliases_for(&ctx.settings.profile)
                .map(|m| m.into_iter().map(|(n, u)| (u.to_string(), n)).collect())
                .unwrap_or_default(),
            _ => HashMap::new(),
        };
        Ok(Finder {
            decoder: Decoder::new(key),
            names,
        })
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
            detail: detail(&self.decoder, &e.output),
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
            Entity::Workflow => Failure::Unknown(WORKFLOW_UNKNOWN.into()),
            Entity::Task => Failure::Unknown(TASK_UNKNOWN.into()),
            Entity::Pipeline => self.of_entries(&run.failed).unwrap_or_else(|| {
                Failure::Unknown("reason unknown: no failed task of that run in the log".into())
            }),
        })
    }
}

fn detail(dec: &Decoder, output: &str) -> Detail {
    if output.trim().is_empty() {
        return Detail::Empty;
    }
    let text = match dec.plain_text(output) {
        Ok(t) => t,
        Err(Unreadable::Encrypted) => return Detail::Encrypted,
        Err(Unreadable::Invalid(why)) => return Detail::Unreadable(why),
    };
    match errors_array(&text) {
        Some(list) => Detail::Errors(list),
        None if text.trim().is_empty() => Detail::Empty,
        None => Detail::Output(table::shorten(text.trim(), 200)),
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

    fn finder() -> Finder {
        Finder {
            decoder: Decoder::new(None),
            names: HashMap::new(),
        }
    }

    #[test]
    fn reads_the_errors_array_and_outputs_that_are_not_one() {
        let e = entry(
            "r",
            "2026-01-01T00:00:01Z",
            false,
            r#"[{"Code":4029,"Severity":"critical","Message":"quota exceeded"}]"#,
        );
        let t = finder().task(&e);
        assert_eq!(
            t.line(),
            "task notification (a87db346…) failed after 1.1s: [4029 critical] quota exceeded"
        );
        let other = finder().task(&entry("r", "2026-01-01T00:00:01Z", false, "boom"));
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
}
