//! The commands, in wings by what an operator does (`runs`, `logs`,
//! `stats`, `monitor`, `watch`, `login`, `local`, `doctor`) over one shared `kit`; this file
//! only dispatches the parsed command and holds the table of what each
//! command declares.

mod doctor;
pub(crate) mod kit;
mod local;
mod login;
mod logs;
mod monitor;
mod runs;
mod stats;
mod watch;

use crate::cli::Command;
use crate::context::Context;
use crate::error::Result;
use kit::conduct::Conduct;
use kit::exit::Exit;
use kit::hints;

pub async fn dispatch(cmd: &Command, ctx: &Context) -> Result<Exit> {
    dispatch_inner(cmd, ctx)
        .await
        .map_err(|e| hints::fit(ctx, e))
}

/// `dispatch`, boxed, for `demo`, which runs its steps through it: a
/// function handed down rather than a parent imported, and boxed because
/// `dispatch` reaches `demo` again.
#[cfg(feature = "sandbox")]
fn dispatch_boxed<'a>(
    cmd: &'a Command,
    ctx: &'a Context,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<Exit>> + 'a>> {
    Box::pin(dispatch(cmd, ctx))
}

/// What the parsed command declares about itself (`kit/conduct.rs`).
pub fn conduct(cmd: &Command) -> Conduct {
    match cmd {
        Command::Run(a) => runs::start::conduct(a),
        Command::Logs(a) => logs::fetch::conduct(a),
        Command::Runs(a) => runs::attach::conduct(a),
        Command::Stats(_) => stats::range::CONDUCT,
        Command::Aggregate(_) => stats::aggregate::CONDUCT,
        Command::LastRun(_) => stats::last_run::CONDUCT,
        Command::Check(_) => monitor::check::CONDUCT,
        Command::Status(_) => monitor::status::CONDUCT,
        Command::Doctor => doctor::CONDUCT,
        Command::Watch(_) => watch::command::CONDUCT,
        Command::Metrics(_) => monitor::serve::exporter::CONDUCT,
        Command::Sandbox(_) => local::sandbox::CONDUCT,
        Command::Demo => local::sandbox::DEMO_CONDUCT,
        Command::Login(_) => login::log_in::CONDUCT,
        Command::Logout => login::log_in::LOGOUT_CONDUCT,
        Command::Auth(a) => login::auth::conduct(a),
        Command::Alias(_) => local::alias::CONDUCT,
        Command::Completions(_) => local::completions::CONDUCT,
    }
}

/// Advice for an unknown `flag` given to the command named `name`, as it
/// declares.
pub fn flag_advice(name: &str, flag: &str) -> Option<&'static str> {
    by_name(name).and_then(|r| (r.flag_advice)(flag))
}

/// The declaration of the command named `name`, for what clap reports
/// before there is a parsed command.
fn by_name(name: &str) -> Option<&'static Conduct> {
    ALL.iter().find(|r| r.name == name)
}

/// Every command's declaration, whatever its arguments, by name.
const ALL: &[Conduct] = &[
    runs::start::CONDUCT,
    logs::fetch::CONDUCT,
    runs::list::CONDUCT,
    stats::range::CONDUCT,
    stats::aggregate::CONDUCT,
    stats::last_run::CONDUCT,
    monitor::check::CONDUCT,
    monitor::status::CONDUCT,
    doctor::CONDUCT,
    watch::command::CONDUCT,
    monitor::serve::exporter::CONDUCT,
    local::sandbox::CONDUCT,
    local::sandbox::DEMO_CONDUCT,
    login::log_in::CONDUCT,
    login::log_in::LOGOUT_CONDUCT,
    login::auth::CONDUCT,
    local::alias::CONDUCT,
    local::completions::CONDUCT,
];

/// How the command named `name` reports a usage error, for the errors
/// clap finds before there is a parsed command: its status line and exit
/// code, if it declares one.
pub fn usage_line(name: &str, message: &str) -> Option<(String, Exit)> {
    by_name(name).and_then(|r| r.usage_line).map(|f| f(message))
}

async fn dispatch_inner(cmd: &Command, ctx: &Context) -> Result<Exit> {
    let conduct = conduct(cmd);
    if conduct.uses_profile {
        hints::profile_exists(ctx)?;
    }
    conduct.check_outputs(ctx)?;
    let done = match cmd {
        Command::Check(a) => return monitor::check::run(a, ctx).await,
        Command::Doctor => return doctor::run(ctx).await,
        Command::Run(a) => runs::start::run(a, ctx).await,
        Command::Logs(a) => logs::fetch::run(a, ctx).await,
        Command::Runs(a) if a.wait => runs::attach::run(a, ctx).await,
        Command::Runs(a) if a.run.is_some() => runs::one::run(a, ctx).await,
        Command::Runs(a) => runs::list::run(a, ctx).await,
        Command::Stats(a) => stats::range::run(a, ctx).await,
        Command::Aggregate(a) => stats::aggregate::run(a, ctx).await,
        Command::LastRun(a) => stats::last_run::run(a, ctx).await,
        Command::Status(a) => monitor::status::run(a, ctx).await,
        Command::Watch(a) => watch::command::run(a, ctx).await,
        Command::Metrics(a) => monitor::serve::exporter::run(a, ctx).await,
        Command::Alias(a) => local::alias::run(a, ctx).await,
        Command::Completions(a) => local::completions::run(a, ctx),
        Command::Sandbox(a) => local::sandbox::run(a, ctx).await,
        #[cfg(feature = "sandbox")]
        Command::Demo => local::demo::run(ctx, dispatch_boxed).await,
        #[cfg(not(feature = "sandbox"))]
        Command::Demo => Err(local::sandbox::not_built("demo")),
        Command::Login(a) => login::log_in::run(a, ctx).await,
        Command::Logout => login::log_in::logout(ctx).await,
        Command::Auth(a) => login::auth::run(a, ctx).await,
    };
    done.map(|()| Exit::Success)
}

#[cfg(test)]
mod tests {
    use super::*;
    /// Every command on the command line declares its conduct once, under
    /// its own name, and a parsed command reads the declaration of its name.
    #[test]
    fn every_command_declares_its_conduct_under_its_name() {
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
            assert_eq!(conduct(&parse(&args)).name, args[0]);
        }
        assert_eq!(
            conduct(&parse(&["run", "pipeline", id, "--wait"])).signals,
            kit::conduct::Signals::InterruptOrTerminate
        );
        assert_eq!(
            conduct(&parse(&["run", "pipeline", id])).signals,
            kit::conduct::Signals::Interrupt
        );
        assert_eq!(
            conduct(&parse(&["logs", id, "--follow"])).signals,
            kit::conduct::Signals::Own
        );
        assert_eq!(
            conduct(&parse(&["runs", id, "--run", "latest", "--wait"])).signals,
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
            assert_eq!(conduct(&parse(&args)).jq, cut, "{args:?}");
        }
        assert!(usage_line("check", "bad").is_some());
        assert!(usage_line("stats", "bad").is_none());
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
