//! The aggregated-stats handler: the spec's N buckets from `date_from`, or
//! the open-source server's calendar buckets with its validation messages.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use super::aggregate::{Bucket, Period, buckets};
use super::counting::{self, Unit};
use super::dialect::{parse_datetime, parse_uuid, stats_time};
use super::options::Dialect;
use super::rng::{Rng, Stream};
use super::state::{Shared, bad_request, forbidden};
use super::store::Kind;
use super::store::Row;
use super::sync;

type Params = (String, String, String, String);

/// GET /v1/stats/{kind}/{uuid}/aggregated-stats/{date_from}/{period}/{n}
pub async fn aggregated(
    State(s): State<Arc<Shared>>,
    kind: Kind,
    Path(p): Path<Params>,
) -> Response {
    match s.opts.dialect {
        Dialect::Spec => spec(&s, kind, &p),
        Dialect::Ylem => ylem(&s, kind, &p),
    }
}

/// A lowercase version-4 UUID, as govalidator's `IsUUIDv4` accepts.
fn is_uuid_v4(s: &str) -> bool {
    let b = s.as_bytes();
    let hex = |c: &u8| c.is_ascii_digit() || (b'a'..=b'f').contains(c);
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            14 => *c == b'4',
            19 => matches!(c, b'8' | b'9' | b'a' | b'b'),
            _ => hex(c),
        })
}

/// Validated as the server does (ozzo-validation's messages, in its order);
/// a count of 0 or one too large for 32 bits finds nothing: `null`.
fn ylem(s: &Shared, kind: Kind, p: &Params) -> Response {
    let mut errors = Vec::new();
    if !is_uuid_v4(&p.0) {
        errors.push("must be a valid UUID v4".to_string());
    }
    let period = Period::parse(&p.2).ok();
    if period.is_none() {
        errors.push("must be a valid value".to_string());
    }
    if p.3.is_empty() || !p.3.bytes().all(|b| b.is_ascii_digit()) {
        errors.push("must contain digits only".to_string());
    }
    let from = parse_datetime(&p.1).map_err(|e| errors.push(e)).ok();
    let (Some(period), Some(from), true) = (period, from, errors.is_empty()) else {
        return bad_request(errors);
    };
    let n: u32 = p.3.parse().unwrap_or(0);
    let uuid = parse_uuid(&p.0).expect("validated above");
    let all: Vec<Row> = s.rows(kind, uuid);
    let result = counting::buckets(Unit::of(kind), &all, from, period, n);
    if result.is_empty() {
        return Json(Value::Null).into_response();
    }
    if all.iter().any(|r| r.foreign) {
        return forbidden();
    }
    let mut body: Vec<Value> = result
        .iter()
        .map(|b| {
            bucket_json(
                b.from,
                b.to,
                b.counts.successes,
                b.counts.failures,
                b.counts.average,
            )
        })
        .collect();
    // Order is unspecified on the real server; shuffle reproducibly.
    Rng::stream(s.opts.seed, Stream::Shuffle, u64::from(n)).shuffle(&mut body);
    Json(body).into_response()
}

/// The spec takes a bare date (or a full date-time).
fn date_from(s: &str) -> Result<DateTime<Utc>, String> {
    if s.len() == 10 {
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

/// The spec's reading: N buckets of one period each, starting at `date_from`.
fn spec(s: &Shared, kind: Kind, p: &Params) -> Response {
    let parsed = (
        parse_uuid(&p.0),
        date_from(&p.1),
        Period::parse(&p.2),
        periods(&p.3),
    );
    let (uuid, from, period, n) = match parsed {
        (Ok(u), Ok(f), Ok(per), Ok(n)) => (u, f, per, n),
        (u, f, per, n) => {
            let errors = [u.err(), f.err(), per.err(), n.err()];
            return bad_request(errors.into_iter().flatten().collect());
        }
    };
    let store = sync::read(&s.store);
    let obs = store.observations(kind, uuid);
    let hi = period.add(from, n).unwrap_or(DateTime::<Utc>::MAX_UTC) - Duration::seconds(1);
    let result: Vec<Bucket> = buckets(&obs, period, from, n, from, hi);
    if !result.is_empty() && store.rows(kind, uuid).iter().any(|r| r.foreign) {
        return forbidden();
    }
    let body: Vec<Value> = result
        .iter()
        .map(|b| {
            bucket_json(
                b.from,
                b.to,
                b.successes as i64,
                b.failures as i64,
                b.average,
            )
        })
        .collect();
    Json(body).into_response()
}

fn bucket_json(from: DateTime<Utc>, to: DateTime<Utc>, ok: i64, failed: i64, avg: u64) -> Value {
    json!({
        "date_from": stats_time(from),
        "date_to": stats_time(to),
        "num_of_successes": ok,
        "num_of_failures": failed,
        "average_duration": avg,
    })
}
