//! A pipeline's recent runs, the history the evidence rule
//! (`finished.rs`) learns a run's tasks and gaps from: one log request over
//! the last `HISTORY_DAYS` days, read to `HISTORY_ENTRIES` entries at most,
//! asked again when it fails. A look-up that still fails is no history,
//! never an error: the rule then waits the longer default settle time.
//! What to say about a failed look-up is the caller's (`Miss`).

use std::collections::BTreeMap;

use chrono::Utc;
use uuid::Uuid;

use crate::api::models::LogEntry;
use crate::api::{self, Client};
use crate::error::{Error, Result};
use crate::runs::finished::{Entry, History};
use crate::time;

/// How far back the history look-up reaches: three daily runs.
const HISTORY_DAYS: i64 = 3;
/// At most this many log entries are read for history (newest first on the
/// real server), so one look-up costs a bounded read however busy the
/// pipeline; the rest of the response is dropped unread.
const HISTORY_ENTRIES: usize = 2000;

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

/// The pipeline's recent runs, for the evidence rule; a look-up that fails
/// is asked again (`told` hears of each failure), and one that still fails
/// is no history.
pub async fn history(api: &Client, id: Uuid, mut told: impl FnMut(Miss<'_>)) -> History {
    let mut tries = 0;
    loop {
        match lookup(api, id, "").await {
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

/// One history look-up, leaving out the run `followed`.
pub async fn lookup(api: &Client, id: Uuid, followed: &str) -> Result<History> {
    let now = Utc::now();
    let w = time::Window {
        from: now - chrono::Duration::days(HISTORY_DAYS),
        to: now,
    };
    let (list, task_types) = history_entries(api, id, &w).await?;
    Ok(History {
        task_types,
        ..History::from_entries(&list, followed, now)
    })
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
    while out.len() < HISTORY_ENTRIES {
        match api::next_entry(&mut s, None, false).await? {
            Some(e) => {
                types
                    .entry(e.task_uuid.to_ascii_lowercase())
                    .or_insert_with(|| e.task_type.clone());
                out.push(entry(&e));
            }
            None => break,
        }
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
