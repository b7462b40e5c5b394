//! What a sandbox is started with: its options, the dialect it speaks, where
//! the token endpoint reads its parameters, the scopes its tokens may grant,
//! and the unit of simulated task time; a file of its own because nearly
//! every module reads them.

use std::net::SocketAddr;
use std::time::Duration;

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

/// A scope a token may grant, each guarding endpoints as the real gateway
/// does (enforced only when `Options::scopes` is given).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `stats:read`: the statistics and log endpoints (4 to 13).
    StatsRead,
    /// `pipelines:run`: starting a pipeline's run (endpoint 2).
    PipelinesRun,
    /// `workflows:run`: starting a workflow's run (endpoint 3; the spec's
    /// one scope).
    WorkflowsRun,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::StatsRead, Scope::PipelinesRun, Scope::WorkflowsRun];

    /// The scope as a token response and a token request spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::StatsRead => "stats:read",
            Scope::PipelinesRun => "pipelines:run",
            Scope::WorkflowsRun => "workflows:run",
        }
    }

    /// The scope of that exact name, if it is one.
    pub fn from_name(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.as_str() == name)
    }
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
    /// How far every response's `Date` header is off the true time (ahead
    /// when positive); the data, run times and token lifetimes stay true.
    /// Zero leaves the header to the HTTP server.
    pub clock_skew: chrono::TimeDelta,
    /// What tokens grant, enforced: the token response's `scope` lists
    /// them, and an endpoint guarded by another answers 403. `None`: every
    /// token grants the dialect's scope string and nothing is enforced.
    pub scopes: Option<Vec<Scope>>,
    /// The organisation's plan has the API switched off: 401 on every
    /// authenticated endpoint, however fresh the token, as the real plan
    /// check; the token endpoint still works.
    pub plan_disabled: bool,
    /// Test-only: every started workflow run fails on its last task, so a
    /// failed workflow run can be had on demand (pipelines are unchanged).
    pub failing_workflows: bool,
    /// Benchmark scale: this many more ordinary pipelines, appended after
    /// every other entity and seeded from a stream of their own, so the
    /// usual catalogue keeps its UUIDs and history. Each runs about hourly
    /// over a shorter history (`seed::EXTRA`) to keep the memory bounded.
    pub extra_pipelines: usize,
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
            clock_skew: chrono::TimeDelta::zero(),
            scopes: None,
            plan_disabled: false,
            failing_workflows: false,
            extra_pipelines: 0,
        }
    }
}
