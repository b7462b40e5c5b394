//! The commands, in wings by what an operator does (`runs`, `logs`,
//! `stats`, `monitor`, `watch`, `export`, `login`, `local`, `doctor`) over one shared `kit`; this file
//! holds the one table of commands, `WINGS` (each entry its wing's: its
//! arguments, conduct and run, `kit/wing.rs`), builds the command tree from
//! it, parses, and dispatches the parsed command.

mod doctor;
mod export;
pub(crate) mod kit;
mod local;
mod login;
mod logs;
mod monitor;
mod runs;
mod stats;
mod watch;

use clap::CommandFactory;

use crate::cli::Cli;
use crate::context::Context;
use crate::error::Result;
use kit::conduct::Conduct;
use kit::exit::Exit;
use kit::hints;
use kit::wing::{Below, Entry, Parsed, Ran};

/// Every command, in the order help lists them.
const WINGS: &[Entry] = &[
    runs::start::COMMAND,
    logs::fetch::COMMAND,
    runs::attach::COMMAND,
    stats::range::COMMAND,
    stats::aggregate::COMMAND,
    stats::last_run::COMMAND,
    monitor::check::COMMAND,
    monitor::status::COMMAND,
    doctor::COMMAND,
    watch::command::COMMAND,
    monitor::serve::exporter::COMMAND,
    export::command::COMMAND,
    local::sandbox::COMMAND,
    local::sandbox::DEMO,
    login::log_in::COMMAND,
    login::log_in::LOGOUT,
    login::auth::COMMAND,
    local::alias::COMMAND,
    local::completions::COMMAND,
];

/// What the commands that need it are handed from here.
const BELOW: Below = Below {
    dispatch: dispatch_boxed,
    parse: parse_words,
    tree,
};

/// The whole command tree: the global options and every command, as
/// parsed and as the generators and tests see it.
pub fn tree() -> clap::Command {
    Cli::command()
        .subcommands(WINGS.iter().map(|e| (e.command)()))
        .subcommand_required(true)
        .arg_required_else_help(true)
}

/// Parse a command line, the program's name first.
pub fn parse_from<I, T>(args: I) -> std::result::Result<Parsed, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut top = tree().try_get_matches_from(args)?;
    let global = <Cli as clap::FromArgMatches>::from_arg_matches(&top)?.global;
    let (name, matches) = top.remove_subcommand().expect("a command is required");
    let entry = by_name(&name).expect("every command in the tree has its entry");
    Ok(Parsed {
        global,
        entry,
        matches,
    })
}

fn parse_words(args: &[&str]) -> std::result::Result<Parsed, clap::Error> {
    parse_from(args.iter().copied())
}

pub async fn dispatch(parsed: &Parsed, ctx: &Context) -> Result<Exit> {
    dispatch_inner(parsed, ctx)
        .await
        .map_err(|e| hints::fit(ctx, e))
}

/// `dispatch`, boxed, for `demo`, which runs its steps through it: a
/// function handed down rather than a parent imported, and boxed because
/// `dispatch` reaches `demo` again.
fn dispatch_boxed<'a>(parsed: &'a Parsed, ctx: &'a Context) -> Ran<'a> {
    Box::pin(dispatch(parsed, ctx))
}

/// Advice for an unknown `flag` given to the command named `name`, as it
/// declares.
pub fn flag_advice(name: &str, flag: &str) -> Option<&'static str> {
    by_name(name).and_then(|e| (e.declared.flag_advice)(flag))
}

/// The entry of the command named `name`.
fn by_name(name: &str) -> Option<&'static Entry> {
    WINGS.iter().find(|e| e.declared.name == name)
}

/// How the command named `name` reports a usage error, for the errors
/// clap finds before there is a parsed command: its status line and exit
/// code, if it declares one.
pub fn usage_line(name: &str, message: &str) -> Option<(String, Exit)> {
    by_name(name)
        .and_then(|e| e.declared.usage_line)
        .map(|f| f(message))
}

async fn dispatch_inner(parsed: &Parsed, ctx: &Context) -> Result<Exit> {
    let conduct: Conduct = parsed.conduct();
    if conduct.uses_profile {
        hints::profile_exists(ctx)?;
    }
    conduct.check_outputs(ctx)?;
    (parsed.entry.run)(&parsed.matches, ctx, &BELOW).await
}

#[cfg(test)]
mod tests {
    use super::*;
    /// Every command on the command line has one entry, under its own
    /// name, and a parsed command reads the conduct of its entry.
    #[test]
    fn every_command_declares_its_conduct_under_its_name() {
        let cli = tree();
        let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
        let declared: Vec<&str> = WINGS.iter().map(|e| e.declared.name).collect();
        assert_eq!(names, declared);
        for e in WINGS {
            assert_eq!((e.command)().get_name(), e.declared.name);
        }
        let id = "3f2a1b4c-0000-4000-8000-000000000001";
        for args in [
            vec!["run", "pipeline", id, "--wait"],
            vec!["logs", id, "--follow"],
            vec!["runs", id, "--run", "latest"],
            vec!["stats", "pipeline", id],
            vec!["aggregate", "pipeline", id],
            vec!["last-run", "task", id],
            vec!["check", "pipeline", id],
            vec!["status"],
            vec!["doctor"],
            vec!["watch"],
            vec!["metrics", "serve", id],
            vec!["sandbox"],
            vec!["demo"],
            vec!["login"],
            vec!["logout"],
            vec!["auth", "status"],
            vec!["alias", "list"],
            vec!["completions", "bash"],
        ] {
            assert_eq!(conduct(&args).name, args[0]);
        }
        assert_eq!(
            conduct(&["run", "pipeline", id, "--wait"]).signals,
            kit::conduct::Signals::InterruptOrTerminate
        );
        assert_eq!(
            conduct(&["run", "pipeline", id]).signals,
            kit::conduct::Signals::Interrupt
        );
        assert_eq!(
            conduct(&["logs", id, "--follow"]).signals,
            kit::conduct::Signals::Own
        );
        assert_eq!(
            conduct(&["runs", id, "--run", "latest", "--wait"]).signals,
            kit::conduct::Signals::InterruptOrTerminate
        );
        // What --jq filters: a stream row by row, one value whole, or
        // nothing where the command prints no JSON.
        use crate::output::jq::Cut;
        for (args, cut) in [
            (vec!["logs", id], Some(Cut::Each)),
            (vec!["logs", id, "--follow"], Some(Cut::Each)),
            (vec!["runs", id], Some(Cut::Each)),
            (vec!["runs", id, "--run", "latest"], Some(Cut::Whole)),
            (
                vec!["runs", id, "--run", "latest", "--wait"],
                Some(Cut::Whole),
            ),
            (vec!["run", "pipeline", id], Some(Cut::Whole)),
            (vec!["stats", "pipeline", id], Some(Cut::Whole)),
            (vec!["status"], Some(Cut::Whole)),
            (vec!["sandbox"], Some(Cut::Each)),
            (vec!["auth", "status"], Some(Cut::Whole)),
            (vec!["auth", "token"], None),
            (vec!["check", "pipeline", id], None),
            (vec!["completions", "bash"], None),
            (vec!["metrics", "serve", id], None),
            (vec!["login"], None),
            (vec!["logout"], None),
            (vec!["demo"], None),
        ] {
            assert_eq!(conduct(&args).jq, cut, "{args:?}");
        }
        assert!(usage_line("check", "bad").is_some());
        assert!(usage_line("stats", "bad").is_none());
    }

    fn conduct(args: &[&str]) -> Conduct {
        let argv: Vec<&str> = std::iter::once("ylemctl")
            .chain(args.iter().copied())
            .collect();
        parse_words(&argv).unwrap().conduct()
    }
}
