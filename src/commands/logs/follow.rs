//! `logs --follow`: a pipeline's log printed as it grows, oldest first. The
//! service has no push and returns whole runs newest first for a window, so
//! each poll asks for a window that starts a little before the newest entry
//! seen (overlapping it, whatever the clocks say), prints only entries not
//! printed before, and pauses longer while nothing changes. With `--run` it
//! ends when the run is complete by the rule `run --wait` uses.

use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::cli::Format;
use crate::commands::logs::held::{self, Held};
use crate::commands::logs::rows::{Sink, output_cell, print_entry};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::output::table;
use crate::time::{self, Window};
use ylem_client::api::{self, Client, models::LogEntryRef};
use ylem_client::runs::entry_key::{Key, forget, key};
use ylem_client::runs::finished::{History, Rule, Verdict};
use ylem_client::runs::poll::{self, Look, Pacing, Step, StopRequest, Until, Waited};
use ylem_client::runs::seen::Seen;

/// How far before the newest entry seen each poll's window starts.
const OVERLAP: chrono::Duration = chrono::Duration::minutes(2);
/// Without `--since`: entries of the last hour, the newest of them shown.
const TAIL_WINDOW: chrono::Duration = chrono::Duration::hours(1);
const TAIL: usize = 10;
/// A `--since` far back is caught up with windows this long, oldest first,
/// so at most one window's entries are held for sorting at a time.
const CATCH_UP: chrono::Duration = chrono::Duration::hours(6);
/// Pauses grow from the first to the longest while nothing changes; a run
/// being finished (`--run`) is kept in view with shorter ones.
const FIRST_PAUSE: Duration = Duration::from_secs(2);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);
const LONGEST_PAUSE_FOR_A_RUN: Duration = Duration::from_secs(6);
/// Keys of entries older than this before the window are forgotten.
const MEMORY: chrono::Duration = chrono::Duration::days(1);
/// At most this many keys are remembered (about 9 MB; a busy pipeline's
/// day is tens of thousands of entries).
const SEEN: usize = 100_000;

/// What a follow was asked for beyond its entries' filters: where it
/// starts, how many of the last hour's entries it shows first (`--tail`,
/// else `TAIL`), and a fixed pause between looks (`--poll`, else pauses
/// from `FIRST_PAUSE` growing to `LONGEST_PAUSE` while nothing changes).
#[derive(Debug, Clone, Copy, Default)]
pub struct Asked {
    pub since: Option<DateTime<Utc>>,
    pub tail: Option<usize>,
    pub poll: Option<Duration>,
}

/// Follow `id`'s log; `run` keeps one run's entries, `failed` failed ones.
/// Ctrl-C, SIGTERM and --max-time end it cleanly: what was printed is
/// whole, and the caller closes the output.
pub async fn follow(
    ctx: &Context,
    api: &Client,
    id: Uuid,
    (run, failed): (Option<String>, bool),
    asked: Asked,
    sink: &mut Sink<'_>,
) -> Result<()> {
    let since = asked.since;
    // Listened for from the start: a signal during the history look-up
    // ends the follow cleanly too.
    let mut stop: StopRequest<_> = Box::pin(crate::commands::kit::signals::stop_now());
    let now = Utc::now();
    let start = since.unwrap_or(now - TAIL_WINDOW);
    // A followed run's basis is read once its first entry says which it
    // is (`anchor_rule`): one history request, never today's as well.
    let rule = run
        .as_ref()
        .map(|_| Rule::new(&History::default(), None, api.settle()));
    let pacing = Pacing {
        first_look: Duration::ZERO,
        first: asked.poll.unwrap_or(FIRST_PAUSE),
        longest: match (asked.poll, &rule) {
            (Some(d), _) => d,
            (None, Some(_)) => LONGEST_PAUSE_FOR_A_RUN,
            (None, None) => LONGEST_PAUSE,
        },
    };
    let mut tail = Tail {
        ctx,
        api,
        id,
        run,
        failed,
        since,
        tail: asked.tail.unwrap_or(TAIL),
        start,
        rule,
        sink,
        seen: HashSet::new(),
        newest: None,
        cursor: start,
        run_entries: Seen::default(),
        first_start: None,
        based: None,
        misses: 0,
        changed_at: Instant::now(),
        first: true,
        said_none: false,
    };
    let until = Until {
        limit: ctx.deadline.map(tokio::time::Instant::from_std),
        // --max-time: the requests' own deadline ends a look at it.
        cut_looks: false,
        stop: Some(&mut stop),
    };
    // However it ends (the run complete, a stop, the limit), it ends
    // cleanly; only a failure not worth waiting out is an error.
    poll::drive(&mut tail, pacing, until).await.map(drop)
}

/// The state of a follow between polls: the driver's step.
struct Tail<'a, 's> {
    ctx: &'a Context,
    api: &'a Client,
    id: Uuid,
    run: Option<String>,
    failed: bool,
    since: Option<DateTime<Utc>>,
    /// How many of the entries first seen are shown (without `--since`).
    tail: usize,
    start: DateTime<Utc>,
    /// When the followed run (`--run`) is complete.
    rule: Option<Rule>,
    sink: &'a mut Sink<'s>,
    seen: HashSet<Key>,
    newest: Option<DateTime<Utc>>,
    /// Where the windows have reached while catching up.
    cursor: DateTime<Utc>,
    /// The entries of the one run followed with --run, for its verdict;
    /// counted only then (a follow of the whole log runs for weeks), and
    /// counted, not kept (`Seen`): bounded whatever the server sends.
    run_entries: Seen,
    /// The followed run's first task's start, and the anchor of the basis
    /// its rule was last made from (`basis::anchor_of`).
    first_start: Option<DateTime<Utc>>,
    based: Option<DateTime<Utc>>,
    /// Basis look-ups that failed (said; asked again at the next poll).
    misses: u32,
    changed_at: Instant,
    first: bool,
    /// Whether the note that the followed run has no entry yet was said:
    /// once, not at every poll.
    said_none: bool,
}

impl Step for Tail<'_, '_> {
    type Done = ();
    type Error = Error;

    /// One poll: its entries not printed before, printed oldest first. The
    /// request is the only await: a stop during it drops the poll, of
    /// which nothing was printed yet.
    async fn look(&mut self) -> Result<Look<()>> {
        let from =
            (self.newest.map_or(self.cursor, |n| n.max(self.cursor)) - OVERLAP).max(self.start);
        // Up to now (and a little past: the server's clock may be ahead),
        // unless a window that long would hold too much to sort.
        let live = Utc::now() + chrono::Duration::minutes(10);
        let w = Window {
            from,
            to: (from + CATCH_UP).min(live),
        };
        let catching_up = w.to < live;
        let polled = self.poll(&w, catching_up).await;
        let polled = match polled {
            Ok(changed) => {
                if !catching_up {
                    self.no_entry_yet();
                }
                Ok(changed)
            }
            // The followed run may be complete all the same (below).
            Err(e) if e.transient() => Err(e),
            Err(e) => return Err(e),
        };
        self.anchor_rule().await;
        if let (Some(rule), Some(r)) = (&self.rule, &self.run) {
            match self.run_entries.decide(rule, self.changed_at.elapsed()) {
                Verdict::Pending => {}
                Verdict::Failed { .. } => {
                    self.ctx
                        .note(&format!("run {r} is complete: a task failed"));
                    return Ok(Look::Done(()));
                }
                Verdict::Succeeded(ev) => {
                    self.ctx.note(&format!(
                        "run {r} is complete: {}",
                        crate::commands::kit::evidence_text::describe(&ev)
                    ));
                    return Ok(Look::Done(()));
                }
            }
        }
        polled.map(|changed| Look::Pending {
            changed,
            again: catching_up,
        })
    }

    fn failing(&mut self, e: &Error, first: bool) {
        if first {
            self.ctx
                .ui
                .warn(&format!("still following; the service failed: {e}"));
        }
    }
}

impl Tail<'_, '_> {
    /// The followed run's rule made again from the basis anchored at its
    /// first task's start, as `runs --run` judges it (before its first
    /// entry: today's), once per anchor; a look-up that fails keeps the
    /// rule and is asked at the next poll.
    async fn anchor_rule(&mut self) {
        let (Some(_), Some(start)) = (&self.rule, self.first_start) else {
            return;
        };
        let at = ylem_client::runs::basis::anchor_of(start);
        if self.based == Some(at) {
            return;
        }
        match ylem_client::runs::history::lookup(self.api, self.id, start).await {
            Ok(h) => {
                self.rule = Some(Rule::new(&h, None, self.api.settle()));
                self.based = Some(at);
            }
            Err(e) => {
                self.misses += 1;
                let ui = &self.ctx.ui;
                crate::commands::kit::run_history::missed(self.id, ui, &e, self.misses);
            }
        }
    }

    /// Once, when the followed run has no entry in the window caught up
    /// with: say so (the follow would otherwise print nothing until
    /// stopped), and that the service cannot tell a run not reported yet
    /// from no run of the pipeline.
    fn no_entry_yet(&mut self) {
        let Some(r) = self.run.as_deref() else {
            return;
        };
        if self.said_none || !self.run_entries.is_empty() {
            return;
        }
        self.said_none = true;
        self.ctx.note(&format!(
            "no entry of run {r} in the log since {} UTC yet: it has not reported yet, or it is no run of pipeline {} (the service cannot tell these apart); waiting for its entries",
            self.start.format("%Y-%m-%d %H:%M:%S"),
            self.id
        ));
    }

    /// One window's entries (of `run`, if given) not printed before,
    /// printed as the response streams: held to be printed oldest first
    /// within a budget (`held.rs`), never the response whole. Whether it
    /// held anything new.
    async fn poll(&mut self, w: &Window, catching_up: bool) -> Result<bool> {
        let mut s = self
            .api
            .pipeline_logs(self.id, w)
            .await?
            .keep_output(self.sink.keep_output);
        // The first look without --since shows only the newest few
        // (`--tail N`), held within the budget, never the hour whole.
        let tail = (self.first && self.since.is_none()).then_some(self.tail);
        let mut cx = (&mut *self, Held::new(tail), false);
        let run = cx.0.run.clone();
        api::each_entry::<_, Error>(
            &mut s,
            run.as_deref(),
            false,
            &mut cx,
            |(t, _, _)| t.sink.printer.flush(),
            |(t, held, fresh), e| {
                let at = time::parse_server_time(e.executed_at().as_str());
                // Entries past a catch-up window's end wait for the next
                // window (their whole run comes again then), so the output
                // stays in order across windows.
                if (catching_up && at.is_some_and(|a| a > w.to)) || !t.remember(&e, w) {
                    return Ok(());
                }
                *fresh = true;
                t.newest = t.newest.max(at);
                if t.rule.is_some() {
                    let start = at.map(|a| {
                        a - chrono::Duration::try_milliseconds(e.duration.max(0)).unwrap_or_default()
                    });
                    t.first_start = match (t.first_start, start) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    t.run_entries.add(e.task_uuid.as_str(), e.is_successful);
                }
                if t.failed && e.is_successful {
                    return Ok(());
                }
                let was = held.spilled();
                let now = held.hold(e, at);
                if !was && held.spilled() {
                    t.ctx.ui.warn(&format!(
                        "a poll of the log brought more than {} MiB of new entries: printed as they arrive (newest first), not sorted",
                        held::BUDGET >> 20
                    ));
                }
                now.iter().try_for_each(|e| print(t.ctx, t.sink, e))
            },
        )
        .await?;
        let (_, mut held, fresh) = cx;
        for e in held.take() {
            print(self.ctx, self.sink, &e)?;
        }
        if catching_up {
            self.cursor = w.to;
        }
        if fresh {
            self.changed_at = Instant::now();
        }
        self.sink.printer.flush()?;
        forget(&mut self.seen, w.from - MEMORY);
        self.first = false;
        Ok(fresh)
    }

    /// Whether `e` is new (not printed before), remembering it: at most
    /// `SEEN` keys, the oldest before the window forgotten first, so a
    /// response of endless entries does not grow them without bound.
    fn remember(&mut self, e: &LogEntryRef, w: &Window) -> bool {
        let k = key(e);
        if self.seen.contains(&k) {
            return false;
        }
        if self.seen.len() >= SEEN {
            forget(&mut self.seen, w.from - OVERLAP);
        }
        if self.seen.len() < SEEN {
            self.seen.insert(k);
        }
        true
    }
}

fn print(ctx: &Context, sink: &mut Sink, e: &LogEntryRef) -> Result<()> {
    if ctx.settings.format != Format::Table {
        return print_entry(sink, e);
    }
    // One line per entry, written at once: time, outcome, type, duration,
    // run and task (whole UUIDs), then the output, shortened to fit.
    let at = time::parse_server_time(e.executed_at().as_str())
        .map(|t| time::display_time(t, ctx.settings.zone))
        .unwrap_or_else(|| e.executed_at().as_str().to_string());
    let outcome = if e.is_successful { "ok" } else { "failed" };
    let output = match &sink.decoder {
        Some(d) => {
            let (decoded, err) = d.decode(e.output(), &mut sink.scratch);
            sink.undecodable += usize::from(err.is_some());
            table::text(&output_cell(decoded).for_table(), ctx.settings.zone)
        }
        None => e.output().to_string(),
    };
    let head = format!(
        "{at}  {outcome:<6}  {:<12}  {:>7}  {}  {}",
        table::escape(e.task_type.as_str()),
        time::human_ms(e.duration),
        table::escape(e.workflow_run_uuid.as_str()),
        table::escape(e.task_uuid.as_str())
    );
    // The output on what is left of the line, control characters escaped
    // (text from the server must not move the cursor); an errors array, or
    // an output with no room left, on lines of its own below.
    let width = ctx.settings.width;
    let room = width.saturating_sub(crate::output::fit::cells(&head) + 2);
    let mut line = head;
    if output.contains('\n') || (room < 8 && !output.is_empty()) {
        for l in output.lines() {
            line.push_str("\n    ");
            line.push_str(&table::shorten(l, width.saturating_sub(4).max(8)));
        }
    } else if !output.is_empty() {
        line.push_str("  ");
        line.push_str(&table::shorten(&output, room));
    }
    line.push('\n');
    ctx.write_out(line.as_bytes())
}

/// `--to` has no meaning for a log that is still growing.
pub fn check_args(to: Option<&str>, since: bool, tail: bool) -> Result<()> {
    match (to, since && tail) {
        (Some(_), _) => Err(Error::usage(
            "--follow reads on from --since (or --from) with no end: drop --to",
        )),
        (None, true) => Err(Error::usage(
            "--follow --tail N shows the newest N entries of the last hour, then follows; --since shows every entry since: give one of them",
        )),
        (None, false) => Ok(()),
    }
}

/// Flush what the printer holds (a clean end of a follow).
pub fn close(sink: Sink<'_>, ctx: &Context) -> Result<()> {
    let undecodable = sink.undecodable;
    sink.printer.finish("", &ctx.ui)?;
    let _ = std::io::stdout().flush();
    if undecodable > 0 {
        ctx.ui.warn(&format!(
            "{} could not be decoded: see decode_error",
            crate::count::count(undecodable, "output", "outputs")
        ));
    }
    Ok(())
}
