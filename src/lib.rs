//! `ylemctl`: the module tree, and `main_entry`, which parses, resolves, runs
//! the command on a tokio runtime and turns its outcome into an exit code.

pub mod api;
pub mod auth;
pub mod cli;
pub mod commands;
pub mod config;
pub mod context;
pub mod error;
pub mod generate;
pub mod http;
pub mod kinds;
pub mod output;
pub mod sandbox;
pub mod secret;
pub mod settings;
pub mod time;

use std::io::IsTerminal;

use clap::Parser;

use crate::cli::{Cli, Format};
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::settings::{Env, Settings, Tty};

/// Parse the process arguments, run, and return the exit code. A panic
/// (a bug) has already been reported, redacted, by the panic hook; it ends
/// with exit code 1 as the contract says, not Rust's 101.
pub fn main_entry() -> i32 {
    secret::install_panic_hook();
    std::panic::catch_unwind(entry).unwrap_or(1)
}

fn entry() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return clap_error(e),
    };
    let json_errors = matches!(cli.global.output, Some(Format::Json | Format::Jsonl));
    let stdout = std::io::stdout().is_terminal();
    let tty = Tty {
        stdout,
        stderr: std::io::stderr().is_terminal(),
        width: stdout
            .then(|| console::Term::stdout().size_checked())
            .flatten()
            .map(|(_, w)| w as usize),
    };
    let result = Settings::resolve(&cli.global, &Env::from_process(), tty, chrono::Utc::now())
        .and_then(|s| run(&cli, s));
    match result {
        Ok(()) => 0,
        Err(e) => report(&e, json_errors),
    }
}

/// Run a parsed command with resolved settings; Ctrl-C ends it with 130.
pub fn run(cli: &Cli, settings: Settings) -> Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("cannot start the runtime: {e}")))?;
    let ctx = Context::new(settings);
    // The sandbox treats Ctrl-C as its normal way to stop.
    if matches!(cli.command, cli::Command::Sandbox(_)) {
        return rt.block_on(commands::dispatch(&cli.command, &ctx));
    }
    let r = rt.block_on(async {
        tokio::select! {
            r = commands::dispatch(&cli.command, &ctx) => r,
            _ = tokio::signal::ctrl_c() => Err(interrupted(&cli.command)),
        }
    });
    // Dropping a runtime waits for its blocking tasks; a keyring call that
    // timed out may never return, and must not keep the process alive.
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    r
}

/// Ctrl-C; a run start it cut short may already have reached the server.
fn interrupted(cmd: &cli::Command) -> Error {
    let e = Error::new(Kind::Interrupted, "interrupted");
    match cmd {
        cli::Command::Run(_) => e.with_hint(http::MAY_HAVE_STARTED),
        _ => e,
    }
}

/// Print an error the way the contract says and return its exit code.
pub fn report(e: &Error, json: bool) -> i32 {
    match e.kind {
        Kind::PipeClosed | Kind::Said(_) => {}
        _ if json => eprint!("{}", e.render_json()),
        _ => eprint!("{}", e.render_text()),
    }
    e.kind.exit_code()
}

/// clap's own errors: help and version exit 0, usage errors 2 (as JSON when
/// the arguments asked for JSON output).
fn clap_error(e: clap::Error) -> i32 {
    if !e.use_stderr() {
        let _ = e.print();
        return 0;
    }
    let args: Vec<String> = std::env::args().collect();
    let json = args.windows(2).any(|w| {
        matches!(w[0].as_str(), "-o" | "--output") && matches!(w[1].as_str(), "json" | "jsonl")
    }) || args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--output=json" | "--output=jsonl" | "-ojson" | "-ojsonl"
        )
    });
    if json {
        let msg = e.kind().as_str().map(str::to_string).unwrap_or_else(|| {
            e.to_string()
                .lines()
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ")
                .to_string()
        });
        let err =
            Error::usage(format!("{msg}: {}", first_line(&e))).with_hint("see 'ylemctl --help'");
        return report(&err, true);
    }
    let _ = e.print();
    2
}

fn first_line(e: &clap::Error) -> String {
    e.to_string()
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches("error: ")
        .to_string()
}
