//! Statistics handlers: the run log, range stats and last-run stats, for
//! tasks, pipelines and workflows. Counting follows the dialect: the spec's
//! per-run reading, or the open-source server's queries (`counting`).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::counting::{self, Counts, Last, Unit};
use super::dialect::{ZERO_TIME, log_time, metric_json, parse_datetime, parse_uuid, stats_time};
use super::options::Dialect;
use super::state::{Shared, api_error, bad_request, forbidden};
use super::store::Row;
use super::store::{Kind, Obs};
use super::sync;

type Bad = Vec<String>;

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

/// GET /v1/stats/pipelines/{uuid}/logs/{from}/{to}: every entry of each run
/// with an entry in the window, newest first. The body is built whole before
/// the first byte is sent, as the server does.
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
    let store = sync::read(&s.store);
    let (entries, foreign) = store.log(uuid, from, to);
    if foreign && !entries.is_empty() {
        return forbidden();
    }
    let body: Vec<Value> = entries
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

/// The spec dialect's counts: one observation per task run or per run.
fn spec_counts(obs: &[&Obs]) -> Counts {
    let successes = obs.iter().filter(|o| o.ok).count();
    let total: u64 = obs.iter().map(|o| o.duration).sum();
    Counts {
        successes: successes as i64,
        failures: (obs.len() - successes) as i64,
        average: total.checked_div(obs.len() as u64).unwrap_or(0),
    }
}

fn spec_last(s: &Shared, kind: Kind, uuid: Uuid, to: DateTime<Utc>) -> Option<Last> {
    let obs = sync::read(&s.store).observations(kind, uuid);
    obs.iter().rev().find(|o| o.at <= to).map(|o| Last {
        ok: o.ok,
        at: o.at,
        duration: o.duration,
    })
}

/// GET /v1/stats/{kind}/{uuid}/stats/{from}/{to}: counts over the range;
/// `last_run_*` describe the last run at or before `to`.
pub async fn range(
    State(s): State<Arc<Shared>>,
    kind: Kind,
    Path((uuid, from, to)): Path<(String, String, String)>,
) -> Response {
    let (uuid, from, to) = match range_params(&uuid, &from, &to) {
        Ok(p) => p,
        Err(e) => return bad_request(e),
    };
    let all = s.rows(kind, uuid);
    let inside: Vec<&Row> = all.iter().filter(|r| r.at >= from && r.at <= to).collect();
    if inside.iter().any(|r| r.foreign) {
        return forbidden();
    }
    let (counts, last) = match s.opts.dialect {
        Dialect::Ylem => (
            counting::counts(Unit::of(kind), &inside),
            counting::last(Unit::of(kind), &all, to),
        ),
        Dialect::Spec => {
            let obs = sync::read(&s.store).observations(kind, uuid);
            let obs: Vec<&Obs> = obs.iter().filter(|o| o.at >= from && o.at <= to).collect();
            (spec_counts(&obs), spec_last(&s, kind, uuid, to))
        }
    };
    Json(json!({
        "num_of_successes": counts.successes,
        "num_of_failures": counts.failures,
        "average_duration": counts.average,
        "is_last_run_successful": last.as_ref().is_some_and(|l| l.ok),
        "last_run_executed_at": last.as_ref().map_or(ZERO_TIME.to_string(), |l| stats_time(l.at)),
        "last_run_duration": last.as_ref().map_or(0, |l| l.duration),
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
    let all = s.rows(kind, uuid);
    if all.iter().any(|r| r.foreign) {
        return forbidden();
    }
    let now = Utc::now();
    let last = match s.opts.dialect {
        Dialect::Ylem => counting::last(Unit::of(kind), &all, now),
        Dialect::Spec => spec_last(&s, kind, uuid, now),
    };
    match last {
        Some(l) => Json(json!({
            "is_successful": l.ok,
            "executed_at": stats_time(l.at),
            "duration": l.duration,
        }))
        .into_response(),
        // The real server's permission check fails on the empty result: 403
        // for never ran, unknown and other kind alike. The spec reads as 404.
        None => match s.opts.dialect {
            Dialect::Ylem => forbidden(),
            Dialect::Spec => api_error(
                StatusCode::NOT_FOUND,
                vec![format!("no runs found for {uuid}")],
            ),
        },
    }
}
