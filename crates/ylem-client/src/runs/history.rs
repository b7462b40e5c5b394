//! A pipeline's history as a run is judged by it: its basis
//! (`basis.rs`, the complete runs of the days before the run's day), read
//! with one log request over the basis's period to `BASIS_ENTRIES` entries
//! at most, asked again when it fails, and kept by the client once read. A
//! look-up that still fails is no history, never an error: the rule then
//! waits the longer default settle time. What to say about a failed look-up
//! is the caller's (`Miss`).

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::models::LogEntry;
use crate::api::{self, Client};
use crate::error::{Error, Result};
use crate::runs::basis;
use crate::runs::finished::{Entry, History, Rule};
use crate::runs::fold::RunFold;
use crate::runs::tally;
use crate::time;

/// At most this many log entries are read for one basis (newest first on
/// the real server), so one look-up costs a bounded read however busy the
/// pipeline; the rest of the response is dropped unread.
pub(crate) const BASIS_ENTRIES: usize = 2000;

/// How often the history look-up is asked before a start: the transport
/// retries a failure before the body; this covers one cut off in it.
const HISTORY_TRIES: u32 = 3;

/// A look-up that failed, told to the caller of `history`.
pub enum Miss<'e> {
    /// It failed and is asked again.
    Again(&'e Error),
    /// It failed the last time: no history.
    GaveUp(&'e Error),
}

/// The basis of a run of pipeline `id` whose first task started at
/// `first` (a run about to start: now), for the evidence rule; a look-up
/// that fails is asked again (`told` hears of each failure), and one that
/// still fails is no history (and not kept).
pub async fn history(
    api: &Client,
    id: Uuid,
    first: DateTime<Utc>,
    mut told: impl FnMut(Miss<'_>),
) -> History {
    let mut tries = 0;
    loop {
        match lookup(api, id, first).await {
            Ok(h) => return h,
            Err(e) if tries + 1 < HISTORY_TRIES => {
                told(Miss::Again(&e));
                tokio::time::sleep(crate::http::backoff(tries)).await;
            }
            Err(e) => {
                told(Miss::GaveUp(&e));
                return History::default();
            }
        }
        tries += 1;
    }
}

/// One look-up of the basis of a run that started at `first`: kept, or
/// read and then kept. The period ends before the run's day, so the run
/// itself is never in it.
pub async fn lookup(api: &Client, id: Uuid, first: DateTime<Utc>) -> Result<History> {
    let at = basis::anchor_of(first);
    if let Some(h) = basis::kept(api, id, at) {
        return Ok(h);
    }
    let (list, task_types) = history_entries(api, id, &basis::period(at)).await?;
    let h = History {
        task_types,
        ..History::from_entries(&list, "", at)
    };
    basis::keep(api, id, at, &h);
    Ok(h)
}

/// At most this many bases are read for the runs of one look (the newest).
const MAX_BASES: usize = 31;

/// The rule of each run without a failure, from its basis (by its anchor:
/// kept, or read once; a look-up that fails is asked again, then is no
/// history). At most `MAX_BASES` anchors are asked (the newest); an older
/// run is judged by the oldest asked.
pub async fn rules_of<'r>(
    api: &Client,
    id: Uuid,
    runs: impl Iterator<Item = &'r RunFold>,
    mut told: impl FnMut(Miss<'_>),
) -> BTreeMap<DateTime<Utc>, Rule> {
    // A failed run needs none: a failed task decides it (`tally::rule_of`).
    let anchors: BTreeSet<DateTime<Utc>> = runs
        .filter(|t| t.entries > 0 && t.failed == 0)
        .filter_map(|t| t.started().or(t.ended()))
        .map(basis::anchor_of)
        .collect();
    let mut rules = BTreeMap::new();
    for at in anchors.into_iter().rev().take(MAX_BASES) {
        let h = history(api, id, at, &mut told).await;
        rules.insert(at, tally::listed_rule(&h, api.settle()));
    }
    rules
}

/// The entries as the rule reads them, and each task's type.
async fn history_entries(
    api: &Client,
    id: Uuid,
    w: &time::Window,
) -> Result<(Vec<Entry>, BTreeMap<String, String>)> {
    let mut s = api.pipeline_logs(id, w).await?;
    let mut out = Vec::new();
    let mut types = BTreeMap::new();
    while out.len() < BASIS_ENTRIES {
        match api::next_entry(&mut s, None, false).await? {
            Some(e) => {
                types
                    .entry(e.task_uuid.to_ascii_lowercase())
                    .or_insert_with(|| e.task_type.clone());
                out.push(entry(&e));
            }
            None => return Ok((out, types)),
        }
    }
    // Cut off: the oldest run read may be cut short, so it is no evidence.
    if let Some(cut) = out.last().map(|e| e.run.clone()) {
        out.retain(|e| e.run != cut);
    }
    Ok((out, types))
}

/// A log entry as the rule reads it.
pub fn entry(e: &LogEntry) -> Entry {
    Entry {
        run: e.workflow_run_uuid.clone(),
        task: e.task_uuid.clone(),
        ok: e.is_successful,
        at: e.executed_at.parsed(),
    }
}
