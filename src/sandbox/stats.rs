//! Statistics handlers: the run log, range stats, aggregated stats and
//! last-run stats, for tasks, pipelines and workflows.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::Dialect;
use super::aggregate::{Bucket, Period, buckets};
use super::dialect::{ZERO_TIME, log_time, metric_json, parse_datetime, parse_uuid, stats_time};
use super::rng::{Rng, Stream};
use super::state::{Shared, api_error};
use super::store::{Kind, Obs};

type Bad = Vec<String>;

fn bad_request(errors: Bad) -> Response {
    api_error(StatusCode::BAD_REQUEST, errors)
}

/// Parses a uuid and a from/to pair, collecting every problem.
fn range_params(
    uuid: &str,
    from: &str,
    to: &str,
) -> Result<(Uuid, DateTime<Utc>, DateTime<Utc>), Bad> {
    let (u, f, t) = (parse_uuid(uuid), parse_datetime(from), parse_datetime(to));
    match (u, f, t) {
        (Ok(u), Ok(f), Ok(t)) => Ok((u, f, t)),
        (u, f, t) => Err([u.err(), f.err(), t.err()].into_iter().flatten().collect()),
    }
}

/// GET /v1/stats/pipelines/{uuid}/logs/{from}/{to}
pub async fn logs(
    State(s): State<Arc<Shared>>,
    Path((uuid, from, to)): Path<(String, String, String)>,
) -> Response {
    let (uuid, from, to) = match range_params(&uuid, &from, &to) {
        Ok(p) => p,
        Err(e) => return bad_request(e),
    };
    let dialect = s.opts.dialect;
    let run_field = match dialect {
        Dialect::Spec => "workflow_run_uuid",
        Dialect::Ylem => "pipeline_run_uuid",
    };
    let store = s.store.read().unwrap();
    let body: Vec<Value> = store
        .log(uuid, from, to)
        .into_iter()
        .map(|e| {
            json!({
                run_field: e.run.to_string(),
                "task_uuid": e.task.to_string(),
                "task_type": e.task_type,
                "is_successful": e.ok,
                "duration": e.duration,
                "output": e.output(&s.codec),
                "metric_value": metric_json(dialect, e.metric),
                "executed_at": log_time(dialect, e.at),
            })
        })
        .collect();
    Json(body).into_response()
}

fn observations(s: &Shared, kind: Kind, uuid: Uuid) -> Vec<Obs> {
    s.store
        .read()
        .unwrap()
        .observations(kind, uuid, s.opts.dialect)
}

/// GET /v1/stats/{kind}/{uuid}/stats/{from}/{to}; see `Store::observations`
/// for what counts as a run.
pub async fn range(
    State(s): State<Arc<Shared>>,
    kind: Kind,
    Path((uuid, from, to)): Path<(String, String, String)>,
) -> Response {
    let (uuid, from, to) = match range_params(&uuid, &from, &to) {
        Ok(p) => p,
        Err(e) => return bad_request(e),
    };
    let obs: Vec<Obs> = observations(&s, kind, uuid)
        .into_iter()
        .filter(|o| o.at >= from && o.at <= to)
        .collect();
    let successes = obs.iter().filter(|o| o.ok).count();
    let total: u64 = obs.iter().map(|o| o.duration).sum();
    let last = obs.last();
    Json(json!({
        "num_of_successes": successes,
        "num_of_failures": obs.len() - successes,
        "average_duration": total.checked_div(obs.len() as u64).unwrap_or(0),
        "is_last_run_successful": last.is_some_and(|o| o.ok),
        "last_run_executed_at": last.map_or(ZERO_TIME.to_string(), |o| stats_time(o.at)),
        "last_run_duration": last.map_or(0, |o| o.duration),
    }))
    .into_response()
}

/// GET /v1/stats/{kind}/{uuid}/last-run/stats
pub async fn last_run(
    State(s): State<Arc<Shared>>,
    kind: Kind,
    Path(uuid): Path<String>,
) -> Response {
    let uuid = match parse_uuid(&uuid) {
        Ok(u) => u,
        Err(e) => return bad_request(vec![e]),
    };
    match observations(&s, kind, uuid).last() {
        Some(o) => Json(json!({
            "is_successful": o.ok,
            "executed_at": stats_time(o.at),
            "duration": o.duration,
        }))
        .into_response(),
        // The real server answers 403 for "never ran"; the spec reads as 404.
        None => match s.opts.dialect {
            Dialect::Ylem => api_error(StatusCode::FORBIDDEN, Vec::new()),
            Dialect::Spec => api_error(
                StatusCode::NOT_FOUND,
                vec![format!("no runs found for {uuid}")],
            ),
        },
    }
}

/// The spec takes a bare date (or a full date-time); ylem insists on the
/// date-time form.
fn date_from(dialect: Dialect, s: &str) -> Result<DateTime<Utc>, String> {
    if dialect == Dialect::Spec && s.len() == 10 {
        return parse_datetime(&format!("{s} 00:00:00"))
            .map_err(|_| format!("invalid date \"{s}\": want YYYY-MM-DD"));
    }
    parse_datetime(s)
}

fn periods(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if n > 0 && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(format!(
            "invalid number of periods \"{s}\": want a positive integer"
        )),
    }
}

/// GET /v1/stats/{kind}/{uuid}/aggregated-stats/{date_from}/{period}/{n}
pub async fn aggregated(
    State(s): State<Arc<Shared>>,
    kind: Kind,
    Path(p): Path<(String, String, String, String)>,
) -> Response {
    let dialect = s.opts.dialect;
    let parsed = (
        parse_uuid(&p.0),
        date_from(dialect, &p.1),
        Period::parse(&p.2),
        periods(&p.3),
    );
    let (uuid, from, period, n) = match parsed {
        (Ok(u), Ok(f), Ok(per), Ok(n)) => (u, f, per, n),
        (u, f, per, n) => {
            return bad_request(
                [u.err(), f.err(), per.err(), n.err()]
                    .into_iter()
                    .flatten()
                    .collect(),
            );
        }
    };
    let obs = observations(&s, kind, uuid);
    let result = dialect_buckets(dialect, &obs, period, from, n);
    let mut body: Vec<Value> = result.iter().map(bucket_json).collect();
    if dialect == Dialect::Ylem {
        if body.is_empty() {
            return Json(Value::Null).into_response();
        }
        // Order is unspecified on the real server; shuffle reproducibly.
        Rng::stream(s.opts.seed, Stream::Shuffle, u64::from(n)).shuffle(&mut body);
    }
    Json(body).into_response()
}

/// Data counts from `from` for `n` periods. The spec's buckets start at
/// `from`; ylem groups by calendar period, so an unaligned start yields one
/// extra, partly covered bucket.
fn dialect_buckets(
    dialect: Dialect,
    obs: &[Obs],
    period: Period,
    from: DateTime<Utc>,
    n: u32,
) -> Vec<Bucket> {
    let hi = period.add(from, n).unwrap_or(DateTime::<Utc>::MAX_UTC) - Duration::seconds(1);
    match dialect {
        Dialect::Spec => buckets(obs, period, from, n, from, hi),
        Dialect::Ylem => {
            let start = period.floor(from);
            let count = if start == from {
                n
            } else {
                n.saturating_add(1)
            };
            buckets(obs, period, start, count, from, hi)
        }
    }
}

fn bucket_json(b: &Bucket) -> Value {
    json!({
        "date_from": stats_time(b.from),
        "date_to": stats_time(b.to),
        "num_of_successes": b.successes,
        "num_of_failures": b.failures,
        "average_duration": b.average,
    })
}
