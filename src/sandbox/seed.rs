//! Builds the seeded catalogue (pipelines, workflows, tasks) and its 90 days
//! of run history. Everything here derives from the seed and the anchor time.

use std::sync::OnceLock;

use chrono::{DateTime, Duration, Utc};

use super::Dialect;
use super::dialect::stamp;
use super::rng::{Rng, Stream};
use super::store::{Behaviour, EntityData, EntityDef, Entry, Family, Run, TaskDef};

const PIPELINE_NAMES: &[&str] = &[
    "nightly-orders-sync",
    "hourly-inventory-refresh",
    "customer-churn-alerts",
    "daily-revenue-rollup",
    "payment-anomaly-check",
    "stock-level-monitor",
    "crm-contacts-import",
];
const WORKFLOW_NAMES: &[&str] = &[
    "weekly-marketing-digest",
    "support-ticket-triage",
    "ad-spend-aggregation",
    "invoice-reminders",
    "warehouse-export",
];
/// Task chains that look like real pipelines; the first two have 3+ tasks so
/// the reliable and flaky pipelines have something to show.
const TEMPLATES: &[&[&str]] = &[
    &["query", "filter", "aggregator", "notification"],
    &["query", "transformer", "api_call"],
    &["external_trigger", "code", "merge", "query", "notification"],
    &["query", "condition", "gpt", "notification"],
    &[
        "api_call",
        "processor",
        "for_each",
        "run_pipeline",
        "filter",
        "notification",
    ],
    &["query", "aggregator"],
    &[
        "query",
        "for_each",
        "api_call",
        "merge",
        "transformer",
        "notification",
    ],
    &["external_trigger", "transformer", "query"],
];
const HISTORY_DAYS: i64 = 90;

/// (type, typical duration range in ms, typical metric or 0 for none, name nouns)
fn profile(task_type: &str) -> (f64, f64, f64, &'static [&'static str]) {
    match task_type {
        "query" => (
            150.0,
            4000.0,
            1200.0,
            &["orders", "customers", "inventory", "events"],
        ),
        "condition" => (
            2.0,
            40.0,
            0.0,
            &["has-rows", "over-threshold", "is-weekday"],
        ),
        "aggregator" => (
            100.0,
            2500.0,
            350.0,
            &["daily-totals", "by-region", "by-product"],
        ),
        "transformer" => (20.0, 600.0, 0.0, &["normalise", "reshape", "enrich"]),
        "notification" => (80.0, 900.0, 0.0, &["slack", "email", "pagerduty"]),
        "api_call" => (120.0, 2500.0, 0.0, &["crm", "billing", "webhook"]),
        "for_each" => (200.0, 3000.0, 40.0, &["row", "account", "order"]),
        "merge" => (10.0, 200.0, 0.0, &["branches", "results"]),
        "filter" => (5.0, 150.0, 80.0, &["active", "recent", "failed"]),
        "run_pipeline" => (1000.0, 8000.0, 0.0, &["child-export", "child-cleanup"]),
        "external_trigger" => (5.0, 60.0, 0.0, &["webhook", "schedule"]),
        "code" => (30.0, 1200.0, 12.0, &["score", "dedupe", "validate"]),
        "gpt" => (1500.0, 9000.0, 0.0, &["summarise", "classify"]),
        _ => (50.0, 1500.0, 25.0, &["batch", "stream"]),
    }
}

/// Entities in order: 4 pipelines, then 3 workflows.
pub fn catalogue(seed: u64) -> Vec<EntityDef> {
    let mut rng = Rng::stream(seed, Stream::Catalogue, 0);
    let mut pnames = PIPELINE_NAMES.to_vec();
    let mut wnames = WORKFLOW_NAMES.to_vec();
    rng.shuffle(&mut pnames);
    rng.shuffle(&mut wnames);
    let mut templates: Vec<&[&str]> = TEMPLATES.to_vec();
    rng.shuffle(&mut templates[2..]);
    let mut out = Vec::new();
    for i in 0..7 {
        let (family, name) = match i {
            0..4 => (Family::Pipeline, pnames[i]),
            _ => (Family::Workflow, wnames[i - 4]),
        };
        let behaviour = match i {
            0 => Behaviour::Reliable,
            1 => Behaviour::Flaky,
            _ => Behaviour::Normal,
        };
        let tasks = templates[i].iter().map(|t| task(&mut rng, t)).collect();
        out.push(EntityDef {
            uuid: rng.uuid(),
            name: name.to_string(),
            family,
            behaviour,
            tasks,
        });
    }
    if let Some(last) = out[1].tasks.last_mut() {
        // The flaky pipeline's history fails about 30% of its runs too.
        last.success_rate = 0.7;
    }
    out
}

fn task(rng: &mut Rng, task_type: &'static str) -> TaskDef {
    let (lo, hi, metric, nouns) = profile(task_type);
    TaskDef {
        uuid: rng.uuid(),
        name: format!("{}-{}", task_type.replace('_', "-"), rng.pick(nouns)),
        task_type,
        success_rate: rng.uniform(0.88, 0.995),
        base_ms: rng.uniform(lo, hi),
        metric: (metric > 0.0).then(|| metric * rng.uniform(0.5, 1.5)),
    }
}

/// Runs every few hours (interval varies by entity) over the 90 days before
/// `anchor`; each run executes its tasks in order and stops at a failure.
pub fn history(
    def: &EntityDef,
    idx: u64,
    seed: u64,
    anchor: DateTime<Utc>,
    dialect: Dialect,
) -> Vec<Run> {
    let mut rng = Rng::stream(seed, Stream::History, idx);
    let interval_s = rng.range(2 * 3600, 8 * 3600) as f64;
    let end = anchor - Duration::minutes(10);
    let mut t =
        anchor - Duration::days(HISTORY_DAYS) + Duration::seconds(rng.range(0, 3600) as i64);
    let mut runs = Vec::new();
    while t < end {
        let run = rng.uuid();
        let mut at = t;
        let mut entries = Vec::new();
        for task in &def.tasks {
            let entry = execute(task, run, at, task.success_rate, &mut rng, dialect);
            at += Duration::milliseconds(entry.duration as i64);
            let ok = entry.ok;
            entries.push(entry);
            if !ok {
                break;
            }
        }
        runs.push(Run { uuid: run, entries });
        let step = interval_s * rng.uniform(0.8, 1.2);
        t += Duration::microseconds((step * 1e6) as i64);
    }
    runs
}

/// One task run: duration with spread, success by `success_rate`, a metric
/// where the task type has one and a small JSON output.
pub fn execute(
    task: &TaskDef,
    run: uuid::Uuid,
    at: DateTime<Utc>,
    success_rate: f64,
    rng: &mut Rng,
    dialect: Dialect,
) -> Entry {
    let ok = rng.chance(success_rate);
    let duration = (task.base_ms * rng.uniform(0.5, 1.8)).max(1.0) as u64;
    let metric = match (ok, task.metric) {
        (true, Some(m)) => metric_value(m * rng.uniform(0.6, 1.4), dialect, rng),
        _ => 0.0,
    };
    let plain = output(task.task_type, ok, metric, rng);
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

fn output(task_type: &str, ok: bool, metric: f64, rng: &mut Rng) -> String {
    if rng.chance(0.1) {
        return String::new();
    }
    if !ok {
        let why = rng.pick(&[
            "timeout",
            "connection refused",
            "invalid response",
            "quota exceeded",
        ]);
        return format!(r#"{{"status":"error","error":"{why}"}}"#);
    }
    match task_type {
        "query" | "filter" | "aggregator" => format!(r#"{{"rows":{metric},"status":"ok"}}"#),
        "notification" => r#"{"delivered":true,"status":"ok"}"#.to_string(),
        "condition" => format!(r#"{{"result":{},"status":"ok"}}"#, rng.chance(0.7)),
        _ => format!(r#"{{"items":{},"status":"ok"}}"#, rng.range(1, 500)),
    }
}

/// Client id, client secret and the 32-byte output key.
pub fn credentials(seed: u64) -> (uuid::Uuid, String, [u8; 32]) {
    let mut rng = Rng::stream(seed, Stream::Credentials, 0);
    let id = rng.uuid();
    let secret = rng.token(40);
    let mut key = [0u8; 32];
    rng.fill(&mut key);
    (id, secret, key)
}

pub fn build(seed: u64, anchor: DateTime<Utc>, dialect: Dialect) -> Vec<EntityData> {
    catalogue(seed)
        .into_iter()
        .enumerate()
        .map(|(i, def)| {
            let runs = history(&def, i as u64, seed, anchor, dialect);
            EntityData { def, runs }
        })
        .collect()
}
