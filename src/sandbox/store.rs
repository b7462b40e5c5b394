//! In-memory data of the sandbox: the catalogue of pipelines, workflows and
//! tasks, their run history, and the read queries the handlers need.

use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::Dialect;
use super::dialect::Codec;

/// The two path families. They hold distinct entities: a pipeline UUID is not
/// found under `/workflows/` and the other way round.
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
}

pub struct TaskDef {
    pub uuid: Uuid,
    pub name: String,
    pub task_type: &'static str,
    pub success_rate: f64,
    pub base_ms: f64,
    /// Typical metric value; `None` for task types that report none (0).
    pub metric: Option<f64>,
}

pub struct EntityDef {
    pub uuid: Uuid,
    pub name: String,
    pub family: Family,
    pub behaviour: Behaviour,
    pub tasks: Vec<TaskDef>,
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
    pub entries: Vec<Entry>,
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

    pub fn entity_mut(&mut self, family: Family, uuid: Uuid) -> Option<&mut EntityData> {
        self.entities
            .iter_mut()
            .find(|e| e.def.family == family && e.def.uuid == uuid)
    }

    /// Log entries of a pipeline with `from <= at <= to`, in time order.
    pub fn log(&self, uuid: Uuid, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<&Entry> {
        let Some(entity) = self.entity(Family::Pipeline, uuid) else {
            return Vec::new();
        };
        let mut out: Vec<&Entry> = entity
            .runs
            .iter()
            .flat_map(|r| r.entries.iter())
            .filter(|e| e.at >= from && e.at <= to)
            .collect();
        // Started runs may overlap each other; a stable sort keeps task order.
        out.sort_by_key(|e| e.at);
        out
    }

    /// Everything the statistics of one subject are computed from, in time
    /// order.
    ///
    /// The rule differs by dialect on purpose. Tasks: one observation per task
    /// run. Pipelines and workflows in the spec dialect: one per pipeline run,
    /// successful when all its tasks succeeded, lasting the sum of its task
    /// durations, executed at its first task's time. In the ylem dialect the
    /// open-source server counts task runs for pipelines (so `num_of_failures`
    /// is failed task runs), and the sandbox reproduces that.
    pub fn observations(&self, kind: Kind, uuid: Uuid, dialect: Dialect) -> Vec<Obs> {
        let mut out: Vec<Obs> = match kind {
            Kind::Tasks => self.task_obs(uuid),
            Kind::Pipelines => self.entity_obs(Family::Pipeline, uuid, dialect),
            Kind::Workflows => self.entity_obs(Family::Workflow, uuid, dialect),
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

    fn entity_obs(&self, family: Family, uuid: Uuid, dialect: Dialect) -> Vec<Obs> {
        let Some(entity) = self.entity(family, uuid) else {
            return Vec::new();
        };
        let runs = entity.runs.iter();
        match dialect {
            Dialect::Ylem => runs.flat_map(|r| r.entries.iter()).map(entry_obs).collect(),
            Dialect::Spec => runs.filter_map(run_obs).collect(),
        }
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
