//! What the service says is an entity's last run, and whether it checked
//! that these credentials may see it. The real server answers last-run
//! with one 403 for never ran, an unknown UUID, another kind, another
//! organisation's entity and some internal failures; one cheap request,
//! range statistics up to now (whose `last_run_*` is the last run at or
//! before `to`), tells three of these cases apart. But over a window that
//! holds none of the entity's rows the server checks no organisation and
//! still fills `last_run_*`: such an answer is unchecked, and is confirmed
//! (`confirm`, or a log request over the run's window) before it is shown.
//! An unknown UUID and one that never ran get the same answers everywhere,
//! so the last case can only be named as both.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::api::Client;
use crate::api::models::{LastRun, RangeStats};
use crate::error::Result;
use crate::kinds::Entity;
use crate::time::Window;

/// The two readings of a "never" that no request can tell apart.
pub const NO_RUN_FOUND: &str =
    "no run found: it never ran, or the service does not know this ID (it answers both alike)";

/// What the service says is an entity's last run.
#[derive(Debug, Clone)]
pub enum LastSeen {
    /// The last run, from the last-run endpoint (`checked`) or, after its
    /// 403, from range statistics (checked only when their window held rows).
    Ran {
        /// The service's answer.
        run: LastRun,
        /// Whether the service checked the organisation for it.
        checked: bool,
    },
    /// Never ran, or unknown to the service.
    NoRunFound,
}

/// The last run of `id`, asking range statistics once when last-run
/// answers 403 (or a spec server's 404 with its error body). A 403 there
/// too is an access error (`ErrorKind::Auth`); "never" there is no run found,
/// in both dialects.
pub async fn last_seen(
    api: &Client,
    kind: Entity,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<LastSeen> {
    if let Some(r) = api.last_run(kind, id).await?
        && r.executed_at.is_some()
    {
        return Ok(LastSeen::Ran {
            run: r,
            checked: true,
        });
    }
    let s = api
        .range_stats(kind, id, &Window { from: now, to: now })
        .await?;
    Ok(match s.last_run_executed_at {
        Some(at) => LastSeen::Ran {
            run: LastRun {
                is_successful: s.is_last_run_successful,
                executed_at: Some(at),
                duration: s.last_run_duration,
            },
            // Rows in the window: the server checked them.
            checked: s.num_of_successes + s.num_of_failures > 0,
        },
        None => LastSeen::NoRunFound,
    })
}

/// Ask range statistics again over a window that holds the run at `at`
/// (to the second, either side), where the server checks the
/// organisation: a 403 there is the access error it is.
pub async fn confirm(api: &Client, kind: Entity, id: Uuid, at: DateTime<Utc>) -> Result<()> {
    let second = chrono::Duration::seconds(1);
    let w = Window {
        from: at - second,
        to: at + second,
    };
    api.range_stats(kind, id, &w).await?;
    Ok(())
}

/// Range statistics over `w`, authorised before shown: a window that held
/// none of the entity's rows was not checked against the organisation, yet
/// its `last_run_*` may name a run (the last before the window), so that run
/// is confirmed over a window that holds it first (a 403 there is the
/// answer: another organisation's entity).
pub async fn range_stats_checked(
    api: &Client,
    kind: Entity,
    id: Uuid,
    w: &Window,
) -> Result<RangeStats> {
    let s = api.range_stats(kind, id, w).await?;
    let unchecked = s.num_of_successes + s.num_of_failures == 0;
    if let (true, Some(at)) = (
        unchecked,
        s.last_run_executed_at.as_ref().and_then(|t| t.parsed()),
    ) {
        confirm(api, kind, id, at).await?;
    }
    Ok(s)
}
