//! `ylemctl export otlp|openlineage [ID|ALIAS]... [WINDOW] [--follow]`:
//! the finished runs of pipelines handed to an OpenTelemetry or
//! OpenLineage receiver (or written as JSON lines). Once: the window's
//! finished runs, then a summary on stderr. `--follow`: the same, then
//! every poll the runs finished since, with a cursor (`cursor.rs`) that
//! advances only on the receiver's acknowledgement; Ctrl-C or SIGTERM
//! ends it cleanly, exit 0.

use std::time::Duration;

use chrono::Utc;
use uuid::Uuid;

use crate::commands::export::args::{Common, ExportArgs, ExportCommand};
use crate::commands::export::cursor::{self, Cursor};
use crate::commands::export::gather::{self, Found};
use crate::commands::export::sink::{Delivered, Sink};
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::failure_read;
use crate::commands::kit::signals;
use crate::commands::kit::targets::{self, Target};
use crate::commands::kit::wing::{self, Entry};
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::time::Window;
use ylem_client::Entity;

/// Once: a command that asks the service, Ctrl-C ends it.
const ONCE: Conduct = Conduct::client("export").no_json();

/// Following: it stops itself cleanly on Ctrl-C or SIGTERM, has no time
/// limit, and ends when its standard output goes away.
const FOLLOW: Conduct = Conduct::client("export").no_json().server().follows();

/// A run's entries may reach the log a little after it ended: a follower
/// reads this far back past its last look.
const LATE: chrono::Duration = chrono::Duration::minutes(2);

/// The furthest back a follower reads a log, whatever a run not finished
/// holds it at: bounds each look's request.
const MAX_LOOKBACK: chrono::Duration = chrono::Duration::days(7);

/// The longest pause after a failed look (the service or the receiver
/// down): the poll doubled each time, up to this.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

pub const COMMAND: Entry = Entry {
    command: <ExportArgs as clap::CommandFactory>::command,
    declared: ONCE,
    conduct: |m| match m.subcommand().is_some_and(|(_, s)| s.get_flag("follow")) {
        true => FOLLOW,
        false => ONCE,
    },
    run: |m, ctx, _| {
        let args: ExportArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

pub async fn run(args: &ExportArgs, ctx: &Context) -> Result<()> {
    let (common, name) = match &args.command {
        ExportCommand::Otlp(a) => (&a.common, "otlp"),
        ExportCommand::Openlineage(a) => (&a.common, "openlineage"),
    };
    let targets = pipelines(ctx, common)?;
    let window = ctx.window(&common.window)?;
    let finder = failure_read::finder(ctx, common.key.decrypt_key_file.as_deref())?;
    let api = ctx.api()?;
    let sink = match &args.command {
        ExportCommand::Otlp(a) => Sink::otlp(ctx, a)?,
        ExportCommand::Openlineage(a) => Sink::lineage(ctx, a, api.base_url())?,
    };
    let x = Export {
        ctx,
        api: &api,
        finder: &finder,
        sink: &sink,
    };
    match common.follow {
        false => x.once(&targets, &window).await,
        true => x.follow(&targets, &window, common.poll, name).await,
    }
}

/// The pipelines named, or every pipeline alias; another kind is a usage
/// error (only a pipeline's runs have a log: a workflow's or a task's
/// have no run UUID and no task entries to make a trace of).
fn pipelines(ctx: &Context, common: &Common) -> Result<Vec<Target>> {
    let all = targets::resolve(ctx, &common.ids)?;
    if let Some(t) = all
        .iter()
        .find(|t| t.kind != Entity::Pipeline && !common.ids.is_empty())
    {
        return Err(Error::usage(format!(
            "{} {}: only pipeline runs can be exported (the service keeps a log of pipeline runs only: a {} run has no run UUID or task entries)",
            t.kind.as_str(),
            t.alias.clone().unwrap_or_else(|| t.uuid.to_string()),
            t.kind.as_str()
        )));
    }
    let pipelines: Vec<Target> = all
        .into_iter()
        .filter(|t| t.kind == Entity::Pipeline)
        .collect();
    if pipelines.is_empty() {
        return Err(
            Error::usage("no pipeline among the profile's aliases").with_hint(
                "name the pipelines, or add aliases: 'ylemctl alias set orders pipeline:UUID'",
            ),
        );
    }
    Ok(pipelines)
}

fn name_of(t: &Target) -> String {
    t.alias.clone().unwrap_or_else(|| t.uuid.to_string())
}

struct Export<'a> {
    ctx: &'a Context,
    api: &'a ylem_client::Client,
    finder: &'a ylem_client::runs::failure::Finder,
    sink: &'a Sink,
}

impl Export<'_> {
    async fn look(&self, t: &Target, w: &Window, skip: &dyn Fn(Uuid) -> bool) -> Result<Found> {
        gather::finished_runs(self.ctx, self.api, self.finder, t.uuid, w, skip)
            .await
            .map_err(|e| e.context(format!("pipeline {}", name_of(t))))
    }

    async fn read(
        &self,
        t: &Target,
        done: &[gather::Done],
    ) -> Result<Vec<ylem_client::export::FinishedRun>> {
        gather::read(self.api, self.finder, t.uuid, &name_of(t), done)
            .await
            .map_err(|e| e.context(format!("pipeline {}", name_of(t))))
    }

    /// The window's finished runs, each pipeline in turn (a log may be
    /// large: one is read at a time), then what was done, on stderr.
    async fn once(&self, targets: &[Target], window: &Window) -> Result<()> {
        let mut total = Delivered::default();
        let mut unfinished = 0;
        let mut first_error = None;
        for t in targets {
            let found = match self.look(t, window, &|_| false).await {
                Ok(f) => f,
                Err(e) if targets.len() > 1 => {
                    self.ctx.report(&e);
                    first_error.get_or_insert(e);
                    continue;
                }
                Err(e) => return Err(e),
            };
            unfinished += found.unfinished;
            for chunk in found.finished.chunks(self.sink.batch()) {
                let runs = self.read(t, chunk).await?;
                // A receiver that cannot take them ends the export: the
                // next runs would meet it too.
                total.add(self.sink.deliver(self.ctx, &runs).await?);
            }
        }
        self.ctx.ui.note(&summary(&total, self.sink, unfinished));
        if total.rejected > 0 {
            return Err(Error::new(
                Kind::Server,
                format!(
                    "{} rejected {} spans (a partial success): they are not in the backend",
                    self.sink.describe(),
                    total.rejected
                ),
            ));
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Export as runs finish, until stopped.
    async fn follow(
        &self,
        targets: &[Target],
        window: &Window,
        poll: Duration,
        name: &str,
    ) -> Result<()> {
        let dir = cursor::state_dir()
            .ok_or_else(|| Error::usage("no state directory for the cursor: set YLEM_STATE_DIR"))?;
        let mut ids: Vec<String> = targets.iter().map(|t| t.uuid.to_string()).collect();
        ids.sort();
        let of = format!("{name} {} {}", self.sink.describe(), ids.join(","));
        let mut cur = Cursor::open(&dir, &format!("export-{name}"), &of)?;
        self.ctx
            .ui
            .verbose(&format!("cursor: {}", cur.path().display()));
        let mut stop = Box::pin(signals::stop_now());
        let mut total = Delivered::default();
        let mut pause = poll;
        loop {
            let look = self.follow_once(targets, window, &mut cur, &mut total);
            let ok = tokio::select! {
                r = look => r?,
                _ = &mut stop => break,
            };
            pause = match ok {
                true => poll,
                false => (pause * 2).min(MAX_BACKOFF).max(poll),
            };
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                _ = &mut stop => break,
            }
        }
        self.ctx
            .ui
            .note(&format!("stopped: {}", summary(&total, self.sink, 0)));
        Ok(())
    }

    /// One look at every pipeline: `Ok(false)` when the service or the
    /// receiver failed (said; the next look, after a backoff, tries
    /// again); an error only for what no retry mends (the cursor).
    async fn follow_once(
        &self,
        targets: &[Target],
        window: &Window,
        cur: &mut Cursor,
        total: &mut Delivered,
    ) -> Result<bool> {
        let mut ok = true;
        for t in targets {
            let now = Utc::now();
            let from = cur
                .from(t.uuid)
                .unwrap_or(window.from)
                .max(now - MAX_LOOKBACK);
            let w = Window { from, to: now };
            let found = {
                let seen = &*cur;
                match self.look(t, &w, &|r| seen.exported(r)).await {
                    Ok(f) => f,
                    Err(e) => {
                        self.ctx.report(&e);
                        ok = false;
                        continue;
                    }
                }
            };
            for chunk in found.finished.chunks(self.sink.batch()) {
                let runs = match self.read(t, chunk).await {
                    Ok(r) => r,
                    Err(e) => {
                        self.ctx.report(&e);
                        return Ok(false);
                    }
                };
                match self.sink.deliver(self.ctx, &runs).await {
                    Ok(d) => {
                        cur.record(&runs);
                        cur.save()?;
                        total.add(d);
                        self.ctx
                            .ui
                            .verbose(&format!("exported {} runs of {}", d.runs, name_of(t)));
                    }
                    Err(e) => {
                        // Not acknowledged: the cursor stays, and the runs
                        // are read again next time rather than held.
                        self.ctx.report(&e);
                        return Ok(false);
                    }
                }
            }
            let next = found
                .earliest_unfinished
                .map_or(now - LATE, |s| s.min(now - LATE));
            cur.advance(t.uuid, next.max(from));
            cur.save()?;
        }
        Ok(ok)
    }
}

/// `exported 12 runs (57 spans) to URL in 1 request; 2 runs not finished yet, left for a later export`.
fn summary(d: &Delivered, sink: &Sink, unfinished: usize) -> String {
    let items = match sink {
        Sink::Otlp { .. } => crate::count::count(d.items, "span", "spans"),
        Sink::Lineage { .. } => crate::count::count(d.items, "event", "events"),
    };
    let mut s = format!(
        "exported {} ({items}) to {}",
        crate::count::count(d.runs, "run", "runs"),
        sink.describe()
    );
    if d.requests > 0 {
        s.push_str(&format!(
            " in {}",
            crate::count::count(d.requests, "request", "requests")
        ));
        if d.attempts > d.requests {
            s.push_str(&format!(" ({} retried)", d.attempts - d.requests));
        }
    }
    if unfinished > 0 {
        s.push_str(&format!(
            "; {} not finished yet, left for a later export",
            crate::count::count(unfinished, "run", "runs")
        ));
    }
    s
}
