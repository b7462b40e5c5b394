//! `ylemctl sandbox`: serve the embedded service on loopback until Ctrl-C
//! or SIGTERM, then finish the requests in flight and exit 0.

use super::rules::Rules;
use crate::cli::{Dialect, SandboxArgs};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::sandbox::{self, Options};

/// Turn the flags (checked when they were parsed) into sandbox options.
pub fn options(a: &SandboxArgs) -> Options {
    Options {
        listen: a.listen,
        seed: a.seed,
        dialect: match a.dialect {
            Dialect::Spec => sandbox::Dialect::Spec,
            Dialect::Ylem => sandbox::Dialect::Ylem,
        },
        latency: a.latency,
        fail_rate: a.fail_rate,
        token_ttl: a.token_ttl,
        task_delay: a.task_delay,
    }
}

/// The sandbox serves until Ctrl-C or SIGTERM stops it, cleanly.
pub const RULES: Rules = Rules::local("sandbox").server();

pub async fn run(a: &SandboxArgs, ctx: &Context) -> Result<()> {
    let opts = options(a);
    let running = sandbox::start(opts).await.map_err(|e| {
        Error::network(format!("cannot listen on {}: {e}", a.listen))
            .with_hint("pick another port with --listen")
    })?;
    let stop = super::signals::stop_now();
    let mut text = running.banner();
    text.push_str(&format!(
        "\nTry:\n  export YLEM_BASE_URL={} YLEM_CLIENT_ID={} YLEM_CLIENT_SECRET=<the client secret above>\n  ylemctl last-run pipeline {}\n\nServing until Ctrl-C or SIGTERM.\n",
        running.base_url,
        running.client_id,
        running.pipelines.first().map(|p| p.uuid.to_string()).unwrap_or_default()
    ));
    ctx.write_out(text.as_bytes())?;
    stop.await;
    // Requests in flight finish; a client that never lets go does not keep
    // the sandbox up for ever.
    let _ = tokio::time::timeout(super::signals::DRAIN, running.shutdown()).await;
    Ok(())
}
