//! `ylemctl sandbox`: serve the embedded service (the `ylem-sandbox` crate,
//! behind the cargo feature `sandbox`) on loopback until Ctrl-C or SIGTERM,
//! then finish the requests in flight and exit 0. Its banner is text, or
//! with `-o json` one JSON object on the first line, for scripts.

use clap::ArgMatches;

use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::wing::{self, Below, Entry, Ran};
use crate::commands::local::args::{DemoArgs, SandboxArgs};
use crate::context::Context;
use crate::error::{Error, Result};

/// The sandbox serves until Ctrl-C or SIGTERM stops it, cleanly.
pub const CONDUCT: Conduct = Conduct::local("sandbox").server().streams();

/// `demo` uses a throw-away profile of its own. (Declared here, with the
/// sandbox it needs: `demo.rs` is only built with the feature.)
pub const DEMO_CONDUCT: Conduct = Conduct::local("demo");

pub const COMMAND: Entry = Entry {
    command: <SandboxArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: SandboxArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

pub const DEMO: Entry = Entry {
    command: <DemoArgs as clap::CommandFactory>::command,
    declared: DEMO_CONDUCT,
    conduct: |_| DEMO_CONDUCT,
    run: demo,
};

#[cfg(feature = "sandbox")]
fn demo<'a>(_: &'a ArgMatches, ctx: &'a Context, below: &'a Below) -> Ran<'a> {
    wing::done(crate::commands::local::demo::run(ctx, below))
}

#[cfg(not(feature = "sandbox"))]
fn demo<'a>(_: &'a ArgMatches, _: &'a Context, _: &'a Below) -> Ran<'a> {
    wing::done(async { Err(not_built("demo")) })
}

/// A build without the feature `sandbox` (`--no-default-features`): the
/// command is there, and says what it needs.
#[cfg(not(feature = "sandbox"))]
pub fn not_built(command: &str) -> Error {
    Error::usage(format!(
        "'ylemctl {command}' needs the embedded sandbox, and this ylemctl was built without it (cargo feature 'sandbox')"
    ))
    .with_hint("build ylemctl with its default features, e.g. 'cargo install --path .' or 'cargo build --release'")
}

#[cfg(not(feature = "sandbox"))]
pub async fn run(_: &SandboxArgs, _: &Context) -> Result<()> {
    Err(not_built("sandbox"))
}

/// Turn the flags (checked when they were parsed) into sandbox options.
#[cfg(feature = "sandbox")]
fn options(a: &SandboxArgs) -> ylem_sandbox::Options {
    use crate::commands::local::args::{Dialect, TokenParamsChoice};
    ylem_sandbox::Options {
        listen: a.listen,
        seed: a.seed,
        dialect: match a.dialect {
            Dialect::Spec => ylem_sandbox::Dialect::Spec,
            Dialect::Ylem => ylem_sandbox::Dialect::Ylem,
        },
        latency: a.latency,
        fail_rate: a.fail_rate,
        token_ttl: a.token_ttl,
        task_delay: a.task_delay,
        token_params: match a.token_params {
            TokenParamsChoice::Both => ylem_sandbox::TokenParams::Both,
            TokenParamsChoice::Body => ylem_sandbox::TokenParams::Body,
            TokenParamsChoice::Query => ylem_sandbox::TokenParams::Query,
        },
        clock_skew: a.clock_skew,
        scopes: a.scopes.as_ref().map(|list| {
            list.0
                .iter()
                .map(|name| {
                    ylem_sandbox::Scope::from_name(name)
                        .expect("--scopes took only the names the sandbox knows")
                })
                .collect()
        }),
        plan_disabled: a.plan_disabled,
        failing_workflows: a.failing_workflows,
        extra_pipelines: a.extra_pipelines,
    }
}

#[cfg(feature = "sandbox")]
pub async fn run(a: &SandboxArgs, ctx: &Context) -> Result<()> {
    use crate::cli::Format;
    let running = ylem_sandbox::start(options(a)).await.map_err(|e| {
        Error::network(format!("cannot listen on {}: {e}", a.listen))
            .with_hint("pick another port with --listen")
    })?;
    let stop = crate::commands::kit::signals::stop_now();
    let text = match ctx.settings.format {
        // For a program: the whole banner on one line, written at once.
        Format::Json | Format::Jsonl => format!("{}\n", running.banner_json()),
        _ => {
            let mut text = running.banner();
            text.push_str(&format!(
                "\nTry:\n  export YLEM_BASE_URL={} YLEM_CLIENT_ID={} YLEM_CLIENT_SECRET=<the client secret above>\n  ylemctl last-run pipeline {}\n\nServing until Ctrl-C or SIGTERM.\n",
                running.base_url,
                running.client_id,
                running.pipelines.first().map(|p| p.uuid.to_string()).unwrap_or_default()
            ));
            text
        }
    };
    ctx.write_out(text.as_bytes())?;
    stop.await;
    // Requests in flight finish; a client that never lets go does not keep
    // the sandbox up for ever.
    let _ = tokio::time::timeout(crate::commands::kit::signals::DRAIN, running.shutdown()).await;
    Ok(())
}
