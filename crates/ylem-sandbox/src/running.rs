//! A started sandbox as its caller sees it: the handle (`Running`), the
//! pipelines, workflows and tasks it serves, its banner (text and JSON) and
//! its graceful stop.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::json;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::options::Dialect;
use super::state::Shared;
use super::store::{Behaviour, EntityData, EntityDef, Family, Status};
use super::sync;
use super::trigger;

pub struct Entity {
    pub uuid: uuid::Uuid,
    pub name: String,
    pub tasks: Vec<Task>,
    /// How its started runs behave, for the banner.
    behaviour: Behaviour,
}

pub struct Task {
    pub uuid: uuid::Uuid,
    pub name: String,
    pub task_type: String,
}

pub struct Running {
    pub base_url: String,
    pub client_id: String,
    pub client_secret: String,
    /// AES-256-GCM key of `output` in the spec dialect, 64 hex chars.
    pub key_hex: String,
    pub pipelines: Vec<Entity>,
    pub workflows: Vec<Entity>,
    /// Pipelines that refuse runs (`inactive`, `template`, `no-initial-task`
    /// answer 404; `paused` 403) and one of another organisation, with runs
    /// (`other-organisation`: 403), by label.
    pub specials: Vec<(String, Entity)>,
    // Crate-visible because `start` (lib.rs) fills them in.
    pub(crate) dialect: Dialect,
    pub(crate) seed: u64,
    pub(crate) shared: Arc<Shared>,
    pub(crate) stop: oneshot::Sender<()>,
    pub(crate) server: JoinHandle<std::io::Result<()>>,
}

/// The ordinary pipelines and workflows, and the special pipelines (refusing
/// runs, or another organisation's) with their labels.
pub(crate) fn public_entities(
    entities: &[EntityData],
) -> (Vec<Entity>, Vec<Entity>, Vec<(String, Entity)>) {
    let ordinary = |e: &&EntityData| e.def.status == Status::Active && !e.def.foreign;
    let public = |e: &EntityData| Entity {
        uuid: e.def.uuid,
        name: e.def.name.clone(),
        tasks: e
            .def
            .tasks
            .iter()
            .map(|t| Task {
                uuid: t.uuid,
                name: t.name.clone(),
                task_type: t.task_type.to_string(),
            })
            .collect(),
        behaviour: e.def.behaviour,
    };
    let of = |family| {
        entities
            .iter()
            .filter(|e| e.def.family == family)
            .filter(ordinary)
            .map(public)
            .collect()
    };
    let specials = entities
        .iter()
        .filter(|e| !ordinary(e))
        .map(|e| (special_label(&e.def), public(e)))
        .collect();
    (of(Family::Pipeline), of(Family::Workflow), specials)
}

fn special_label(def: &EntityDef) -> String {
    let label = match def.status {
        Status::Inactive => "inactive",
        Status::Template => "template",
        Status::NoInitialTask => "no-initial-task",
        Status::Paused => "paused",
        Status::Active => "other-organisation",
    };
    label.to_string()
}

impl Running {
    /// Every request received, including those answered 503, 301 or 404.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::SeqCst)
    }

    /// Requests to `/v1/oauth/token`, whatever their outcome.
    pub fn token_requests(&self) -> u64 {
        self.shared.token_requests.load(Ordering::SeqCst)
    }

    /// Text for a person: where the sandbox listens, its credentials, and
    /// every pipeline, workflow and task.
    pub fn banner(&self) -> String {
        let dialect = self.dialect_name();
        let mut b = format!("ylemctl sandbox (dialect {dialect}, seed {})\n", self.seed);
        let _ = writeln!(b, "  base URL       {}", self.base_url);
        let _ = writeln!(b, "  client id      {}", self.client_id);
        let _ = writeln!(b, "  client secret  {}", self.client_secret);
        let note = match self.dialect {
            Dialect::Spec => "AES-256-GCM key of log outputs",
            Dialect::Ylem => "unused: ylem outputs are plain Base64",
        };
        let _ = writeln!(b, "  output key     {} ({note})", self.key_hex);
        self.banner_knobs(&mut b);
        self.banner_entities(&mut b);
        b
    }

    /// A line for each of `doctor`'s knobs that is set (none by default,
    /// so a plain sandbox's banner stays as it was).
    fn banner_knobs(&self, b: &mut String) {
        let opts = &self.shared.opts;
        if !opts.clock_skew.is_zero() {
            let (sign, way) = match opts.clock_skew < chrono::TimeDelta::zero() {
                true => ("-", "behind"),
                false => ("+", "ahead of"),
            };
            let by = human(opts.clock_skew.abs());
            let _ = writeln!(
                b,
                "  clock skew     {sign}{by} (every Date header {by} {way} the true time)"
            );
        }
        if let Some(scopes) = &opts.scopes {
            let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
            let granted = match names.is_empty() {
                true => "none".to_string(),
                false => names.join(","),
            };
            let _ = writeln!(
                b,
                "  scopes         {granted} (tokens grant only these; 403 where another is needed)"
            );
        }
        if opts.failing_workflows {
            let _ = writeln!(
                b,
                "  workflows      started runs always fail on their last task (--failing-workflows)"
            );
        }
        if opts.plan_disabled {
            let _ = writeln!(
                b,
                "  plan           API disabled (401 on every authenticated endpoint; tokens still issued)"
            );
        }
    }

    /// What the banner says of a pipeline's started runs.
    fn notes(&self, p: &Entity) -> Vec<&'static str> {
        let mut notes = Vec::new();
        match p.behaviour {
            Behaviour::Reliable => notes.push("started runs always succeed"),
            Behaviour::Flaky => notes.push("started runs usually fail on their last task"),
            Behaviour::Failing => notes.push("started runs always fail on their last task"),
            Behaviour::Normal | Behaviour::Seeded => {}
        }
        if p.tasks
            .first()
            .is_some_and(|t| t.task_type == trigger::TRIGGER)
        {
            notes.push(match self.dialect {
                Dialect::Ylem => "begins with an external trigger: run --input becomes its output",
                Dialect::Spec => "begins with an external trigger",
            });
        }
        notes
    }

    fn dialect_name(&self) -> &'static str {
        match self.dialect {
            Dialect::Spec => "spec",
            Dialect::Ylem => "ylem",
        }
    }

    /// The banner as one JSON object (`ylemctl sandbox -o json`), for
    /// scripts and tests that start a sandbox: everything the text banner
    /// says, by name.
    pub fn banner_json(&self) -> serde_json::Value {
        let tasks = |e: &Entity| -> Vec<serde_json::Value> {
            e.tasks
                .iter()
                .map(|t| json!({"uuid": t.uuid, "name": t.name, "task_type": t.task_type}))
                .collect()
        };
        let pipelines: Vec<serde_json::Value> = self
            .pipelines
            .iter()
            .map(|p| json!({"uuid": p.uuid, "name": p.name, "notes": self.notes(p), "tasks": tasks(p)}))
            .collect();
        let specials: Vec<serde_json::Value> = self
            .specials
            .iter()
            .map(|(label, p)| json!({"label": label, "uuid": p.uuid, "name": p.name}))
            .collect();
        let workflows: Vec<serde_json::Value> = self
            .workflows
            .iter()
            .map(|w| json!({"uuid": w.uuid, "name": w.name, "tasks": tasks(w)}))
            .collect();
        json!({
            "dialect": self.dialect_name(),
            "seed": self.seed,
            "base_url": self.base_url,
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            // AES-256-GCM, hex; only the spec dialect encrypts log outputs
            // (ylem's are plain Base64).
            "output_key": self.key_hex,
            "outputs_encrypted": self.dialect == Dialect::Spec,
            "pipelines": pipelines,
            "special_pipelines": specials,
            "workflows_routed": self.dialect == Dialect::Spec,
            "workflows": workflows,
        })
    }

    fn banner_entities(&self, b: &mut String) {
        let _ = writeln!(b, "\nPipelines:");
        for p in &self.pipelines {
            let notes = self.notes(p);
            let note = match notes.is_empty() {
                true => String::new(),
                false => format!("  ({})", notes.join("; ")),
            };
            entity_lines(b, p, &note);
        }
        let _ = writeln!(b, "\nPipelines that refuse runs or are not yours:");
        for (label, p) in &self.specials {
            let _ = writeln!(b, "  {label}: {}  {}", p.uuid, p.name);
        }
        let note = match self.dialect {
            Dialect::Spec => "",
            Dialect::Ylem => " (not routed in the ylem dialect)",
        };
        let _ = writeln!(b, "\nWorkflows{note}:");
        for w in &self.workflows {
            entity_lines(b, w, "");
        }
    }

    /// Graceful stop: abort run simulations, stop accepting, wait for the
    /// server to finish.
    pub async fn shutdown(self) {
        for sim in sync::lock(&self.shared.sims).drain(..) {
            sim.abort();
        }
        let _ = self.stop.send(());
        let _ = self.server.await;
    }
}

/// A skew as the flag takes it, in its largest whole unit (`90s`, `10m`,
/// `1500ms`).
fn human(d: chrono::TimeDelta) -> String {
    let ms = d.num_milliseconds();
    let units = [
        ("w", 604_800_000),
        ("d", 86_400_000),
        ("h", 3_600_000),
        ("m", 60_000),
        ("s", 1_000),
    ];
    for (unit, size) in units {
        if ms % size == 0 {
            return format!("{}{unit}", ms / size);
        }
    }
    format!("{ms}ms")
}

fn entity_lines(b: &mut String, e: &Entity, note: &str) {
    let _ = writeln!(b, "  {}  {}{note}", e.uuid, e.name);
    for t in &e.tasks {
        let _ = writeln!(b, "    task {}  {}  [{}]", t.uuid, t.name, t.task_type);
    }
}

#[cfg(test)]
mod tests {
    use super::human;
    use chrono::TimeDelta;

    #[test]
    fn skews_in_their_largest_whole_unit() {
        assert_eq!(human(TimeDelta::seconds(90)), "90s");
        assert_eq!(human(TimeDelta::minutes(10)), "10m");
        assert_eq!(human(TimeDelta::hours(48)), "2d");
        assert_eq!(human(TimeDelta::milliseconds(1500)), "1500ms");
    }
}
