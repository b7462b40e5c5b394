//! `ylemctl logs PIPELINE [WINDOW]`: a pipeline's run log (endpoint 4),
//! streamed entry by entry from the response to the output.

use crate::commands::kit::columns::WORKFLOW_RUN_UUID;
use crate::commands::kit::conduct::{self, Conduct, Limit, Signals};
use crate::commands::kit::key_file::read_key;
use crate::commands::kit::signals;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::logs::args::LogsArgs;
use crate::commands::logs::follow;
use crate::commands::logs::rows::{COLUMNS, COLUMNS_DECODED, Sink, output_kept, print_entry};
use crate::context::Context;
use crate::error::Result;
use crate::output::{Column, Shape};
use ylem_client::api;
use ylem_client::output::{Decoder, Scratch};

/// `logs` listens for Ctrl-C and SIGTERM itself and keeps its own
/// `--max-time`, with or without `--follow`, so that what it printed stays
/// whole (its last row whole, a JSON array closed): `--follow` then ends
/// cleanly (exit 0), a one-shot read with the error of its stop (130, 143,
/// out of time; see `one_shot`).
pub const CONDUCT: Conduct = Conduct {
    signals: Signals::Own,
    limit: Limit::Own,
    ..Conduct::client("logs").streams()
};

/// `--follow` waits for the log to grow: it ends with its reader.
pub fn conduct(args: &LogsArgs) -> Conduct {
    match args.follow {
        true => CONDUCT.follows(),
        false => CONDUCT,
    }
}

pub const COMMAND: Entry = Entry {
    command: <LogsArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |m| conduct(&wing::args(m)),
    run: |m, ctx, _| {
        let args: LogsArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

pub async fn run(args: &LogsArgs, ctx: &Context) -> Result<()> {
    let id = ctx.resolve_id_as(ylem_client::Entity::Pipeline, &args.pipeline)?;
    let run_filter = args
        .run
        .as_deref()
        .map(|r| ctx.resolve_id(r))
        .transpose()?
        .map(|u| u.to_string());
    if args.follow {
        let since = args.window.since.is_some() || args.window.from.is_some();
        follow::check_args(args.window.to.as_deref(), since, args.tail.is_some())?;
    }
    let key = args.decrypt_key_file.as_deref().map(read_key).transpose()?;
    let decoder = (args.decode || key.is_some()).then(|| Decoder::new(key));
    let columns = if decoder.is_some() {
        COLUMNS_DECODED
    } else {
        COLUMNS
    };
    // On a narrow terminal the run, its result, the decoded output, the
    // time and the task stay longest (the columns say so: `kit/columns.rs`);
    // the run of `--run` is said already: it goes first.
    let columns: Vec<Column> = columns
        .iter()
        .map(
            |c| match run_filter.is_some() && c.name == WORKFLOW_RUN_UUID.name {
                true => c.given(),
                false => *c,
            },
        )
        .collect();
    let printer = ctx.printer(Shape::List, &columns, false)?;
    let mut sink = Sink {
        printer,
        // Read once, the log is newest first: `--tail N` is its first N
        // entries (nothing is held); a follow shows its own tail.
        left: args.tail.filter(|_| !args.follow),
        keep_output: output_kept(ctx.settings.format, decoder.is_some()),
        decoder,
        scratch: Scratch::default(),
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
        let asked = follow::Asked {
            since,
            tail: args.tail,
            poll: args.poll,
        };
        let filters = (run_filter, args.failed);
        follow::follow(ctx, &api, id, filters, asked, &mut sink).await?;
        return follow::close(sink, ctx);
    }
    let window = ctx.window(&args.window)?;
    let api = ctx.api()?;
    let sink = one_shot(ctx, &api, id, &window, run_filter, args.failed, sink).await?;
    let undecodable = sink.undecodable;
    sink.printer.finish(&empty_note(args, &window), &ctx.ui)?;
    if undecodable > 0 {
        ctx.ui.warn(&format!(
            "{} could not be decoded: see decode_error",
            crate::count::count(undecodable, "output", "outputs")
        ));
    }
    Ok(())
}

/// The log read once. Rows go out in large writes while the response
/// pours in, and as soon as the stream stalls, so a reader never waits on a
/// row already here; they are decoded and printed on a second thread while
/// this one receives. Stopped (Ctrl-C, SIGTERM, `--max-time`), it lets that
/// thread end its row and drop the printer, which closes what it opened
/// (`Printer`'s `Drop`; a body cut off ends the same way), then ends with
/// the stop's error.
async fn one_shot(
    ctx: &Context,
    api: &api::Client,
    id: uuid::Uuid,
    window: &crate::time::Window,
    run_filter: Option<String>,
    failed: bool,
    sink: Sink<'static>,
) -> Result<Sink<'static>> {
    let (dropped_tx, dropped_rx) = std::sync::mpsc::channel::<()>();
    let relay = async {
        let entries = api
            .pipeline_logs(id, window)
            .await?
            .keep_output(sink.keep_output);
        let mut sink = sink;
        // The log has begun: `-o json` cut off before an entry is `[]`.
        sink.printer.begin();
        let held = Held {
            sink,
            _dropped: dropped_tx,
        };
        let held = api::each_entry_apart(
            entries,
            run_filter,
            failed,
            held,
            |h| h.sink.printer.flush(),
            |h, e| print_entry(&mut h.sink, &e),
        )
        .await?;
        Ok(held.sink)
    };
    let mut relay = Box::pin(relay);
    let stop = signals::stop_now();
    let limit = async {
        match ctx.deadline {
            Some(d) => tokio::time::sleep_until(d.into()).await,
            None => std::future::pending().await,
        }
    };
    let err = tokio::select! {
        r = &mut relay => return r,
        s = stop => conduct::interrupted(ctx, s),
        () = limit => {
            let max = ctx.settings.max_time.unwrap_or_default().as_millis() as i64;
            conduct::out_of_time(ctx, &crate::time::human_ms(max))
        }
    };
    // The receiving side ends here; the decoding thread sees it after the
    // entry in hand and drops its sink: wait for that (bounded: a thread
    // stuck writing to a full pipe must not keep us).
    drop(relay);
    let _ = tokio::task::spawn_blocking(move || {
        dropped_rx.recv_timeout(std::time::Duration::from_secs(5))
    })
    .await;
    Err(err)
}

/// The sink on the decoding thread, with a sender whose drop (after the
/// sink's, fields drop in order) says the printer has closed its output.
struct Held {
    sink: Sink<'static>,
    _dropped: std::sync::mpsc::Sender<()>,
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
