//! Ground truth off the API's paths: `GET /_sandbox/runs/<run>` tells tests
//! a run's real size, outcome and whether it has finished, so what a client
//! concluded can be checked. Sandbox-only: no real server has it.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use uuid::Uuid;

use super::state::{Shared, not_found_text};
use super::sync;

/// `{"run","pipeline","tasks","reported","finished","is_successful",
/// "input_bytes","failed","entries","duration","elapsed","started"}`; `is_successful` is the
/// outcome the run has (or will have) when finished, `input_bytes` the size
/// of the body it was started with (0 for none); `failed` lists the failed
/// task entries reported so far, oldest first, with their plain outputs
/// (`errors`: the errors array, parsed); `entries` every reported entry in
/// the order the tasks ran (`task_uuid`, `task_type`, `is_successful`,
/// `duration` in ms, `executed_at` when it ended); `duration` is the sum of the
/// reported entries' durations (ms) and `elapsed` the wall clock from the
/// first task's start (`executed_at - duration`) to the last task's end, as
/// the log shows them (null before the first entry), `started` that first
/// task's start (RFC 3339, UTC; null before the first entry).
pub async fn run(State(s): State<Arc<Shared>>, Path(raw): Path<String>) -> Response {
    let Ok(uuid) = Uuid::parse_str(&raw) else {
        return not_found_text();
    };
    let store = sync::read(&s.store);
    let Some((entity, run)) = store.run(uuid) else {
        return not_found_text();
    };
    let duration: u64 = run.entries.iter().map(|e| e.duration).sum();
    let start = run
        .entries
        .iter()
        .map(|e| e.at - chrono::Duration::milliseconds(e.duration as i64))
        .min();
    let end = run.entries.iter().map(|e| e.at).max();
    let elapsed = start.zip(end).map(|(s, e)| (e - s).num_milliseconds());
    Json(json!({
        "run": run.uuid.to_string(),
        "duration": duration,
        "elapsed": elapsed,
        "started": start.map(|s| s.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)),
        "pipeline": entity.def.uuid.to_string(),
        "tasks": run.size,
        "reported": run.entries.len(),
        "finished": run.finished(),
        "is_successful": run.ok,
        "input_bytes": run.input.len(),
        "failed": run.entries.iter().filter(|e| !e.ok).map(|e| json!({
            "task_uuid": e.task.to_string(),
            "task_type": e.task_type,
            "errors": serde_json::from_str::<serde_json::Value>(&e.plain)
                .unwrap_or(serde_json::Value::Null),
        })).collect::<Vec<_>>(),
        "entries": run.entries.iter().map(|e| json!({
            "task_uuid": e.task.to_string(),
            "task_type": e.task_type,
            "is_successful": e.ok,
            "duration": e.duration,
            "executed_at": e.at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true),
        })).collect::<Vec<_>>(),
    }))
    .into_response()
}

/// How many requests `GET /_sandbox/requests` keeps, the oldest dropped.
pub const REQUEST_LOG_LEN: usize = 1000;

/// `GET /_sandbox/requests`: the latest API requests, oldest first, as
/// `METHOD /path`, with the names of any query parameters but never their
/// values (`POST /v1/oauth/token?grant_type&client_id&client_secret`), so
/// tests can assert what was asked, and that no secret was in a URL.
pub async fn requests(State(s): State<Arc<Shared>>) -> Response {
    let log: Vec<String> = sync::lock(&s.request_log).iter().cloned().collect();
    Json(json!(log)).into_response()
}
