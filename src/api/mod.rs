//! The thin HTTP layer: one async function per endpoint of the service,
//! returning typed models or a typed error. It never prints (but the request
//! log) and never touches the credential store.

pub mod errors;
pub mod models;
pub mod stream;
pub mod transport;

use std::sync::Arc;

use bytes::Bytes;
use chrono::NaiveDate;
use futures_util::{Stream, StreamExt};
use reqwest::{Method, Response, Url};
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::auth::TokenSource;
use crate::cli::{Kind, Period, RunKind};
use crate::error::{Error, Result};
use crate::secret::Secret;
use crate::time::{Window, path_datetime};
use models::{Aggregated, LastRun, LogEntry, RangeStats, RunStart, TokenResponse};
pub use transport::{Retry, Transport, TransportConfig};

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

fn segment(kind: Kind) -> &'static str {
    match kind {
        Kind::Task => "tasks",
        Kind::Pipeline => "pipelines",
        Kind::Workflow => "workflows",
    }
}

/// Endpoint 1, client credentials: query parameters and an empty body, no bearer.
pub async fn fetch_token(t: &Transport, client_id: &str, secret: &Secret) -> Result<TokenResponse> {
    token_request(
        t,
        &[
            ("grant_type", "client_credentials"),
            ("client_id", client_id),
            ("client_secret", secret.expose()),
        ],
    )
    .await
}

/// Endpoint 1 with the refresh grant the real server offers.
pub async fn refresh_token(
    t: &Transport,
    client_id: &str,
    refresh: &Secret,
) -> Result<TokenResponse> {
    token_request(
        t,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", client_id),
            ("refresh_token", refresh.expose()),
        ],
    )
    .await
}

async fn token_request(t: &Transport, params: &[(&str, &str)]) -> Result<TokenResponse> {
    let mut u =
        Url::parse("http://x/v1/oauth/token").map_err(|e| Error::internal(e.to_string()))?;
    u.query_pairs_mut().extend_pairs(params);
    let path = format!("{}?{}", u.path(), u.query().unwrap_or(""));
    let resp = t.send(Method::POST, &path, None, Retry::Idempotent).await?;
    decode(t, resp, "/v1/oauth/token").await
}

async fn decode<T: DeserializeOwned>(t: &Transport, resp: Response, path: &str) -> Result<T> {
    let body = resp.bytes().await.map_err(|e| errors::from_body(&e))?;
    t.log_body(&body);
    errors::decode_json(&body)
        .map_err(|e| Error::server(format!("unexpected response body from {path}: {e}")))
}

/// The authenticated endpoints (2 to 13).
pub struct Api {
    transport: Transport,
    auth: Arc<dyn TokenSource>,
}

impl Api {
    pub fn new(transport: Transport, auth: Arc<dyn TokenSource>) -> Self {
        Api { transport, auth }
    }

    pub fn transport(&self) -> &Transport {
        &self.transport
    }

    /// Send with the bearer token; on a 401 get a fresh token and repeat once.
    async fn send(&self, method: Method, path: &str, retry: Retry) -> Result<Response> {
        let token = self.auth.token(&self.transport, None).await?;
        match self
            .transport
            .send(method.clone(), path, Some(&token), retry)
            .await
        {
            Err(e) if e.is_unauthorized() => {
                if !self.auth.can_renew() {
                    return Err(
                        e.with_hint("the token given in YLEM_TOKEN was rejected: get a new one")
                    );
                }
                let fresh = self.auth.token(&self.transport, Some(&token)).await?;
                self.transport.send(method, path, Some(&fresh), retry).await.map_err(|e| {
                    if e.is_unauthorized() {
                        Error::auth(format!("{} (again, with a fresh token)", e.message)).with_status(401).with_hint(
                            "the credentials give tokens the service does not accept: check the base URL and the client",
                        )
                    } else {
                        e
                    }
                })
            }
            other => other,
        }
    }

    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T> {
        let resp = self.send(Method::GET, path, Retry::Idempotent).await?;
        decode(&self.transport, resp, path).await
    }

    /// Endpoints 2 and 3: start a run. Never retried once it may have arrived.
    pub async fn start_run(&self, kind: RunKind, id: Uuid) -> Result<RunStart> {
        let seg = match kind {
            RunKind::Pipeline => "pipelines",
            RunKind::Workflow => "workflows",
        };
        let path = format!("/v1/{seg}/{id}/runs/");
        let resp = self.send(Method::POST, &path, Retry::NotSent).await?;
        let start: RunStart = decode(&self.transport, resp, &path)
            .await
            .map_err(|e| e.with_hint(errors::MAY_HAVE_STARTED))?;
        // Without a run UUID there is nothing to report or follow: an empty
        // answer is not a run that finished at once.
        if start.run_uuid().is_none_or(|r| r.trim().is_empty()) {
            return Err(
                Error::server(format!("the run start of {id} returned no run record"))
                    .with_hint(errors::MAY_HAVE_STARTED),
            );
        }
        Ok(start)
    }

    /// Endpoint 4: a pipeline's run log, streamed.
    pub async fn pipeline_logs(&self, id: Uuid, w: &Window) -> Result<LogStream> {
        let path = format!(
            "/v1/stats/pipelines/{id}/logs/{}/{}",
            path_datetime(w.from),
            path_datetime(w.to)
        );
        let resp = self.send(Method::GET, &path, Retry::Idempotent).await?;
        let body = resp
            .bytes_stream()
            .map(|r| r.map_err(|e| errors::from_body(&e)));
        Ok(stream::ArrayStream::new(Box::pin(body)))
    }

    /// Endpoints 5 to 7: consolidated statistics over a window.
    pub async fn range_stats(&self, kind: Kind, id: Uuid, w: &Window) -> Result<RangeStats> {
        let path = format!(
            "/v1/stats/{}/{id}/stats/{}/{}",
            segment(kind),
            path_datetime(w.from),
            path_datetime(w.to)
        );
        self.get(&path).await
    }

    /// Endpoints 8 to 10: statistics per period. `null` is an empty list.
    pub async fn aggregated_stats(
        &self,
        kind: Kind,
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
        let period = format!("{period:?}").to_lowercase();
        let path = format!(
            "/v1/stats/{}/{id}/aggregated-stats/{date}/{period}/{count}",
            segment(kind)
        );
        let v: Option<Vec<Aggregated>> = self.get(&path).await?;
        Ok(v.unwrap_or_default())
    }

    /// Endpoints 11 to 13: the last run; `None` when the server says it never ran.
    pub async fn last_run(&self, kind: Kind, id: Uuid) -> Result<Option<LastRun>> {
        let path = format!("/v1/stats/{}/{id}/last-run/stats", segment(kind));
        match self.get(&path).await {
            Ok(v) => Ok(Some(v)),
            // The open-source server answers 403 with a statistics error body
            // for something that never ran; an empty 403 is a missing scope.
            Err(e) if e.http_status == Some(403) && e.message.contains(&format!("{path}: ")) => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
}

/// A stream of log entries with the `--run` and `--failed` filters applied.
pub async fn next_entry(
    s: &mut LogStream,
    run: Option<&str>,
    failed_only: bool,
) -> Result<Option<LogEntry>> {
    next_entry_or_idle(s, run, failed_only, &mut || Ok(())).await
}

/// `next_entry`, calling `idle` before each wait for more of the response
/// (the printer flushes there).
pub async fn next_entry_or_idle(
    s: &mut LogStream,
    run: Option<&str>,
    failed_only: bool,
    idle: &mut dyn FnMut() -> Result<()>,
) -> Result<Option<LogEntry>> {
    while let Some(e) = s.next_or_idle::<LogEntry>(idle).await? {
        if failed_only && e.is_successful {
            continue;
        }
        if run.is_some_and(|r| !e.workflow_run_uuid.eq_ignore_ascii_case(r)) {
            continue;
        }
        return Ok(Some(e));
    }
    Ok(None)
}
