//! What the service can vouch for about an entity's last run. The real
//! server answers last-run with one 403 for never ran, an unknown UUID,
//! another kind, another organisation's entity and some internal failures;
//! one cheap request, range statistics up to now (whose `last_run_*` is the
//! last run at or before `to`), tells three of these cases apart. An
//! unknown UUID and one that never ran get the same answers everywhere, so
//! the last case can only be named as both.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::Api;
use crate::api::models::LastRun;
use crate::error::Result;
use crate::kinds::Entity;
use crate::time::Window;

/// The two readings of a "never" that no request can tell apart.
pub const NO_RUN_FOUND: &str =
    "no run found: it never ran, or the service does not know this ID (it answers both alike)";

#[derive(Debug, Clone)]
pub enum LastSeen {
    /// The last run, from the last-run endpoint or, after its 403, from
    /// range statistics.
    Ran(LastRun),
    /// Never ran, or unknown to the service.
    NoRunFound,
}

impl LastSeen {
    pub fn run(&self) -> Option<&LastRun> {
        match self {
            LastSeen::Ran(r) => Some(r),
            LastSeen::NoRunFound => None,
        }
    }
}

/// The last run of `id`, asking range statistics once when last-run
/// answers 403. A 403 there too is an access error (exit 3); a 404 from a
/// spec server stays not found (exit 4).
pub async fn last_seen(api: &Api, kind: Entity, id: Uuid, now: DateTime<Utc>) -> Result<LastSeen> {
    if let Some(r) = api.last_run(kind, id).await?
        && r.executed_at.is_some()
    {
        return Ok(LastSeen::Ran(r));
    }
    let s = api
        .range_stats(kind, id, &Window { from: now, to: now })
        .await?;
    Ok(match s.last_run_executed_at {
        Some(at) => LastSeen::Ran(LastRun {
            is_successful: s.is_last_run_successful,
            executed_at: Some(at),
            duration: s.last_run_duration,
        }),
        None => LastSeen::NoRunFound,
    })
}
