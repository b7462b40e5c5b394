//! Run start endpoints and the live simulation of a started run: it follows
//! the pipeline's graph, and each task's entry appears after that task's
//! duration scaled by `task_delay`, so gaps and run sizes vary.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::dialect::stamp;
use super::options::{Dialect, TASK_TIME_UNIT};
use super::rng::{Rng, Stream};
use super::seed::{has_initial_task, plan};
use super::state::Shared;
use super::store::{Behaviour, EntityDef, Entry, Family, Run, Status};
use super::sync;
use super::trigger;

/// An error with an empty body that still says JSON, as the real server's.
fn refuse(status: StatusCode) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], "").into_response()
}

/// POST /v1/{pipelines|workflows}/{uuid}/runs/. Every call starts a new run
/// (not idempotent). Unknown, inactive, template and pipelines without an
/// initial task are 404; paused ones (and another organisation's) 403.
/// The body is the run's input: kept with the run in both dialects (the
/// ground truth shows its size), used by ylem's external triggers only.
pub async fn start(
    State(s): State<Arc<Shared>>,
    family: Family,
    Path(raw): Path<String>,
    input: Bytes,
) -> Response {
    let Ok(uuid) = Uuid::parse_str(&raw) else {
        return refuse(StatusCode::NOT_FOUND);
    };
    let seq = s.run_seq.fetch_add(1, Ordering::SeqCst);
    let mut rng = Rng::stream(s.opts.seed, Stream::Runs, seq);
    let run_uuid = rng.uuid();
    let (planned, initial) = {
        let mut store = sync::write(&s.store);
        let Some(entity) = store.entity_mut(family, uuid) else {
            return refuse(StatusCode::NOT_FOUND);
        };
        let def = &entity.def;
        if let Some(status) = refusal(def) {
            return refuse(status);
        }
        let mut planned = plan(
            def,
            run_uuid,
            Utc::now(),
            match family {
                Family::Workflow if s.opts.failing_workflows => Behaviour::Failing,
                _ => def.behaviour,
            },
            &mut rng,
            s.opts.dialect,
            // Times are stamped as the entries appear (`simulate`).
            1.0,
        );
        if s.opts.dialect == Dialect::Ylem {
            hand_input(def, &mut planned, &input);
        }
        entity.runs.push(Run {
            uuid: run_uuid,
            input,
            entries: Vec::new(),
            size: planned.len(),
            ok: planned.iter().all(|e| e.ok),
        });
        (planned, def.tasks[0].uuid)
    };
    let response = match s.opts.dialect {
        Dialect::Ylem => (
            StatusCode::CREATED,
            Json(json!({ "pipeline_run_uuid": run_uuid.to_string() })),
        )
            .into_response(),
        Dialect::Spec => Json(records(&s, run_uuid, &[initial], &mut rng)).into_response(),
    };
    let sim = tokio::spawn(simulate(s.clone(), family, uuid, run_uuid, planned));
    sync::lock(&s.sims).push(sim.abort_handle());
    response
}

/// An initial external trigger outputs the run's input (`trigger::output`).
fn hand_input(def: &EntityDef, planned: &mut [Entry], input: &[u8]) {
    let initial = &def.tasks[0];
    if let Some(first) = planned.first_mut()
        && first.task == initial.uuid
        && initial.task_type == trigger::TRIGGER
    {
        first.plain = trigger::output(input, &initial.test_data);
    }
}

/// Why the real server would not start this pipeline, if it would not.
fn refusal(def: &EntityDef) -> Option<StatusCode> {
    match def.status {
        Status::Inactive | Status::Template | Status::NoInitialTask => Some(StatusCode::NOT_FOUND),
        Status::Paused => Some(StatusCode::FORBIDDEN),
        Status::Active if def.foreign => Some(StatusCode::FORBIDDEN),
        Status::Active if !has_initial_task(&def.next) => Some(StatusCode::NOT_FOUND),
        Status::Active => None,
    }
}

/// One `pending` run record per initial task, as the documented start
/// response lists (later tasks get records only when they are reached).
fn records(s: &Shared, run: Uuid, tasks: &[Uuid], rng: &mut Rng) -> Vec<Value> {
    let now = Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true);
    tasks
        .iter()
        .map(|task| {
            json!({
                "id": s.record_id.fetch_add(1, Ordering::SeqCst) + 1,
                "state": "pending",
                "task_uuid": task.to_string(),
                "task_run_uuid": rng.uuid().to_string(),
                "workflow_run_uuid": run.to_string(),
                "is_successful": false,
                "output": null,
                "errors": null,
                "created_at": now,
                "updated_at": now,
            })
        })
        .collect()
}

/// How long a task of `ms` simulated milliseconds takes live.
pub fn live_gap(task_delay: Duration, ms: u64) -> Duration {
    task_delay.mul_f64(ms as f64 / TASK_TIME_UNIT.as_millis() as f64)
}

/// Reveals the planned entries one by one, each after its task's scaled
/// duration, stamped with the time it appears.
async fn simulate(s: Arc<Shared>, family: Family, entity: Uuid, run: Uuid, planned: Vec<Entry>) {
    for mut entry in planned {
        tokio::time::sleep(live_gap(s.opts.task_delay, entry.duration)).await;
        entry.at = stamp(s.opts.dialect, Utc::now());
        let mut store = sync::write(&s.store);
        let Some(e) = store.entity_mut(family, entity) else {
            return;
        };
        if let Some(r) = e.runs.iter_mut().rev().find(|r| r.uuid == run) {
            r.entries.push(entry);
        }
    }
}
