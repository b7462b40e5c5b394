//! `ylemctl metrics serve`: a Prometheus exporter. `/metrics` is the
//! exposition of `status -o prometheus`, answered within `--scrape-timeout`
//! from fetches shared for `--cache` (`scrapes.rs`), served with a header
//! timeout, a connection cap and, by `--web-config-file`, TLS and basic
//! auth (`web_serve.rs`, `web_auth.rs`). Ctrl-C or SIGTERM stops it
//! accepting; the scrapes in flight are answered (within 5 s, with what is
//! in by then), then it exits 0.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::{mpsc, oneshot, watch};

use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::signals::DRAIN;
use crate::commands::kit::targets;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::monitor::args::{MetricsArgs, MetricsCommand, ServeArgs};
use crate::commands::monitor::serve::scrapes::{self, Ask};
use crate::commands::monitor::serve::web_auth::{self, Auth};
use crate::commands::monitor::serve::web_config::WebConfig;
use crate::commands::monitor::serve::web_serve::{self, Live, TlsListener};
use crate::context::Context;
use crate::error::{Error, Result};

const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The exporter serves until Ctrl-C or SIGTERM stops it, cleanly.
pub const CONDUCT: Conduct = Conduct::client("metrics").server().no_json();

pub const COMMAND: Entry = Entry {
    command: <MetricsArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: MetricsArgs = wing::args(m);
        wing::done(async move { run(&args.command, ctx).await })
    },
};

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
    if a.scrape_timeout.is_zero() {
        return Err(
            Error::usage("--scrape-timeout 0s: a scrape needs some time")
                .with_hint("the default is 8s, below Prometheus' default scrape timeout of 10s"),
        );
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
    let stop = crate::commands::kit::signals::stop_now();
    let addr = listener
        .local_addr()
        .map_err(|e| Error::internal(format!("listening socket: {e}")))?;
    let tls = config.as_ref().is_some_and(|c| c.tls.is_some());
    ctx.write_out(
        format!(
            "Serving {}://{addr}/metrics for {} (cache {}, scrape timeout {}) until Ctrl-C or SIGTERM.\n",
            if tls { "https" } else { "http" },
            crate::count::count(targets.len(), "entity", "entities"),
            crate::time::human_ms(a.cache.as_millis() as i64),
            crate::time::human_ms(a.scrape_timeout.as_millis() as i64)
        )
        .as_bytes(),
    )?;
    // Scrapes are served by spawned tasks; fetching stays on this one, in
    // `scrapes::answer`, which answers each by its deadline.
    let (tx, rx) = mpsc::channel::<Ask>(64);
    let mut app = Router::new()
        .route("/metrics", get(metrics))
        .route("/", get(index))
        .with_state(Scrape {
            tx,
            within: a.scrape_timeout,
        });
    if let Some(w) = &web {
        let auth = Arc::new(Auth::new(w.clone(), ctx.ui));
        app = app.layer(from_fn_with_state(auth, web_auth::basic_auth));
    }
    // A stop ends the accepting and answers the scrapes waiting soon;
    // the router (and with it the last sender) is dropped once the
    // connections in flight are answered, which ends `answer` too.
    let (stopped, stopping) = watch::channel(false);
    let server = async {
        match web {
            Some(w) if tls => {
                let l = TlsListener::new(listener, w);
                web_serve::serve(l, app, stopping.clone()).await;
            }
            _ => web_serve::serve(listener, app, stopping.clone()).await,
        }
    };
    let answers = scrapes::answer(ctx, &api, &targets, a.cache, rx, stopping.clone());
    let mut both = std::pin::pin!(async {
        tokio::join!(server, answers);
    });
    tokio::select! {
        () = &mut both => return Ok(()),
        _ = stop => {
            let _ = stopped.send(true);
        }
    }
    // A client may hold its connection open: it is not waited for long.
    tokio::select! {
        () = both => {}
        () = tokio::time::sleep(DRAIN) => {}
    }
    Ok(())
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

/// What `/metrics` needs: the way to `answer`, and `--scrape-timeout`.
#[derive(Clone)]
struct Scrape {
    tx: mpsc::Sender<Ask>,
    within: Duration,
}

async fn metrics(State(s): State<Scrape>, headers: HeaderMap) -> Response {
    let theirs = headers
        .get("x-prometheus-scrape-timeout-seconds")
        .and_then(|v| v.to_str().ok());
    let (reply, text) = oneshot::channel();
    let ask = Ask {
        reply,
        within: scrapes::deadline(s.within, theirs),
    };
    if s.tx.send(ask).await.is_err() {
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
