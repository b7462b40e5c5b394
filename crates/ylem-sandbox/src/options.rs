//! What a sandbox is started with: its options, the dialect it speaks, where
//! the token endpoint reads its parameters, and the unit of simulated task
//! time; a file of its own because nearly every module reads them.

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
