//! `ClientBuilder`: the settings a `Client` is made with (base URL, time
//! limits, retries, user agent, request log, redactor, token source, the
//! store and the settle setting), checked once when it is built.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::api::Client;
use crate::api::kept::{Kept, Store};
use crate::auth::TokenSource;
use crate::error::{Error, ErrorKind, Result};
use crate::http::{RequestLog, Transport, TransportConfig};
use crate::secret::Redactor;

/// Builds a `Client` (or only its `Transport`).
pub struct ClientBuilder {
    cfg: TransportConfig,
    /// A transport built already (`over`), used in place of `cfg`.
    built: Option<Transport>,
    token: Option<TokenSource>,
    kept: Kept,
    settle: Option<Duration>,
}

/// The settings, never a secret.
impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field(
                "base_url",
                &crate::http::redact::redact_url(&self.cfg.redactor, &self.cfg.base_url),
            )
            .field("timeout", &self.cfg.timeout)
            .field("retries", &self.cfg.retries)
            .field("token_source", &self.token)
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// A client for the service at `base_url`: 10 s to connect, 30 s
    /// without progress, no deadline, 3 retries, no request log.
    pub fn new(base_url: impl Into<String>) -> Self {
        ClientBuilder {
            cfg: TransportConfig::new(base_url),
            built: None,
            token: None,
            kept: Kept::default(),
            settle: None,
        }
    }

    /// A client over `transport`, built already (`build_transport`: a
    /// program may need it before its token source, to fetch a token
    /// through it). The transport keeps the settings it was built with:
    /// of this builder only `token_source`, `store` and `settle` count.
    pub fn over(transport: Transport) -> Self {
        ClientBuilder {
            cfg: transport.config().clone(),
            built: Some(transport),
            token: None,
            kept: Kept::default(),
            settle: None,
        }
    }

    /// The longest wait to connect (TCP and TLS).
    pub fn connect_timeout(mut self, d: Duration) -> Self {
        self.cfg.connect_timeout = d;
        self
    }

    /// The longest wait with no progress: for the first byte of an answer
    /// or between two reads.
    pub fn timeout(mut self, d: Duration) -> Self {
        self.cfg.timeout = d;
        self
    }

    /// When the caller's work must end: no retry waits past it.
    pub fn deadline(mut self, at: Option<Instant>) -> Self {
        self.cfg.deadline = at;
        self
    }

    /// How many times a failed request may be sent again.
    pub fn retries(mut self, n: u32) -> Self {
        self.cfg.retries = n;
        self
    }

    /// The most the waits a service asks for (`Retry-After`) may add up to
    /// for one request (default 2 minutes).
    pub fn max_asked_waits(mut self, d: Duration) -> Self {
        self.cfg.max_asked_waits = d;
        self
    }

    /// The `User-Agent` header (default `ylem-client/VERSION`).
    pub fn user_agent(mut self, ua: impl Into<String>) -> Self {
        self.cfg.user_agent = ua.into();
        self
    }

    /// Where the request log goes (default: nowhere).
    pub fn request_log(mut self, log: Arc<dyn RequestLog>) -> Self {
        self.cfg.log = Some(log);
        self
    }

    /// Where bearer tokens come from.
    pub fn token_source(mut self, source: TokenSource) -> Self {
        self.token = Some(source);
        self
    }

    /// Who scrubs secrets from what the client shows (its errors and the
    /// request log), and holds the secrets it is given and fetches.
    /// Default: one of its own. Hand the same one to every client of a
    /// program, and scrub the program's own output with it.
    pub fn redactor(mut self, redactor: Redactor) -> Self {
        self.cfg.redactor = redactor;
        self
    }

    /// Where answers that never change (a pipeline's basis) are kept
    /// across processes, besides memory (default: memory only).
    pub fn store(mut self, store: Arc<dyn Store>) -> Self {
        self.kept = Kept::with_store(store);
        self
    }

    /// Judge every run read through the client with this settle time (a
    /// pipeline's in place of the learnt one, a workflow's in place of the
    /// default): one setting, so that the same run gets the same verdict
    /// everywhere (default: none given).
    pub fn settle(mut self, settle: Option<Duration>) -> Self {
        self.settle = settle;
        self
    }

    /// The transport alone (for the token endpoint, say).
    pub fn build_transport(self) -> Result<Transport> {
        match self.built {
            Some(t) => Ok(t),
            None => Transport::new(self.cfg),
        }
    }

    /// The client; it needs a token source.
    pub fn build(mut self) -> Result<Client> {
        let token = self.token.take().ok_or_else(|| {
            Error::new(
                ErrorKind::Invalid,
                "no token source: the client cannot authenticate",
            )
        })?;
        let transport = match self.built {
            Some(t) => t,
            None => Transport::new(self.cfg)?,
        };
        Ok(Client::with_parts(transport, token, self.kept, self.settle))
    }
}
