//! In-memory data of the sandbox: the catalogue of pipelines, workflows and
//! tasks, their run history, and the read queries the handlers need.

use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::dialect::Codec;
use super::graph::Next;

/// The two path families. They hold distinct entities: a pipeline UUID is not
/// found under `/workflows/` and the other way round.
/// One task row of the statistics table.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub run: Uuid,
    pub at: DateTime<Utc>,
    pub ok: bool,
    pub duration: u64,
    /// Belongs to another organisation than the sandbox's client.
    pub foreign: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Pipeline,
    Workflow,
}

/// What a stats path is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Tasks,
    Pipelines,
    Workflows,
}

/// How runs started through the API behave; the seeded history ignores this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Started runs follow the tasks' seeded success rates.
    Normal,
    /// Started runs always succeed (the first pipeline), so demos are calm.
    Reliable,
    /// Started runs usually fail on their last task (the second pipeline), so
    /// clients can see failures on demand.
    Flaky,
    /// Started runs always fail on their last task (every workflow's with
    /// `--failing-workflows`), so a failed workflow run is deterministic.
    Failing,
    /// The seeded history: every task by its seeded rate, external triggers
    /// too (started runs' triggers always succeed, as the real runner's do).
    Seeded,
}

pub struct TaskDef {
    pub uuid: Uuid,
    pub name: String,
    pub task_type: &'static str,
    pub success_rate: f64,
    pub base_ms: f64,
    /// Typical metric value; `None` for task types that report none (0).
    pub metric: Option<f64>,
    /// An external trigger's configured test data, its output when a run's
    /// input is exactly `{}`; "" for other tasks.
    pub test_data: String,
}

/// Why a pipeline refuses to start, as the real server's run start answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    /// 404.
    Inactive,
    /// 404.
    Template,
    /// 404: its graph has no initial task.
    NoInitialTask,
    /// 403.
    Paused,
}

pub struct EntityDef {
    pub uuid: Uuid,
    pub name: String,
    pub family: Family,
    pub behaviour: Behaviour,
    pub tasks: Vec<TaskDef>,
    /// What follows each task (same order as `tasks`); task 0 is initial.
    pub next: Vec<Next>,
    pub status: Status,
    /// Owned by another organisation than the sandbox's client.
    pub foreign: bool,
    /// A metric pipeline: its aggregator tasks report `metric_value`.
    pub metric: bool,
}

/// One executed task run, as the log shows it.
#[derive(Clone)]
pub struct Entry {
    pub run: Uuid,
    pub task: Uuid,
    pub task_type: &'static str,
    pub ok: bool,
    pub duration: u64,
    /// The task's output as plain text ("" for none).
    pub plain: String,
    /// Nonce for the spec dialect's encryption, drawn from the seeded PRNG.
    pub nonce: [u8; 12],
    /// `plain` encoded for the wire; filled on first use, because encrypting
    /// the whole history up front would slow every start (notably in debug
    /// builds, which the tests use).
    pub encoded: OnceLock<String>,
    pub metric: f64,
    pub at: DateTime<Utc>,
}

impl Entry {
    /// The log's `output` field for this entry.
    pub fn output(&self, codec: &Codec) -> &str {
        self.encoded
            .get_or_init(|| codec.encode(&self.plain, &self.nonce))
    }
}

pub struct Run {
    pub uuid: Uuid,
    /// The body its start was sent (empty for none and for the history), as
    /// the server keeps a scheduled run's input.
    pub input: bytes::Bytes,
    pub entries: Vec<Entry>,
    /// The number of task entries the run will have when it is finished.
    pub size: usize,
    /// Whether every task of the run succeeds (known from its start).
    pub ok: bool,
}

impl Run {
    pub fn finished(&self) -> bool {
        self.entries.len() >= self.size
    }
}

pub struct EntityData {
    pub def: EntityDef,
    /// Ordered by start time; started runs are appended.
    pub runs: Vec<Run>,
}

/// One thing that "ran", reduced to what every statistic needs.
#[derive(Clone, Copy, Debug)]
pub struct Obs {
    pub at: DateTime<Utc>,
    pub ok: bool,
    pub duration: u64,
}

pub struct Store {
    pub entities: Vec<EntityData>,
}

impl Store {
    pub fn entity(&self, family: Family, uuid: Uuid) -> Option<&EntityData> {
        self.entities
            .iter()
            .find(|e| e.def.family == family && e.def.uuid == uuid)
    }

    /// The entity and run a run UUID belongs to.
    pub fn run(&self, run: Uuid) -> Option<(&EntityData, &Run)> {
        self.entities
            .iter()
            .find_map(|e| e.runs.iter().rev().find(|r| r.uuid == run).map(|r| (e, r)))
    }

    pub fn entity_mut(&mut self, family: Family, uuid: Uuid) -> Option<&mut EntityData> {
        self.entities
            .iter_mut()
            .find(|e| e.def.family == family && e.def.uuid == uuid)
    }

    /// The log as the server builds it: every entry of each run of the
    /// pipeline with at least one entry in `[from, to]`, newest first.
    pub fn log(&self, uuid: Uuid, from: DateTime<Utc>, to: DateTime<Utc>) -> (Vec<&Entry>, bool) {
        let Some(entity) = self.entity(Family::Pipeline, uuid) else {
            return (Vec::new(), false);
        };
        let mut out: Vec<&Entry> = entity
            .runs
            .iter()
            .filter(|r| r.entries.iter().any(|e| e.at >= from && e.at <= to))
            .flat_map(|r| r.entries.iter())
            .collect();
        // Stable: entries of one instant keep their reversed task order.
        out.reverse();
        out.sort_by_key(|e| std::cmp::Reverse(e.at));
        (out, entity.def.foreign)
    }

    /// Task rows of a task (`Kind::Tasks`) or of every run of a pipeline, as
    /// the server's statistics table holds them.
    pub fn rows(&self, kind: Kind, uuid: Uuid) -> Vec<Row> {
        let row = |e: &EntityData, x: &Entry| Row {
            run: x.run,
            at: x.at,
            ok: x.ok,
            duration: x.duration,
            foreign: e.def.foreign,
        };
        let mut out = Vec::new();
        for e in &self.entities {
            let whole = match kind {
                Kind::Tasks => false,
                Kind::Pipelines => e.def.family == Family::Pipeline && e.def.uuid == uuid,
                Kind::Workflows => e.def.family == Family::Workflow && e.def.uuid == uuid,
            };
            for x in e.runs.iter().flat_map(|r| r.entries.iter()) {
                if whole || (kind == Kind::Tasks && x.task == uuid) {
                    out.push(row(e, x));
                }
            }
        }
        out
    }

    /// What the spec dialect's statistics are computed from, in time order:
    /// one observation per task run for tasks; for pipelines and workflows
    /// one per run, successful when all its tasks succeeded, lasting the sum
    /// of its task durations, executed at its first task's time. (The `ylem`
    /// dialect counts task rows instead: see `counting`.)
    pub fn observations(&self, kind: Kind, uuid: Uuid) -> Vec<Obs> {
        let mut out: Vec<Obs> = match kind {
            Kind::Tasks => self.task_obs(uuid),
            Kind::Pipelines => self.entity_obs(Family::Pipeline, uuid),
            Kind::Workflows => self.entity_obs(Family::Workflow, uuid),
        };
        out.sort_by_key(|o| o.at);
        out
    }

    fn task_obs(&self, uuid: Uuid) -> Vec<Obs> {
        self.entities
            .iter()
            .flat_map(|e| e.runs.iter())
            .flat_map(|r| r.entries.iter())
            .filter(|e| e.task == uuid)
            .map(entry_obs)
            .collect()
    }

    fn entity_obs(&self, family: Family, uuid: Uuid) -> Vec<Obs> {
        let Some(entity) = self.entity(family, uuid) else {
            return Vec::new();
        };
        entity.runs.iter().filter_map(run_obs).collect()
    }
}

fn entry_obs(e: &Entry) -> Obs {
    Obs {
        at: e.at,
        ok: e.ok,
        duration: e.duration,
    }
}

/// A run with no task entry yet (just started) has not executed anything.
fn run_obs(run: &Run) -> Option<Obs> {
    let first = run.entries.first()?;
    Some(Obs {
        at: first.at,
        ok: run.entries.iter().all(|e| e.ok),
        duration: run.entries.iter().map(|e| e.duration).sum(),
    })
}
