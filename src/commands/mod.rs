//! One file per command; `dispatch` sends the parsed command to its `run`.

mod aggregate;
mod alias;
mod attach;
mod auth;
mod board;
mod check;
mod columns;
mod completions;
mod date_form;
#[cfg(feature = "sandbox")]
mod demo;
mod entry_key;
mod exposition;
mod failure;
mod failure_text;
mod fetch;
mod finished;
mod hints;
mod input;
mod last_model;
mod last_run;
mod last_seen;
mod log_rows;
mod login;
mod logs;
mod logs_follow;
mod metrics;
mod poll;
mod refusal;
pub(crate) mod rules;
mod run;
mod run_model;
mod runs;
mod runs_one;
mod runs_tally;
mod sandbox;
mod scrape_health;
mod scrapes;
pub(crate) mod signals;
mod stats;
mod status;
mod targets;
mod wait;
mod web_auth;
mod web_config;
mod web_serve;

use std::future::Future;

use futures_util::StreamExt;
use uuid::Uuid;

use crate::cli::{Command, Format};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::{Cell, Column, Printer, Row};
use rules::Rules;

/// How a command ended when it did not fail: a status, not an error
/// (`check` says OK, WARNING, CRITICAL or UNKNOWN through it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    Success,
    /// A non-zero exit code the command has already explained on stdout.
    Code(u8),
}

impl ExitStatus {
    pub fn from_code(code: u8) -> Self {
        match code {
            0 => ExitStatus::Success,
            c => ExitStatus::Code(c),
        }
    }

    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Code(c) => c,
        }
    }
}

pub async fn dispatch(cmd: &Command, ctx: &Context) -> Result<ExitStatus> {
    dispatch_inner(cmd, ctx)
        .await
        .map_err(|e| hints::fit(ctx, e))
}

/// What the parsed command declares about itself (`rules.rs`).
pub fn rules(cmd: &Command) -> Rules {
    match cmd {
        Command::Run(a) => run::rules(a),
        Command::Logs(_) => logs::RULES,
        Command::Runs(a) => attach::rules(a),
        Command::Stats(_) => stats::RULES,
        Command::Aggregate(_) => aggregate::RULES,
        Command::LastRun(_) => last_run::RULES,
        Command::Check(_) => check::RULES,
        Command::Status(_) => status::RULES,
        Command::Metrics(_) => metrics::RULES,
        Command::Sandbox(_) => sandbox::RULES,
        Command::Demo => sandbox::DEMO_RULES,
        Command::Login(_) => login::RULES,
        Command::Logout => login::LOGOUT,
        Command::Auth(_) => auth::RULES,
        Command::Alias(_) => alias::RULES,
        Command::Completions(_) => completions::RULES,
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
    run::RULES,
    logs::RULES,
    runs::RULES,
    stats::RULES,
    aggregate::RULES,
    last_run::RULES,
    check::RULES,
    status::RULES,
    metrics::RULES,
    sandbox::RULES,
    sandbox::DEMO_RULES,
    login::RULES,
    login::LOGOUT,
    auth::RULES,
    alias::RULES,
    completions::RULES,
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
            Command::Check(a) => return exposition::check(a, ctx).await,
            Command::Stats(a) => {
                return exposition::stats(a, ctx)
                    .await
                    .map(|()| ExitStatus::Success);
            }
            Command::LastRun(a) => {
                return exposition::last_run(a, ctx)
                    .await
                    .map(|()| ExitStatus::Success);
            }
            _ => {}
        }
    }
    let done = match cmd {
        Command::Check(a) => return check::run(a, ctx).await,
        Command::Run(a) => run::run(a, ctx).await,
        Command::Logs(a) => logs::run(a, ctx).await,
        Command::Runs(a) if a.wait => attach::run(a, ctx).await,
        Command::Runs(a) if a.run.is_some() => runs_one::run(a, ctx).await,
        Command::Runs(a) => runs::run(a, ctx).await,
        Command::Stats(a) => stats::run(a, ctx).await,
        Command::Aggregate(a) => aggregate::run(a, ctx).await,
        Command::LastRun(a) => last_run::run(a, ctx).await,
        Command::Status(a) => status::run(a, ctx).await,
        Command::Metrics(a) => metrics::run(a, ctx).await,
        Command::Alias(a) => alias::run(a, ctx).await,
        Command::Completions(a) => completions::run(a, ctx),
        Command::Sandbox(a) => sandbox::run(a, ctx).await,
        #[cfg(feature = "sandbox")]
        Command::Demo => demo::run(ctx).await,
        #[cfg(not(feature = "sandbox"))]
        Command::Demo => Err(sandbox::not_built("demo")),
        Command::Login(a) => login::run(a, ctx).await,
        Command::Logout => login::logout(ctx).await,
        Command::Auth(a) => auth::run(a, ctx).await,
    };
    done.map(|()| ExitStatus::Success)
}

/// Close the output of a per-ID command. One ID that failed leaves stdout
/// empty rather than showing an empty result; several IDs show what was
/// fetched. The empty-result note is only for a success.
pub fn close(
    p: Printer<'_>,
    res: &Result<()>,
    multi: bool,
    empty_note: &str,
    ctx: &Context,
) -> Result<()> {
    match res {
        Err(_) if !multi => Ok(()),
        Err(_) => p.finish("", &ctx.ui),
        Ok(()) => p.finish(empty_note, &ctx.ui),
    }
}

/// The columns of several IDs' rows: `columns`, then what became of each
/// ID: `error` (a JSON object, `null` when answered) in JSON, `error_kind`
/// and `error` in CSV and tables.
pub fn multi_columns(ctx: &Context, columns: &[Column]) -> Vec<Column> {
    let mut c = columns.to_vec();
    c.extend(error_columns(ctx));
    c
}

fn error_columns(ctx: &Context) -> &'static [Column] {
    match ctx.settings.format {
        Format::Json | Format::Jsonl => &[columns::ERROR],
        _ => &[columns::ERROR_KIND, columns::ERROR],
    }
}

/// Set an ID's error cells (several IDs), as `multi_columns` names them:
/// left empty for an ID that was answered.
pub fn set_error(ctx: &Context, row: &mut Row, e: &Error) {
    let message = ylem_client::scrub(&e.message);
    match ctx.settings.format {
        Format::Json | Format::Jsonl => row.set(
            &columns::ERROR,
            Cell::Json(serde_json::json!({
                "kind": e.kind.name(),
                "message": message,
                "http_status": e.http_status,
            })),
        ),
        _ => row
            .set(&columns::ERROR_KIND, Cell::Str(e.kind.name().to_string()))
            .set(&columns::ERROR, Cell::Str(message)),
    };
}

/// The row of an ID that failed, with several IDs: the ID, empty values,
/// then its error.
pub fn failed_row(ctx: &Context, columns: &[Column], id: Uuid, e: &Error) -> Vec<Cell> {
    let mut r = Row::new(columns);
    r.set(&columns::UUID, Cell::Str(id.to_string()));
    set_error(ctx, &mut r, e);
    r.into_cells()
}

/// Fetch for every ID (`fetch::in_order`) and hand
/// the results to `emit` in the order the IDs were given; with several IDs
/// a failure is handed on too (for its row). A failure for one ID does not
/// stop the others; the worst failure is returned at the end and the
/// others are reported on stderr.
pub async fn for_each_id<T, F, Fut>(
    ctx: &Context,
    ids: &[Uuid],
    fetch: F,
    mut emit: impl FnMut(Uuid, std::result::Result<T, &Error>) -> Result<()>,
) -> Result<()>
where
    F: Fn(Uuid) -> Fut,
    Fut: Future<Output = Result<T>>,
{
    let mut results = std::pin::pin!(fetch::in_order(ctx.settings.concurrency, ids, |id| {
        fetch(*id)
    }));
    let mut errors: Vec<Error> = Vec::new();
    while let Some((&id, r)) = results.next().await {
        match r {
            Ok(v) => emit(id, Ok(v))?,
            Err(e) if ids.len() > 1 => {
                emit(id, Err(&e))?;
                errors.push(e.context(id));
            }
            Err(e) => errors.push(e),
        }
    }
    worst_of(ctx, errors)
}

/// The worst of several failures (the highest exit code, the first of
/// equals), whatever the order of the IDs, as the command's error; the
/// others are reported now, an `error:` line each.
pub fn worst_of(ctx: &Context, mut errors: Vec<Error>) -> Result<()> {
    let worst = (0..errors.len())
        .rev()
        .max_by_key(|&i| errors[i].kind.exit_code());
    let worst = worst.map(|i| errors.remove(i));
    for e in errors {
        ctx.report(&hints::fit(ctx, e));
    }
    worst.map_or(Ok(()), Err)
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
            rules::Signals::InterruptOrTerminate
        );
        assert_eq!(
            rules(&parse(&["run", "pipeline", id])).signals,
            rules::Signals::Interrupt
        );
        assert_eq!(
            rules(&parse(&["logs", id, "--follow"])).signals,
            rules::Signals::Own
        );
        assert_eq!(
            rules(&parse(&["runs", id, "--run", "latest", "--wait"])).signals,
            rules::Signals::InterruptOrTerminate
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
