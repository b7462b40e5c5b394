//! One watched entity: what is known of it between looks, and one look at
//! the service. A look is one request in a steady state: range statistics
//! of the last 24 hours (the last run, and the day's runs and failures that
//! `status` words health with). A pipeline's log is asked only when those
//! changed or a run of it is going; its first look reads its recent runs
//! once (what `--since` replays); each run is judged by the basis anchored
//! at its own first task (read once per anchor, kept by the client).
//! While the service fails, the entity is looked at less and less often.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::commands::kit::targets::Target;
use crate::commands::watch::rows::EntityRow;
use crate::error::Error;
use ylem_client::Entity;
use ylem_client::api::models::Text;
use ylem_client::api::models::{LogEntryRef, RangeStats};
use ylem_client::api::{self, Client};
use ylem_client::quirks::last_seen::confirm;
use ylem_client::runs::finished::History;
use ylem_client::runs::fleet::{self, Event, Glance};
use ylem_client::time::Window;

/// A pipeline's first look reaches this far back for its history (the
/// history look-up's three days) or `--since`, whichever is longer...
const HISTORY: chrono::Duration = chrono::Duration::days(3);
/// ...and reads at most this many entries of it, newest first.
const FIRST_ENTRIES: usize = 2000;
/// A later look's window is minutes long; a pipeline that writes more than
/// this in it is read to here (the rest comes in the next look).
const LOOK_ENTRIES: usize = 20_000;
/// The longest pause between two looks at an entity that fails.
const LONGEST_BACKOFF: Duration = Duration::from_secs(300);

/// How an entity's runs are followed.
pub enum Runs {
    /// From its log, once the first look has read its history.
    Pipeline(Option<fleet::Pipeline>),
    /// From the statistics' last run.
    Statistics(fleet::Statistics),
}

/// One entity, as the watch knows it.
pub struct Watched {
    pub target: Target,
    pub runs: Runs,
    /// The last answer's last run, and the day's statistics.
    pub glance: Option<Glance>,
    pub day: Option<RangeStats>,
    /// The last run time an unchecked answer was confirmed for.
    confirmed: Option<String>,
    /// The error of the last look, while it lasts; failures in a row.
    pub error: Option<Error>,
    fails: u32,
    /// No look before this (the backoff).
    not_before: Option<Instant>,
    /// The row the board last showed of it (`shown.rs`).
    pub shown: Option<EntityRow>,
}

impl Watched {
    pub fn new(target: Target) -> Watched {
        let runs = match target.kind {
            Entity::Pipeline => Runs::Pipeline(None),
            k => Runs::Statistics(fleet::Statistics::new(k)),
        };
        Watched {
            target,
            runs,
            glance: None,
            day: None,
            confirmed: None,
            error: None,
            fails: 0,
            not_before: None,
            shown: None,
        }
    }

    /// Whether it is due for a look at `now` (not backing off).
    pub fn due(&self, now: Instant) -> bool {
        self.not_before.is_none_or(|t| now >= t)
    }

    /// A failed look: the pause before the next grows with each failure in
    /// a row (one interval, two, four...), up to `LONGEST_BACKOFF`.
    pub fn failed(&mut self, e: Error, interval: Duration) {
        self.fails += 1;
        let pause = interval
            .saturating_mul(1 << (self.fails - 1).min(10))
            .min(LONGEST_BACKOFF.max(interval));
        // The next look comes at the first interval after the pause.
        self.not_before = Some(Instant::now() + pause - interval.min(pause));
        self.error = Some(e);
    }

    /// A look that worked; whether the entity had been failing.
    pub fn recovered(&mut self) -> bool {
        self.fails = 0;
        self.not_before = None;
        self.error.take().is_some()
    }
}

/// What a look is given: the service, the time, and the watch's settings.
pub struct Look<'a> {
    pub api: &'a Client,
    pub now: DateTime<Utc>,
    /// `--since`: runs that ended after `now - since` are replayed.
    pub since: Option<Duration>,
}

/// One look at `w`: the events it makes (the entity's state kept in `w`).
pub async fn look(w: &mut Watched, l: &Look<'_>) -> Result<Vec<Event>, Error> {
    let (kind, id, now) = (w.target.kind, w.target.uuid, l.now);
    let day = Window {
        from: now - chrono::Duration::hours(24),
        to: now,
    };
    let stats = l.api.range_stats(kind, id, &day).await?;
    let glance = Glance::of(&stats);
    // An answer over a window without the entity's rows was not checked
    // against the organisation: its last run is confirmed once (403 there:
    // another organisation's, an access error).
    let rows = stats.num_of_successes + stats.num_of_failures;
    if let (0, Some(at)) = (rows, glance.time())
        && w.confirmed != glance.at
    {
        confirm(l.api, kind, id, at).await?;
        w.confirmed = glance.at.clone();
    }
    let changed = w.glance.as_ref() != Some(&glance);
    let first = w.glance.is_none();
    let since = l
        .since
        .and_then(|d| chrono::Duration::from_std(d).ok())
        .unwrap_or_default();
    let quiet_before = now - since;
    let events = match &mut w.runs {
        Runs::Statistics(s) => {
            // Judged by the settle setting, as every command judges it.
            s.set_settle(l.api.settle());
            s.look(glance.clone(), now, first.then_some(quiet_before))
        }
        Runs::Pipeline(p @ None) => {
            // A pipeline that never ran has no history to read yet.
            let from = now - HISTORY.max(since);
            let entries = match glance.at {
                Some(_) => read(l.api, id, &Window { from, to: now }, FIRST_ENTRIES).await?,
                None => Vec::new(),
            };
            let mut follow = fleet::Pipeline::new().with_settle(l.api.settle());
            follow.take(entries, now);
            let ev = judged(&mut follow, l.api, id, now, Some(quiet_before)).await;
            *p = Some(follow);
            ev
        }
        Runs::Pipeline(Some(p)) => {
            let entries = match changed || p.going() {
                true => read(l.api, id, &p.window(now), LOOK_ENTRIES).await?,
                false => Vec::new(),
            };
            p.take(entries, now);
            judged(p, l.api, id, now, None).await
        }
    };
    w.glance = Some(glance);
    w.day = Some(stats);
    Ok(events)
}

/// The events of the entries `p` took in, each run judged by the basis
/// anchored at its first task (`ylem_client::runs::basis`), as `runs --run`
/// and `last-run` judge it, however long after the watch began it started:
/// a basis is read once per anchor (kept by the client, so a later command
/// reads none), and only for runs the watch tells or shows.
async fn judged(
    p: &mut fleet::Pipeline,
    api: &Client,
    id: uuid::Uuid,
    now: DateTime<Utc>,
    quiet_before: Option<DateTime<Utc>>,
) -> Vec<Event> {
    for at in p.wanted(quiet_before) {
        let history: History = ylem_client::runs::history::history(api, id, at, |_| {}).await;
        p.basis(at, &history);
    }
    p.tell(now, quiet_before)
}

/// The log over `w`, at most `max` entries (newest first), each kept with
/// its text copied out; a successful entry's output is not kept (only a
/// failure's is read).
pub async fn read(
    api: &Client,
    id: uuid::Uuid,
    w: &Window,
    max: usize,
) -> Result<Vec<LogEntryRef<'static>>, Error> {
    let mut s = api.pipeline_logs(id, w).await?;
    let mut out: Vec<LogEntryRef<'static>> = Vec::new();
    let mut decode = |out: &mut Vec<LogEntryRef<'static>>, b: &[u8], part| {
        let Some((mut e, n)) = api::decode_entry(b, part)? else {
            return Ok(None);
        };
        if e.is_successful {
            e.output = None::<Text>;
        } else {
            cut_failed_output(&mut e.output);
        }
        out.push(e.into_static());
        Ok(Some(((), n)))
    };
    while s
        .next_with(
            &mut out,
            &mut |_| Ok::<_, ylem_client::Error>(()),
            &mut decode,
        )
        .await?
        .is_some()
    {
        if out.len() >= max {
            // The oldest run read may be cut short: left out whole, so it
            // is neither history nor told in part.
            if let Some(cut) = out.last().map(|e| e.workflow_run_uuid.as_str().to_string()) {
                out.retain(|e| e.workflow_run_uuid.as_str() != cut);
            }
            break;
        }
    }
    Ok(out)
}

/// A failed entry's output is kept to this many bytes: the entries, the
/// open runs' failed entries and each entity's last failure are held for as
/// long as the watch runs, and one output may be up to the 64 MiB an entry
/// may be. 64 KiB of Base64 is 48 KiB of text: room for a task's messages.
/// A longer output is read from its beginning (an errors array cut short is
/// shown as an excerpt; an encrypted one cut short cannot be read).
const FAILED_OUTPUT_KEPT: usize = 64 * 1024;

/// Cut a failed entry's output to `FAILED_OUTPUT_KEPT`, at a multiple of 4
/// (whole Base64 groups, so the beginning still decodes).
fn cut_failed_output(output: &mut Option<Text<'_>>) {
    let Some(t) = output else { return };
    let s = t.as_str();
    if s.len() <= FAILED_OUTPUT_KEPT {
        return;
    }
    let mut end = FAILED_OUTPUT_KEPT - FAILED_OUTPUT_KEPT % 4;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    *output = Some(Text::owned(s[..end].to_string()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_output_is_cut_to_its_bound_and_a_small_one_kept_whole() {
        let mut big = Some(Text::owned("QUJD".repeat(10 * 1024 * 1024 / 4)));
        cut_failed_output(&mut big);
        let big = big.unwrap();
        assert_eq!(big.as_str().len(), FAILED_OUTPUT_KEPT);
        assert!(big.as_str().starts_with("QUJDQUJD"));
        let mut small = Some(Text::owned("QUJD".to_string()));
        cut_failed_output(&mut small);
        assert_eq!(small.unwrap().as_str(), "QUJD");
        let mut none = None;
        cut_failed_output(&mut none);
        assert!(none.is_none());
    }
}
