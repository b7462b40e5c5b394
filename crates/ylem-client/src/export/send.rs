//! Handing encoded telemetry to a receiver: one POST of an OTLP/HTTP body
//! (an OpenTelemetry Collector's `/v1/traces`) or an OpenLineage event (a
//! Marquez `/api/v1/lineage`), sent again on the failures the OTLP/HTTP
//! specification calls retryable ("Failures", "Throttling"), its answer
//! read within bounds, and no header value or URL userinfo ever shown.
//!
//! Retrying is safe here, unlike for a run start (which this crate never
//! sends twice): the telemetry is idempotent. Trace, span and run IDs are
//! derived from the run itself (`export::otlp`, `export::lineage`), so a
//! body that arrives twice says the same thing twice, which a receiver
//! deduplicates or stores harmlessly.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Response, StatusCode, Url};

use crate::error::{Cause, Error, ErrorKind, Result};
use crate::http::redact::describe;
use crate::http::{RequestLog, no_trust_store, parse_retry_after};
use crate::secret::{Redactor, Secret};

/// The most of a receiver's answer that is kept: an OTLP answer is a few
/// bytes (an empty `ExportTraceServiceResponse`, or a partial success's
/// count and message), Marquez answers with nothing at all.
const MAX_ANSWER: usize = 64 << 10;

/// The longest excerpt of a receiver's error text in a message.
const MAX_EXCERPT: usize = 200;

/// A wait the receiver asks for (`Retry-After`) longer than this is said
/// as a note whatever the log level: the person waiting is not hung.
const LONG_WAIT: Duration = Duration::from_secs(2);

/// Headers the HTTP layer sets from the body and the URL: set by a caller
/// they would break the request's framing, so they are refused.
const FRAMING: [&str; 4] = ["content-length", "transfer-encoding", "host", "connection"];

/// Where and how telemetry goes.
#[derive(Clone)]
pub struct ReceiverConfig {
    /// The full endpoint URL (`http://localhost:4318/v1/traces`,
    /// `http://marquez:5000/api/v1/lineage`), `http` or `https`.
    pub url: String,
    /// Extra headers, each a name and its value (what
    /// `OTEL_EXPORTER_OTLP_HEADERS` lists, or an API key as
    /// `Authorization: Bearer ...`). The values are secrets: never in
    /// `Debug`, an error or the request log, and held by `redactor`.
    pub headers: Vec<(String, Secret)>,
    /// Connecting: TCP and TLS (default 10 s).
    pub connect_timeout: Duration,
    /// One whole attempt, from connecting to the last byte of the answer
    /// (default 10 s, the OTLP exporter's default).
    pub timeout: Duration,
    /// How many times one body is sent at most, the first send included
    /// (default 6; 0 counts as 1).
    pub max_attempts: u32,
    /// The most all the waits between the attempts of one body add up to
    /// (default 60 s): a wait, asked for or not, that would pass it ends
    /// the send at once.
    pub max_wait: Duration,
    /// The `User-Agent` header (default `ylem-client/<version>`).
    pub user_agent: String,
    /// Scrubs what is shown (errors, the request log); the header values
    /// and the URL's password are held in it while the `Receiver` lives.
    pub redactor: Redactor,
    /// Where the request log goes (a line per answer at level 1, the
    /// headers, values masked, at level 2); `None` says nothing.
    pub log: Option<Arc<dyn RequestLog>>,
}

impl ReceiverConfig {
    /// `url` with the defaults: 10 s to connect, 10 s for a whole attempt,
    /// 6 attempts, 60 s of waits in all, no extra header, no request log.
    pub fn new(url: impl Into<String>) -> Self {
        ReceiverConfig {
            url: url.into(),
            headers: Vec::new(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(10),
            max_attempts: 6,
            max_wait: Duration::from_secs(60),
            user_agent: concat!("ylem-client/", env!("CARGO_PKG_VERSION")).to_string(),
            redactor: Redactor::new(),
            log: None,
        }
    }
}

/// The URL without its userinfo and query, the header names without their
/// values, the request log only by whether there is one.
impl fmt::Debug for ReceiverConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReceiverConfig")
            .field("url", &shown_url(&self.redactor, &self.url))
            .field("headers", &header_names(&self.headers))
            .field("connect_timeout", &self.connect_timeout)
            .field("timeout", &self.timeout)
            .field("max_attempts", &self.max_attempts)
            .field("max_wait", &self.max_wait)
            .field("user_agent", &self.user_agent)
            .field("redactor", &self.redactor)
            .field("log", &self.log.is_some())
            .finish()
    }
}

fn header_names(headers: &[(String, Secret)]) -> Vec<&str> {
    headers.iter().map(|(n, _)| n.as_str()).collect()
}

/// A receiver of telemetry: its endpoint, the headers sent to it and a
/// client of its own. Cheap to clone (clones share one client).
#[derive(Clone)]
pub struct Receiver {
    inner: Arc<Inner>,
}

struct Inner {
    /// The settings, their header values held by the redactor.
    cfg: ReceiverConfig,
    /// The endpoint as requests go to it (userinfo included: reqwest sends
    /// it as Basic authorization).
    url: Url,
    /// The endpoint as messages show it: no userinfo, no query.
    shown: String,
    /// The extra headers, values marked sensitive.
    headers: HeaderMap,
    /// Secrets held beside the headers' own (a bearer credential without
    /// its scheme, the URL's password): scrubbed while the receiver lives.
    _held: Vec<Secret>,
    client: reqwest::Client,
}

/// The endpoint without userinfo or query, and the header names only.
impl fmt::Debug for Receiver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = &*self.inner;
        f.debug_struct("Receiver")
            .field("url", &i.shown)
            .field("headers", &header_names(&i.cfg.headers))
            .field("timeout", &i.cfg.timeout)
            .field("max_attempts", &i.cfg.max_attempts)
            .field("max_wait", &i.cfg.max_wait)
            .field("log", &i.cfg.log.is_some())
            .finish()
    }
}

/// A receiver's answer to the attempt it accepted.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Ack {
    /// Its status (2xx).
    pub status: u16,
    /// Its `Content-Type`, if it said one.
    pub content_type: Option<String>,
    /// Its body (an OTLP `ExportTraceServiceResponse`, whose
    /// `partial_success` says what was rejected; often empty): at most
    /// 64 KiB, a larger one is an error of kind `Server`.
    pub body: Bytes,
    /// How many sends it took, this one included.
    pub attempts: u32,
}

impl Receiver {
    /// A receiver for `cfg`, with its own HTTP client: redirects are not
    /// followed (a redirect is an error that names where it led), a proxy
    /// is taken from the environment as reqwest does. A URL that does not
    /// parse or is not `http(s)`, a header name or value HTTP cannot carry,
    /// is an error of kind `Invalid` (naming the URL without userinfo, a
    /// header by name only).
    pub fn new(cfg: ReceiverConfig) -> Result<Receiver> {
        let r = cfg.redactor.clone();
        let invalid = |m: String| Error::new(ErrorKind::Invalid, r.scrub(&m)).redacted_by(&r);
        // Held first, so that nothing said from here on can show them.
        let headers: Vec<(String, Secret)> = cfg
            .headers
            .into_iter()
            .map(|(n, v)| (n, r.hold(v)))
            .collect();
        let mut held = Vec::new();
        for (_, v) in &headers {
            // `Bearer abc...`: a receiver may echo the credential without
            // its scheme, which scrubbing the whole value would miss.
            if let Some((_, cred)) = v.expose().trim().split_once(' ')
                && cred.trim().len() >= 8
            {
                held.push(r.hold(Secret::new(cred.trim())));
            }
        }
        let cfg = ReceiverConfig { headers, ..cfg };
        let shown = shown_url(&r, &cfg.url);
        let url = Url::parse(cfg.url.trim())
            .map_err(|e| invalid(format!("the receiver URL {shown} does not parse: {e}")))?;
        if let Some(p) = url.password() {
            held.push(r.hold(Secret::new(p)));
            if let Ok(p) = percent_decode(p) {
                held.push(r.hold(Secret::new(p)));
            }
        }
        if !matches!(url.scheme(), "http" | "https") {
            return Err(invalid(format!(
                "the receiver URL {shown} is not http or https"
            )));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(invalid(format!("the receiver URL {shown} names no host")));
        }
        let mut map = HeaderMap::new();
        for (name, value) in &cfg.headers {
            let shown_name = crate::text::escape(name.trim()).into_owned();
            let n = HeaderName::from_bytes(name.trim().as_bytes())
                .map_err(|_| invalid(format!("{shown_name:?} is not an HTTP header name")))?;
            if FRAMING.contains(&n.as_str()) {
                return Err(invalid(format!(
                    "the header {n} is the HTTP layer's own: it cannot be set"
                )));
            }
            let mut v = HeaderValue::from_str(value.expose().trim()).map_err(|_| {
                invalid(format!(
                    "the value of the header {n} is not an HTTP header value (a line break or a control character; the value is not shown)"
                ))
            })?;
            v.set_sensitive(true);
            map.append(n, v);
        }
        if HeaderValue::from_str(&cfg.user_agent).is_err() {
            return Err(invalid(format!(
                "the user agent {:?} is not an HTTP header value",
                crate::text::escape(&cfg.user_agent)
            )));
        }
        let mut b = reqwest::Client::builder()
            // A redirect is a wrong URL: said, never followed with the
            // headers (credentials) to wherever it leads.
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(cfg.connect_timeout)
            // The whole attempt, the answer's body included (as the OTLP
            // exporter's timeout).
            .timeout(cfg.timeout)
            .user_agent(cfg.user_agent.as_str());
        if url.scheme() == "http" {
            b = no_trust_store(b);
        }
        let client = b.build().map_err(|e| {
            Error::internal(r.scrub(&format!(
                "cannot set up HTTP for the receiver {shown}: {}",
                describe(&r, &e)
            )))
            .redacted_by(&r)
        })?;
        Ok(Receiver {
            inner: Arc::new(Inner {
                cfg,
                url,
                shown,
                headers: map,
                _held: held,
                client,
            }),
        })
    }

    /// The endpoint, for messages: without userinfo and query.
    pub fn url(&self) -> &str {
        &self.inner.shown
    }

    /// Send one body as `content_type` (`application/x-protobuf`,
    /// `application/json`), again after a retryable failure (429, 502,
    /// 503, 504, no connection, no answer in time) after the wait the
    /// receiver asks (`Retry-After`) or a backoff with jitter, within
    /// `max_attempts` and `max_wait`: the answer of the attempt that was
    /// accepted (2xx).
    ///
    /// An error's kind says whose the failure is: `Network` for a receiver
    /// that could not be reached or kept answering a retryable status (or
    /// asked to wait past `max_wait`), `Invalid` for data or a request it
    /// refused (400, 413, other 4xx, a redirect), `Auth` for 401, 403 and
    /// 407, `Server` for any other status and an answer over 64 KiB. Its
    /// message names the URL, the status, the attempts made and a short
    /// excerpt of what the receiver said, scrubbed of every secret.
    pub async fn post(&self, content_type: &str, body: Bytes) -> Result<Ack> {
        let i = &*self.inner;
        let r = &i.cfg.redactor;
        let ct = HeaderValue::from_str(content_type).map_err(|_| {
            Error::new(
                ErrorKind::Invalid,
                format!(
                    "the content type {:?} is not an HTTP header value",
                    crate::text::escape(content_type)
                ),
            )
            .redacted_by(r)
        })?;
        let mut headers = i.headers.clone();
        // The body's own type wins over an extra header of that name.
        headers.insert(CONTENT_TYPE, ct);
        let max = i.cfg.max_attempts.max(1);
        let mut waited = Duration::ZERO;
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let failure = match self.attempt(&headers, &body, attempt).await {
                Outcome::Accepted(mut ack) => {
                    ack.attempts = attempt;
                    return Ok(ack);
                }
                Outcome::Failed(f) => f,
            };
            let Some(asked) = failure.retry else {
                return Err(self.error(failure, attempt, ""));
            };
            if attempt >= max {
                return Err(self.error(failure.gave_up(), attempt, ""));
            }
            let wait = asked.unwrap_or_else(|| crate::http::backoff(attempt - 1));
            let total = waited.saturating_add(wait);
            if total > i.cfg.max_wait {
                let cap = human(i.cfg.max_wait);
                let tail = match asked {
                    Some(a) => {
                        let header = failure
                            .retry_after
                            .as_deref()
                            .map_or_else(String::new, |h| format!(" (Retry-After: {h})"));
                        format!(
                            "; it asked to wait {}{header}, past the {cap} all waits for one body may add up to",
                            human(a)
                        )
                    }
                    None => format!(
                        "; waiting {} more would pass the {cap} all waits for one body may add up to",
                        human(wait)
                    ),
                };
                let f = failure.gave_up();
                let f = match asked {
                    Some(_) => Failure {
                        cause: Cause::WaitBeyondCap,
                        ..f
                    },
                    None => f,
                };
                return Err(self.error(f, attempt, &tail));
            }
            if asked.is_some_and(|a| a > LONG_WAIT) {
                self.note(&format!(
                    "the receiver at {} asked to wait {} (Retry-After, {}); waiting (at most {} in all for one body)",
                    i.shown,
                    human(wait),
                    failure.what,
                    human(i.cfg.max_wait)
                ));
            }
            self.say(
                1,
                &format!(
                    "retrying in {} after {} (attempt {attempt} of at most {max})",
                    human(wait),
                    failure.what
                ),
            );
            tokio::time::sleep(wait).await;
            waited = total;
        }
    }

    /// One send of the body and the reading of its answer.
    async fn attempt(&self, headers: &HeaderMap, body: &Bytes, n: u32) -> Outcome {
        let i = &*self.inner;
        let started = Instant::now();
        self.log_request(headers, body.len(), n);
        let sent = i
            .client
            .post(i.url.clone())
            .headers(headers.clone())
            .body(body.clone())
            .send()
            .await;
        let resp = match sent {
            Ok(resp) => resp,
            Err(e) => return Outcome::Failed(self.transport_failure(e)),
        };
        let status = resp.status();
        let content_type = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        self.log_response(&resp, started);
        if status.is_success() {
            return self.accepted(resp, status, content_type, started).await;
        }
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().chars().take(40).collect::<String>());
        let asked = retry_after
            .as_deref()
            .and_then(|v| parse_retry_after(v, chrono::Utc::now()));
        let location = resp
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|l| i.url.join(l).ok())
            .map(|u| shown_url(&i.cfg.redactor, u.as_str()));
        // An error's body is only for the excerpt: what fits is kept, a
        // body that fails or stalls is simply not quoted.
        let deadline = tokio::time::Instant::from_std(started + i.cfg.timeout);
        let text = match tokio::time::timeout_at(deadline, read_bounded(resp, MAX_ANSWER)).await {
            Ok(Ok((b, _))) => b,
            _ => Bytes::new(),
        };
        Outcome::Failed(self.status_failure(
            status,
            content_type.as_deref(),
            &text,
            asked,
            retry_after,
            location,
        ))
    }

    /// A 2xx answer: accepted once its body has arrived within bounds.
    async fn accepted(
        &self,
        resp: Response,
        status: StatusCode,
        content_type: Option<String>,
        started: Instant,
    ) -> Outcome {
        let i = &*self.inner;
        let too_large =
            || {
                Outcome::Failed(Failure::new(
                ErrorKind::Server,
                format!(
                    "accepted the data (HTTP {}) but answered more than {}, which is not read",
                    status_text(status),
                    crate::http::body::size(MAX_ANSWER)
                ),
            )
            .with_status(status.as_u16())
            .with_cause(Cause::TooLarge))
            };
        if resp.content_length().is_some_and(|n| n > MAX_ANSWER as u64) {
            return too_large();
        }
        let deadline = tokio::time::Instant::from_std(started + i.cfg.timeout);
        // A body that stalls or is cut off after a 2xx status: the data
        // may well have been taken, but its answer (an OTLP partial
        // success) is unknown. Sent again, which is harmless (see the
        // module's documentation).
        match tokio::time::timeout_at(deadline, read_bounded(resp, MAX_ANSWER)).await {
            Ok(Ok((_, true))) => too_large(),
            Ok(Ok((body, false))) => Outcome::Accepted(Ack {
                status: status.as_u16(),
                content_type,
                body,
                attempts: 0,
            }),
            Ok(Err(e)) if !e.is_timeout() => Outcome::Failed(
                Failure::new(
                    ErrorKind::Network,
                    format!(
                        "its answer (HTTP {}) was cut off: {}",
                        status_text(status),
                        describe(&i.cfg.redactor, &e)
                    ),
                )
                .with_status(status.as_u16())
                .retryable(None)
                .with_source(e.without_url()),
            ),
            _ => Outcome::Failed(
                Failure::new(
                    ErrorKind::Network,
                    format!(
                        "its answer (HTTP {}) did not arrive within the timeout ({})",
                        status_text(status),
                        human(i.cfg.timeout)
                    ),
                )
                .with_status(status.as_u16())
                .with_cause(Cause::Stalled)
                .retryable(None),
            ),
        }
    }

    /// No answer: every such failure is retried, as the OTLP specification
    /// says, but a request reqwest could not even build.
    fn transport_failure(&self, e: reqwest::Error) -> Failure {
        let i = &*self.inner;
        let r = &i.cfg.redactor;
        if e.is_builder() {
            return Failure::new(
                ErrorKind::Internal,
                format!("the request could not be made: {}", describe(r, &e)),
            )
            .with_source(e.without_url());
        }
        let (what, cause) = if e.is_connect() && e.is_timeout() {
            (
                format!(
                    "cannot connect within the connect timeout ({})",
                    human(i.cfg.connect_timeout)
                ),
                Cause::ConnectTimeout {
                    base: i.shown.clone(),
                    method: "POST".into(),
                },
            )
        } else if e.is_timeout() {
            (
                format!("no answer within the timeout ({})", human(i.cfg.timeout)),
                Cause::NoResponse,
            )
        } else if e.is_connect() {
            (
                format!("cannot connect: {}", describe(r, &e)),
                Cause::ConnectFailed,
            )
        } else {
            (
                format!("the request failed: {}", describe(r, &e)),
                Cause::Other,
            )
        };
        Failure::new(ErrorKind::Network, what)
            .with_cause(cause)
            .retryable(None)
            .with_source(e.without_url())
    }

    /// A status that is not 2xx: 429, 502, 503 and 504 are retried (after
    /// `asked`, when the receiver said), any other fails at once.
    fn status_failure(
        &self,
        status: StatusCode,
        content_type: Option<&str>,
        body: &[u8],
        asked: Option<Duration>,
        retry_after: Option<String>,
        location: Option<String>,
    ) -> Failure {
        let code = status.as_u16();
        let shown = status_text(status);
        let (kind, what) = match code {
            429 | 502 | 503 | 504 => (ErrorKind::Network, format!("HTTP {shown}")),
            300..=399 => (
                ErrorKind::Invalid,
                match location {
                    Some(l) => format!(
                        "HTTP {shown}, a redirect to {l}, which is not followed: set the URL it names if it is the receiver"
                    ),
                    None => format!("HTTP {shown}, a redirect, which is not followed"),
                },
            ),
            400 | 413 => (
                ErrorKind::Invalid,
                format!("HTTP {shown}: it refused the data"),
            ),
            401 | 403 | 407 => (
                ErrorKind::Auth,
                format!(
                    "HTTP {shown}: it refused the credentials (headers sent: {})",
                    match header_names(&self.inner.cfg.headers).join(", ") {
                        s if s.is_empty() => "none".to_string(),
                        s => s,
                    }
                ),
            ),
            404 => (
                ErrorKind::Invalid,
                format!("HTTP {shown}: no such endpoint (check the URL's path)"),
            ),
            400..=499 => (
                ErrorKind::Invalid,
                format!("HTTP {shown}: it refused the request"),
            ),
            _ => (ErrorKind::Server, format!("HTTP {shown}")),
        };
        let r = &self.inner.cfg.redactor;
        let mut f = Failure::new(kind, what).with_status(code);
        f.excerpt = excerpt(content_type, body).map(|t| r.scrub(&t));
        let text = String::from_utf8_lossy(body);
        let text = text.trim();
        f.server_body = (!text.is_empty()).then(|| r.scrub(text));
        f.retry_after = retry_after;
        if matches!(code, 429 | 502 | 503 | 504) {
            f = f.retryable(asked);
            if code == 429 {
                f.cause = Cause::RateLimited;
            }
        }
        f
    }

    /// The error for `f` after `attempts` sends, `tail` said after what
    /// happened: scrubbed as made, and when shown.
    fn error(&self, f: Failure, attempts: u32, tail: &str) -> Error {
        let r = &self.inner.cfg.redactor;
        let s = if attempts == 1 { "" } else { "s" };
        let said = f
            .excerpt
            .as_deref()
            .map_or_else(String::new, |t| format!(": it said \"{t}\""));
        let message = format!(
            "the receiver at {}: {}{tail}, after {attempts} attempt{s}{said}",
            self.inner.shown, f.what
        );
        let mut e = Error::new(f.kind, r.scrub(&message)).with_cause(f.cause);
        if let Some(code) = f.status {
            e = e.with_status(code);
        }
        if let Some(b) = f.server_body {
            e = e.with_server_body_text(b);
        }
        if let Some(src) = f.source {
            e = e.with_source(src);
        }
        self.say(1, &format!("failed: {}", self.error_text(&e)));
        e.redacted_by(r)
    }

    fn error_text(&self, e: &Error) -> String {
        match &self.inner.cfg.log {
            Some(log) => log.error_text(e),
            None => e.message().to_string(),
        }
    }

    /// A line of the request log at `level`, escaped and scrubbed.
    fn say(&self, level: u8, line: &str) {
        if let Some(log) = &self.inner.cfg.log
            && log.level() >= level
        {
            log.line(&self.clean(line));
        }
    }

    /// A note, whatever the level.
    fn note(&self, line: &str) {
        if let Some(log) = &self.inner.cfg.log {
            log.note(&self.clean(line));
        }
    }

    /// Escaped line by line (the request's lines stay lines), scrubbed.
    fn clean(&self, text: &str) -> String {
        let escaped = crate::text::escape_but(text, Some('\n'));
        self.inner.cfg.redactor.scrub(&escaped)
    }

    fn log_request(&self, headers: &HeaderMap, len: usize, n: u32) {
        if !self.logs(2) {
            return;
        }
        let mut s = format!("> POST {} (attempt {n})", self.inner.shown);
        for (k, v) in headers {
            // Only the body's type is shown: every other value may be a
            // secret.
            let v = match k == CONTENT_TYPE {
                true => v.to_str().unwrap_or("<binary>"),
                false => "***",
            };
            s.push_str(&format!("\n> {k}: {}", crate::text::escape(v)));
        }
        s.push_str(&format!("\n> content-length: {len}"));
        self.say(2, &s);
    }

    fn log_response(&self, resp: &Response, started: Instant) {
        if !self.logs(1) {
            return;
        }
        let bytes = resp
            .content_length()
            .map(|n| format!("{n}B"))
            .unwrap_or_else(|| "-".into());
        self.say(
            1,
            &format!(
                "POST {} {} {}ms {bytes}",
                self.inner.shown,
                resp.status().as_u16(),
                started.elapsed().as_millis()
            ),
        );
        if self.logs(2) {
            for (k, v) in resp.headers() {
                let v = crate::text::escape(v.to_str().unwrap_or("<binary>")).into_owned();
                self.say(2, &format!("< {k}: {v}"));
            }
        }
    }

    fn logs(&self, level: u8) -> bool {
        self.inner
            .cfg
            .log
            .as_ref()
            .is_some_and(|l| l.level() >= level)
    }
}

/// What one attempt came to.
enum Outcome {
    Accepted(Ack),
    Failed(Failure),
}

/// A failed attempt, before the count of attempts is known.
struct Failure {
    kind: ErrorKind,
    /// What happened, after "the receiver at URL: ".
    what: String,
    status: Option<u16>,
    /// The receiver's words, escaped, shortened and scrubbed.
    excerpt: Option<String>,
    /// Its body as text, scrubbed, for `Error::server_body`.
    server_body: Option<String>,
    cause: Cause,
    source: Option<reqwest::Error>,
    /// `Some` when worth another attempt, with the wait the receiver
    /// asked for (`Retry-After`), if it asked.
    retry: Option<Option<Duration>>,
    /// The `Retry-After` header as sent, shortened.
    retry_after: Option<String>,
}

impl Failure {
    fn new(kind: ErrorKind, what: String) -> Self {
        Failure {
            kind,
            what,
            status: None,
            excerpt: None,
            server_body: None,
            cause: Cause::Other,
            source: None,
            retry: None,
            retry_after: None,
        }
    }
    fn with_status(mut self, code: u16) -> Self {
        self.status = Some(code);
        self
    }
    fn with_cause(mut self, cause: Cause) -> Self {
        self.cause = cause;
        self
    }
    fn with_source(mut self, e: reqwest::Error) -> Self {
        self.source = Some(e);
        self
    }
    fn retryable(mut self, asked: Option<Duration>) -> Self {
        self.retry = Some(asked);
        self
    }
    /// Retried no more: a receiver that kept failing so is unreachable as
    /// far as the caller can tell (`Network`), whatever the status.
    fn gave_up(self) -> Self {
        let what = match self.status {
            Some(_) if self.kind == ErrorKind::Network && !self.what.starts_with("its") => {
                format!("kept answering {}", self.what)
            }
            _ => self.what,
        };
        Failure {
            kind: ErrorKind::Network,
            what,
            ..self
        }
    }
}

/// At most `cap` bytes of the body and whether there was more (the rest
/// is not read).
async fn read_bounded(mut resp: Response, cap: usize) -> reqwest::Result<(Bytes, bool)> {
    let mut out = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        if out.len() + chunk.len() > cap {
            let room = cap - out.len();
            out.extend_from_slice(&chunk[..room]);
            return Ok((Bytes::from(out), true));
        }
        out.extend_from_slice(&chunk);
    }
    Ok((Bytes::from(out), false))
}

/// What the receiver said, as a person may read it: a protobuf
/// `google.rpc.Status`'s message (the OTLP answer to a protobuf request),
/// else the text or JSON `message` (a JSON Status, Marquez's error), at
/// most `MAX_EXCERPT` characters, escaped.
fn excerpt(content_type: Option<&str>, body: &[u8]) -> Option<String> {
    let protobuf = content_type.is_some_and(|c| c.to_ascii_lowercase().contains("protobuf"));
    let text = match protobuf {
        true => status_message(body).filter(|m| !m.trim().is_empty())?,
        false => crate::http::errors::server_text(body)?,
    };
    let text = text.trim();
    let short: String = text.chars().take(MAX_EXCERPT).collect();
    let more = if text.chars().count() > MAX_EXCERPT {
        "…"
    } else {
        ""
    };
    Some(format!("{}{more}", crate::text::escape(&short)))
}

/// Field 2 (`message`) of a protobuf `google.rpc.Status`, read by hand:
/// its wire format is all there is to know, and a malformed body is
/// `None`, never a panic.
fn status_message(mut b: &[u8]) -> Option<String> {
    fn varint(b: &mut &[u8]) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = b.split_first()?;
            *b = rest;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }
    fn skip(b: &mut &[u8], n: u64) -> Option<()> {
        let n = usize::try_from(n).ok()?;
        *b = b.get(n..)?;
        Some(())
    }
    while !b.is_empty() {
        let key = varint(&mut b)?;
        match key & 7 {
            0 => {
                varint(&mut b)?;
            }
            1 => skip(&mut b, 8)?,
            2 => {
                let len = usize::try_from(varint(&mut b)?).ok()?;
                let field = b.get(..len)?;
                if key >> 3 == 2 {
                    return Some(String::from_utf8_lossy(field).into_owned());
                }
                b = &b[len..];
            }
            5 => skip(&mut b, 4)?,
            _ => return None,
        }
    }
    None
}

/// `503 Service Unavailable`, or the code alone for a status HTTP names
/// not.
fn status_text(s: StatusCode) -> String {
    match s.canonical_reason() {
        Some(reason) => format!("{} {reason}", s.as_u16()),
        None => s.as_u16().to_string(),
    }
}

/// The URL as shown: without userinfo, query and fragment (where an API
/// key may be), escaped and scrubbed. Text that is no URL is cut the same
/// way by hand.
fn shown_url(r: &Redactor, url: &str) -> String {
    let shown = match Url::parse(url.trim()) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.set_query(None);
            u.set_fragment(None);
            u.to_string()
        }
        Err(_) => {
            let s = url.trim().split(['?', '#']).next().unwrap_or("");
            match (s.find("://"), s.rfind('@')) {
                (Some(i), Some(j)) if j > i => format!("{}{}", &s[..i + 3], &s[j + 1..]),
                (None, Some(j)) => s[j + 1..].to_string(),
                _ => s.to_string(),
            }
        }
    };
    r.scrub(&crate::text::escape(&shown))
}

/// A percent-encoded userinfo part decoded (`Url::password` keeps it
/// encoded), so that both forms are scrubbed.
fn percent_decode(s: &str) -> std::result::Result<String, ()> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3).ok_or(())?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| ())?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| ())
}

fn human(d: Duration) -> String {
    crate::time::human_ms(d.as_millis().min(i64::MAX as u128) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::sync::Mutex;

    /// What the loopback receiver saw of one request: its head and body.
    type Seen = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

    /// A receiver on 127.0.0.1 answering one canned response per
    /// connection, in order, then ending (bounded: 10 s at most).
    fn serve(answers: Vec<String>) -> (String, Seen) {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1/traces", l.local_addr().unwrap());
        l.set_nonblocking(true).unwrap();
        let seen: Seen = Arc::default();
        let s = seen.clone();
        std::thread::spawn(move || {
            let until = Instant::now() + Duration::from_secs(10);
            for answer in answers {
                let mut c = loop {
                    match l.accept() {
                        Ok((c, _)) => break c,
                        Err(_) if Instant::now() < until => {
                            std::thread::sleep(Duration::from_millis(5))
                        }
                        Err(_) => return,
                    }
                };
                c.set_nonblocking(false).unwrap();
                c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let head_end = loop {
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break i + 4;
                    }
                    match c.read(&mut chunk) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                };
                let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
                let len = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                while buf.len() < head_end + len {
                    match c.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                s.lock().unwrap().push((head, buf[head_end..].to_vec()));
                let _ = c.write_all(answer.as_bytes());
            }
        });
        (url, seen)
    }

    fn answer(status: &str, headers: &[(&str, &str)], body: &str) -> String {
        let mut s = format!("HTTP/1.1 {status}\r\nconnection: close\r\n");
        for (k, v) in headers {
            s.push_str(&format!("{k}: {v}\r\n"));
        }
        format!("{s}content-length: {}\r\n\r\n{body}", body.len())
    }

    const SECRET: &str = "s3cr3t-header-value";

    fn cfg(url: &str) -> ReceiverConfig {
        let mut c = ReceiverConfig::new(url);
        c.max_attempts = 3;
        c.timeout = Duration::from_secs(5);
        c.headers = vec![(
            "Authorization".into(),
            Secret::new(format!("Bearer {SECRET}")),
        )];
        c
    }

    fn assert_send<T: Send>(_: &T) {}

    #[tokio::test]
    async fn a_503_is_sent_again_after_its_retry_after_then_accepted() {
        let (url, seen) = serve(vec![
            answer("503 Service Unavailable", &[("retry-after", "1")], "busy"),
            answer("200 OK", &[("content-type", "application/json")], "{}"),
        ]);
        let rx = Receiver::new(cfg(&url)).unwrap();
        let fut = rx.post("application/x-protobuf", Bytes::from_static(b"\x0a\x00"));
        assert_send(&fut);
        let t = Instant::now();
        let ack = fut.await.unwrap();
        assert!(
            t.elapsed() >= Duration::from_millis(950),
            "{:?}",
            t.elapsed()
        );
        assert_eq!((ack.status, ack.attempts), (200, 2));
        assert_eq!(ack.content_type.as_deref(), Some("application/json"));
        assert_eq!(&ack.body[..], b"{}");
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 2);
        for (head, body) in seen.iter() {
            let h = head.to_ascii_lowercase();
            assert!(h.starts_with("post /v1/traces "), "{head}");
            assert!(
                h.contains(&format!("authorization: bearer {SECRET}")),
                "{head}"
            );
            assert!(h.contains("content-type: application/x-protobuf"), "{head}");
            assert!(h.contains("user-agent: ylem-client/"), "{head}");
            assert_eq!(&body[..], b"\x0a\x00");
        }
    }

    #[tokio::test]
    async fn a_502_without_retry_after_backs_off() {
        let (url, _) = serve(vec![
            answer("502 Bad Gateway", &[], ""),
            answer("202 Accepted", &[], ""),
        ]);
        let rx = Receiver::new(cfg(&url)).unwrap();
        let ack = rx
            .post("application/json", Bytes::from("{}"))
            .await
            .unwrap();
        assert_eq!((ack.status, ack.attempts), (202, 2));
    }

    #[tokio::test]
    async fn a_wait_asked_past_max_wait_fails_at_once() {
        let (url, seen) = serve(vec![answer(
            "429 Too Many Requests",
            &[("retry-after", "120")],
            "slow down",
        )]);
        let rx = Receiver::new(cfg(&url)).unwrap();
        let t = Instant::now();
        let e = rx.post("application/json", Bytes::new()).await.unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(5));
        assert_eq!(e.kind(), ErrorKind::Network);
        assert_eq!(e.status(), Some(429));
        assert!(matches!(e.cause(), Cause::WaitBeyondCap), "{:?}", e.cause());
        let m = e.to_string();
        assert!(
            m.contains("Retry-After: 120") && m.contains("1 attempt"),
            "{m}"
        );
        assert_eq!(seen.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn a_400_is_not_sent_again_and_an_echoed_secret_is_scrubbed() {
        let body = format!(r#"{{"code":3,"message":"bad span; you sent Bearer {SECRET}"}}"#);
        let (url, seen) = serve(vec![answer("400 Bad Request", &[], &body)]);
        let rx = Receiver::new(cfg(&url)).unwrap();
        let e = rx.post("application/json", Bytes::new()).await.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Invalid);
        assert_eq!(e.status(), Some(400));
        let (shown, debug) = (e.to_string(), format!("{e:?}"));
        for s in [&shown, &debug, &e.message().to_string()] {
            assert!(!s.contains(SECRET), "{s}");
        }
        assert!(
            shown.contains("bad span") && shown.contains(&url),
            "{shown}"
        );
        assert!(shown.contains("after 1 attempt"), "{shown}");
        assert_eq!(seen.lock().unwrap().len(), 1);
    }

    #[tokio::test]
    async fn auth_and_server_statuses_have_their_kinds() {
        for (status, kind) in [
            ("401 Unauthorized", ErrorKind::Auth),
            ("403 Forbidden", ErrorKind::Auth),
            ("413 Payload Too Large", ErrorKind::Invalid),
            ("500 Internal Server Error", ErrorKind::Server),
            ("301 Moved Permanently", ErrorKind::Invalid),
        ] {
            let (url, seen) = serve(vec![answer(status, &[("location", "/elsewhere")], "")]);
            let rx = Receiver::new(cfg(&url)).unwrap();
            let e = rx.post("application/json", Bytes::new()).await.unwrap_err();
            assert_eq!(e.kind(), kind, "{status}: {e}");
            assert_eq!(seen.lock().unwrap().len(), 1, "{status}");
        }
    }

    #[tokio::test]
    async fn a_refused_connection_is_retried_to_max_attempts() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1/traces", l.local_addr().unwrap());
        drop(l);
        let rx = Receiver::new(cfg(&url)).unwrap();
        let t = Instant::now();
        let e = rx.post("application/json", Bytes::new()).await.unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
        assert_eq!(e.kind(), ErrorKind::Network);
        let m = e.to_string();
        assert!(m.contains("after 3 attempts") && m.contains(&url), "{m}");
    }

    #[test]
    fn debug_shows_no_secret_and_urls_no_userinfo() {
        let mut c = cfg("http://user:pw-secret-999@127.0.0.1:4318/v1/traces?key=k-secret-1");
        c.headers
            .push(("X-Api-Key".into(), Secret::new("another-secret-42")));
        let d = format!("{c:?}");
        let rx = Receiver::new(c).unwrap();
        let dr = format!("{rx:?}");
        for s in [&d, &dr, &rx.url().to_string()] {
            for secret in [SECRET, "another-secret-42", "pw-secret-999", "k-secret-1"] {
                assert!(!s.contains(secret), "{s}");
            }
        }
        assert!(
            d.contains("Authorization") && d.contains("X-Api-Key"),
            "{d}"
        );
        assert_eq!(rx.url(), "http://127.0.0.1:4318/v1/traces");
    }

    #[test]
    fn a_url_not_http_is_invalid() {
        for u in ["ftp://h/x", "not a url", "file:///tmp/x"] {
            let e = Receiver::new(ReceiverConfig::new(u)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Invalid, "{u}");
        }
        let mut c = ReceiverConfig::new("http://127.0.0.1:1/");
        c.headers = vec![("x".into(), Secret::new("bad\nvalue-secret"))];
        let e = Receiver::new(c).unwrap_err();
        assert!(!format!("{e} {e:?}").contains("value-secret"));
    }

    /// (`Retry-After` itself is read by the HTTP layer's parser, tested
    /// there.)
    #[test]
    fn a_protobuf_status() {
        // Status { code: 3, message: "bad" }.
        assert_eq!(
            status_message(b"\x08\x03\x12\x03bad").as_deref(),
            Some("bad")
        );
        assert_eq!(status_message(b"\x12\x09ab"), None);
        assert_eq!(status_message(b"\xff\xff"), None);
    }
}
