//! `ylemctl sandbox`: serve the embedded service on loopback until Ctrl-C.

use std::net::SocketAddr;

use crate::cli::{Dialect, SandboxArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::sandbox::{self, Options};
use crate::time;

/// Check the flags and turn them into sandbox options (nothing is bound yet).
pub fn options(a: &SandboxArgs) -> Result<Options> {
    let listen: SocketAddr = a.listen.parse().map_err(|_| {
        Error::usage(format!(
            "invalid --listen '{}': use e.g. 127.0.0.1:7339",
            a.listen
        ))
    })?;
    // The sandbox prints its secret and speaks plain HTTP: keep it on this machine.
    if !listen.ip().is_loopback() {
        return Err(Error::usage(format!(
            "invalid --listen '{}': the sandbox only listens on loopback (127.0.0.1 or [::1])",
            a.listen
        )));
    }
    let fail_rate: f64 = a
        .fail_rate
        .parse()
        .ok()
        .filter(|f: &f64| (0.0..=1.0).contains(f))
        .ok_or_else(|| {
            Error::usage(format!(
                "invalid --fail-rate '{}': use a number from 0 to 1",
                a.fail_rate
            ))
        })?;
    let token_ttl = time::parse_duration(&a.token_ttl)?;
    if token_ttl.as_secs() == 0 {
        return Err(Error::usage("invalid --token-ttl: must be at least 1s"));
    }
    Ok(Options {
        listen,
        seed: a.seed,
        dialect: match a.dialect {
            Dialect::Spec => sandbox::Dialect::Spec,
            Dialect::Ylem => sandbox::Dialect::Ylem,
        },
        latency: time::parse_duration(&a.latency)?,
        fail_rate,
        token_ttl,
        task_delay: time::parse_duration(&a.task_delay)?,
    })
}

pub async fn run(a: &SandboxArgs, ctx: &Context) -> Result<()> {
    let opts = options(a)?;
    let running = sandbox::start(opts).await.map_err(|e| {
        Error::network(format!("cannot listen on {}: {e}", a.listen))
            .with_hint("pick another port with --listen")
    })?;
    let mut text = running.banner();
    text.push_str(&format!(
        "\nTry:\n  export YLEM_BASE_URL={} YLEM_CLIENT_ID={} YLEM_CLIENT_SECRET=<the client secret above>\n  ylemctl last-run pipeline {}\n\nServing until Ctrl-C.\n",
        running.base_url,
        running.client_id,
        running.pipelines.first().map(|p| p.uuid.to_string()).unwrap_or_default()
    ));
    ctx.write_out(text.as_bytes())?;
    let _ = tokio::signal::ctrl_c().await;
    running.shutdown().await;
    Ok(())
}
