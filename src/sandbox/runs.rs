//! Run start endpoints and the simulation that executes a started run: one
//! log entry per task, `task_delay` apart, stopping at the first failure.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::Dialect;
use super::rng::{Rng, Stream};
use super::seed::execute;
use super::state::Shared;
use super::store::{Behaviour, Family, Run};

/// POST /v1/{pipelines|workflows}/{uuid}/runs/. Errors have empty bodies, as
/// on the real server. Every call starts a new run (not idempotent).
pub async fn start(
    State(s): State<Arc<Shared>>,
    family: Family,
    Path(raw): Path<String>,
) -> Response {
    let Ok(uuid) = Uuid::parse_str(&raw) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let seq = s.run_seq.fetch_add(1, Ordering::SeqCst);
    let mut rng = Rng::stream(s.opts.seed, Stream::Runs, seq);
    let run_uuid = rng.uuid();
    let tasks: Vec<Uuid> = {
        let mut store = s.store.write().unwrap();
        let Some(entity) = store.entity_mut(family, uuid) else {
            return StatusCode::NOT_FOUND.into_response();
        };
        entity.runs.push(Run {
            uuid: run_uuid,
            entries: Vec::new(),
        });
        entity.def.tasks.iter().map(|t| t.uuid).collect()
    };
    let response = match s.opts.dialect {
        Dialect::Ylem => (
            StatusCode::CREATED,
            Json(json!({ "pipeline_run_uuid": run_uuid.to_string() })),
        )
            .into_response(),
        Dialect::Spec => Json(records(&s, run_uuid, &tasks, &mut rng)).into_response(),
    };
    let sim = tokio::spawn(simulate(s.clone(), family, uuid, run_uuid, rng));
    s.sims.lock().unwrap().push(sim.abort_handle());
    response
}

/// One `pending` run record per task, as the spec's run start returns.
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

/// Appends one entry per task, `task_delay` apart. The first pipeline never
/// fails here and the second usually fails on its last task (see
/// `Behaviour`); others use their tasks' success rates.
async fn simulate(s: Arc<Shared>, family: Family, entity: Uuid, run: Uuid, mut rng: Rng) {
    for i in 0.. {
        tokio::time::sleep(s.opts.task_delay).await;
        let mut store = s.store.write().unwrap();
        let Some(e) = store.entity_mut(family, entity) else {
            return;
        };
        let Some(task) = e.def.tasks.get(i) else {
            return;
        };
        let last = i + 1 == e.def.tasks.len();
        let rate = match e.def.behaviour {
            Behaviour::Reliable => 1.0,
            Behaviour::Flaky if last => 0.2,
            Behaviour::Flaky => 1.0,
            Behaviour::Normal => task.success_rate,
        };
        let entry = execute(task, run, Utc::now(), rate, &mut rng, s.opts.dialect);
        let ok = entry.ok;
        if let Some(r) = e.runs.iter_mut().rev().find(|r| r.uuid == run) {
            r.entries.push(entry);
        }
        if !ok || last {
            return;
        }
    }
}
