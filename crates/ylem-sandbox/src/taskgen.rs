//! Task types' profiles (typical durations, names) and one executed task run:
//! its duration, metric and the output it reports.

use std::sync::OnceLock;

use chrono::{DateTime, Utc};

use super::dialect::stamp;
use super::options::Dialect;
use super::rng::Rng;
use super::store::{Entry, TaskDef};
use super::trigger;

/// (typical duration range in ms, name nouns). A query or a GPT call can take
/// many times longer than a condition or a notification.
pub fn profile(task_type: &str) -> (f64, f64, &'static [&'static str]) {
    match task_type {
        "query" => (
            800.0,
            4000.0,
            &["orders", "customers", "inventory", "events"],
        ),
        "condition" => (2.0, 40.0, &["has-rows", "over-threshold", "is-weekday"]),
        "aggregator" => (100.0, 2500.0, &["daily-totals", "by-region", "by-product"]),
        "transformer" => (20.0, 600.0, &["normalise", "reshape", "enrich"]),
        "notification" => (80.0, 900.0, &["slack", "email", "pagerduty"]),
        "api_call" => (120.0, 2500.0, &["crm", "billing", "webhook"]),
        "for_each" => (10.0, 300.0, &["row", "account", "order"]),
        "merge" => (10.0, 200.0, &["branches", "results"]),
        "filter" => (5.0, 150.0, &["active", "recent", "failed"]),
        "run_pipeline" => (1000.0, 6000.0, &["child-export", "child-cleanup"]),
        "external_trigger" => (5.0, 60.0, &["webhook", "schedule"]),
        "code" => (30.0, 1200.0, &["score", "dedupe", "validate"]),
        "gpt" => (1500.0, 6000.0, &["summarise", "classify"]),
        _ => (50.0, 1500.0, &["batch", "stream"]),
    }
}

pub fn task(rng: &mut Rng, task_type: &'static str) -> TaskDef {
    let (lo, hi, nouns) = profile(task_type);
    let uuid = rng.uuid();
    let name = format!("{}-{}", task_type.replace('_', "-"), rng.pick(nouns));
    let test_data = match task_type {
        trigger::TRIGGER => trigger::test_data(&name),
        _ => String::new(),
    };
    TaskDef {
        uuid,
        name,
        task_type,
        success_rate: rng.uniform(0.88, 0.995),
        base_ms: rng.uniform(lo, hi),
        metric: Some(rng.uniform(50.0, 1500.0)),
        test_data,
    }
}

/// One task run with a known outcome. Only aggregator tasks of metric
/// pipelines report a metric (and then no output), as on the real server.
pub fn execute(
    task: &TaskDef,
    run: uuid::Uuid,
    at: DateTime<Utc>,
    ok: bool,
    metric_pipeline: bool,
    rng: &mut Rng,
    dialect: Dialect,
) -> Entry {
    let duration = (task.base_ms * rng.uniform(0.5, 1.8)).max(1.0) as u64;
    let metric_task = metric_pipeline && task.task_type == "aggregator";
    let metric = match (ok && metric_task, task.metric) {
        (true, Some(m)) => metric_value(m * rng.uniform(0.6, 1.4), dialect, rng),
        _ => 0.0,
    };
    let plain = if metric_task && ok {
        String::new()
    } else {
        output(task.task_type, ok, rng)
    };
    let mut nonce = [0u8; 12];
    rng.fill(&mut nonce);
    Entry {
        run,
        task: task.uuid,
        task_type: task.task_type,
        ok,
        duration,
        plain,
        nonce,
        encoded: OnceLock::new(),
        metric,
        at: stamp(dialect, at),
    }
}

/// Ylem's metrics are float64 and some come out fractional (like `1.5`).
fn metric_value(raw: f64, dialect: Dialect, rng: &mut Rng) -> f64 {
    // Draw in both dialects so that they share the same seeded history.
    let fractional = rng.chance(0.3);
    if dialect == Dialect::Ylem && fractional {
        raw.floor() + 0.5
    } else {
        raw.round()
    }
}

/// A small JSON output; a failed task's is the server's errors array.
fn output(task_type: &str, ok: bool, rng: &mut Rng) -> String {
    if !ok {
        // Two draws, whatever the type, so the seeded history stays put.
        let (code, why) = *rng.pick(failures(task_type));
        let severity = rng.pick(&["high", "critical"]);
        let errors = serde_json::json!([{"Code": code, "Severity": severity, "Message": why}]);
        return errors.to_string();
    }
    if rng.chance(0.1) {
        return String::new();
    }
    match task_type {
        "query" | "filter" | "aggregator" => {
            format!(r#"{{"rows":{},"status":"ok"}}"#, rng.range(0, 5000))
        }
        "notification" => r#"{"delivered":true,"status":"ok"}"#.to_string(),
        "condition" => format!(r#"{{"result":{},"status":"ok"}}"#, rng.chance(0.7)),
        _ => format!(r#"{{"items":{},"status":"ok"}}"#, rng.range(1, 500)),
    }
}

/// What makes a task of each type fail, as its errors array would say it:
/// the messages an operator meets, so the captures show something real.
fn failures(task_type: &str) -> &'static [(u32, &'static str)] {
    match task_type {
        "query" => &[
            (
                1146,
                "SQL error 1146: Table 'shop.orders_archive' doesn't exist",
            ),
            (
                1054,
                "SQL error 1054: Unknown column 'region_id' in 'where clause'",
            ),
            (
                2013,
                "Lost connection to MySQL server during query (read timeout 30s)",
            ),
            (
                1045,
                "Access denied for user 'ylem_reader'@'10.0.4.12' (using password: YES)",
            ),
        ],
        "api_call" => &[
            (
                502,
                "HTTP 502 Bad Gateway from https://api.example-crm.com/v2/contacts",
            ),
            (
                429,
                "HTTP 429 Too Many Requests from https://billing.example.com/api/invoices (retry after 60s)",
            ),
            (
                401,
                "HTTP 401 Unauthorized from https://hooks.example.com/ingest: token expired",
            ),
            (
                408,
                "request to https://api.example-crm.com/v2/deals timed out after 30s",
            ),
        ],
        "notification" => &[
            (4029, "quota exceeded"),
            (4031, "Slack: channel_not_found (#ops-alerts)"),
            (
                4004,
                "SMTP 550 5.1.1 recipient rejected: finance-team@example.com",
            ),
            (4029, "PagerDuty: rate limit exceeded for integration key"),
        ],
        "gpt" => &[
            (
                4290,
                "OpenAI: rate limit reached for gpt-4o (tokens per minute)",
            ),
            (
                4000,
                "prompt too long: 131072 tokens, the model allows 128000",
            ),
        ],
        "code" | "transformer" | "processor" => &[
            (5001, "KeyError: 'amount' at line 14"),
            (
                5002,
                "TypeError: unsupported operand type(s) for +: 'int' and 'NoneType'",
            ),
            (5003, "execution exceeded the 60s limit"),
        ],
        "run_pipeline" => &[
            (4040, "child pipeline is paused"),
            (5000, "child pipeline run failed"),
        ],
        "condition" | "filter" => &[
            (4220, "expression error: unknown field 'total_amount'"),
            (4221, "cannot compare string with number: \"N/A\" > 100"),
        ],
        "aggregator" => &[
            (4222, "aggregation over empty input: no rows to aggregate"),
            (4223, "field 'revenue' is not numeric"),
        ],
        _ => &[
            (4001, "timeout"),
            (4002, "connection refused"),
            (4003, "invalid response"),
        ],
    }
}
