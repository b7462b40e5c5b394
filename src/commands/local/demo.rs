//! `ylemctl demo`: start a sandbox in-process on a free loopback port and
//! walk through the commands against it, echoing each before its output.
//! Credentials stay in memory: nothing of the user's is read or written.
//! Built with the feature `sandbox` only (its declaration is in `sandbox.rs`).

use std::time::Duration;

use crate::commands::kit::exit::Exit;
use crate::commands::kit::wing::{Below, Parsed};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::settings::{EnvCredentials, Settings};
use ylem_client::auth::oauth;
use ylem_sandbox::{self as sandbox, Options, Running};

/// Each step is parsed and run as the command line would be, by the
/// functions `commands/mod.rs` hands down in `below` (this wing does not
/// import its own parent).
pub async fn run(ctx: &Context, below: &Below) -> Result<()> {
    let opts = Options {
        listen: ([127, 0, 0, 1], 0).into(),
        task_delay: Duration::from_millis(300),
        ..Options::default()
    };
    let sb = sandbox::start(opts)
        .await
        .map_err(|e| Error::network(format!("cannot start the sandbox: {e}")))?;
    let result = walk(ctx, &sb, below).await;
    sb.shutdown().await;
    let _ = std::fs::remove_dir_all(demo_dir());
    result?;
    say(
        ctx,
        "\nEvery step worked. Try it yourself: `ylemctl sandbox` serves the same data on 127.0.0.1:7339.",
    );
    Ok(())
}

fn demo_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ylemctl-demo-{}", std::process::id()))
}

fn key_file() -> std::path::PathBuf {
    demo_dir().join("output.key")
}

fn say(ctx: &Context, text: &str) {
    let _ = ctx.write_out(format!("{text}\n").as_bytes());
}

fn echo(ctx: &Context, cmd: &str) {
    let line = if ctx.settings.color {
        format!("\n\x1b[1m$ ylemctl {cmd}\x1b[0m")
    } else {
        format!("\n$ ylemctl {cmd}")
    };
    say(ctx, &line);
}

/// Settings for one step: the user's terminal choices, the sandbox's address
/// and in-memory credentials.
fn step_settings(
    ctx: &Context,
    sb: &Running,
    below: &Below,
    args: &[&str],
) -> Result<(Parsed, Settings)> {
    let argv: Vec<&str> = std::iter::once("ylemctl")
        .chain(args.iter().copied())
        .collect();
    let cli =
        (below.parse)(&argv).map_err(|e| Error::internal(format!("demo step {args:?}: {e}")))?;
    let mut s = ctx.settings.clone();
    let step = Settings::resolve(&cli.global, &Default::default(), s.tty, chrono::Utc::now())?;
    s.format = step.format;
    s.fields = step.fields;
    s.now = step.now;
    s.base_url = Some(sb.base_url.clone());
    // A throw-away config directory: the user's profiles are never read or written.
    s.config_dir = Some(demo_dir());
    s.credentials = EnvCredentials::Client {
        id: sb.client_id.clone(),
        secret: crate::redact::secret(sb.client_secret.clone()),
    };
    // The sandbox's output key, as YLEM_DECRYPT_KEY_FILE would give it, so
    // a failed run's encrypted output says why it failed.
    s.decrypt_key_file = Some(key_file());
    Ok((cli, s))
}

/// Echo and run one command as a user would type it.
async fn step(ctx: &Context, sb: &Running, below: &Below, args: &[&str]) -> Result<()> {
    echo(ctx, &args.join(" "));
    let (cli, settings) = step_settings(ctx, sb, below, args)?;
    let step_ctx = Context::new(settings);
    match (below.dispatch)(&cli, &step_ctx).await? {
        Exit::Success => Ok(()),
        // A fresh sandbox's `check` says OK; anything else is a broken demo.
        Exit::Code(c) => Err(Error::internal(format!(
            "demo step {args:?} ended with exit status {c}"
        ))),
    }
}

async fn walk(ctx: &Context, sb: &Running, below: &Below) -> Result<()> {
    let id = |e: &sandbox::Entity| e.uuid.to_string();
    let (p0, p1) = (id(&sb.pipelines[0]), id(&sb.pipelines[1]));
    let t0 = sb.pipelines[0].tasks[0].uuid.to_string();
    let w0 = id(&sb.workflows[0]);
    say(
        ctx,
        &format!(
            "A sandbox service is running at {} with seeded pipelines, workflows and 90 days of history.",
            sb.base_url
        ),
    );
    say(
        ctx,
        "Credentials stay in memory for this demo; your own profile and keyring are not touched.",
    );
    login(ctx, sb, below).await?;
    std::fs::create_dir_all(demo_dir())
        .and_then(|()| std::fs::write(key_file(), &sb.key_hex))
        .map_err(|e| Error::internal(format!("cannot write the demo's key file: {e}")))?;
    let tasks = crate::count::count(sb.pipelines[0].tasks.len(), "task", "tasks");
    say(
        ctx,
        &format!("\nStart a run and follow it until all {tasks} have reported:"),
    );
    step(
        ctx,
        sb,
        below,
        &["run", "pipeline", &p0, "--wait", "--poll", "1s"],
    )
    .await?;
    step(ctx, sb, below, &["logs", &p0, "--since", "2m"]).await?;
    step(
        ctx,
        sb,
        below,
        &["stats", "pipeline", &p0, &p1, "--since", "7d"],
    )
    .await?;
    step(
        ctx,
        sb,
        below,
        &[
            "aggregate",
            "pipeline",
            &p0,
            "--period",
            "week",
            "--count",
            "8",
            "--chart",
        ],
    )
    .await?;
    say(
        ctx,
        "\nWhat happened last, and why it failed (outputs are encrypted: the sandbox's key is given as YLEM_DECRYPT_KEY_FILE):",
    );
    step(ctx, sb, below, &["last-run", "pipeline", &p0, &p1]).await?;
    step(
        ctx,
        sb,
        below,
        &["runs", &p1, "--since", "1d", "--failed", "--limit", "3"],
    )
    .await?;
    step(ctx, sb, below, &["last-run", "task", &t0, "-o", "json"]).await?;
    step(
        ctx,
        sb,
        below,
        &["stats", "workflow", &w0, "--since", "30d", "-o", "csv"],
    )
    .await?;
    step(
        ctx,
        sb,
        below,
        &["check", "pipeline", &p0, "--max-age", "25h,49h"],
    )
    .await?;
    Ok(())
}

/// What `login` does first, shown: the client is checked by fetching a
/// token. The demo keeps it in memory instead of saving a profile.
async fn login(ctx: &Context, sb: &Running, below: &Below) -> Result<()> {
    echo(
        ctx,
        &format!(
            "login --base-url {} --client-id {} --client-secret-stdin",
            sb.base_url, sb.client_id
        ),
    );
    let (_, settings) = step_settings(ctx, sb, below, &["auth", "status"])?;
    let base_url = settings.base_url.clone();
    let step = Context::new(settings);
    let t = step.transport_to(base_url)?;
    let tok = oauth::fetch_token(
        &t,
        &sb.client_id,
        &crate::redact::secret(sb.client_secret.clone()),
        &crate::credentials::token_params::warned(step.ui),
    )
    .await?;
    say(
        ctx,
        &format!(
            "The client works: a token valid for {} (scope {}). A real login saves the client in your profile; the demo keeps it in memory.",
            crate::time::human_ms(tok.expires_in.unwrap_or(0) * 1000),
            tok.scope.unwrap_or_default()
        ),
    );
    Ok(())
}
