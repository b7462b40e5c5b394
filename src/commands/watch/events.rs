//! `watch`'s event stream: each event as one JSON object on its own line,
//! written and flushed at once (a script reading the pipe sees a run's
//! verdict as soon as it is established). Every event names its entity
//! (`kind`, `id`, `alias`), when it was seen (`at`) and its run where it
//! has one (`run_uuid`).

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value, json};

use crate::commands::kit::evidence_text;
use crate::commands::kit::failure_text::unknown_text;
use crate::commands::kit::failure_text::{FailureText, TaskText};
use crate::commands::kit::targets::Target;
use crate::context::Context;
use crate::error::{Error, Result};
use ylem_client::Entity;
use ylem_client::runs::failure::{Finder, Unknown};
use ylem_client::runs::fleet::{Event, Finished};

/// What the watch tells: the fleet's events, and an entity's errors.
pub enum Told<'a> {
    Fleet(&'a Event),
    /// The entity could not be read (the first failure of a spell).
    Error(&'a Error),
    /// It can be read again.
    Recovered,
}

/// When an event was seen (`at`): UTC, milliseconds.
pub fn time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A run's own time (`started`, `ended`): written as `runs --run`,
/// `last-run` and `status` write it (the precision the time has), so the
/// same run has the same text in every command.
fn run_time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// The event as one JSON object.
pub fn object(t: &Target, told: &Told, at: DateTime<Utc>, finder: &Finder) -> Value {
    let mut o = Map::new();
    let name = match told {
        Told::Fleet(Event::RunStarted { .. }) => "run_started",
        Told::Fleet(Event::Task { .. }) => "task",
        Told::Fleet(Event::RunFinished(_)) => "run_finished",
        Told::Error(_) => "error",
        Told::Recovered => "recovered",
    };
    o.insert("event".into(), name.into());
    o.insert("at".into(), time(at).into());
    o.insert("kind".into(), t.kind.to_string().into());
    o.insert("id".into(), t.uuid.to_string().into());
    o.insert("alias".into(), t.alias.clone().into());
    match told {
        Told::Fleet(Event::RunStarted { run, started }) => {
            if let Some(r) = run {
                o.insert("run_uuid".into(), r.clone().into());
            }
            o.insert("started".into(), started.map(run_time).into());
        }
        Told::Fleet(Event::Task { run, entry }) => {
            o.insert("run_uuid".into(), run.clone().into());
            o.insert("task".into(), entry.task_uuid.as_str().into());
            o.insert(
                "name".into(),
                finder.name_of(entry.task_uuid.as_str()).into(),
            );
            o.insert("type".into(), entry.task_type.as_str().into());
            let result = if entry.is_successful {
                "succeeded"
            } else {
                "failed"
            };
            o.insert("result".into(), result.into());
            o.insert("duration".into(), entry.duration.into());
            o.insert("executed_at".into(), entry.executed_at().as_str().into());
        }
        Told::Fleet(Event::RunFinished(f)) => finished(&mut o, f, finder, t.kind),
        Told::Error(e) => {
            o.insert(
                "error".into(),
                json!({
                    "kind": e.kind.name(),
                    "message": crate::redact::scrub(&e.message),
                    "http_status": e.http_status,
                }),
            );
        }
        Told::Recovered => {}
    }
    Value::Object(o)
}

fn finished(o: &mut Map<String, Value>, f: &Finished, finder: &Finder, kind: Entity) {
    if let Some(r) = &f.run {
        o.insert("run_uuid".into(), r.clone().into());
    }
    o.insert("verdict".into(), f.verdict.into());
    let (completion, evidence) = (
        f.evidence.completion(),
        evidence_text::established(&f.evidence),
    );
    o.insert("completion".into(), completion.into());
    o.insert("evidence".into(), evidence.into());
    o.insert("duration".into(), f.duration_ms.into());
    o.insert("elapsed".into(), f.elapsed_ms.into());
    o.insert("started".into(), f.started.map(run_time).into());
    o.insert("ended".into(), f.ended.map(run_time).into());
    // A workflow or a task leaves no log: its task count is not known (null,
    // as `last-run` says it), not zero.
    let tasks = match kind {
        Entity::Pipeline => f.tasks.into(),
        Entity::Workflow | Entity::Task => Value::Null,
    };
    o.insert("tasks".into(), tasks);
    let failure = match f.verdict {
        "failed" => failure_of(f, finder)
            .map(|(summary, tasks)| json!({"summary": summary, "tasks": tasks}))
            .unwrap_or_else(|| {
                // As `status` says it of a run with no log read.
                let summary = match kind {
                    Entity::Workflow => unknown_text(Unknown::Workflow),
                    Entity::Task => unknown_text(Unknown::Task),
                    Entity::Pipeline => "reason unknown: no failed entry was read",
                };
                json!({"summary": summary, "tasks": []})
            }),
        _ => Value::Null,
    };
    o.insert("failure".into(), failure);
}

/// A failed run's failure: its summary line and its failed tasks, from the
/// entries the watch read (none for a workflow or a task: no log).
pub fn failure_of(f: &Finished, finder: &Finder) -> Option<(String, Vec<Value>)> {
    let entries: Vec<_> = f.failed.iter().map(|e| e.to_owned_entry()).collect();
    let failure = finder.of_entries(&entries)?;
    let tasks = failure.tasks().iter().map(TaskText::to_json).collect();
    Some((failure.summary(), tasks))
}

/// Writes one line per event to standard output, flushed at once, through
/// the command's output (so `--jq` filters each event as it comes).
pub struct Stream<'a> {
    ctx: &'a Context,
}

impl<'a> Stream<'a> {
    pub fn new(ctx: &'a Context) -> Stream<'a> {
        Stream { ctx }
    }

    /// One event, whole, then flushed; a closed pipe is the end of the
    /// watch (`Kind::PipeClosed`, exit 0).
    pub fn write(&mut self, v: &Value) -> Result<()> {
        let mut line = serde_json::to_vec(v).map_err(|e| Error::internal(e.to_string()))?;
        line.push(b'\n');
        self.ctx.write_out(&line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event names its entity; `run_uuid` only where there is a run
    /// (a workflow's runs have none, an error none); a failure its tasks.
    #[test]
    fn every_event_names_its_entity_and_its_run_where_it_has_one() {
        let finder = crate::commands::kit::failure_read::plain_finder();
        let t = Target {
            kind: Entity::Workflow,
            uuid: uuid::Uuid::nil(),
            alias: Some("nightly".into()),
        };
        let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let started = Event::RunStarted {
            run: None,
            started: Some(at),
        };
        let v = object(&t, &Told::Fleet(&started), at, &finder);
        assert_eq!(v["event"], "run_started");
        assert_eq!(v["at"], "2027-01-15T08:00:00.000Z");
        assert_eq!(
            (&v["kind"], &v["alias"]),
            (&json!("workflow"), &json!("nightly"))
        );
        assert!(v.get("run_uuid").is_none(), "{v}");
        let e = Error::new(crate::error::Kind::Network, "cannot connect");
        let v = object(&t, &Told::Error(&e), at, &finder);
        assert_eq!(v["error"]["kind"], "network");
        assert!(v.get("run_uuid").is_none());
        let failed = r#"{"workflow_run_uuid":"00000000-0000-4000-8000-000000000001","task_uuid":"00000000-0000-4000-9000-000000000001","task_type":"query","is_successful":false,"duration":5,"output":"[{\"Code\":1,\"Severity\":\"critical\",\"Message\":\"boom\"}]","executed_at":"2027-01-15T08:00:00Z"}"#;
        let entry: ylem_client::api::models::LogEntryRef = serde_json::from_str(failed).unwrap();
        let f = Finished {
            run: Some("00000000-0000-4000-8000-000000000001".into()),
            verdict: "failed",
            evidence: ylem_client::runs::Established::FailedTask,
            duration_ms: 5,
            elapsed_ms: Some(5),
            started: None,
            ended: Some(at),
            tasks: 1,
            failed: vec![entry.into_static()],
        };
        let v = object(
            &t,
            &Told::Fleet(&Event::RunFinished(Box::new(f))),
            at,
            &finder,
        );
        assert_eq!(v["run_uuid"], "00000000-0000-4000-8000-000000000001");
        assert_eq!(v["completion"], "failed_task");
        assert_eq!(v["failure"]["tasks"][0]["errors"][0]["Message"], "boom");
        assert!(v["failure"]["summary"].as_str().unwrap().contains("boom"));
    }
}
