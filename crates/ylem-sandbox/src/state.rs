//! Shared state of the running sandbox and the response shapes every handler
//! uses (the stats error body, Go's plain-text 404). Handlers sit above this
//! file; the router sits above the handlers.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock};

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::task::AbortHandle;
use uuid::Uuid;

use super::dialect::Codec;
use super::options::Options;
use super::rng::Rng;
use super::store::Row;
use super::store::{Kind, Store};
use super::sync;
use super::tokens::Tokens;

pub struct Shared {
    pub opts: Options,
    pub store: RwLock<Store>,
    pub codec: Codec,
    pub tokens: Mutex<Tokens>,
    pub faults: Mutex<Rng>,
    pub client_id: Uuid,
    pub client_secret: String,
    pub requests: AtomicU64,
    pub token_requests: AtomicU64,
    /// The latest API requests (`METHOD /path` and the query's names, never
    /// its values: a token request's may hold the secret), for tests that
    /// assert what was asked.
    pub request_log: Mutex<std::collections::VecDeque<String>>,
    pub run_seq: AtomicU64,
    pub record_id: AtomicU64,
    /// Simulations of started runs, aborted on shutdown.
    pub sims: Mutex<Vec<AbortHandle>>,
}

impl Shared {
    /// The statistics table's task rows of a task or pipeline.
    pub fn rows(&self, kind: Kind, uuid: Uuid) -> Vec<Row> {
        sync::read(&self.store).rows(kind, uuid)
    }
}

/// The extractor every handler takes.
pub type St = State<Arc<Shared>>;

/// `{"code":N,"message":"<reason>","errors":[...]}`, the stats error shape;
/// the `errors` key is left out when there are none (Go's `omitempty`).
pub fn api_error(status: StatusCode, errors: Vec<String>) -> Response {
    let mut body = json!({
        "code": status.as_u16(),
        "message": status.canonical_reason().unwrap_or(""),
    });
    if !errors.is_empty() {
        body["errors"] = json!(errors);
    }
    (status, axum::Json(body)).into_response()
}

/// A 400 listing every problem with the request's parameters.
pub fn bad_request(errors: Vec<String>) -> Response {
    api_error(StatusCode::BAD_REQUEST, errors)
}

/// 403 with no `errors`: the server's answer when its organisation check
/// fails, which it makes only when a query found rows.
pub fn forbidden() -> Response {
    api_error(StatusCode::FORBIDDEN, Vec::new())
}

/// Go's `http.NotFound`.
pub fn not_found_text() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "404 page not found\n",
    )
        .into_response()
}
