//! The route table (with the scope that guards each authenticated route) and
//! the outer middleware (request counting, latency, injected faults, `//`
//! redirects, a skewed `Date`): routing only, above the handlers.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state, map_response_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::options::{Dialect, Scope};
use super::rng::Rng;
use super::state::{Shared, St, api_error, not_found_text};
use super::store::{Family, Kind};
use super::sync;
use super::{aggregated, auth, runs, stats, truth};

pub fn router(state: Arc<Shared>) -> Router {
    let dialect = state.opts.dialect;
    // What guards a route: its scope, checked after the bearer (enforced
    // only when the options list the scopes tokens grant).
    let guard = |scope: Scope| from_fn_with_state((state.clone(), scope), auth::require_scope);
    let mut api: Router<Arc<Shared>> = Router::new()
        .route(
            "/v1/pipelines/{uuid}/runs/",
            post(|s: St, p: Path<String>, b: Bytes| runs::start(s, Family::Pipeline, p, b))
                // The real server reads a run's input whole, whatever its size.
                .layer(DefaultBodyLimit::disable())
                .route_layer(guard(Scope::PipelinesRun)),
        )
        .route(
            "/v1/stats/pipelines/{uuid}/logs/{from}/{to}",
            get(stats::logs).route_layer(guard(Scope::StatsRead)),
        );
    let mut kinds = vec![Kind::Tasks, Kind::Pipelines];
    // The open-source server routes no workflow paths at all.
    if dialect == Dialect::Spec {
        kinds.push(Kind::Workflows);
        api = api.route(
            "/v1/workflows/{uuid}/runs/",
            post(|s: St, p: Path<String>, b: Bytes| runs::start(s, Family::Workflow, p, b))
                .layer(DefaultBodyLimit::disable())
                .route_layer(guard(Scope::WorkflowsRun)),
        );
    }
    for kind in kinds {
        let base = format!("/v1/stats/{}/{{uuid}}", kind_segment(kind));
        api = api
            .route(
                &format!("{base}/stats/{{from}}/{{to}}"),
                get(move |s: St, p: Path<(String, String, String)>| stats::range(s, kind, p))
                    .route_layer(guard(Scope::StatsRead)),
            )
            .route(
                &format!("{base}/aggregated-stats/{{from}}/{{period}}/{{n}}"),
                get(move |s: St, p: Path<(String, String, String, String)>| {
                    aggregated::aggregated(s, kind, p)
                })
                .route_layer(guard(Scope::StatsRead)),
            )
            .route(
                &format!("{base}/last-run/stats"),
                get(move |s: St, p: Path<String>| stats::last_run(s, kind, p))
                    .route_layer(guard(Scope::StatsRead)),
            );
    }
    let api = api.route_layer(from_fn_with_state(state.clone(), auth::require_bearer));
    let inner = Router::new()
        .route("/v1/oauth/token", get(auth::token).post(auth::token))
        .route("/_sandbox/runs/{run}", get(truth::run))
        .route("/_sandbox/requests", get(truth::requests))
        .merge(api)
        .fallback(|| async { not_found_text() })
        .with_state(state.clone());
    // As a fallback service the whole inner router sits behind the layer, so
    // the faults run before routing (and before 404/405).
    // The skewed Date is the outermost layer: every response carries it,
    // faults, redirects and 404s included.
    Router::new()
        .fallback_service(inner)
        .layer(from_fn_with_state(state.clone(), outer))
        .layer(map_response_with_state(state, skewed_date))
}

/// `Date` off the true time by `clock_skew`, in HTTP's IMF-fixdate form.
/// Without a skew the header is left to the HTTP server (hyper writes the
/// true time into a response that has none).
async fn skewed_date(State(s): St, mut resp: Response) -> Response {
    if s.opts.clock_skew.is_zero() {
        return resp;
    }
    let now = chrono::Utc::now();
    let at = now.checked_add_signed(s.opts.clock_skew).unwrap_or(now);
    let date = at.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
    if let Ok(v) = HeaderValue::from_str(&date) {
        resp.headers_mut().insert(header::DATE, v);
    }
    resp
}

/// A request as the log keeps it: `METHOD /path`, and the names of its
/// query parameters (`?grant_type&client_id`), never their values, so that
/// a test sees a secret sent in a URL without the log holding it.
fn logged(method: &axum::http::Method, path: &str, query: Option<&str>) -> String {
    let names: Vec<String> = form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .map(|(k, _)| k.into_owned())
        .collect();
    match names.is_empty() {
        true => format!("{method} {path}"),
        false => format!("{method} {path}?{}", names.join("&")),
    }
}

fn kind_segment(kind: Kind) -> &'static str {
    match kind {
        Kind::Tasks => "tasks",
        Kind::Pipelines => "pipelines",
        Kind::Workflows => "workflows",
    }
}

/// Runs first for every request: count it, wait the latency, maybe answer
/// with an injected failure (so a failed run start never starts a run), then
/// collapse `//`. The ground-truth path is exempt from all of it.
async fn outer(State(s): St, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    if path.starts_with("/_sandbox/") {
        return next.run(req).await;
    }
    s.requests.fetch_add(1, Ordering::SeqCst);
    {
        let mut log = sync::lock(&s.request_log);
        if log.len() >= truth::REQUEST_LOG_LEN {
            log.pop_front();
        }
        log.push_back(logged(req.method(), path, req.uri().query()));
    }
    if path == "/v1/oauth/token" {
        s.token_requests.fetch_add(1, Ordering::SeqCst);
    }
    if !s.opts.latency.is_zero() {
        tokio::time::sleep(s.opts.latency).await;
    }
    if s.opts.fail_rate > 0.0 {
        let mut rng = sync::lock(&s.faults);
        if rng.chance(s.opts.fail_rate) {
            return fault(&s, &mut rng, req.uri().path());
        }
    }
    if req.uri().path().contains("//") {
        return redirect_clean(&req);
    }
    next.run(req).await
}

/// The spec dialect answers 503. The real gateway also answers 500 with a
/// JSON body when a statistics or pipelines service fails, so ylem mixes
/// 500 in on those paths with 502-504.
fn fault(s: &Shared, rng: &mut Rng, path: &str) -> Response {
    let upstream = path.starts_with("/v1/stats/") || path.ends_with("/runs/");
    let status = match s.opts.dialect {
        Dialect::Spec => StatusCode::SERVICE_UNAVAILABLE,
        Dialect::Ylem if upstream && rng.chance(0.5) => {
            let body = serde_json::json!({"code": 500, "message": "Internal error"});
            return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(body)).into_response();
        }
        Dialect::Ylem => *rng.pick(&[
            StatusCode::BAD_GATEWAY,
            StatusCode::SERVICE_UNAVAILABLE,
            StatusCode::GATEWAY_TIMEOUT,
        ]),
    };
    api_error(status, Vec::new())
}

/// Go's ServeMux answers an unclean path with 301 to the cleaned one.
fn redirect_clean(req: &Request) -> Response {
    let mut path = req.uri().path().to_string();
    while path.contains("//") {
        path = path.replace("//", "/");
    }
    if let Some(q) = req.uri().query() {
        path = format!("{path}?{q}");
    }
    let mut resp = StatusCode::MOVED_PERMANENTLY.into_response();
    if let Ok(v) = HeaderValue::from_str(&path) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    resp
}
