//! The client's one error type: what happened (a kind, a message, the HTTP
//! status and what the server said) and why (`Cause`), never how to fix it
//! nor what exit code it is: a program using the client words that itself.

use std::fmt;
use std::sync::Arc;

use crate::secret::Redactor;
use crate::text;

/// What went wrong, as a caller needs to tell it apart. More kinds may
/// come: a `match` needs a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The credentials or the token were refused, or lack a permission.
    Auth,
    /// The service does not know what was asked for.
    NotFound,
    /// The service failed or answered what the client cannot read.
    Server,
    /// No answer: the connection, TLS, or a time limit without progress.
    Network,
    /// A time limit the caller set ran out.
    Timeout,
    /// The caller asked for something the client cannot do.
    Invalid,
    /// A failure of the client itself.
    Internal,
}

/// Why an error happened, where a caller may want to say more than the
/// message: each names one situation a person can act on.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub enum Cause {
    /// Nothing more to say than the message.
    #[default]
    Other,
    /// The token endpoint refused the client credentials (401).
    CredentialsRejected,
    /// The service refused the bearer token (401).
    Unauthorized,
    /// A fixed token, which cannot be renewed, was refused.
    FixedTokenRejected,
    /// A token fetched just now was refused too.
    FreshTokenRejected,
    /// 403 from a statistics endpoint: another organisation's ID or a scope.
    ForbiddenStats,
    /// 403 with an empty body to a run start: paused, or a scope.
    ForbiddenRunStart,
    /// Any other 403.
    Forbidden,
    /// 404 from a workflow endpoint (the open-source server has none).
    NotFoundWorkflow,
    /// 404 to a run start.
    NotFoundRunStart,
    /// 404 from the token endpoint: no ID is involved, the base URL (its
    /// path) does not lead to the service.
    NotFoundTokenEndpoint,
    /// Any other 404.
    NotFound,
    /// The token endpoint's 500 `server_error`: the Ylem server's answer to
    /// a client id it does not know.
    UnknownClient,
    /// Any other 500 of the token endpoint.
    TokenEndpointFailed,
    /// A final 429.
    RateLimited,
    /// A 429 whose wait would pass the caller's deadline.
    WaitBeyondDeadline,
    /// The waits the service asked for (`Retry-After`) would pass the
    /// total the transport waits for one request (`MAX_ASKED_WAITS`).
    WaitBeyondCap,
    /// A 429 answering a run start: refused before it started, and never
    /// retried by the transport.
    RateLimitedRunStart,
    /// Connecting took longer than the connect timeout.
    ConnectTimeout {
        /// The base URL, redacted, without its query.
        base: String,
        /// The request's method.
        method: String,
    },
    /// No response within the read timeout.
    NoResponse,
    /// No response within the read timeout for a log, which the server
    /// builds whole before its first byte.
    NoResponseLog,
    /// The TLS layer did not trust the service's certificate.
    UntrustedCertificate,
    /// The connection could not be made.
    ConnectFailed,
    /// The proxy the environment names (`var`) could not be reached, or
    /// refused the tunnel: the service was never reached.
    ProxyFailed {
        /// The proxy's URL, its password masked.
        proxy: String,
        /// The environment variable it came from.
        var: String,
    },
    /// A body stopped arriving for the read timeout.
    Stalled,
    /// A log arrived without completing an entry for the read timeout.
    NoProgress,
    /// A body larger than any answer of the service.
    TooLarge,
    /// A `TokenProvider`'s own error, kept whole for its program to
    /// recognise (`downcast_ref`).
    Provider(Arc<dyn std::error::Error + Send + Sync>),
}

/// A failure of a request or of reading its answer: read it through its
/// accessors (`kind`, `message`, `status`, `server_body`, `cause`,
/// `may_have_started`); `source` is the underlying failure, when there was
/// one (a transport's, a provider's), never with a URL.
#[derive(Debug, Clone)]
pub struct Error {
    /// What kind of failure.
    pub(crate) kind: ErrorKind,
    /// What happened, in one line; may hold text the server sent.
    pub(crate) message: String,
    /// The HTTP status of the answer, when there was one.
    pub(crate) status: Option<u16>,
    /// What the server's error response said (its body, trimmed; `None`
    /// when empty), kept as data so that callers can recognise a server's
    /// quirks without reading the message. Never shown as is.
    pub(crate) server_body: Option<String>,
    /// Why, where a caller may say more.
    pub(crate) cause: Cause,
    /// A run start that may have reached the service: a run may have
    /// started even though this failed.
    pub(crate) may_have_started: bool,
    /// The source and the redactor, behind one thin pointer: an `Error`
    /// stays small enough to return by value.
    pub(crate) extra: Option<Arc<Extra>>,
}

/// What few errors have.
#[derive(Debug, Default)]
pub(crate) struct Extra {
    /// The failure underneath (`std::error::Error::source`).
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
    /// Who scrubs the message when it is shown: the client's redactor,
    /// for errors the client made.
    redactor: Option<Redactor>,
}

/// A result with the client's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            status: None,
            server_body: None,
            cause: Cause::Other,
            may_have_started: false,
            extra: None,
        }
    }
    /// An `Auth` error.
    pub fn auth(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Auth, message)
    }
    /// A `Server` error.
    pub fn server(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Server, message)
    }
    /// A `Network` error.
    pub fn network(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Network, message)
    }
    /// An `Internal` error.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, message)
    }
    /// With `cause`.
    pub fn with_cause(mut self, cause: Cause) -> Self {
        self.cause = cause;
        self
    }
    /// With an HTTP status.
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }
    /// Marked as a run start that may have reached the service.
    pub fn with_may_have_started(mut self) -> Self {
        self.may_have_started = true;
        self
    }
    /// With the failure underneath, for `source`.
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        let redactor = self.extra.as_ref().and_then(|x| x.redactor.clone());
        self.extra = Some(Arc::new(Extra {
            source: Some(Box::new(source)),
            redactor,
        }));
        self
    }
    /// Scrubbed by `redactor` when shown (the client's, for what it makes).
    pub(crate) fn redacted_by(mut self, redactor: &Redactor) -> Self {
        let extra = self.extra.get_or_insert_with(Default::default);
        if extra.redactor.is_none() {
            let source = Arc::get_mut(extra).and_then(|x| x.source.take());
            *extra = Arc::new(Extra {
                source,
                redactor: Some(redactor.clone()),
            });
        }
        self
    }
    /// What kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    /// What happened, in one line, as made: it may hold text the server
    /// sent, so show it through `Display` (escaped and scrubbed).
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The HTTP status of the answer, when there was one.
    pub fn status(&self) -> Option<u16> {
        self.status
    }
    /// What the server's error response said (its body, trimmed; `None`
    /// when empty), as data to recognise a server's quirks by. Never show
    /// it as is: it may hold anything.
    pub fn server_body(&self) -> Option<&str> {
        self.server_body.as_deref()
    }
    /// Why, where a caller may say more.
    pub fn cause(&self) -> &Cause {
        &self.cause
    }
    /// A run start that may have reached the service: a run may have
    /// started even though this failed, so never start it again blindly.
    pub fn may_have_started(&self) -> bool {
        self.may_have_started
    }
    /// With `body` as what the server said (`server_body`), as given: a
    /// token provider handing on an error of its own that kept one.
    pub fn with_server_body_text(mut self, body: impl Into<String>) -> Self {
        self.server_body = Some(body.into());
        self
    }
    /// Keep what the server answered, for `server_body`.
    pub fn with_server_body(mut self, body: &[u8]) -> Self {
        let text = String::from_utf8_lossy(body);
        let text = text.trim();
        self.server_body = (!text.is_empty()).then(|| text.to_string());
        self
    }
    /// Whether this is the server rejecting the bearer token.
    pub fn is_unauthorized(&self) -> bool {
        self.kind == ErrorKind::Auth && self.status == Some(401)
    }
    /// Prefix the message with what was being done, e.g. the ID.
    pub fn context(mut self, what: impl fmt::Display) -> Self {
        self.message = format!("{what}: {}", self.message);
        self
    }
}

/// The message on one line, escaped, and scrubbed by the redactor of the
/// client that made it (an error made elsewhere is scrubbed by whoever
/// shows it): for a person.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let escaped = text::escape(&self.message);
        match self.extra.as_ref().and_then(|x| x.redactor.as_ref()) {
            Some(r) => f.write_str(&r.scrub(&escaped)),
            None => f.write_str(&escaped),
        }
    }
}

/// The provider's own error (`Cause::Provider`), else the failure
/// underneath, when there was one.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        if let Cause::Provider(e) = &self.cause {
            return Some(e.as_ref());
        }
        let source = self.extra.as_ref()?.source.as_deref()?;
        Some(source as &(dyn std::error::Error + 'static))
    }
}
