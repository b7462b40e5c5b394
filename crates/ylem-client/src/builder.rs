//! `ClientBuilder`: the settings a `Client` is made with (base URL, time
//! limits, retries, user agent, request log, token source), checked once
//! when it is built.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::api::Client;
use crate::auth::TokenSource;
use crate::error::{Error, ErrorKind, Result};
use crate::http::{RequestLog, Transport, TransportConfig};

/// Builds a `Client` (or only its `Transport`).
pub struct ClientBuilder {
    cfg: TransportConfig,
    token: Option<TokenSource>,
}

impl ClientBuilder {
    /// A client for the service at `base_url`, with `TransportConfig::new`'s
    /// defaults.
    pub fn new(base_url: impl Into<String>) -> Self {
        ClientBuilder {
            cfg: TransportConfig::new(base_url),
            token: None,
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

    /// The transport alone (for the token endpoint, say).
    pub fn build_transport(self) -> Result<Transport> {
        Transport::new(self.cfg)
    }

    /// The client; it needs a token source.
    pub fn build(mut self) -> Result<Client> {
        let token = self.token.take().ok_or_else(|| {
            Error::new(
                ErrorKind::Invalid,
                "no token source: the client cannot authenticate",
            )
        })?;
        Ok(Client::new(Transport::new(self.cfg)?, token))
    }
}
