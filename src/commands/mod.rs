//! The commands, in wings by what an operator does (`runs`, `logs`,
//! `stats`, `monitor`, `login`, `local`) over one shared `kit`; this file
//! only dispatches the parsed command and holds the table of what each
//! command declares.

pub(crate) mod kit;
mod local;
mod login;
mod logs;
mod monitor;
mod runs;
mod stats;

use crate::cli::Command;
use crate::context::Context;
use crate::error::Result;
use kit::conduct::Rules;
use kit::exit_status::ExitStatus;
use kit::hints;

pub async fn dispatch(cmd: &Command, ctx: &Context) -> Result<ExitStatus> {
    dispatch_inner(cmd, ctx)
        .await
        .map_err(|e| hints::fit(ctx, e))
}

/// What the parsed command declares about itself (`rules.rs`).
pub fn rules(cmd: &Command) -> Rules {
    match cmd {
        Command::Run(a) => runs::start::rules(a),
        Command::Logs(_) => logs::fetch::RULES,
        Command::Runs(a) => runs::attach::rules(a),
        Command::Stats(_) => stats::range::RULES,
        Command::Aggregate(_) => stats::aggregate::RULES,
        Command::LastRun(_) => stats::last_run::RULES,
        Command::Check(_) => monitor::check::RULES,
        Command::Status(_) => monitor::status::RULES,
        Command::Metrics(_) => monitor::serve::exporter::RULES,
        Command::Sandbox(_) => local::sandbox::RULES,
        Command::Demo => local::sandbox::DEMO_RULES,
        Command::Login(_) => login::log_in::RULES,
        Command::Logout => login::log_in::LOGOUT,
        Command::Auth(_) => login::auth::RULES,
        Command::Alias(_) => local::alias::RULES,
        Command::Completions(_) => local::completions::RULES,
    }
}

/// Advice for an unknown `flag` given to the command named `name`, as it
/// declares.
pub fn flag_advice(name: &str, flag: &str) -> Option<&'static str> {
    by_name(name).and_then(|r| (r.flag_advice)(flag))
}

/// The declaration of the command named `name`, for what clap reports
/// before there is a parsed command.
fn by_name(name: &str) -> Option<&'static Rules> {
    ALL.iter().find(|r| r.name == name)
}

/// Every command's declaration, whatever its arguments, by name.
const ALL: &[Rules] = &[
    runs::start::RULES,
    logs::fetch::RULES,
    runs::list::RULES,
    stats::range::RULES,
    stats::aggregate::RULES,
    stats::last_run::RULES,
    monitor::check::RULES,
    monitor::status::RULES,
    monitor::serve::exporter::RULES,
    local::sandbox::RULES,
    local::sandbox::DEMO_RULES,
    login::log_in::RULES,
    login::log_in::LOGOUT,
    login::auth::RULES,
    local::alias::RULES,
    local::completions::RULES,
];

/// How the command named `name` reports a usage error, for the errors
/// clap finds before there is a parsed command: its status line and exit
/// code, if it declares one.
pub fn usage_status(name: &str, message: &str) -> Option<(String, ExitStatus)> {
    by_name(name)
        .and_then(|r| r.usage_status)
        .map(|f| f(message))
}

async fn dispatch_inner(cmd: &Command, ctx: &Context) -> Result<ExitStatus> {
    let rules = rules(cmd);
    if rules.uses_profile {
        hints::profile_exists(ctx)?;
    }
    rules.check_outputs(ctx)?;
    // The exposition of the measuring commands is written apart from
    // their rows (status writes its own from its board).
    if ctx.settings.format == crate::cli::Format::Prometheus {
        match cmd {
            Command::Check(a) => return monitor::exposition::check(a, ctx).await,
            Command::Stats(a) => {
                return monitor::exposition::stats(a, ctx)
                    .await
                    .map(|()| ExitStatus::Success);
            }
            Command::LastRun(a) => {
                return monitor::exposition::last_run(a, ctx)
                    .await
                    .map(|()| ExitStatus::Success);
            }
            _ => {}
        }
    }
    let done = match cmd {
        Command::Check(a) => return monitor::check::run(a, ctx).await,
        Command::Run(a) => runs::start::run(a, ctx).await,
        Command::Logs(a) => logs::fetch::run(a, ctx).await,
        Command::Runs(a) if a.wait => runs::attach::run(a, ctx).await,
        Command::Runs(a) if a.run.is_some() => runs::one::run(a, ctx).await,
        Command::Runs(a) => runs::list::run(a, ctx).await,
        Command::Stats(a) => stats::range::run(a, ctx).await,
        Command::Aggregate(a) => stats::aggregate::run(a, ctx).await,
        Command::LastRun(a) => stats::last_run::run(a, ctx).await,
        Command::Status(a) => monitor::status::run(a, ctx).await,
        Command::Metrics(a) => monitor::serve::exporter::run(a, ctx).await,
        Command::Alias(a) => local::alias::run(a, ctx).await,
        Command::Completions(a) => local::completions::run(a, ctx),
        Command::Sandbox(a) => local::sandbox::run(a, ctx).await,
        #[cfg(feature = "sandbox")]
        Command::Demo => local::demo::run(ctx).await,
        #[cfg(not(feature = "sandbox"))]
        Command::Demo => Err(local::sandbox::not_built("demo")),
        Command::Login(a) => login::log_in::run(a, ctx).await,
        Command::Logout => login::log_in::logout(ctx).await,
        Command::Auth(a) => login::auth::run(a, ctx).await,
    };
    done.map(|()| ExitStatus::Success)
}

#[cfg(test)]
mod tests {
    use super::*;
    /// Every command on the command line declares its rules once, under
    /// its own name, and a parsed command reads the declaration of its name.
    #[test]
    fn every_command_declares_its_rules_under_its_name() {
        let cli = crate::cli::command();
        let mut names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
        let mut declared: Vec<&str> = ALL.iter().map(|r| r.name).collect();
        names.sort();
        declared.sort();
        assert_eq!(names, declared);
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
            vec!["metrics", "serve", id],
            vec!["sandbox"],
            vec!["demo"],
            vec!["login"],
            vec!["logout"],
            vec!["auth", "status"],
            vec!["alias", "list"],
            vec!["completions", "bash"],
        ] {
            assert_eq!(rules(&parse(&args)).name, args[0]);
        }
        assert_eq!(
            rules(&parse(&["run", "pipeline", id, "--wait"])).signals,
            kit::conduct::Signals::InterruptOrTerminate
        );
        assert_eq!(
            rules(&parse(&["run", "pipeline", id])).signals,
            kit::conduct::Signals::Interrupt
        );
        assert_eq!(
            rules(&parse(&["logs", id, "--follow"])).signals,
            kit::conduct::Signals::Own
        );
        assert_eq!(
            rules(&parse(&["runs", id, "--run", "latest", "--wait"])).signals,
            kit::conduct::Signals::InterruptOrTerminate
        );
        assert!(usage_status("check", "bad").is_some());
        assert!(usage_status("stats", "bad").is_none());
    }

    fn parse(args: &[&str]) -> Command {
        let m = crate::cli::command()
            .try_get_matches_from(std::iter::once("ylemctl").chain(args.iter().copied()))
            .unwrap();
        <crate::cli::Cli as clap::FromArgMatches>::from_arg_matches(&m)
            .unwrap()
            .command
    }
}
