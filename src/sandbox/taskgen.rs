//! Task types' profiles (typical durations, names) and one executed task run:
//! its duration, metric and the output it reports.

use std::sync::OnceLock;

use chrono::{DateTime, Utc};

use super::Dialect;
use super::dialect::stamp;
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
        let (code, why) = *rng.pick(&[
            (4001, "timeout"),
            (4002, "connection refused"),
            (4003, "invalid response"),
            (4029, "quota exceeded"),
        ]);
        let severity = rng.pick(&["high", "critical"]);
        return format!(r#"[{{"Code":{code},"Severity":"{severity}","Message":"{why}"}}]"#);
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
