//! `ylemctl watch [[KIND:]ID|ALIAS]...`: the fleet followed live. Off a
//! terminal, or with `-o jsonl`, an event stream (`events.rs`); on a
//! terminal, a board (drawn by `board`, fed and answered here). Ctrl-C,
//! SIGTERM and `--max-time` end it after the line in flight, exit 0.

use std::future::Future;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::cli::Format;
use crate::commands::kit::conduct::{Conduct, Limit, Signals};
use crate::commands::kit::wing::{self, Entry};
use crate::commands::kit::{failure_read, signals, targets};
use crate::commands::watch::args::WatchArgs;
use crate::commands::watch::asks;
use crate::commands::watch::clock;
use crate::commands::watch::engine::Engine;
use crate::commands::watch::entity::Watched;
use crate::commands::watch::events::{self, Stream};
use crate::commands::watch::rows::{Answer, Ask, Board};
use crate::context::Context;
use crate::count::count;
use crate::error::{Error, Result};

/// `watch` listens for Ctrl-C and SIGTERM itself and keeps its own
/// `--max-time`: each ends it cleanly, its output whole (exit 0). Its
/// events are a stream: `--jq` filters each as it comes.
pub const CONDUCT: Conduct = Conduct {
    signals: Signals::Own,
    limit: Limit::Own,
    ..Conduct::client("watch").streams().follows()
};

pub const COMMAND: Entry = Entry {
    command: <WatchArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: WatchArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

/// Where the watch goes: a board on a terminal, else the event stream.
fn wants_board(ctx: &Context) -> Result<bool> {
    let s = &ctx.settings;
    match (s.format_given, s.format) {
        (_, Format::Jsonl) => Ok(false),
        (false, _) => Ok(s.tty.stdout),
        (true, Format::Table) if s.tty.stdout => Ok(true),
        (true, f) => Err(Error::usage(format!(
            "watch writes a board on a terminal, else an event stream: -o jsonl, not -o {}",
            format!("{f:?}").to_ascii_lowercase()
        ))
        .with_hint("ylemctl watch -o jsonl | jq -c 'select(.event == \"run_finished\")'")),
    }
}

pub async fn run(args: &WatchArgs, ctx: &Context) -> Result<()> {
    let board = wants_board(ctx)?;
    // -v's request log and the client's retry lines go to stderr; on the
    // same terminal as the board they would be drawn across its rows.
    if board && ctx.settings.verbose > 0 && ctx.settings.tty.stderr {
        return Err(Error::usage(
            "-v would write over the board: send stderr elsewhere, or watch the event stream",
        )
        .with_hint("ylemctl -v watch 2> watch.log   (or: ylemctl -v watch -o jsonl)"));
    }
    let targets = targets::resolve(ctx, &args.ids)?;
    let api = ctx.api()?;
    let finder = failure_read::finder(ctx, args.key.decrypt_key_file.as_deref())?;
    let engine = Engine {
        api: &api,
        finder: &finder,
        entities: targets.into_iter().map(Watched::new).collect(),
        interval: args.interval,
        since: args.since,
        concurrency: ctx.settings.concurrency,
    };
    if board {
        // The board, in place of the stream (its signals, keys and
        // terminal are its own).
        return on_board(engine, args.interval, ctx.deadline, super::board::run).await;
    }
    // Listened for from the start: a signal during the first looks ends
    // the watch cleanly too.
    let stop = signals::stop_now();
    tokio::select! {
        biased;
        _ = stop => Ok(()),
        () = until(ctx.deadline) => Ok(()),
        r = stream(engine, args.interval, ctx) => r,
    }
}

/// Resolves at `--max-time`'s end (never without one).
async fn until(deadline: Option<std::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d.into()).await,
        None => std::future::pending().await,
    }
}

/// The event stream: a refresh every interval, each event a line (with
/// `-v`, how long each refresh took). Runs until it is stopped (the
/// caller's select), or its output is closed.
async fn stream(mut engine: Engine<'_>, interval: Duration, ctx: &Context) -> Result<()> {
    let ui = &ctx.ui;
    let mut out = Stream::new(ctx);
    let mut tell = |w: &Watched, told: &events::Told, finder: &_| {
        out.write(&events::object(&w.target, told, clock::now(), finder))
    };
    loop {
        let began = tokio::time::Instant::now();
        engine.refresh(&mut tell).await?;
        ui.verbose(&format!(
            "watch: refreshed {} in {}",
            count(engine.entities.len(), "entity", "entities"),
            crate::time::human_ms(began.elapsed().as_millis() as i64)
        ));
        tokio::time::sleep_until(began + interval).await;
    }
}

/// The board: `draw` gets the rows (refreshed every interval), sends its
/// asks and gets their answers; it owns the terminal, the keys and the
/// signals (q, Ctrl-C, SIGTERM), and its end is the watch's. At
/// `--max-time`'s end, or when the rows cannot be made (an output error),
/// `draw` is dropped: its terminal is restored by its own guard.
pub async fn on_board<F, Fut>(
    engine: Engine<'_>,
    interval: Duration,
    deadline: Option<std::time::Instant>,
    draw: F,
) -> Result<()>
where
    F: FnOnce(
        watch::Receiver<Board>,
        mpsc::UnboundedSender<Ask>,
        mpsc::UnboundedReceiver<Answer>,
    ) -> Fut,
    Fut: Future<Output = Result<()>>,
{
    let (rows, seen) = watch::channel(Board::default());
    let (ask, mut asked) = mpsc::unbounded_channel();
    let (answer, answers) = mpsc::unbounded_channel();
    let (api, finder) = (engine.api, engine.finder);
    let feed = async move {
        let mut engine = engine;
        loop {
            let next = tokio::time::Instant::now() + interval;
            engine.refresh(&mut |_, _, _| Ok(())).await?;
            rows.send_replace(engine.board());
            tokio::time::sleep_until(next).await;
        }
    };
    let answering = asks::answer(api, finder, &mut asked, &answer);
    tokio::select! {
        r = draw(seen, ask, answers) => r,
        r = feed => r,
        () = answering => Ok(()),
        () = until(deadline) => Ok(()),
    }
}
