//! The failure of a run: its failed task entries and each one's error
//! messages, read from the pipeline's log (a failed task's `output` is its
//! errors array), found here once and shown by `run --wait`, `last-run`,
//! `check` and `status`. It belongs to one run, never to an older one.

use std::collections::HashMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use crate::api::models::{LastRun, LogEntry};
use crate::api::{self, Api};
use crate::context::Context;
use crate::error::Result;
use crate::kinds::Entity;
use crate::output::decode::{self, Decoder, Unreadable};
use crate::output::table;
use crate::time::Window;

/// How far either side of a last run's time its log is asked for: the
/// server builds a whole response before its first byte, so never 24 h;
/// and it returns whole runs with an entry in the window, so a minute
/// finds every entry of the run that ended (or began) at that time.
pub const LAST_RUN_WINDOW_SECS: i64 = 30;

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

    /// The failure of an entity's last run, when it failed (`ok` false,
    /// at `at`): for a pipeline one narrow log request; workflows and tasks
    /// say why it is unknown. The reason is a bonus: a log that cannot be
    /// read leaves the verdict standing and says why the reason is missing.
    pub async fn of_last_at(
        &self,
        api: &Api,
        kind: Entity,
        id: Uuid,
        ok: bool,
        at: Option<DateTime<Utc>>,
        duration: Option<i64>,
    ) -> Option<Failure> {
        if ok {
            return None;
        }
        Some(match (kind, at) {
            (Entity::Workflow, _) => Failure::Unknown(WORKFLOW_UNKNOWN.into()),
            (Entity::Task, _) => Failure::Unknown(TASK_UNKNOWN.into()),
            (Entity::Pipeline, None) => {
                Failure::Unknown("reason unknown: the last run's time cannot be read".into())
            }
            (Entity::Pipeline, Some(at)) => match self.of_run_at(api, id, at, duration).await {
                Ok(f) => f,
                Err(e) => Failure::Unknown(format!(
                    "reason unknown: the log could not be read ({})",
                    crate::secret::scrub(&e.message)
                )),
            },
        })
    }

    /// `of_last_at` for a last run as statistics give it.
    pub async fn of_last(
        &self,
        api: &Api,
        kind: Entity,
        id: Uuid,
        last: Option<&LastRun>,
    ) -> Option<Failure> {
        let last = last?;
        let at = last.executed_at.as_ref().and_then(|t| t.parsed());
        let d = Some(last.duration);
        self.of_last_at(api, kind, id, last.is_successful, at, d)
            .await
    }

    /// The failure of the pipeline run whose latest entry (the open-source
    /// server's last-run time) or first entry (a run's start) is at `at`.
    async fn of_run_at(
        &self,
        api: &Api,
        id: Uuid,
        at: DateTime<Utc>,
        duration: Option<i64>,
    ) -> Result<Failure> {
        let d = chrono::Duration::seconds(LAST_RUN_WINDOW_SECS);
        let w = Window {
            from: at - d,
            to: at + d,
        };
        let mut s = api.pipeline_logs(id, &w).await?;
        // Per run: its first and latest times and its failed entries only.
        let mut runs: HashMap<String, RunSeen> = HashMap::new();
        while let Some(e) = api::next_entry(&mut s, None, false).await? {
            let t = e.executed_at.parsed();
            let order = runs.len();
            let r = runs
                .entry(e.workflow_run_uuid.clone())
                .or_insert_with(|| RunSeen {
                    order,
                    ..RunSeen::default()
                });
            r.total_ms += e.duration;
            r.first = r.first.min(t).or(t);
            r.latest = r.latest.max(t);
            if !e.is_successful {
                r.failed.push(e);
            }
        }
        match pick(&runs, at, duration) {
            Some(r) => Ok(self.of_entries(&r.failed).unwrap_or_else(|| {
                Failure::Unknown("reason unknown: no failed task in that run's log".into())
            })),
            None => Ok(Failure::Unknown(format!(
                "reason unknown: no run in the log ends or starts at {}",
                at.format("%Y-%m-%d %H:%M:%S")
            ))),
        }
    }
}

#[derive(Default)]
struct RunSeen {
    first: Option<DateTime<Utc>>,
    latest: Option<DateTime<Utc>>,
    failed: Vec<LogEntry>,
    /// The sum of its durations: what statistics give as the run's.
    total_ms: i64,
    /// When it first came in the log (newest first): 0 is the newest.
    order: usize,
}

/// The last run: of the runs whose latest entry (the open-source
/// server's last-run time) or first entry (a run's start, the spec's
/// reading) is at `at` to the second, the newest. Fast runs of one pipeline
/// can end and start within the same second (and the spec's log times have
/// no fraction): the one whose total duration is the last run's
/// `duration` first, then the one that started last, then the one the log
/// lists first. Never a run that merely lies near.
fn pick(
    runs: &HashMap<String, RunSeen>,
    at: DateTime<Utc>,
    duration: Option<i64>,
) -> Option<&RunSeen> {
    let near =
        |t: Option<DateTime<Utc>>| t.is_some_and(|t| (t - at).num_milliseconds().abs() < 1000);
    runs.values()
        .filter(|r| near(r.latest) || near(r.first))
        .max_by_key(|r| {
            let same = duration == Some(r.total_ms);
            (same, r.first, r.latest, std::cmp::Reverse(r.order))
        })
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

    #[test]
    fn picks_the_run_that_ends_at_the_time_never_a_neighbour() {
        let f = finder();
        let at: DateTime<Utc> = "2026-01-01T00:00:10Z".parse().unwrap();
        let mut runs = HashMap::new();
        // Milliseconds after `at` - 10 s: "same" ends 300 ms before "new",
        // in the same second as it.
        for (run, first, latest) in [
            ("old", 1_000, 9_000),
            ("same", 4_000, 10_100),
            ("new", 5_000, 10_400),
            ("next", 12_000, 20_000),
            // Ends in the second before: its end is not `at`.
            ("before", 2_000, 8_900),
        ] {
            let t = |ms: i64| {
                DateTime::<Utc>::from_timestamp_millis(at.timestamp_millis() - 10_000 + ms)
            };
            let failed = vec![entry(run, "2026-01-01T00:00:05Z", false, run)];
            runs.insert(
                run.to_string(),
                RunSeen {
                    first: t(first),
                    latest: t(latest),
                    failed,
                    ..RunSeen::default()
                },
            );
        }
        let r = pick(&runs, at, None).unwrap();
        assert_eq!(
            f.of_entries(&r.failed).unwrap().tasks()[0].detail,
            Detail::Output("new".into())
        );
        runs.remove("new");
        runs.remove("same");
        assert!(pick(&runs, at, None).is_none());
    }

    /// The spec's last-run time is a run's start: a run that ended in
    /// that same second is the one before it.
    #[test]
    fn a_run_starting_in_the_second_another_ended_is_the_last() {
        let at: DateTime<Utc> = "2026-01-01T00:00:10Z".parse().unwrap();
        let t = |ms: i64| DateTime::<Utc>::from_timestamp_millis(at.timestamp_millis() + ms);
        let mut runs = HashMap::new();
        for (run, first, latest) in [("ending", -9_000, 50), ("starting", 200, 5_000)] {
            let failed = vec![entry(run, "2026-01-01T00:00:05Z", false, run)];
            let seen = RunSeen {
                first: t(first),
                latest: t(latest),
                failed,
                ..RunSeen::default()
            };
            runs.insert(run.to_string(), seen);
        }
        let r = pick(&runs, at, None).unwrap();
        assert_eq!(r.failed[0].workflow_run_uuid, "starting");
    }

    /// Second-precision times (the spec's) cannot tell two fast runs
    /// apart: the last run's duration does.
    #[test]
    fn runs_within_one_second_are_told_apart_by_the_duration() {
        let at: DateTime<Utc> = "2026-01-01T00:00:10Z".parse().unwrap();
        let mut runs = HashMap::new();
        for (run, total, order) in [("older", 900, 1), ("newer", 400, 0)] {
            let failed = vec![entry(run, "2026-01-01T00:00:10Z", false, run)];
            let seen = RunSeen {
                first: Some(at),
                latest: Some(at),
                failed,
                total_ms: total,
                order,
            };
            runs.insert(run.to_string(), seen);
        }
        let name = |r: Option<&RunSeen>| r.unwrap().failed[0].workflow_run_uuid.clone();
        assert_eq!(name(pick(&runs, at, Some(900))), "older");
        assert_eq!(name(pick(&runs, at, Some(400))), "newer");
        // Without a duration, the one the log lists first (newest first).
        assert_eq!(name(pick(&runs, at, None)), "newer");
    }
}
