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

use super::completion::{Entry, History, Rule, Verdict};
use super::follow_key::{Key, forget, key};
use super::log_rows::{Sink, print_entry};
use super::wait;
use crate::api::{self, Api, models::LogEntryRef};
use crate::cli::Format;
use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::output::table;
use crate::time::{self, Window};

/// How far before the newest entry seen each poll's window starts.
const OVERLAP: chrono::Duration = chrono::Duration::minutes(2);
/// Without `--since`: entries of the last hour, the newest of them shown.
const TAIL_WINDOW: chrono::Duration = chrono::Duration::hours(1);
const TAIL: usize = 10;
/// A `--since` far back is caught up with windows this long, oldest first,
/// so at most one window's entries are held for sorting at a time.
const CATCH_UP: chrono::Duration = chrono::Duration::hours(6);
/// Pauses grow from the first to the last while nothing changes.
const FIRST_PAUSE: Duration = Duration::from_secs(2);
const LONGEST_PAUSE: Duration = Duration::from_secs(30);
/// Keys of entries older than this before the window are forgotten.
const MEMORY: chrono::Duration = chrono::Duration::days(1);

/// Follow `id`'s log; `run` keeps one run's entries, `failed` failed ones.
pub async fn follow(
    ctx: &Context,
    api: &Api,
    id: Uuid,
    run: Option<String>,
    failed: bool,
    since: Option<DateTime<Utc>>,
    sink: &mut Sink<'_>,
) -> Result<()> {
    // Listened for from the start: a signal during the history look-up
    // ends the follow cleanly too.
    let mut stop = Box::pin(super::signals::stop_now());
    let now = Utc::now();
    let start = since.unwrap_or(now - TAIL_WINDOW);
    let rule = match &run {
        Some(_) => {
            let h: History = tokio::select! {
                biased;
                _ = &mut stop => return Ok(()),
                h = wait::history(api, id, &ctx.ui) => h,
            };
            Some(Rule::new(&h, None, None, FIRST_PAUSE))
        }
        None => None,
    };
    let mut seen: HashSet<Key> = HashSet::new();
    let mut newest: Option<DateTime<Utc>> = None;
    // Where the windows have reached while catching up.
    let mut cursor = start;
    // The entries of the one run followed with --run, for its verdict; kept
    // only then: a follow of the whole log runs for weeks.
    let mut run_entries: Vec<Entry> = Vec::new();
    let mut changed_at = Instant::now();
    let mut pause = FIRST_PAUSE;
    let mut first = true;
    let mut failing = false;
    loop {
        let from = (newest.map_or(cursor, |n| n.max(cursor)) - OVERLAP).max(start);
        // Up to now (and a little past: the server's clock may be ahead),
        // unless a window that long would hold too much to sort.
        let live = Utc::now() + chrono::Duration::minutes(10);
        let w = Window {
            from,
            to: (from + CATCH_UP).min(live),
        };
        let catching_up = w.to < live;
        // A stop during a poll drops it: nothing of it was printed yet.
        let polled = tokio::select! {
            biased;
            _ = &mut stop => return Ok(()),
            r = poll(api, id, &w, run.as_deref()) => r,
        };
        match polled {
            Ok(mut got) => {
                failing = false;
                // Oldest first; the server sends newest first.
                got.reverse();
                // (By time, not text: `…:31Z` comes before `…:31.5Z`.)
                got.sort_by_key(|e| time::parse_server_time(e.executed_at().as_str()));
                // Entries past a catch-up window's end wait for the next
                // window (their whole run comes again then), so the output
                // stays in order across windows.
                let fresh: Vec<LogEntryRef<'static>> = got
                    .into_iter()
                    .filter(|e| {
                        !catching_up
                            || time::parse_server_time(e.executed_at().as_str())
                                .is_none_or(|t| t <= w.to)
                    })
                    .filter(|e| seen.insert(key(e)))
                    .collect();
                if catching_up {
                    cursor = w.to;
                }
                let skip = if first && since.is_none() {
                    fresh.len().saturating_sub(TAIL)
                } else {
                    0
                };
                if !fresh.is_empty() {
                    pause = FIRST_PAUSE;
                    changed_at = Instant::now();
                }
                for e in &fresh {
                    let at = time::parse_server_time(e.executed_at().as_str());
                    newest = newest.max(at);
                    if rule.is_none() {
                        continue;
                    }
                    run_entries.push(Entry {
                        run: e.workflow_run_uuid.as_str().to_string(),
                        task: e.task_uuid.as_str().to_string(),
                        ok: e.is_successful,
                        at,
                    });
                }
                for e in fresh
                    .iter()
                    .skip(skip)
                    .filter(|e| !failed || !e.is_successful)
                {
                    print(ctx, sink, e)?;
                }
                sink.printer.flush()?;
                forget(&mut seen, from - MEMORY);
                first = false;
            }
            Err(e) if matches!(e.kind, Kind::Network | Kind::Server) => {
                if !failing {
                    ctx.ui.warn(&format!(
                        "still following; the service failed: {}",
                        e.message
                    ));
                }
                failing = true;
            }
            Err(e) => return Err(e),
        }
        if let (Some(rule), Some(r)) = (&rule, &run) {
            match rule.decide(&run_entries, changed_at.elapsed()) {
                Verdict::Pending => {}
                Verdict::Failed { .. } => {
                    ctx.note(&format!("run {r} is complete: a task failed"));
                    return Ok(());
                }
                Verdict::Succeeded(ev) => {
                    ctx.note(&format!("run {r} is complete: {}", ev.describe()));
                    return Ok(());
                }
            }
        }
        // Ctrl-C, SIGTERM and --max-time end a follow cleanly: what was
        // printed is whole, and the caller closes the array.
        let left = ctx
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return Ok(());
        }
        // No pause while catching up, but a look at the signals all the same.
        let pause_now = if catching_up && !failing {
            Duration::ZERO
        } else {
            pause
        };
        let nap = left.map_or(pause_now, |l| l.min(pause_now));
        tokio::select! {
            biased;
            _ = &mut stop => return Ok(()),
            _ = tokio::time::sleep(nap) => {}
        }
        if catching_up && !failing {
            continue;
        }
        // Back off while nothing changes (and while the service fails), but
        // keep a run being finished in view.
        let cap = if rule.is_some() {
            FIRST_PAUSE * 3
        } else {
            LONGEST_PAUSE
        };
        pause = (pause.mul_f64(1.5)).min(cap);
    }
}

/// One window's entries (of `run`, if given), copied out of the response.
async fn poll(
    api: &Api,
    id: Uuid,
    w: &Window,
    run: Option<&str>,
) -> Result<Vec<LogEntryRef<'static>>> {
    let mut s = api.pipeline_logs(id, w).await?;
    let mut out = Vec::new();
    api::each_entry(
        &mut s,
        run,
        false,
        &mut out,
        |_| Ok(()),
        |v, e| {
            v.push(e.into_static());
            Ok(())
        },
    )
    .await?;
    Ok(out)
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
            let (cell, err) = d.decode(e.output(), &mut sink.scratch);
            sink.undecodable += usize::from(err.is_some());
            table::text(&cell.for_table(), ctx.settings.zone)
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
pub fn check_args(to: Option<&str>) -> Result<()> {
    match to {
        Some(_) => Err(Error::usage(
            "--follow reads on from --since (or --from) with no end: drop --to",
        )),
        None => Ok(()),
    }
}

/// Flush what the printer holds (a clean end of a follow).
pub fn close(sink: Sink<'_>, ctx: &Context) -> Result<()> {
    let undecodable = sink.undecodable;
    sink.printer.finish("", &ctx.ui)?;
    let _ = std::io::stdout().flush();
    if undecodable > 0 {
        ctx.ui.warn(&format!(
            "{undecodable} outputs could not be decoded: see decode_error"
        ));
    }
    Ok(())
}
