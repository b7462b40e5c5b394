//! `ylemctl`: the module tree, and `main_entry`, which parses, resolves, runs
//! the command on a tokio runtime and turns its outcome into an exit code.
//! Only `command()` (the command tree, for the help tests) and `render_all()`
//! (the man pages and completions, checked against the committed files) are
//! public: other programs use the service through `ylem_client`.

// build.rs runs it; compiled here only for its tests.
#[cfg(test)]
mod build_info;
mod cli;
mod client_error;
pub(crate) mod commands;
mod config;
mod context;
mod count;
pub(crate) mod credentials;
mod error;
mod generate;
mod kept_files;
mod output;
mod panic;
#[cfg(test)]
mod props_tests;
mod redact;
mod settings;
mod time;
pub(crate) mod ui;
pub(crate) mod value_parsers;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::commands::kit::conduct::{Limit, Signals};
use crate::commands::kit::exit::Exit;
use crate::commands::kit::signals::Stop;
use crate::commands::kit::wing::Parsed;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::settings::{Env, Settings, Tty};
use crate::ui::Ui;

/// The whole command tree, as parsed and as the generators and tests see
/// it.
pub fn command() -> clap::Command {
    commands::tree()
}

/// Every generated file of `command()`: (path relative to the repository,
/// contents): the completion scripts and man pages.
pub fn render_all() -> Vec<(String, Vec<u8>)> {
    generate::render_all(command())
}

/// Parse the process arguments, run, and return the exit code. A panic
/// (a bug) has already been reported, redacted, by the panic hook; it ends
/// with exit code 1 as the contract says, not Rust's 101.
pub fn main_entry() -> ExitCode {
    panic::install_panic_hook();
    ExitCode::from(std::panic::catch_unwind(entry).unwrap_or(1))
}

fn entry() -> u8 {
    let cli = match commands::parse_from(std::env::args_os()) {
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
    settings.tell_jq_limits();
    let ui = settings.ui();
    match run(&cli, settings) {
        Ok(status) => status.code(),
        Err(e) => {
            ui.error(&e);
            e.kind.exit_code()
        }
    }
}

/// Run a parsed command with resolved settings, as the command declares
/// (`Parsed::conduct`): its default `--max-time`, who listens for Ctrl-C
/// and SIGTERM, and what it says when stopped or out of time.
fn run(cli: &Parsed, mut settings: Settings) -> Result<Exit> {
    let conduct = cli.conduct();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the runtime: {e}")))?;
    settings.max_time = settings.max_time.or(conduct.max_time);
    conduct.fit_jq(&mut settings)?;
    let args: Vec<String> = std::env::args().collect();
    conduct.fit_format(
        &mut settings,
        settings::requested_format(&args, None).is_some(),
    );
    let ctx = Context::new(settings);
    // `run --wait` starts its runs whether or not anyone reads; it follows
    // (and ends with its reader) from its first start on.
    ctx.follows_now
        .store(!conduct.starts_first, std::sync::atomic::Ordering::SeqCst);
    let r = rt.block_on(async {
        let stop = async {
            match conduct.signals {
                Signals::Interrupt => {
                    let _ = tokio::signal::ctrl_c().await;
                    Stop::Interrupt
                }
                Signals::InterruptOrTerminate => commands::kit::signals::stop_now().await,
                Signals::Own => std::future::pending().await,
            }
        };
        let gone = async {
            match conduct.follows {
                true => output_gone(&ctx).await,
                false => std::future::pending().await,
            }
        };
        tokio::select! {
            r = commands::dispatch(cli, &ctx) => r,
            s = stop => Err((conduct.stopped)(&ctx, s)),
            e = gone => Err(e),
            _ = out_of_time(&ctx, conduct.limit) => {
                Err((conduct.out_of_time)(&ctx, &limit_text(&ctx)))
            }
        }
    });
    // Dropping a runtime waits for its blocking tasks; a keyring call that
    // timed out may never return, and must not keep the process alive.
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    name_started(&ctx, &r);
    ctx.finish_output(r)
}

/// A follower's output went away: it ends as a closed pipe does (exit 0,
/// nothing said), once no run start is in flight (a start that may have
/// reached the server is never cut off unnamed) and, for `run --wait`,
/// once a run was started.
async fn output_gone(ctx: &Context) -> Error {
    commands::kit::output_gone::stdout_gone().await;
    use std::sync::atomic::Ordering::SeqCst;
    while !ctx.follows_now.load(SeqCst) || ctx.starting.load(SeqCst) > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Error::new(Kind::PipeClosed, "output closed")
}

/// Standard output closed: the runs the command started go on on the
/// server, and stderr is the one place left to name them.
fn name_started(ctx: &Context, r: &Result<Exit>) {
    let Err(e) = r else { return };
    let started = ctx.started.lock().map(|s| s.clone()).unwrap_or_default();
    if e.kind != Kind::PipeClosed || started.is_empty() {
        return;
    }
    let runs: Vec<&str> = started.iter().map(|(_, _, r)| r.as_str()).collect();
    ctx.ui.note(&format!(
        "output closed: the run goes on on the server: {}",
        runs.join(", ")
    ));
}

/// Resolves when `--max-time` runs out (never without one, nor for a
/// command without a limit); a command that keeps its limit itself is
/// ended a moment after it.
async fn out_of_time(ctx: &Context, limit: Limit) {
    let grace = match limit {
        Limit::Hard => 0,
        Limit::Own => 500,
        Limit::Unlimited => return std::future::pending().await,
    };
    match ctx.deadline {
        Some(d) => {
            let extra = std::time::Duration::from_millis(grace);
            tokio::time::sleep_until((d + extra).into()).await
        }
        None => std::future::pending().await,
    }
}

/// The `--max-time` in effect, as text.
fn limit_text(ctx: &Context) -> String {
    ctx.settings
        .max_time
        .map(|d| time::human_ms(d.as_millis() as i64))
        .unwrap_or_default()
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
    let partial = commands::tree()
        .ignore_errors(true)
        .try_get_matches_from(&args)
        .ok();
    let declared = partial
        .as_ref()
        .and_then(|m| m.subcommand_name())
        .and_then(|name| commands::usage_line(name, &msg));
    let status = declared.map(|(line, status)| {
        let _ = std::io::stdout().lock().write_all(line.as_bytes());
        status
    });
    let advice = advice(&e, partial.as_ref().and_then(|m| m.subcommand_name()));
    if json || advice.is_some() {
        let hint = advice.unwrap_or_else(|| "see 'ylemctl --help'".into());
        Ui::for_errors(json).error(&Error::usage(msg).with_hint(hint));
    } else {
        let _ = e.print();
    }
    status.map_or(Kind::Usage.exit_code(), Exit::code)
}

/// Advice for an unknown flag a new user is likely to try, in place of
/// clap's generic tip: `--json` is `-o json`, and what the command declares
/// (`aggregate` has no window).
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
        (_, Some(name)) => commands::flag_advice(name, flag).map(str::to_string),
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
