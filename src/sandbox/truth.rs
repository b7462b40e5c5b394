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

/// `{"run","pipeline","tasks","reported","finished","is_successful",
/// "input_bytes"}`; `is_successful` is the outcome the run has (or will
/// have) when finished, `input_bytes` the size of the body it was started
/// with (0 for none).
pub async fn run(State(s): State<Arc<Shared>>, Path(raw): Path<String>) -> Response {
    let Ok(uuid) = Uuid::parse_str(&raw) else {
        return not_found_text();
    };
    let store = s.store.read().unwrap();
    let Some((entity, run)) = store.run(uuid) else {
        return not_found_text();
    };
    Json(json!({
        "run": run.uuid.to_string(),
        "pipeline": entity.def.uuid.to_string(),
        "tasks": run.size,
        "reported": run.entries.len(),
        "finished": run.finished(),
        "is_successful": run.ok,
        "input_bytes": run.input.len(),
    }))
    .into_response()
}
