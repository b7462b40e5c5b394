//! `run pipeline P --rerun R`: the input of run R of P, read back from P's
//! log (`ylem_client::runs::input`: R's external trigger entry, its output
//! byte for byte), to start P with; a run not found in the window, without
//! an external trigger, or whose input cannot be read is a usage error
//! naming why and `--input`, before anything is started.

use bytes::Bytes;
use uuid::Uuid;

use crate::cli::WindowArgs;
use crate::commands::runs::args::RunArgs;
use crate::context::Context;
use crate::error::{Error, Result};
use ylem_client::RunKind;
use ylem_client::output::{Decoder, Unreadable};
use ylem_client::runs::input::{self, RunInput};

/// How to start the run otherwise: every refusal names it.
const OR_INPUT: &str = "or give the input yourself with --input JSON|@FILE|-";

/// The input of run `run` of the one pipeline in `ids`; `None` when the
/// trigger's output is empty (the start then sends no body, as R's did).
pub async fn input(
    args: &RunArgs,
    ids: &[Uuid],
    run: &str,
    ctx: &Context,
) -> Result<Option<Bytes>> {
    if args.kind == RunKind::Workflow {
        return Err(Error::usage(
            "--rerun is for pipelines: a workflow run leaves no log to read its input from",
        )
        .with_hint("start the workflow again without --rerun"));
    }
    let [pipeline] = ids else {
        return Err(Error::usage(
            "--rerun starts one pipeline again: name the pipeline the run belongs to",
        ));
    };
    // Every usage error (a bad run UUID, window or key file) before any request.
    let run = ctx.resolve_id(run)?.to_string();
    let key = crate::commands::kit::failure_read::key(ctx, args.decrypt_key_file.as_deref())?;
    let window = ctx.window(&WindowArgs {
        from: args.from.clone(),
        to: args.to.clone(),
        since: args.since.clone(),
    })?;
    let api = ctx.api()?;
    let found = input::of_run(&api, *pipeline, &run, &window, &Decoder::new(key)).await?;
    let trigger = format!("run {run}'s external trigger entry");
    let f = match found {
        RunInput::Found(f) => f,
        RunInput::NoEntries => {
            return Err(Error::usage(format!(
                "--rerun: no entry of run {run} in pipeline {pipeline}'s log in the window {} .. {} UTC: it has not reported yet (a run just started), or it is no run of this pipeline in this window",
                window.from.format("%Y-%m-%d %H:%M:%S"),
                window.to.format("%Y-%m-%d %H:%M:%S")
            ))
            .with_hint(format!(
                "widen the window with --since (e.g. --since 7d) or --from/--to, {OR_INPUT}"
            )));
        }
        RunInput::NoTrigger(n) => {
            return Err(Error::usage(format!(
                "--rerun: run {run} has no external trigger entry (of its {} in the window): the log does not keep its input",
                crate::count::count(n, "entry", "entries")
            ))
            .with_hint(format!("start it without --rerun, {OR_INPUT}")));
        }
        RunInput::Unreadable(Unreadable::Encrypted, _) => {
            return Err(Error::usage(format!(
                "--rerun: the output of {trigger} is encrypted, and no key opens it"
            ))
            .with_hint(format!(
                "give the organisation's key with --decrypt-key-file FILE, {OR_INPUT}"
            )));
        }
        RunInput::Unreadable(Unreadable::Invalid(why), _) => {
            return Err(Error::usage(format!(
                "--rerun: cannot read the output of {trigger}: {why}"
            ))
            .with_hint(format!("check --decrypt-key-file, {OR_INPUT}")));
        }
    };
    let e = &f.entry;
    let more = match f.triggers {
        1 => String::new(),
        n => format!("; the earliest of its {n} trigger entries"),
    };
    ctx.ui.verbose(&format!(
        "input: {}, the output of {trigger} (task {}, executed at {}{more})",
        crate::count::count(f.bytes.len(), "byte", "bytes"),
        e.task_uuid,
        e.executed_at.0
    ));
    if f.bytes.is_empty() {
        ctx.ui
            .verbose("input: empty: the run starts without a body");
        return Ok(None);
    }
    Ok(Some(f.bytes))
}
