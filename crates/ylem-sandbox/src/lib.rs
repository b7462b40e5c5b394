//! The embedded sandbox: an in-memory, seeded fake of the whole run and
//! statistics service, served with axum on loopback, in either the spec's
//! dialect or the open-source server's (`ylem`).

mod aggregate;
mod aggregated;
mod auth;
mod counting;
mod dialect;
mod graph;
mod help;
mod rng;
mod runs;
mod seed;
mod server;
mod state;
mod stats;
mod store;
mod sync;
mod taskgen;
mod tokens;
mod trigger;
mod truth;

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

pub use help::HELP;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use rng::{Rng, Stream};
use serde_json::json;
use state::Shared;
use store::{Behaviour, EntityData, Family, Status, Store};

/// The simulated task time that `task_delay` stands for.
pub const TASK_TIME_UNIT: Duration = Duration::from_secs(1);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// As the service's API documentation describes it.
    Spec,
    /// As the open-source Ylem server behaves (github.com/ylem-co/ylem).
    Ylem,
}

/// Where the token endpoint reads its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenParams {
    /// The query string and a form-encoded body, as the real server does.
    Both,
    /// Only a form-encoded body (RFC 6749 §2.3.1).
    Body,
    /// Only the query string, as the spec describes: a body is not read, so
    /// a request with its parameters there lacks a grant type.
    Query,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// Port 0 picks a free port.
    pub listen: SocketAddr,
    pub seed: u64,
    pub dialect: Dialect,
    /// Added before every response.
    pub latency: Duration,
    /// Share (0.0..=1.0) of requests answered 503.
    pub fail_rate: f64,
    /// `expires_in` of issued tokens, enforced.
    pub token_ttl: Duration,
    /// How long one second of simulated task time takes live: each task of
    /// a started run reports after its own duration scaled by this.
    pub task_delay: Duration,
    /// Where the token endpoint reads its parameters.
    pub token_params: TokenParams,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            listen: SocketAddr::from(([127, 0, 0, 1], 7339)),
            seed: 1,
            dialect: Dialect::Spec,
            latency: Duration::ZERO,
            fail_rate: 0.0,
            token_ttl: Duration::from_secs(86400),
            task_delay: Duration::from_millis(1500),
            token_params: TokenParams::Both,
        }
    }
}

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
    dialect: Dialect,
    seed: u64,
    shared: Arc<Shared>,
    stop: oneshot::Sender<()>,
    server: JoinHandle<std::io::Result<()>>,
}

/// Binds, seeds the data (history anchored 90 days back from now), spawns the
/// server on the current tokio runtime and returns at once.
pub async fn start(opts: Options) -> std::io::Result<Running> {
    let listener = tokio::net::TcpListener::bind(opts.listen).await?;
    let addr = listener.local_addr()?;
    let (client_id, client_secret, key) = seed::credentials(opts.seed);
    let codec = dialect::Codec::new(opts.dialect, &key);
    let pace = opts.task_delay.as_secs_f64() / TASK_TIME_UNIT.as_secs_f64();
    let entities = seed::build(opts.seed, chrono::Utc::now(), opts.dialect, pace);
    let (pipelines, workflows, specials) = public_entities(&entities);
    let shared = Arc::new(Shared {
        tokens: Mutex::new(tokens::Tokens::new(Rng::stream(
            opts.seed,
            Stream::Tokens,
            0,
        ))),
        faults: Mutex::new(Rng::stream(opts.seed, Stream::Faults, 0)),
        store: RwLock::new(Store { entities }),
        codec,
        client_id,
        client_secret: client_secret.clone(),
        requests: AtomicU64::new(0),
        token_requests: AtomicU64::new(0),
        request_log: Mutex::new(Default::default()),
        run_seq: AtomicU64::new(0),
        record_id: AtomicU64::new(0),
        sims: Mutex::new(Vec::new()),
        opts: opts.clone(),
    });
    let app = server::router(shared.clone());
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Running {
        base_url: format!("http://{addr}"),
        client_id: client_id.to_string(),
        client_secret,
        key_hex: key.iter().map(|b| format!("{b:02x}")).collect(),
        pipelines,
        workflows,
        specials,
        dialect: opts.dialect,
        seed: opts.seed,
        shared,
        stop,
        server,
    })
}

/// The ordinary pipelines and workflows, and the special pipelines (refusing
/// runs, or another organisation's) with their labels.
fn public_entities(entities: &[EntityData]) -> (Vec<Entity>, Vec<Entity>, Vec<(String, Entity)>) {
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

fn special_label(def: &store::EntityDef) -> String {
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
        self.banner_entities(&mut b);
        b
    }

    /// What the banner says of a pipeline's started runs.
    fn notes(&self, p: &Entity) -> Vec<&'static str> {
        let mut notes = Vec::new();
        match p.behaviour {
            Behaviour::Reliable => notes.push("started runs always succeed"),
            Behaviour::Flaky => notes.push("started runs usually fail on their last task"),
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

fn entity_lines(b: &mut String, e: &Entity, note: &str) {
    let _ = writeln!(b, "  {}  {}{note}", e.uuid, e.name);
    for t in &e.tasks {
        let _ = writeln!(b, "    task {}  {}  [{}]", t.uuid, t.name, t.task_type);
    }
}
