//! `Client`: the service's endpoints 2 to 13, one async method each,
//! returning typed models or a typed error; each request carries a token
//! from `auth` and goes out through `http`; and the log read entry by
//! entry (`next_entry`, `each_entry`, `each_entry_apart`).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use chrono::NaiveDate;
use futures_util::{Stream, StreamExt};
use reqwest::Method;
use serde::de::DeserializeOwned;
use uuid::Uuid;

use super::models::{Aggregated, LastRun, LogEntry, LogEntryRef, RangeStats, RunStart};
use super::{entry_scan, relay, stream};
use crate::auth::TokenSource;
use crate::error::{Cause, Error, Result};
use crate::http::{Retry, Sent, Transport, errors};
use crate::kinds::{Entity, Period, RunKind};
use crate::secret::Secret;
use crate::time::{Window, path_datetime, path_datetime_end};

/// How the aggregate `date_from` segment is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateForm {
    /// `YYYY-MM-DD`, as the spec says.
    Date,
    /// `YYYY-MM-DD 00:00:00`, as the open-source server needs.
    DateTime,
}

/// A pipeline's log, decoded entry by entry as it arrives.
pub type LogStream =
    stream::ArrayStream<std::pin::Pin<Box<dyn Stream<Item = Result<Bytes>> + Send>>>;

/// The authenticated endpoints (2 to 13). Cheap to clone: clones share one
/// transport, token source and store, so one token serves them all. `Send`
/// and `Sync`, and so is every request future.
#[derive(Clone)]
pub struct Client(Arc<Inner>);

struct Inner {
    transport: Transport,
    auth: TokenSource,
    kept: super::kept::Kept,
    /// The settle setting every run judged through this client is judged
    /// by (`runs::finished::Settle::Given`), when the caller gives one.
    settle: Option<Duration>,
}

/// The settings, never a secret: the token source by its kind.
impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("transport", &self.0.transport)
            .field("token_source", &self.0.auth)
            .field("kept", &self.0.kept)
            .field("settle", &self.0.settle)
            .finish()
    }
}

impl Client {
    pub(crate) fn with_parts(
        transport: Transport,
        auth: TokenSource,
        kept: super::kept::Kept,
        settle: Option<Duration>,
    ) -> Self {
        let auth = auth.held_by(transport.redactor());
        Client(Arc::new(Inner {
            transport,
            auth,
            kept,
            settle,
        }))
    }

    /// The settle setting runs are judged by, when one was given
    /// (`ClientBuilder::settle`).
    pub fn settle(&self) -> Option<Duration> {
        self.0.settle
    }

    /// What this client keeps of answers that never change.
    pub(crate) fn kept(&self) -> &super::kept::Kept {
        &self.0.kept
    }

    /// Where the tokens come from.
    pub(crate) fn token_source(&self) -> &TokenSource {
        &self.0.auth
    }

    /// The redactor that scrubs what this client shows, and holds the
    /// secrets it is given and learns (`ClientBuilder::redactor`).
    pub fn redactor(&self) -> &crate::secret::Redactor {
        self.0.transport.redactor()
    }

    /// The base URL every request goes to.
    pub fn base_url(&self) -> &str {
        self.0.transport.base_url()
    }

    /// `request` with the bearer token; on a 401 a fresh token and once
    /// more. A 401 is answered before a run starts, so repeating a run
    /// start with a fresh token cannot start a second run.
    ///
    /// The request gets its token by value (a clone), so that its future
    /// borrows nothing of this one's and stays `Send`.
    async fn authorised<T, F, Fut>(&self, request: F) -> Result<T>
    where
        F: Fn(Secret) -> Fut,
        Fut: std::future::Future<Output = Result<T>>,
    {
        // Every token is held by this client's redactor, a provider's too.
        let r = self.0.transport.redactor();
        let token = r.hold(self.0.auth.token(&self.0.transport, None).await?);
        match request(token.clone()).await {
            Err(e) if e.is_unauthorized() => {
                if !self.0.auth.can_renew() {
                    return Err(e.with_cause(Cause::FixedTokenRejected));
                }
                let fresh = r.hold(self.0.auth.token(&self.0.transport, Some(&token)).await?);
                request(fresh).await.map_err(|e| {
                    if e.is_unauthorized() {
                        // The token endpoint has just issued it: the
                        // credentials work, so this is the plan check.
                        Error::auth(format!(
                            "{} (again, with a token issued a moment ago: the organisation's plan has the API switched off)",
                            e.message
                        ))
                            .with_status(401)
                            .with_cause(Cause::FreshTokenRejected)
                            .redacted_by(r)
                    } else {
                        e
                    }
                })
            }
            other => other,
        }
    }

    /// A GET read whole (bounded; a stalled or cut-off body is asked again).
    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T> {
        let t = &self.0.transport;
        let body = self
            .authorised(|token| async move {
                t.fetch(Method::GET, path, Some(&token), Retry::Idempotent, None)
                    .await
            })
            .await?;
        t.decode(&body, path)
    }

    /// Endpoints 2 and 3: start a run. Never retried once it may have arrived.
    pub async fn start_run(&self, kind: RunKind, id: Uuid) -> Result<RunStart> {
        self.start_run_with(kind, id, None).await
    }

    /// `start_run` with an input: JSON sent as the body, byte for byte (the
    /// open-source server hands it to the pipeline's initial tasks).
    pub async fn start_run_with(
        &self,
        kind: RunKind,
        id: Uuid,
        input: Option<&Bytes>,
    ) -> Result<RunStart> {
        let path = format!("/v1/{}/{id}/runs/", kind.entity().segment());
        let (t, p) = (&self.0.transport, path.as_str());
        let body = self
            .authorised(|token| async move {
                t.fetch(
                    Method::POST,
                    p,
                    Some(&token),
                    Retry::NotSent,
                    input.map(Sent::Json),
                )
                .await
            })
            .await?;
        let start: RunStart = t
            .decode(&body, &path)
            .map_err(Error::with_may_have_started)?;
        // Without a run UUID there is nothing to report or follow: an empty
        // answer is not a run that finished at once.
        if start.run_uuid().is_none_or(|r| r.trim().is_empty()) {
            return Err(
                Error::server(format!("the run start of {id} returned no run record"))
                    .with_may_have_started(),
            );
        }
        // A run UUID that is no UUID, or two runs for one start: the run
        // may have started, but which one to report or follow is unknown.
        if let Some(problem) = start.run_uuid_problem() {
            return Err(
                Error::server(format!("the run start of {id} answered {problem}"))
                    .with_may_have_started(),
            );
        }
        Ok(start)
    }

    /// Endpoint 4: a pipeline's run log, streamed. The request is asked
    /// again on a stall or cut-off only until the body's first chunk, when
    /// nothing of it can have been shown; after that a failure ends the
    /// stream (entries already printed are never printed twice).
    pub async fn pipeline_logs(&self, id: Uuid, w: &Window) -> Result<LogStream> {
        let path = format!(
            "/v1/stats/pipelines/{id}/logs/{}/{}",
            path_datetime(w.from),
            path_datetime_end(w.to)
        );
        let (t, p) = (&self.0.transport, path.as_str());
        let (resp, first) = self
            .authorised(|token| async move { t.open(p, Some(&token)).await })
            .await?;
        let red = t.redactor().clone();
        let rest = resp
            .bytes_stream()
            .map(move |r| r.map_err(|e| errors::from_body(&red, e).redacted_by(&red)));
        let body = futures_util::stream::iter(first.map(Ok)).chain(rest);
        let body: std::pin::Pin<Box<dyn Stream<Item = Result<Bytes>> + Send>> = Box::pin(body);
        Ok(stream::ArrayStream::new(body, t.timeout()).with_warn(t.warner()))
    }

    /// Endpoints 5 to 7: consolidated statistics over a window.
    pub async fn range_stats(&self, kind: Entity, id: Uuid, w: &Window) -> Result<RangeStats> {
        let path = format!(
            "/v1/stats/{}/{id}/stats/{}/{}",
            kind.segment(),
            path_datetime(w.from),
            path_datetime_end(w.to)
        );
        self.get(&path).await
    }

    /// Endpoints 8 to 10: statistics per period. `null` is an empty list.
    pub async fn aggregated_stats(
        &self,
        kind: Entity,
        id: Uuid,
        from: NaiveDate,
        form: DateForm,
        period: Period,
        count: u32,
    ) -> Result<Vec<Aggregated>> {
        let date = match form {
            DateForm::Date => from.format("%Y-%m-%d").to_string(),
            DateForm::DateTime => from.format("%Y-%m-%d%%2000:00:00").to_string(),
        };
        let path = format!(
            "/v1/stats/{}/{id}/aggregated-stats/{date}/{period}/{count}",
            kind.segment()
        );
        let v: Option<Vec<Aggregated>> = self.get(&path).await?;
        Ok(v.unwrap_or_default())
    }

    /// Endpoints 11 to 13: the last run; `None` when the server says it never ran.
    pub async fn last_run(&self, kind: Entity, id: Uuid) -> Result<Option<LastRun>> {
        let path = format!("/v1/stats/{}/{id}/last-run/stats", kind.segment());
        match self.get(&path).await {
            Ok(v) => Ok(Some(v)),
            // The open-source server answers 403 with a statistics error body
            // for something that never ran; an empty 403 is a missing scope.
            // A spec server answers 404 with one ("no runs found"): the same
            // question for range statistics, so both dialects say "no run
            // found" alike. A 404 of no such path (a wrong base URL) is a 404
            // for range statistics too: the error it is.
            Err(e) if matches!(e.status, Some(403 | 404)) && e.server_body.is_some() => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The next log entry of run `run` (any run: `None`), of failed tasks
/// only with `failed_only`.
pub async fn next_entry(
    s: &mut LogStream,
    run: Option<&str>,
    failed_only: bool,
) -> Result<Option<LogEntry>> {
    let warn = s.warner();
    let mut decode = |_: &mut (), b: &[u8], part| {
        let Some((e, n)) = decode_entry(b, part)? else {
            return Ok(None);
        };
        Ok(Some((
            (sound(&e, &warn) && keeps(&e, run, failed_only)).then(|| e.to_owned_entry()),
            n,
        )))
    };
    while let Some(kept) = s.next_with(&mut (), &mut |_| Ok(()), &mut decode).await? {
        if kept.is_some() {
            return Ok(kept);
        }
    }
    Ok(None)
}

/// Hand each log entry that passes the filters to `f`, in order, borrowed
/// from the response buffer (decoded once, never copied). `idle` is called
/// before each wait for more of the response (the printer flushes there);
/// both get `cx`.
pub async fn each_entry<C, E: From<Error>>(
    s: &mut LogStream,
    run: Option<&str>,
    failed_only: bool,
    cx: &mut C,
    mut idle: impl FnMut(&mut C) -> Result<(), E>,
    mut f: impl FnMut(&mut C, LogEntryRef) -> Result<(), E>,
) -> Result<(), E> {
    let warn = s.warner();
    let mut decode = |cx: &mut C, b: &[u8], part| {
        let Some((e, n)) = decode_entry(b, part)? else {
            return Ok(None);
        };
        if sound(&e, &warn) && keeps(&e, run, failed_only) {
            f(cx, e)?;
        }
        Ok(Some(((), n)))
    };
    while s.next_with(cx, &mut idle, &mut decode).await?.is_some() {}
    Ok(())
}

/// `each_entry` with the entries decoded and handed to `f` on a thread of
/// their own while this task receives the response (see `relay`): `cx`
/// goes there and comes back at the end.
pub async fn each_entry_apart<C: Send + 'static, E: From<Error> + Send + 'static>(
    s: LogStream,
    run: Option<String>,
    failed_only: bool,
    cx: C,
    idle: fn(&mut C) -> Result<(), E>,
    f: fn(&mut C, LogEntryRef) -> Result<(), E>,
) -> Result<C, E> {
    let warn = s.warner();
    let decode = move |cx: &mut C, b: &[u8], part| {
        let Some((e, n)) = decode_entry(b, part)? else {
            return Ok(None);
        };
        if sound(&e, &warn) && keeps(&e, run.as_deref(), failed_only) {
            f(cx, e)?;
        }
        Ok(Some(((), n)))
    };
    relay::decode_apart(s, cx, idle, decode).await
}

/// A log entry from the start of `bytes` (see `stream::Decoded`): read
/// directly when it has the everyday shape, else by serde_json (which
/// decides what anything else means, and says what is wrong with it).
pub fn decode_entry(bytes: &[u8], part: stream::Part) -> stream::Decoded<LogEntryRef<'_>> {
    match entry_scan::scan(bytes) {
        Some(found) => Ok(Some(found)),
        None => stream::decode_prefix(bytes, part),
    }
}

/// Whether an entry is of the spec's types where the tool relies on them;
/// one that is not is left out, said by `warn` (the rest of the log is
/// still shown). After `decode_entry`, so the scanner and serde_json
/// decode alike whatever this checks.
fn sound(e: &LogEntryRef, warn: &stream::Warn) -> bool {
    match e.problem() {
        None => true,
        Some(p) => {
            warn(&format!("a log entry left out: {p}"));
            false
        }
    }
}

/// The run and failed-only filters.
fn keeps(e: &LogEntryRef, run: Option<&str>, failed_only: bool) -> bool {
    !(failed_only && e.is_successful)
        && run.is_none_or(|r| e.workflow_run_uuid.as_str().eq_ignore_ascii_case(r))
}
