//! Sending one request: base URL joining, bearer header, redirects, retries
//! (when and how long to wait: `retry`), time limits, and the request log
//! (`RequestLog`, a hook the caller installs).
//!
//! Redirects are followed by hand, for GET only: the bearer header never
//! goes to another origin (scheme, host, port), nor does a URL with a query.
//!
//! It says nothing but through the request log.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use bytes::Bytes;
use reqwest::{Method, Response, Url};

use serde::de::DeserializeOwned;

use super::body::{self, BodyError};
use super::errors;
use super::log::RequestLog;
use super::redact::{describe, redact_form, redact_json_tokens, redact_url};
use super::retry::{
    Retry, retry_after, retry_after_asked, retry_wait_for_body, retry_wait_for_error,
    retry_wait_for_status,
};
use crate::error::{Cause, Error, Result};
use crate::secret::{Redactor, Secret};

/// How requests go out (`ClientBuilder` fills it in).
#[derive(Clone)]
pub struct TransportConfig {
    /// The service: every path is joined to it.
    pub base_url: String,
    /// Connecting: TCP and TLS.
    pub connect_timeout: Duration,
    /// The longest wait with no progress (the read timeout): for the first
    /// byte or between two reads. A body that keeps arriving is never cut:
    /// the real server builds a whole log before its first byte, then streams.
    pub timeout: Duration,
    /// When the caller's work must end: no retry waits past it.
    pub deadline: Option<Instant>,
    /// How many times a failed request may be sent again.
    pub retries: u32,
    /// The most the waits a service asks for (`Retry-After`) add up to for
    /// one request (default `MAX_ASKED_WAITS`); a wait asked past it ends
    /// the request at once with `Cause::WaitBeyondCap`.
    pub max_asked_waits: Duration,
    /// The `User-Agent` header.
    pub user_agent: String,
    /// Where the request log goes; `None` says nothing.
    pub log: Option<Arc<dyn RequestLog>>,
    /// Scrubs what the transport shows (logs, errors), and holds the
    /// tokens it learns of.
    pub redactor: Redactor,
}

/// The `User-Agent` unless the caller sets another.
pub(crate) const USER_AGENT: &str = concat!("ylem-client/", env!("CARGO_PKG_VERSION"));

impl TransportConfig {
    /// Defaults for `base_url`: 10 s to connect, 30 s without progress,
    /// no deadline, 3 retries, no request log.
    pub fn new(base_url: impl Into<String>) -> Self {
        TransportConfig {
            base_url: base_url.into(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            deadline: None,
            retries: 3,
            max_asked_waits: MAX_ASKED_WAITS,
            user_agent: USER_AGENT.to_string(),
            log: None,
            redactor: Redactor::new(),
        }
    }
}

/// One client per URL scheme, each built when first needed: a client that
/// can speak TLS loads and parses the platform's CA certificates when it is
/// built (rustls-platform-verifier, 5-35 ms), which costs more than a whole
/// loopback request, so a plain-`http` base URL never pays for it (and works
/// on a machine without CA certificates). A redirect to `https` still works:
/// the TLS client is built then, once.
pub struct Transport {
    plain: OnceLock<reqwest::Client>,
    tls: OnceLock<reqwest::Client>,
    cfg: TransportConfig,
}

/// The settings that say where and how requests go; the request log only
/// by whether there is one.
impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.cfg;
        f.debug_struct("Transport")
            .field(
                "base_url",
                &super::redact::redact_url(&c.redactor, &c.base_url),
            )
            .field("connect_timeout", &c.connect_timeout)
            .field("timeout", &c.timeout)
            .field("deadline", &c.deadline)
            .field("retries", &c.retries)
            .field("max_asked_waits", &c.max_asked_waits)
            .field("user_agent", &c.user_agent)
            .field("log", &c.log.is_some())
            .finish()
    }
}

const MAX_REDIRECTS: usize = 5;

/// A `Retry-After` wait longer than this is announced as a note.
const LONG_WAIT: Duration = Duration::from_secs(2);

/// The most the waits a service asks for (`Retry-After`) add up to for one
/// request by default: a service asking for more is told as an error at
/// once, not waited out for minutes (each wait is capped at 2 minutes too).
pub const MAX_ASKED_WAITS: Duration = Duration::from_secs(120);

/// What `exchange` reads of a successful response within its attempt: a
/// type, not a closure, so that a request's future borrows nothing for
/// every lifetime and stays `Send`.
trait Take {
    type Out;
    fn take(
        resp: Response,
        method: &Method,
        path: &str,
    ) -> impl Future<Output = std::result::Result<Self::Out, BodyError>> + Send;
}

/// The whole body, at most `body::MAX_WHOLE` bytes.
struct Whole;

impl Take for Whole {
    type Out = Bytes;
    async fn take(
        resp: Response,
        method: &Method,
        path: &str,
    ) -> std::result::Result<Bytes, BodyError> {
        body::read_whole(resp, body::MAX_WHOLE, method, path).await
    }
}

/// The response and its first chunk, the rest read as it arrives.
struct FirstChunk;

impl Take for FirstChunk {
    type Out = (Response, Option<Bytes>);
    async fn take(
        resp: Response,
        _: &Method,
        _: &str,
    ) -> std::result::Result<Self::Out, BodyError> {
        body::first_chunk(resp).await
    }
}

/// A request body and how it is sent.
#[derive(Debug, Clone, Copy)]
pub enum Sent<'a> {
    /// `application/json`: a run's input, sent as these bytes (a clone of
    /// `Bytes` shares them, so one input sent to many IDs is held once).
    Json(&'a Bytes),
    /// `application/x-www-form-urlencoded`: the token request's parameters,
    /// where RFC 6749 puts credentials (never the URL).
    Form(&'a Bytes),
}

impl Sent<'_> {
    fn bytes(&self) -> &Bytes {
        match self {
            Sent::Json(b) | Sent::Form(b) => b,
        }
    }

    fn content_type(&self) -> &'static str {
        match self {
            Sent::Json(_) => "application/json",
            Sent::Form(_) => "application/x-www-form-urlencoded",
        }
    }
}

impl Transport {
    /// Builds the client for the base URL's scheme now, so that a TLS set-up
    /// failure shows before anything is sent.
    pub(crate) fn new(cfg: TransportConfig) -> Result<Self> {
        let base_url = cfg.base_url.trim_end_matches('/').to_string();
        let t = Transport {
            plain: OnceLock::new(),
            tls: OnceLock::new(),
            cfg: TransportConfig { base_url, ..cfg },
        };
        t.client_for(&t.cfg.base_url)
            .map_err(|e| match super::trust::env_problem() {
                // A set-up the caller can fix, before anything was sent.
                Some(p) => Error::new(
                    crate::error::ErrorKind::Invalid,
                    format!("cannot set up TLS: {p}"),
                ),
                None => Error::internal(format!("cannot set up HTTP: {}", e.without_url())),
            })?;
        // The client was built, yet a trust variable is wrong (a missing
        // SSL_CERT_FILE beside a good SSL_CERT_DIR): the certificates come
        // from the other source only, which a certificate error later would
        // not say. Said once, before anything is sent.
        if t.cfg
            .base_url
            .get(..8)
            .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
            && let (Some(p), Some(log)) = (super::trust::env_problem(), &t.cfg.log)
        {
            log.warn(&format!(
                "{p}: ignored; the certificates of the other trust sources are used"
            ));
        }
        Ok(t)
    }

    /// The settings it was built with.
    pub(crate) fn config(&self) -> &TransportConfig {
        &self.cfg
    }

    /// The redactor that scrubs what this transport shows.
    pub(crate) fn redactor(&self) -> &Redactor {
        &self.cfg.redactor
    }

    /// The base URL every path is joined to (no trailing `/`): the service
    /// tokens are fetched from and sent to.
    pub fn base_url(&self) -> &str {
        &self.cfg.base_url
    }

    /// The client for `url`'s scheme, built on first use.
    fn client_for(&self, url: &str) -> reqwest::Result<&reqwest::Client> {
        let tls = url
            .get(..8)
            .is_some_and(|s| s.eq_ignore_ascii_case("https://"));
        let cell = if tls { &self.tls } else { &self.plain };
        if let Some(c) = cell.get() {
            return Ok(c);
        }
        let c = build_client(&self.cfg, tls)?;
        Ok(cell.get_or_init(|| c))
    }

    /// Send `method path` (path starts with `/`, already encoded) and read
    /// the successful response's whole body, at most `body::MAX_WHOLE`
    /// bytes; or the mapped error. Reading the body is part of the attempt:
    /// an idempotent request whose body stalls or is cut off is sent again
    /// like one that failed before its headers.
    pub(crate) async fn fetch(
        &self,
        method: Method,
        path: &str,
        bearer: Option<&Secret>,
        retry: Retry,
        sent: Option<Sent<'_>>,
    ) -> Result<Bytes> {
        self.exchange::<Whole>(method, path, bearer, retry, sent)
            .await
            .map_err(|e| e.redacted_by(&self.cfg.redactor))
    }

    /// One GET of `path` with no bearer, no retry and no redirect
    /// followed: the status and the `Date` header of whatever answers, for
    /// what a server says of itself (`diagnose::clock`).
    #[cfg(feature = "diagnose")]
    pub(crate) async fn probe(&self, path: &str) -> Result<(u16, Option<String>)> {
        let url = format!("{}{}", self.cfg.base_url, path);
        let fail = |e: reqwest::Error| {
            errors::from_transport(
                &self.cfg.redactor,
                e,
                &Method::GET,
                &self.cfg.base_url,
                path,
                self.cfg.timeout,
            )
            .redacted_by(&self.cfg.redactor)
        };
        let client = self.client_for(&url).map_err(fail)?;
        self.log_request(&Method::GET, &url, false, None);
        let resp = client.get(&url).send().await.map_err(fail)?;
        let date = resp
            .headers()
            .get(reqwest::header::DATE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        Ok((resp.status().as_u16(), date))
    }

    /// Send a GET whose body is read as it arrives (a log): the response
    /// and its first chunk (`None` for an empty body). Only up to that
    /// chunk is the request sent again on a stall or a cut: after it, what
    /// arrived may have been shown already.
    pub(crate) async fn open(
        &self,
        path: &str,
        bearer: Option<&Secret>,
    ) -> Result<(Response, Option<Bytes>)> {
        self.exchange::<FirstChunk>(Method::GET, path, bearer, Retry::Idempotent, None)
            .await
            .map_err(|e| e.redacted_by(&self.cfg.redactor))
    }

    /// One request, with its retries: `K` reads what the caller needs of
    /// a successful response within the same attempt.
    async fn exchange<K: Take>(
        &self,
        method: Method,
        path: &str,
        bearer: Option<&Secret>,
        retry: Retry,
        sent: Option<Sent<'_>>,
    ) -> Result<K::Out> {
        let url = format!("{}{}", self.cfg.base_url, path);
        let r = &self.cfg.redactor;
        let mut attempt = 0u32;
        // What the service asked to wait so far (`MAX_ASKED_WAITS`).
        let mut asked_waits = Duration::ZERO;
        let cap = self.cfg.max_asked_waits;
        loop {
            let outcome = self.send_following(&method, &url, bearer, sent).await;
            let (wait, why) = match outcome {
                Ok(resp) if resp.status().is_success() => {
                    match K::take(resp, &method, path).await {
                        Ok(v) => return Ok(v),
                        Err(BodyError::TooLarge(e)) => return Err(started(e, retry)),
                        Err(BodyError::Read(e)) => {
                            let err = errors::from_body(r, e);
                            match retry_wait_for_body(retry, attempt, self.cfg.retries)
                                .filter(|w| self.fits(*w))
                            {
                                Some(w) => (w, format!(": {}", self.error_text(&err))),
                                None => return Err(started(err, retry)),
                            }
                        }
                    }
                }
                Ok(resp) => {
                    let wanted =
                        retry_wait_for_status(&resp, &method, retry, attempt, self.cfg.retries);
                    let asked = retry_after_asked(&resp);
                    // More than the cap in all, or in one wait (Retry-After:
                    // 999999): said at once rather than waited out in part.
                    let over_cap = wanted
                        .is_some_and(|w| asked.is_some_and(|a| a > cap || asked_waits + w > cap));
                    match wanted.filter(|w| self.fits(*w) && !over_cap) {
                        Some(w) => {
                            if asked.is_some() {
                                asked_waits += w;
                            }
                            self.announce_long_wait(&resp, w);
                            (w, format!(" HTTP {}", resp.status().as_u16()))
                        }
                        None => {
                            let past_deadline = wanted.is_some();
                            let header = errors::retry_after_header(&resp);
                            let e = errors::from_response(r, resp, &method, path).await;
                            // A 429's message names its Retry-After; any
                            // other status's (a 503) is told it here.
                            let said = |e: Error, beyond: &str| match (e.status, asked) {
                                (Some(429), _) | (_, None) => e,
                                (_, Some(a)) => {
                                    errors::asked_to_wait(r, e, a, header.as_deref(), beyond)
                                }
                            };
                            return Err(if over_cap {
                                said(e, "more than is waited in all for one request")
                                    .with_cause(Cause::WaitBeyondCap)
                            } else if past_deadline && (e.status == Some(429) || asked.is_some()) {
                                said(e, "longer than the deadline allows")
                                    .with_cause(Cause::WaitBeyondDeadline)
                            } else {
                                e
                            });
                        }
                    }
                }
                Err(e) => match retry_wait_for_error(&e, retry, attempt, self.cfg.retries)
                    .filter(|w| self.fits(*w))
                {
                    Some(w) => (w, format!(": {}", describe(r, &e))),
                    None => {
                        return Err(errors::from_transport(
                            r,
                            e,
                            &method,
                            &self.cfg.base_url,
                            path,
                            self.cfg.timeout,
                        ));
                    }
                },
            };
            self.note(&format!("retrying in {} after{why}", fmt_wait(wait)));
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    /// A wait the service asked for (`Retry-After`) that a person would
    /// notice is said, whatever the log level: the caller is not hung.
    fn announce_long_wait(&self, resp: &Response, w: Duration) {
        if let Some(log) = &self.cfg.log
            && w > LONG_WAIT
            && retry_after(resp).is_some()
        {
            log.note(&format!(
                "the service asked to wait {} (Retry-After, HTTP {}); waiting (at most {} in all for one request)",
                fmt_wait(w),
                resp.status().as_u16(),
                fmt_wait(self.cfg.max_asked_waits)
            ));
        }
    }

    /// The read timeout in effect: the longest wait with no progress.
    pub(crate) fn timeout(&self) -> Duration {
        self.cfg.timeout
    }

    /// Whether the request log wants lines of `level`.
    pub(crate) fn logs(&self, level: u8) -> bool {
        self.cfg.log.as_ref().is_some_and(|l| l.level() >= level)
    }

    /// A warning about what the server sent, said whatever the level (and
    /// nowhere without a log): `RequestLog::warn`.
    pub(crate) fn warner(&self) -> super::log::Warn {
        match &self.cfg.log {
            Some(log) => {
                let log = log.clone();
                std::sync::Arc::new(move |s: &str| log.warn(s))
            }
            None => std::sync::Arc::new(|_: &str| {}),
        }
    }

    /// A line of the request log (level 1), for what the layers above say
    /// of a request (a fallback to another form).
    pub(crate) fn log_line(&self, line: &str) {
        if self.logs(1)
            && let Some(log) = &self.cfg.log
        {
            log.line(line);
        }
    }

    /// An error as the request log words it.
    fn error_text(&self, e: &Error) -> String {
        match &self.cfg.log {
            Some(log) => log.error_text(e),
            None => e.message.clone(),
        }
    }

    /// Whether a pause of `w` still leaves time for the retry before the
    /// caller's deadline.
    fn fits(&self, w: Duration) -> bool {
        self.cfg.deadline.is_none_or(|d| Instant::now() + w < d)
    }

    async fn send_following(
        &self,
        method: &Method,
        url: &str,
        bearer: Option<&Secret>,
        sent: Option<Sent<'_>>,
    ) -> reqwest::Result<Response> {
        let first = Url::parse(url).ok();
        let base = Url::parse(self.base_url()).ok();
        let mut url = url.to_string();
        let mut hops = 0;
        loop {
            // The bearer token goes only where the first request went, and
            // within the service's path prefix: a service is its origin and
            // prefix, so a redirect from /tenant-a to /tenant-b of the same
            // host reaches another service (the hop is followed without it).
            let in_service = match (&first, Url::parse(&url).ok()) {
                (Some(a), Some(b)) => {
                    a.origin() == b.origin() && base.as_ref().is_none_or(|base| within(base, &b))
                }
                _ => false,
            };
            let mut req = self.client_for(&url)?.request(method.clone(), &url);
            if let (Some(t), true) = (bearer, in_service) {
                req = req.bearer_auth(t.expose());
            }
            if let Some(b) = sent {
                req = req
                    .header(reqwest::header::CONTENT_TYPE, b.content_type())
                    .body(b.bytes().clone());
            }
            self.log_request(method, &url, in_service && bearer.is_some(), sent);
            let started = Instant::now();
            let resp = req.send().await?;
            self.log_response(method, &url, &resp, started, sent);
            let location = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|l| Url::parse(&url).ok()?.join(l).ok());
            // A POST is never re-sent to another address: a 301 answered by
            // re-posting (or by a GET, as clients often do) is how a run start
            // silently goes wrong.
            let follow =
                *method == Method::GET && resp.status().is_redirection() && hops < MAX_REDIRECTS;
            match location {
                Some(next) if follow && may_follow(first.as_ref(), &next) => {
                    url = next.to_string();
                    hops += 1;
                }
                _ => return Ok(resp),
            }
        }
    }

    fn log_request(&self, method: &Method, url: &str, with_bearer: bool, sent: Option<Sent<'_>>) {
        if self.logs(2) {
            let auth = if with_bearer {
                "\n> authorization: Bearer ***"
            } else {
                ""
            };
            let sent = sent
                .map(|b| sent_body(&self.cfg.redactor, b))
                .unwrap_or_default();
            self.note(&format!(
                "> {method} {}{auth}{sent}",
                redact_url(&self.cfg.redactor, url)
            ));
        }
    }

    fn log_response(
        &self,
        method: &Method,
        url: &str,
        resp: &Response,
        started: Instant,
        sent: Option<Sent<'_>>,
    ) {
        if !self.logs(1) {
            return;
        }
        let bytes = resp
            .content_length()
            .map(|n| format!("{n}B"))
            .unwrap_or_else(|| "-".into());
        // What was sent goes last, so the fields before it keep their places.
        let sent = sent
            .map(|b| format!(", sent {}B", b.bytes().len()))
            .unwrap_or_default();
        self.note(&format!(
            "{method} {} {} {}ms {bytes}{sent}",
            path_of(&redact_url(&self.cfg.redactor, url)),
            resp.status().as_u16(),
            started.elapsed().as_millis()
        ));
        if self.logs(2) {
            for (k, v) in resp.headers() {
                let v = v.to_str().unwrap_or("<binary>");
                self.note(&format!("< {k}: {v}"));
            }
        }
    }

    /// Log a response body at level 2, shortened and redacted; a token
    /// endpoint's (`token`) with every value but the plain ones masked
    /// (`redact_token_body`).
    fn log_body_of(&self, body: &[u8], token: bool) {
        if self.logs(2) {
            const MAX: usize = 4096;
            let text = String::from_utf8_lossy(&body[..body.len().min(MAX)]);
            let more = if body.len() > MAX {
                format!(" … ({} more bytes)", body.len() - MAX)
            } else {
                String::new()
            };
            // The server chose these bytes: a line break in them must not
            // start a line of its own in the request log.
            let redacted = match token {
                true => super::redact::redact_token_body(&self.cfg.redactor, &text),
                false => redact_json_tokens(&self.cfg.redactor, &text),
            };
            let shown = crate::text::escape(&redacted).into_owned();
            self.note(&format!("< {shown}{more}"));
        }
    }

    /// A successful response's JSON body (logged at level 2) as `T`, naming
    /// the field that does not fit.
    pub(crate) fn decode<T: DeserializeOwned>(&self, body: &[u8], path: &str) -> Result<T> {
        let shown = path.split('?').next().unwrap_or("");
        self.log_body_of(body, shown.starts_with("/v1/oauth/token"));
        errors::decode_json(body).map_err(|e| {
            // A decoding error may quote a value: a token endpoint's tokens
            // are retired into the registry and scrubbed from it.
            let e = if shown.starts_with("/v1/oauth/token") {
                redact_json_tokens(&self.cfg.redactor, &String::from_utf8_lossy(body));
                // A value in the wrong field may still be a token: none is
                // quoted, the field and the type say what is wrong.
                unquote(&e)
            } else {
                e
            };
            let e = self.cfg.redactor.scrub(&e);
            Error::server(format!("unexpected response body from {shown}: {e}"))
                .redacted_by(&self.cfg.redactor)
        })
    }

    fn note(&self, line: &str) {
        self.log_line(line);
    }
}

/// `text` with what it quotes (`"..."`, as serde quotes a value) as `"***"`.
fn unquote(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for c in text.chars() {
        match (c, inside) {
            ('"', false) => {
                inside = true;
                out.push_str("\"***");
            }
            ('"', true) => {
                inside = false;
                out.push('"');
            }
            (_, true) => {}
            (c, false) => out.push(c),
        }
    }
    out
}

/// Whether a redirect from the request first sent (`first`) to `next` may
/// be followed: within its origin always; to another origin only when the
/// request carried no query, as a query may hold credentials (the token
/// endpoint's holds the client secret). The bearer header never goes to
/// another origin either way (`send_following`).
fn may_follow(first: Option<&Url>, next: &Url) -> bool {
    first.is_some_and(|f| f.query().is_none() || f.origin() == next.origin())
}

/// Whether `url` is within the service `base` names: its origin, and its
/// path prefix as a whole segment (`/api` holds `/api/v1`, not `/api2`).
fn within(base: &Url, url: &Url) -> bool {
    let prefix = base.path().trim_end_matches('/');
    let path = url.path();
    base.origin() == url.origin()
        && path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A request body as the request log shows it at level 2: its headers and its start, never all
/// of a large one (an input can be tens of MB, and is the user's data),
/// redacted like every logged body (a form's secret values as `***`).
fn sent_body(r: &Redactor, sent: Sent<'_>) -> String {
    const MAX: usize = 256;
    let body = sent.bytes();
    if let Sent::Form(b) = sent {
        return format!(
            "\n> content-type: {}\n> content-length: {}\n> {}",
            sent.content_type(),
            b.len(),
            redact_form(r, &String::from_utf8_lossy(b))
        );
    }
    let head = String::from_utf8_lossy(&body[..body.len().min(MAX)]);
    // A cut UTF-8 sequence shows as one replacement character at the end.
    let more = if body.len() > MAX {
        format!(" … ({} more bytes)", body.len() - MAX)
    } else {
        String::new()
    };
    format!(
        "\n> content-type: application/json\n> content-length: {}\n> {}{more}",
        body.len(),
        redact_json_tokens(r, &head)
    )
}

fn build_client(cfg: &TransportConfig, tls: bool) -> reqwest::Result<reqwest::Client> {
    let mut b = reqwest::Client::builder()
        // Redirects are followed by hand below: only for GET, and without
        // the bearer token when the host changes.
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(cfg.connect_timeout)
        // Per read, not per request: the first byte of a big log may take
        // long, and its body must never be cut while it keeps arriving.
        .read_timeout(cfg.timeout)
        .user_agent(cfg.user_agent.as_str());
    if !tls {
        b = no_trust_store(b);
    }
    b.build()
}

/// An empty trust store skips loading the platform's certificates, for a
/// client only ever handed `http://` URLs.
#[cfg(any(feature = "default-tls", feature = "rustls-no-provider"))]
pub(crate) fn no_trust_store(b: reqwest::ClientBuilder) -> reqwest::ClientBuilder {
    b.tls_certs_only([])
}

/// Without a TLS feature there is no store to skip.
#[cfg(not(any(feature = "default-tls", feature = "rustls-no-provider")))]
pub(crate) fn no_trust_store(b: reqwest::ClientBuilder) -> reqwest::ClientBuilder {
    b
}

fn fmt_wait(d: Duration) -> String {
    crate::time::human_ms(d.as_millis() as i64)
}

/// A body that failed after a successful status: a run start (the one
/// request never repeated) did start.
fn started(e: Error, retry: Retry) -> Error {
    match retry {
        Retry::NotSent => e.with_may_have_started(),
        Retry::Idempotent => e,
    }
}

fn path_of(url: &str) -> String {
    match Url::parse(url) {
        Ok(u) => match u.query() {
            Some(q) => format!("{}?{}", u.path(), q),
            None => u.path().to_string(),
        },
        Err(_) => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_is_set_up_only_for_https() {
        let cfg = TransportConfig::new;
        let t = Transport::new(cfg("http://127.0.0.1:9")).unwrap();
        assert!(t.plain.get().is_some() && t.tls.get().is_none());
        // A redirect to https builds the TLS client then, once.
        let a: *const reqwest::Client = t.client_for("HTTPS://127.0.0.1:9/x").unwrap();
        let b: *const reqwest::Client = t.client_for("https://127.0.0.1:9/y").unwrap();
        assert!(std::ptr::eq(a, b) && t.tls.get().is_some());
        let t = Transport::new(cfg("https://127.0.0.1:9")).unwrap();
        assert!(t.plain.get().is_none() && t.tls.get().is_some());
    }

    #[test]
    fn the_bearer_stays_within_the_services_path_prefix() {
        let u = |s: &str| Url::parse(s).unwrap();
        let base = u("http://127.0.0.1:8080/tenant-a");
        assert!(within(&base, &u("http://127.0.0.1:8080/tenant-a/v1/x")));
        assert!(within(&base, &u("http://127.0.0.1:8080/tenant-a")));
        assert!(!within(&base, &u("http://127.0.0.1:8080/tenant-b/v1/x")));
        assert!(!within(&base, &u("http://127.0.0.1:8080/tenant-ab/v1")));
        assert!(!within(&base, &u("http://localhost:8080/tenant-a/v1")));
        assert!(within(
            &u("http://127.0.0.1:8080"),
            &u("http://127.0.0.1:8080/any")
        ));
    }

    #[test]
    fn a_query_never_follows_a_redirect_to_another_origin() {
        let u = |s: &str| Url::parse(s).unwrap();
        let token = u("http://127.0.0.1:1/v1/oauth/token?client_secret=s");
        assert!(!may_follow(
            Some(&token),
            &u("http://localhost:1/v1/oauth/token")
        ));
        assert!(!may_follow(Some(&token), &u("https://127.0.0.1:1/x")));
        assert!(may_follow(Some(&token), &u("http://127.0.0.1:1/other")));
        let plain = u("http://127.0.0.1:1/v1/stats/x");
        assert!(may_follow(
            Some(&plain),
            &u("http://localhost:1/v1/stats/x")
        ));
        assert!(!may_follow(None, &plain));
    }
}
