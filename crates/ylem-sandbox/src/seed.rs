//! Builds the seeded catalogue (pipelines with task graphs, workflows, and
//! pipelines that refuse to start or belong to another organisation) and its
//! 90 days of run history, and the benchmark's extra pipelines after them
//! (`--extra-pipelines`). Everything here derives from the seed and the
//! anchor time.

use chrono::{DateTime, Duration, Utc};

use super::graph::{CHAIN, Next, SHAPES, Shape, TRIGGERED, path};
use super::options::Dialect;
use super::rng::{Rng, Stream};
use super::store::{Behaviour, EntityData, EntityDef, Entry, Family, Run, Status};
use super::taskgen::{execute, task};
use super::trigger::{self, TRIGGER, TRIGGERED_NAME};

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
/// Pipelines that refuse runs or are not the client's, in banner order.
pub const SPECIALS: &[(Status, bool, &str)] = &[
    (Status::Inactive, false, "legacy-ledger-export"),
    (Status::Template, false, "template-daily-report"),
    (Status::NoInitialTask, false, "draft-without-trigger"),
    (Status::Paused, false, "paused-partner-feed"),
    (Status::Active, true, "other-org-billing-sync"),
];
/// How far back a history goes and how far apart its runs start.
#[derive(Clone, Copy, Debug)]
pub struct Cadence {
    pub days: i64,
    /// A pipeline's interval is drawn once from this range (seconds); each
    /// gap is that interval ±20 %.
    pub interval_s: (u64, u64),
}

/// The catalogue's entities: 90 days, every 2 to 8 hours (3 to 12 runs a
/// day, about 5 on average).
const USUAL: Cadence = Cadence {
    days: 90,
    interval_s: (2 * 3600, 8 * 3600),
};
/// The extra pipelines (`Options::extra_pipelines`): about hourly (every
/// 45 to 75 minutes, about 24 runs a day), as a busy organisation's are,
/// over 14 days (more than the 3-day basis a run is judged by and a week
/// of statistics) so that 100 pipelines stay near 50 MB in memory.
pub const EXTRA: Cadence = Cadence {
    days: 14,
    interval_s: (45 * 60, 75 * 60),
};
/// Names of the extra pipelines: a subject and an action, then the
/// pipeline's number, so that they are told apart and sort in order.
const EXTRA_SUBJECTS: &[&str] = &[
    "orders",
    "invoices",
    "shipments",
    "leads",
    "refunds",
    "sessions",
    "stock",
    "payouts",
    "tickets",
    "campaigns",
    "devices",
    "reviews",
];
const EXTRA_ACTIONS: &[&str] = &[
    "sync", "rollup", "check", "import", "alerts", "cleanup", "digest", "export",
];
/// The middle task of the third shape fails this often: runs stop there.
const FAILING_MIDDLE_RATE: f64 = 0.6;

/// Entities in order: 4 pipelines (a chain, then a condition, a for_each and
/// a chain whose middle task often fails, in a seeded order), 3 workflows,
/// the special pipelines, then the pipeline that begins with an external
/// trigger.
/// `extra` more ordinary pipelines come after all of them (`extras`).
pub fn catalogue(seed: u64, extra: usize) -> Vec<EntityDef> {
    let mut rng = Rng::stream(seed, Stream::Catalogue, 0);
    let mut pnames = PIPELINE_NAMES.to_vec();
    let mut wnames = WORKFLOW_NAMES.to_vec();
    rng.shuffle(&mut pnames);
    rng.shuffle(&mut wnames);
    let mut shapes: Vec<&Shape> = SHAPES.iter().collect();
    rng.shuffle(&mut shapes[..3]);
    rng.shuffle(&mut shapes[3..]);
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
        let shape = if i == 0 { &CHAIN } else { shapes[i - 1] };
        let mut def = entity(&mut rng, shape, name, family);
        def.behaviour = behaviour;
        def.metric = i == 0;
        if std::ptr::eq(shape, &SHAPES[2]) {
            def.tasks[2].success_rate = FAILING_MIDDLE_RATE;
        }
        out.push(def);
    }
    if let Some(last) = out[1].tasks.last_mut() {
        // The flaky pipeline's history fails about 30% of its runs too.
        last.success_rate = 0.7;
    }
    out.extend(specials(seed));
    // Last, from a stream of its own: the entities above keep their UUIDs
    // and their histories (an entity's history stream is its index).
    out.push(triggered(seed));
    // After every entity above, so they keep their UUIDs and histories
    // whatever `extra` is.
    out.extend((0..extra).map(|k| extra_pipeline(seed, k)));
    out
}

fn entity(rng: &mut Rng, shape: &Shape, name: &str, family: Family) -> EntityDef {
    let tasks = shape.types.iter().map(|t| task(rng, t)).collect();
    EntityDef {
        uuid: rng.uuid(),
        name: name.to_string(),
        family,
        behaviour: Behaviour::Normal,
        tasks,
        next: shape.next.to_vec(),
        status: Status::Active,
        foreign: false,
        metric: false,
    }
}

/// From a stream of their own, so the entities above keep their UUIDs.
fn specials(seed: u64) -> Vec<EntityDef> {
    let mut rng = Rng::stream(seed, Stream::Specials, 0);
    SPECIALS
        .iter()
        .map(|&(status, foreign, name)| {
            let mut def = entity(&mut rng, &SHAPES[5], name, Family::Pipeline);
            def.status = status;
            def.foreign = foreign;
            if status == Status::NoInitialTask {
                def.next.clear();
            }
            def
        })
        .collect()
}

/// The pipeline that begins with an external trigger: send it an order
/// with `run --input`; its started runs always succeed.
fn triggered(seed: u64) -> EntityDef {
    let mut rng = Rng::stream(seed, Stream::Triggered, 0);
    let mut def = entity(&mut rng, &TRIGGERED, TRIGGERED_NAME, Family::Pipeline);
    def.behaviour = Behaviour::Reliable;
    trigger::take_orders(&mut def.tasks[0]);
    def
}

/// The `k`th extra pipeline, from a sub-stream of its own (so the first
/// ones are the same whatever their number): a shape of the catalogue's,
/// tasks failing at their seeded rates (about 1 to 12 % each), and one
/// pipeline in five with a task that fails far more often (20 to 40 %),
/// so an export meets failed runs throughout. One in five is a metric
/// pipeline (its aggregators report `metric_value`).
fn extra_pipeline(seed: u64, k: usize) -> EntityDef {
    let mut rng = Rng::stream(seed, Stream::Extra, k as u64);
    let shapes: Vec<&Shape> = std::iter::once(&CHAIN).chain(SHAPES.iter()).collect();
    let shape = *rng.pick(&shapes);
    let name = format!(
        "{}-{}-{:03}",
        rng.pick(EXTRA_SUBJECTS),
        rng.pick(EXTRA_ACTIONS),
        k + 1
    );
    let mut def = entity(&mut rng, shape, &name, Family::Pipeline);
    if rng.chance(0.2) {
        // Not the first task: an external trigger there would always
        // succeed in started runs, hiding the failure.
        let i = rng.range(1, def.tasks.len() as u64 - 1) as usize;
        def.tasks[i].success_rate = rng.uniform(0.6, 0.8);
    }
    def.metric = rng.chance(0.2);
    def
}

/// The entries one run will report: the graph's path, each task succeeding
/// by its rate (or as the behaviour says), stopping at the first failure.
/// Entry times are laid out from `at` by their durations times `pace` (live
/// seconds per second of task time, as `--task-delay` sets it).
pub fn plan(
    def: &EntityDef,
    run: uuid::Uuid,
    at: DateTime<Utc>,
    behaviour: Behaviour,
    rng: &mut Rng,
    dialect: Dialect,
    pace: f64,
) -> Vec<Entry> {
    let steps = path(&def.next, rng);
    let mut at = at;
    let mut entries = Vec::new();
    for (n, &i) in steps.iter().enumerate() {
        let task = &def.tasks[i];
        let last = n + 1 == steps.len();
        let rate = match behaviour {
            Behaviour::Reliable => 1.0,
            Behaviour::Flaky if last => 0.2,
            Behaviour::Flaky => 1.0,
            Behaviour::Failing if last => 0.0,
            Behaviour::Failing => 1.0,
            Behaviour::Normal if task.task_type == TRIGGER => 1.0,
            Behaviour::Normal | Behaviour::Seeded => task.success_rate,
        };
        let ok = rng.chance(rate);
        let entry = execute(task, run, at, ok, def.metric, rng, dialect);
        at += Duration::milliseconds((entry.duration as f64 * pace) as i64);
        entries.push(entry);
        if !ok {
            break;
        }
    }
    entries
}

/// Runs at the `cadence` (interval varies by entity) over its days before
/// `anchor`. Templates and graphs without an initial task never ran. The
/// gaps between a run's entries follow `pace`, as live runs do, so a client
/// that learns a pipeline's pace from its history meets that pace live.
pub fn history(
    def: &EntityDef,
    idx: u64,
    seed: u64,
    anchor: DateTime<Utc>,
    dialect: Dialect,
    pace: f64,
    cadence: Cadence,
) -> Vec<Run> {
    let mut rng = Rng::stream(seed, Stream::History, idx);
    if matches!(def.status, Status::Template | Status::NoInitialTask) {
        return Vec::new();
    }
    let (lo, hi) = cadence.interval_s;
    let interval_s = rng.range(lo, hi) as f64;
    let end = anchor - Duration::minutes(10);
    let mut t =
        anchor - Duration::days(cadence.days) + Duration::seconds(rng.range(0, 3600) as i64);
    let mut runs = Vec::new();
    while t < end {
        let run = rng.uuid();
        let entries = plan(def, run, t, Behaviour::Seeded, &mut rng, dialect, pace);
        runs.push(Run {
            uuid: run,
            input: bytes::Bytes::new(),
            size: entries.len(),
            ok: entries.iter().all(|e| e.ok),
            entries,
        });
        let step = interval_s * rng.uniform(0.8, 1.2);
        t += Duration::microseconds((step * 1e6) as i64);
    }
    runs
}

/// Client id, client secret (64 hex characters, as the server issues) and
/// the 32-byte output key.
pub fn credentials(seed: u64) -> (uuid::Uuid, String, [u8; 32]) {
    let mut rng = Rng::stream(seed, Stream::Credentials, 0);
    let id = rng.uuid();
    let mut raw = [0u8; 32];
    rng.fill(&mut raw);
    let secret = raw.iter().map(|b| format!("{b:02x}")).collect();
    let mut key = [0u8; 32];
    rng.fill(&mut key);
    (id, secret, key)
}

/// The catalogue with `extra` more pipelines, and every history: an
/// entity's history stream is its index, so the extras' (after all the
/// others) leave the usual entities' histories as they were.
pub fn build(
    seed: u64,
    anchor: DateTime<Utc>,
    dialect: Dialect,
    pace: f64,
    extra: usize,
) -> Vec<EntityData> {
    let cat = catalogue(seed, extra);
    let usual = cat.len() - extra;
    cat.into_iter()
        .enumerate()
        .map(|(i, def)| {
            let cadence = if i < usual { USUAL } else { EXTRA };
            let runs = history(&def, i as u64, seed, anchor, dialect, pace, cadence);
            EntityData { def, runs }
        })
        .collect()
}

/// True when the graph has no task to start with.
pub fn has_initial_task(next: &[Next]) -> bool {
    !next.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::running::public_entities;

    fn at() -> DateTime<Utc> {
        "2026-12-01T12:00:00Z".parse().unwrap()
    }

    /// Every UUID an entity shows: its own, its tasks', its runs'.
    fn uuids(e: &EntityData) -> Vec<uuid::Uuid> {
        let tasks = e.def.tasks.iter().map(|t| t.uuid);
        let runs = e.runs.iter().map(|r| r.uuid);
        std::iter::once(e.def.uuid)
            .chain(tasks)
            .chain(runs)
            .collect()
    }

    #[test]
    fn extra_pipelines_come_after_and_leave_the_others_as_they_were() {
        let (n, seed) = (12, 3);
        let plain = build(seed, at(), Dialect::Spec, 1.0, 0);
        let more = build(seed, at(), Dialect::Spec, 1.0, n);
        assert_eq!(more.len(), plain.len() + n);
        for (a, b) in plain.iter().zip(&more) {
            assert_eq!(a.def.name, b.def.name);
            assert_eq!(uuids(a), uuids(b), "{}", a.def.name);
            let outcome = |e: &EntityData| e.runs.iter().map(|r| r.ok).collect::<Vec<_>>();
            assert_eq!(outcome(a), outcome(b), "{}", a.def.name);
        }
        // Ordinary pipelines, listed by the banner after the usual ones.
        let (usual, ..) = public_entities(&plain);
        let (listed, ..) = public_entities(&more);
        assert_eq!(listed.len(), usual.len() + n);
        let extras = &more[plain.len()..];
        for (e, p) in extras.iter().zip(&listed[usual.len()..]) {
            assert_eq!(
                (e.def.family, e.def.status),
                (Family::Pipeline, Status::Active)
            );
            assert!(!e.def.foreign);
            assert_eq!(e.def.uuid, p.uuid);
        }
        let names: std::collections::BTreeSet<_> = listed.iter().map(|p| &p.name).collect();
        assert_eq!(names.len(), listed.len(), "names are unique");
        // The first ones are the same whatever their number.
        let fewer = build(seed, at(), Dialect::Spec, 1.0, 2);
        assert_eq!(uuids(&fewer[plain.len()]), uuids(&extras[0]));
        // About hourly: 24 runs in the last day, give or take the jitter;
        // and failed runs among them all.
        let day = at() - Duration::days(1);
        for e in extras {
            let last_day = e.runs.iter().filter(|r| r.entries[0].at >= day).count();
            assert!((18..=32).contains(&last_day), "{}: {last_day}", e.def.name);
        }
        assert!(extras.iter().flat_map(|e| &e.runs).any(|r| !r.ok));
        let shapes: std::collections::BTreeSet<_> =
            extras.iter().map(|e| e.def.tasks.len()).collect();
        assert!(shapes.len() > 1, "varied shapes: {shapes:?}");
    }
}
