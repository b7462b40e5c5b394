//! `ylemctl metrics serve`: a Prometheus exporter. `/metrics` is the
//! exposition of `status -o prometheus`, fetched on scrape but at most once
//! per `--cache` and one fetch at a time (within `--concurrency` requests),
//! so however often it is scraped the service sees a bounded load. Ctrl-C
//! or SIGTERM stops it accepting; the scrapes in flight are answered, then
//! it exits 0.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::Utc;
use tokio::sync::{mpsc, oneshot};

use super::board;
use super::rules::Rules;
use super::scrape_health::{Change, Health};
use super::signals::DRAIN;
use super::targets::{self, Target};
use super::web_config::WebConfig;
use super::web_serve::{self, Live, TlsListener};
use crate::api::Api;
use crate::cli::{MetricsCommand, ServeArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::prometheus;

/// A scrape waiting for the exposition.
type Ask = oneshot::Sender<String>;

const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The exporter serves until Ctrl-C or SIGTERM stops it, cleanly.
pub const RULES: Rules = Rules::client("metrics").server();

pub async fn run(cmd: &MetricsCommand, ctx: &Context) -> Result<()> {
    match cmd {
        MetricsCommand::Serve(a) => serve(a, ctx).await,
    }
}

async fn serve(a: &ServeArgs, ctx: &Context) -> Result<()> {
    if !a.listen.ip().is_loopback() && !a.allow_remote {
        return Err(Error::usage(format!(
            "--listen {}: not a loopback address; the metrics name your pipelines to anyone who reaches it",
            a.listen
        ))
        .with_hint("add --allow-remote to listen there anyway, or use 127.0.0.1"));
    }
    // A bad web configuration is a usage error before anything listens.
    let web = match &a.web_config_file {
        Some(p) => Some(Arc::new(Live::new(p.clone(), WebConfig::load(p)?, ctx.ui))),
        None => None,
    };
    let config = web.as_ref().map(|w| w.get());
    if !a.listen.ip().is_loopback() {
        warn_remote(ctx, config.as_deref());
    }
    let targets = targets::resolve(ctx, &a.targets.ids)?;
    let api = ctx.api()?;
    let listener = tokio::net::TcpListener::bind(a.listen).await.map_err(|e| {
        Error::network(format!("cannot listen on {}: {e}", a.listen))
            .with_hint("pick another port with --listen")
    })?;
    let stop = super::signals::stop_now();
    let addr = listener
        .local_addr()
        .map_err(|e| Error::internal(format!("listening socket: {e}")))?;
    let tls = config.as_ref().is_some_and(|c| c.tls.is_some());
    ctx.write_out(
        format!(
            "Serving {}://{addr}/metrics for {} entities (cache {}) until Ctrl-C or SIGTERM.\n",
            if tls { "https" } else { "http" },
            targets.len(),
            crate::time::human_ms(a.cache.as_millis() as i64)
        )
        .as_bytes(),
    )?;
    // Scrapes are served by spawned tasks; fetching stays on this one, so
    // one fetch runs at a time and later scrapes take its result.
    let (tx, rx) = mpsc::channel::<Ask>(64);
    let mut app = Router::new()
        .route("/metrics", get(metrics))
        .route("/", get(index))
        .with_state(tx);
    if let Some(w) = &web {
        app = app.layer(from_fn_with_state(w.clone(), web_serve::basic_auth));
    }
    // A stop ends the accepting; the router (and with it the last sender)
    // is dropped once the connections in flight are answered, which ends
    // `answer` too.
    let (stopped, drain) = oneshot::channel::<()>();
    let shutdown = async move {
        stop.await;
        let _ = stopped.send(());
    };
    let server: Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>> = match web {
        Some(w) if tls => {
            let l = TlsListener::new(listener, w);
            Box::pin(
                axum::serve(l, app)
                    .with_graceful_shutdown(shutdown)
                    .into_future(),
            )
        }
        _ => Box::pin(
            axum::serve(listener, app)
                .with_graceful_shutdown(shutdown)
                .into_future(),
        ),
    };
    let both = async {
        let (r, ()) = tokio::join!(server, answer(ctx, &api, &targets, a.cache, rx));
        r.map_err(|e| Error::network(format!("serving {addr}: {e}")))
    };
    let limit = async {
        match drain.await {
            Ok(()) => tokio::time::sleep(DRAIN).await,
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        r = both => r,
        () = limit => Ok(()),
    }
}

/// Off loopback, say what the web configuration leaves open.
fn warn_remote(ctx: &Context, config: Option<&WebConfig>) {
    if let Some(open) = left_open(config) {
        ctx.ui.warn(&format!(
            "the metrics go {open} to anyone who reaches this address: give --web-config-file with tls_server_config and basic_auth_users"
        ));
    }
}

/// What a web configuration (or none) leaves open, if anything.
fn left_open(config: Option<&WebConfig>) -> Option<&'static str> {
    let (tls, auth) = config.map_or((false, false), |c| {
        (c.tls.is_some(), !c.users.is_empty() || c.client_certs)
    });
    match (tls, auth) {
        (true, true) => None,
        (false, false) => Some("unencrypted and unauthenticated"),
        (false, true) => Some("unencrypted (basic auth passwords in clear)"),
        (true, false) => Some("unauthenticated"),
    }
}

/// Answer scrapes in turn from a cache no older than `ttl`.
async fn answer(
    ctx: &Context,
    api: &Api,
    targets: &[Target],
    ttl: Duration,
    mut rx: mpsc::Receiver<Ask>,
) {
    let mut cache: Option<(Instant, String)> = None;
    let mut health = Health::new(targets.len());
    while let Some(reply) = rx.recv().await {
        let text = match &cache {
            Some((at, text)) if at.elapsed() < ttl => text.clone(),
            _ => {
                let text = exposition(ctx, api, targets, &mut health).await;
                cache = Some((Instant::now(), text.clone()));
                text
            }
        };
        let _ = reply.send(text);
        health.scraped();
    }
}

/// One fetch of every target, as the exposition; an ID is logged when it
/// starts failing and when it recovers, not at every scrape (`ylem_up`
/// says it meanwhile).
async fn exposition(ctx: &Context, api: &Api, targets: &[Target], health: &mut Health) -> String {
    let now = Utc::now();
    let results = super::fetch::all(ctx.settings.concurrency, targets, |t| {
        board::fetch(ctx, api, t, now, None)
    })
    .await;
    for change in health.fetched(results.iter().map(Result::is_ok)) {
        match change {
            Change::Fails(i) => {
                if let (Some(t), Some(Err(e))) = (targets.get(i), results.get(i)) {
                    let what = format!(
                        "{} {}: failing, ylem_up 0 until it recovers",
                        t.kind, t.uuid
                    );
                    ctx.report(&e.clone().context(what));
                }
            }
            Change::Recovers(i, scrapes) => {
                if let Some(t) = targets.get(i) {
                    let s = if scrapes == 1 { "" } else { "s" };
                    ctx.note(&format!(
                        "{} {}: recovered after failing {scrapes} scrape{s}",
                        t.kind, t.uuid
                    ));
                }
            }
        }
    }
    let samples: Vec<_> = targets
        .iter()
        .zip(&results)
        .map(|(t, r)| board::sample(t, r))
        .collect();
    prometheus::render(&samples)
}

async fn metrics(State(tx): State<mpsc::Sender<Ask>>) -> Response {
    let (reply, text) = oneshot::channel();
    if tx.send(reply).await.is_err() {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    match text.await {
        Ok(t) => ([(header::CONTENT_TYPE, CONTENT_TYPE)], t).into_response(),
        Err(_) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}

async fn index() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        "<!doctype html><html><head><title>ylemctl exporter</title></head><body>\
         <h1>ylemctl exporter</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_remote_without_a_web_config_is_warned_about() {
        assert_eq!(left_open(None), Some("unencrypted and unauthenticated"));
    }
}
