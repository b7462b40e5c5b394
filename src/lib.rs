//! `ylemctl`: the module tree, and `main_entry`, which parses, resolves, runs
//! the command on a tokio runtime and turns its outcome into an exit code.

pub mod api;
pub mod auth;
pub mod cli;
pub(crate) mod commands;
pub mod config;
pub mod context;
pub mod error;
pub(crate) mod flags;
pub mod generate;
pub mod http;
pub(crate) mod kinds;
pub mod output;
pub mod sandbox;
pub mod secret;
pub mod settings;
pub mod time;
pub(crate) mod ui;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::Cli;
use crate::commands::ExitStatus;
use crate::commands::signals::Stop;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::settings::{Env, Settings, Tty};
use crate::ui::Ui;

/// Parse the process arguments, run, and return the exit code. A panic
/// (a bug) has already been reported, redacted, by the panic hook; it ends
/// with exit code 1 as the contract says, not Rust's 101.
pub fn main_entry() -> ExitCode {
    secret::install_panic_hook();
    ExitCode::from(std::panic::catch_unwind(entry).unwrap_or(1))
}

fn entry() -> u8 {
    let parsed = cli::command()
        .try_get_matches()
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => return clap_error(e),
    };
    let stdout = std::io::stdout().is_terminal();
    let tty = Tty {
        stdout,
        stderr: std::io::stderr().is_terminal(),
        width: stdout
            .then(|| console::Term::stdout().size_checked())
            .flatten()
            .map(|(_, w)| w as usize),
    };
    let settings =
        match Settings::resolve(&cli.global, &Env::from_process(), tty, chrono::Utc::now()) {
            Ok(s) => s,
            Err(e) => return fail(&e, settings::errors_as_json(cli.global.output)),
        };
    let ui = settings.ui();
    match run(&cli, settings) {
        Ok(status) => status.code(),
        Err(e) => {
            ui.error(&e);
            e.kind.exit_code()
        }
    }
}

/// `check`'s whole-command limit when `--max-time` is not given: below the
/// 60 s that Nagios and Icinga give a plugin, so a hanging service is an
/// UNKNOWN in time rather than a killed plugin.
pub const CHECK_MAX_TIME: std::time::Duration = std::time::Duration::from_secs(50);

/// Run a parsed command with resolved settings; Ctrl-C ends it with 130,
/// SIGTERM ends `run --wait` with 143, `--max-time` any command with 6.
pub fn run(cli: &Cli, mut settings: Settings) -> Result<ExitStatus> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the runtime: {e}")))?;
    if matches!(cli.command, cli::Command::Check(_)) {
        settings.max_time = settings.max_time.or(Some(CHECK_MAX_TIME));
    }
    let ctx = Context::new(settings);
    // The sandbox and the exporter treat Ctrl-C and SIGTERM as their normal
    // way to stop.
    if matches!(
        cli.command,
        cli::Command::Sandbox(_) | cli::Command::Metrics(_)
    ) {
        return rt.block_on(commands::dispatch(&cli.command, &ctx));
    }
    // `logs --follow` ends on Ctrl-C, SIGTERM and at --max-time by itself,
    // cleanly (exit 0, output whole); `check` keeps its own limit to say
    // UNKNOWN on stdout. For both, the limit here comes a moment later, to
    // end them anyway.
    let follows = matches!(&cli.command, cli::Command::Logs(a) if a.follow);
    let grace = follows || matches!(cli.command, cli::Command::Check(_));
    // `run --wait` also stops on SIGTERM, saying where its runs went; every
    // other command leaves SIGTERM its default action.
    let waits = matches!(&cli.command, cli::Command::Run(a) if a.wait);
    let r = rt.block_on(async {
        let term = waits.then(commands::signals::stop_now);
        let stop = async {
            match term {
                Some(t) => t.await,
                None => {
                    let _ = tokio::signal::ctrl_c().await;
                    Stop::Interrupt
                }
            }
        };
        tokio::select! {
            r = commands::dispatch(&cli.command, &ctx) => r,
            s = stop, if !follows => Err(interrupted(&cli.command, &ctx, s)),
            _ = out_of_time(&ctx, grace) => {
                Err(max_time_error(&cli.command, &ctx))
            }
        }
    });
    // Dropping a runtime waits for its blocking tasks; a keyring call that
    // timed out may never return, and must not keep the process alive.
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    r
}

/// Resolves when `--max-time` runs out (never without one).
async fn out_of_time(ctx: &Context, grace: bool) {
    match ctx.deadline {
        Some(d) => {
            let extra = std::time::Duration::from_millis(if grace { 500 } else { 0 });
            tokio::time::sleep_until((d + extra).into()).await
        }
        None => std::future::pending().await,
    }
}

fn max_time_error(cmd: &cli::Command, ctx: &Context) -> Error {
    let d = ctx
        .settings
        .max_time
        .map(|d| time::human_ms(d.as_millis() as i64))
        .unwrap_or_default();
    let e = Error::network(format!(
        "out of time: the command's --max-time of {d} ran out"
    ));
    match (cmd, started_runs(ctx)) {
        // A run it knows started goes on on the server: name it, and how
        // to follow it, as Ctrl-C does.
        (cli::Command::Run(_), Some((runs, hint))) => Error::network(format!(
            "out of time: the command's --max-time of {d} ran out; the run goes on on the server: {runs}"
        ))
        .with_hint(hint),
        (cli::Command::Run(_), None) => e.with_hint(http::MAY_HAVE_STARTED),
        _ => e.with_hint("raise --max-time, or narrow what is asked"),
    }
}

/// The runs this command started, and how to follow them.
fn started_runs(ctx: &Context) -> Option<(String, String)> {
    let started = ctx.started.lock().map(|s| s.clone()).unwrap_or_default();
    if started.is_empty() {
        return None;
    }
    let runs: Vec<&str> = started.iter().map(|(_, _, r)| r.as_str()).collect();
    let follow: Vec<String> = started
        .iter()
        .map(|(kind, id, run)| match kind {
            kinds::RunKind::Pipeline => format!("ylemctl logs {id} --run {run} --follow"),
            kinds::RunKind::Workflow => format!("ylemctl last-run workflow {id}"),
        })
        .collect();
    Some((
        runs.join(", "),
        format!("follow it with '{}'", follow.join("', '")),
    ))
}

/// Ctrl-C (130) or SIGTERM (143); a run start it cut short may already have
/// reached the server, and a run being waited for goes on there: say how to
/// follow it.
fn interrupted(cmd: &cli::Command, ctx: &Context, stop: Stop) -> Error {
    let (kind, what) = match stop {
        Stop::Interrupt => (Kind::Interrupted, "interrupted"),
        Stop::Terminate => (Kind::Terminated, "stopped by SIGTERM"),
    };
    match (cmd, started_runs(ctx)) {
        (cli::Command::Run(_), Some((runs, hint))) => Error::new(
            kind,
            format!("{what}: the run goes on on the server: {runs}"),
        )
        .with_hint(hint),
        (cli::Command::Run(_), None) => Error::new(kind, what).with_hint(http::MAY_HAVE_STARTED),
        _ => Error::new(kind, what),
    }
}

/// Report an error found before there are settings; its exit code.
fn fail(e: &Error, json: bool) -> u8 {
    Ui::for_errors(json).error(e);
    e.kind.exit_code()
}

/// clap's own errors: help and version exit 0, usage errors 2, as JSON when
/// `-o`/`YLEM_OUTPUT` asks for JSON output. A bad `check` threshold is its
/// UNKNOWN status instead (exit 3), as monitoring systems expect.
fn clap_error(e: clap::Error) -> u8 {
    if !e.use_stderr() {
        let _ = e.print();
        return 0;
    }
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let env = Env::from_process();
    let json = settings::errors_as_json(settings::requested_format(&args, env.output.as_deref()));
    let msg = message(&e);
    // The command, when clap got that far before the bad argument.
    let partial = cli::command()
        .ignore_errors(true)
        .try_get_matches_from(&args)
        .ok();
    let status = if partial.as_ref().and_then(|m| m.subcommand_name()) == Some("check") {
        let (line, status) = commands::check::usage_line(&msg);
        let _ = std::io::stdout().lock().write_all(line.as_bytes());
        Some(status)
    } else {
        None
    };
    let advice = advice(&e, partial.as_ref().and_then(|m| m.subcommand_name()));
    if json || advice.is_some() {
        let hint = advice.unwrap_or_else(|| "see 'ylemctl --help'".into());
        Ui::for_errors(json).error(&Error::usage(msg).with_hint(hint));
    } else {
        let _ = e.print();
    }
    status.map_or(Kind::Usage.exit_code(), ExitStatus::code)
}

/// Advice for an unknown flag a new user is likely to try, in place of
/// clap's generic tip: `--json` is `-o json`; `aggregate` has no window.
fn advice(e: &clap::Error, command: Option<&str>) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = arg.split('=').next().unwrap_or(arg);
    match (flag, command) {
        ("--json" | "--jsonl" | "--csv" | "--table", _) => {
            let f = &flag[2..];
            Some(format!("use '-o {f}' (or --output {f})"))
        }
        ("--format", _) => Some("use '-o table|json|jsonl|csv' (or --output)".into()),
        // A board that refreshes itself is watch(1)'s job.
        ("--watch" | "-w", c) => Some(format!(
            "ylemctl has no --watch: repeat it with watch(1), e.g. 'watch -n 30 ylemctl {}'",
            c.unwrap_or("status")
        )),
        ("--since" | "--to", Some("aggregate")) => Some(
            "aggregate takes --from and --count (and --period): e.g. --from 2024-01-01 --count 7"
                .into(),
        ),
        _ => None,
    }
}

/// clap's message without its `error: ` prefix, usage and help lines: the
/// lines up to the first blank one, joined.
fn message(e: &clap::Error) -> String {
    let text = e.to_string();
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let msg = lines.join(" ");
    match msg.trim_start_matches("error: ") {
        "" => "invalid arguments".to_string(),
        m => m.to_string(),
    }
}
