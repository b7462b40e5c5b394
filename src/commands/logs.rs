//! `ylemctl logs PIPELINE [WINDOW]`: a pipeline's run log (endpoint 4),
//! streamed entry by entry from the response to the output.

use super::log_rows::{COLUMNS, COLUMNS_DECODED, Sink, print_entry};
use super::logs_follow;
use super::rules::{Limit, Rules, Signals};
use crate::api;
use crate::cli::LogsArgs;
use crate::context::Context;
use crate::error::Result;
use crate::output::{Shape, decode};

/// A one-shot read: Ctrl-C ends it (130), `--max-time` cuts it.
pub const RULES: Rules = Rules::client("logs");

/// `--follow` ends itself on Ctrl-C, SIGTERM and at `--max-time`,
/// cleanly (exit 0, output whole).
pub fn rules(args: &LogsArgs) -> Rules {
    match args.follow {
        true => Rules {
            signals: Signals::Own,
            limit: Limit::Own,
            ..RULES
        },
        false => RULES,
    }
}

pub async fn run(args: &LogsArgs, ctx: &Context) -> Result<()> {
    let id = ctx.resolve_id_as(crate::kinds::Entity::Pipeline, &args.pipeline)?;
    let run_filter = args
        .run
        .as_deref()
        .map(|r| ctx.resolve_id(r))
        .transpose()?
        .map(|u| u.to_string());
    if args.follow {
        logs_follow::check_args(args.window.to.as_deref())?;
    }
    let key = args
        .decrypt_key_file
        .as_deref()
        .map(decode::read_key)
        .transpose()?;
    let decoder = (args.decode || key.is_some()).then(|| decode::Decoder::new(key));
    let columns = if decoder.is_some() {
        COLUMNS_DECODED
    } else {
        COLUMNS
    };
    let mut printer = ctx.printer(Shape::List, columns, false)?;
    if decoder.is_some() {
        // Decoded outputs (a failed task's messages) are what is read.
        printer = printer.keeping(&["output", "executed_at", "is_successful", "task_type"]);
    }
    let mut sink = Sink {
        printer,
        decoder,
        scratch: decode::Scratch::default(),
        undecodable: 0,
        tasks: ctx
            .resolve_ids(&args.task)?
            .iter()
            .map(|u| u.to_string())
            .collect(),
    };
    if args.follow {
        let w = &args.window;
        let since = match (&w.since, &w.from) {
            (None, None) => None,
            _ => Some(ctx.window(w)?.from),
        };
        let api = ctx.api()?;
        logs_follow::follow(ctx, &api, id, run_filter, args.failed, since, &mut sink).await?;
        return logs_follow::close(sink, ctx);
    }
    let window = ctx.window(&args.window)?;
    let api = ctx.api()?;
    let entries = api.pipeline_logs(id, &window).await?;
    // Rows go out in large writes while the response pours in, and as soon
    // as the stream stalls, so a reader never waits on a row already here;
    // they are decoded and printed on a second thread while this one
    // receives.
    let sink = api::each_entry_apart(
        entries,
        run_filter,
        args.failed,
        sink,
        |s| s.printer.flush(),
        |s, e| print_entry(s, &e),
    )
    .await?;
    let undecodable = sink.undecodable;
    sink.printer.finish(&empty_note(args, &window), &ctx.ui)?;
    if undecodable > 0 {
        ctx.ui.warn(&format!(
            "{undecodable} outputs could not be decoded: see decode_error"
        ));
    }
    Ok(())
}

/// What an empty log says: the window it looked in and, for one run (which
/// may be older than the window), how to widen it.
fn empty_note(args: &LogsArgs, w: &crate::time::Window) -> String {
    let span = format!(
        "{} .. {} UTC",
        w.from.format("%Y-%m-%d %H:%M:%S"),
        w.to.format("%Y-%m-%d %H:%M:%S")
    );
    let given = args.window.since.is_some() || args.window.from.is_some();
    match &args.run {
        Some(run) => format!(
            "no log entries of run {run} in the window {span}{}; an older run needs a wider window: --since 7d, or --from DATE",
            if given {
                ""
            } else {
                " (the default: the last 24 hours)"
            }
        ),
        None => format!("no log entries in the window {span}"),
    }
}
