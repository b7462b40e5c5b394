//! What a command declares to the code that runs it: its default time
//! limit, how it meets Ctrl-C and SIGTERM and what it says when stopped or
//! out of time, the outputs it takes, whether it uses the profile's login,
//! and how it reports a usage error. `lib::run`, `dispatch` and the usage
//! error path read these and never name a command. (The global options a
//! command ignores are declared with its clap definition, `cli::ignoring`,
//! because clap needs them before anything is parsed.)

use std::time::Duration;

use crate::commands::kit::exit::Exit;
use crate::commands::kit::signals::Stop;
use crate::context::Context;
use crate::error::{Error, Kind};
use crate::output::jq::Cut;
use crate::settings::Settings;

/// A command's declaration.
#[derive(Clone, Copy)]
pub struct Conduct {
    /// Its name on the command line, for the usage errors clap reports
    /// before there is a parsed command.
    pub name: &'static str,
    /// `--max-time` when none is given.
    pub max_time: Option<Duration>,
    pub signals: Signals,
    pub limit: Limit,
    /// The error that ends it on a stop request the runner listens for.
    pub stopped: fn(&Context, Stop) -> Error,
    /// The error that ends it when `--max-time` runs out.
    pub out_of_time: fn(&Context, &str) -> Error,
    pub outputs: Outputs,
    /// What `--jq` filters of its output: each row of a stream, the whole
    /// value, or nothing (it prints no JSON: `--jq` is a usage error).
    pub jq: Option<Cut>,
    /// Whether it acts for the profile's login (then a `-p` profile must
    /// exist); not `login`, which creates profiles, nor the local commands.
    pub uses_profile: bool,
    /// A follower (it may wait long between lines): the runner ends it,
    /// exit 0, as soon as standard output goes away (`kit/output_gone.rs`),
    /// not at its next write.
    pub follows: bool,
    /// It starts runs before it follows them (`run --wait`): its output
    /// going away ends it only once a start has returned.
    pub starts_first: bool,
    /// A usage error as the command's own status line on stdout and exit
    /// code (`check`'s UNKNOWN, as monitoring systems expect), besides the
    /// error on stderr.
    pub usage_line: Option<UsageLine>,
    /// Advice for an unknown flag a user of this command is likely to try,
    /// in place of clap's generic tip.
    pub flag_advice: fn(&str) -> Option<&'static str>,
}

/// A usage error's message -> the status line and the exit status.
pub type UsageLine = fn(&str) -> (String, Exit);

/// Who listens for the signals that ask a command to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signals {
    /// The runner: Ctrl-C ends the command at once (130); SIGTERM keeps
    /// its default action.
    Interrupt,
    /// The runner: Ctrl-C (130) and SIGTERM (143) end it at once.
    InterruptOrTerminate,
    /// The command itself, which ends cleanly on either.
    Own,
}

/// How `--max-time` ends a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The runner ends it when the limit runs out.
    Hard,
    /// The command ends itself at the limit, with its own output; the
    /// runner ends it anyway a moment later.
    Own,
    /// It runs until it is stopped (a server): the runner sets no limit.
    Unlimited,
}

/// The output formats a command takes beyond the rows of table, JSON, JSON
/// lines and CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outputs {
    Rows,
    /// The rows, and the Prometheus exposition (`-o prometheus`, written
    /// atomically with `--output-file`).
    Measures,
    /// A report of its own (doctor): a table or `-o json`, nothing else.
    TableOrJson,
    /// The rows, and the JUnit report of pipeline runs (`-o junit`).
    Reports,
    /// `check`: its status line, JSON or the Prometheus exposition; it
    /// refuses the rest itself, as its UNKNOWN state.
    Plugin,
}

/// The commands that take `-o prometheus`, for the usage error elsewhere.
const MEASURING: &str = "stats, last-run, status and check";

/// The commands that take `-o junit`, for the usage error elsewhere.
pub const REPORTING: &str = "run pipeline ... --wait and runs PIPELINE --run RUN";

impl Conduct {
    /// A one-shot command that asks the service: no default limit, Ctrl-C
    /// ends it, rows out.
    pub const fn client(name: &'static str) -> Conduct {
        Conduct {
            name,
            max_time: None,
            signals: Signals::Interrupt,
            limit: Limit::Hard,
            stopped: interrupted,
            out_of_time,
            outputs: Outputs::Rows,
            jq: Some(Cut::Whole),
            uses_profile: true,
            follows: false,
            starts_first: false,
            usage_line: None,
            flag_advice: |_| None,
        }
    }

    /// A command that asks no service for the profile (the sandbox,
    /// completions, aliases, login itself).
    pub const fn local(name: &'static str) -> Conduct {
        Conduct {
            uses_profile: false,
            jq: None,
            ..Conduct::client(name)
        }
    }

    /// Its output is rows that `--jq` filters one at a time (a stream).
    pub const fn streams(self) -> Conduct {
        Conduct {
            jq: Some(Cut::Each),
            ..self
        }
    }

    /// It follows: it ends when its output goes away.
    pub const fn follows(self) -> Conduct {
        Conduct {
            follows: true,
            ..self
        }
    }

    /// Its output is one JSON value that `--jq` filters whole.
    pub const fn json(self) -> Conduct {
        Conduct {
            jq: Some(Cut::Whole),
            ..self
        }
    }

    /// It prints no JSON: `--jq` is a usage error.
    pub const fn no_json(self) -> Conduct {
        Conduct { jq: None, ..self }
    }

    /// Fit `--jq` to this command before anything runs: refused where it
    /// prints no JSON; a stream's rows become JSON lines, filtered one at a
    /// time (also with `-o json`: the array is never held whole).
    pub fn fit_jq(&self, settings: &mut Settings) -> crate::error::Result<()> {
        if settings.jq.is_none() {
            return Ok(());
        }
        match self.jq {
            None => Err(Error::usage(format!(
                "'{}' prints no JSON for --jq to filter",
                self.name
            ))),
            Some(Cut::Each) => {
                settings.format = crate::cli::Format::Jsonl;
                Ok(())
            }
            Some(Cut::Whole) => Ok(()),
        }
    }

    /// A report of its own (doctor) under a `YLEM_OUTPUT` it cannot print
    /// (`from_args`: `-o` was given): a table (JSON for `jsonl`) rather
    /// than a refusal, since a script's default should not stop the
    /// diagnosis. An explicit `-o` stays refused (`check_outputs`).
    pub fn fit_format(&self, settings: &mut Settings, from_args: bool) {
        use crate::cli::Format;
        if self.outputs != Outputs::TableOrJson || from_args {
            return;
        }
        settings.format = match settings.format {
            Format::Json | Format::Jsonl => Format::Json,
            _ => Format::Table,
        };
    }

    /// A command that runs until it is stopped and stops itself cleanly.
    pub const fn server(self) -> Conduct {
        Conduct {
            signals: Signals::Own,
            limit: Limit::Unlimited,
            ..self
        }
    }

    pub const fn measures(self) -> Conduct {
        Conduct {
            outputs: Outputs::Measures,
            ..self
        }
    }

    pub const fn reports(self) -> Conduct {
        Conduct {
            outputs: Outputs::Reports,
            ..self
        }
    }

    /// What it takes of `-o prometheus`, `-o junit` and `--output-file`,
    /// checked before anything is asked.
    pub fn check_outputs(&self, ctx: &Context) -> crate::error::Result<()> {
        let fits = matches!(self.outputs, Outputs::Measures | Outputs::Plugin);
        let format = ctx.settings.format;
        let table_or_json = matches!(format, crate::cli::Format::Table | crate::cli::Format::Json);
        if self.outputs == Outputs::TableOrJson && !table_or_json {
            return Err(Error::usage(format!(
                "{} prints a table or JSON: use -o json (or -o table)",
                self.name
            )));
        }
        let junit = format == crate::cli::Format::Junit;
        if junit && !matches!(self.outputs, Outputs::Reports | Outputs::Plugin) {
            return Err(Error::usage(format!(
                "-o junit is the report of pipeline runs: it is for {REPORTING}"
            )));
        }
        let prometheus = format == crate::cli::Format::Prometheus;
        if prometheus && !fits {
            return Err(Error::usage(format!(
                "-o prometheus is for {MEASURING} ('metrics serve' serves it over HTTP)"
            )));
        }
        match &ctx.settings.output_file {
            Some(_) if !(prometheus && fits) => Err(Error::usage(
                "--output-file writes the -o prometheus exposition of stats, last-run, status or check",
            )),
            Some(path) => crate::commands::kit::exposition::check_dir(path),
            None => Ok(()),
        }
    }
}

/// Ctrl-C (130) or SIGTERM (143), said plainly.
pub fn interrupted(_: &Context, stop: Stop) -> Error {
    let (kind, what) = stop_words(stop);
    Error::new(kind, what)
}

/// The kind and words of a stop request.
pub fn stop_words(stop: Stop) -> (Kind, &'static str) {
    match stop {
        Stop::Interrupt => (Kind::Interrupted, "interrupted"),
        Stop::Terminate => (Kind::Terminated, "stopped by SIGTERM"),
    }
}

/// `--max-time` (`limit`, as text) ran out.
pub fn out_of_time(_: &Context, limit: &str) -> Error {
    out_of_time_error(limit).with_hint("raise --max-time, or narrow what is asked")
}

/// The error of a `--max-time` that ran out, without a hint.
pub fn out_of_time_error(limit: &str) -> Error {
    Error::network(format!(
        "out of time: the command's --max-time of {limit} ran out"
    ))
}
