//! A run start the service refused with 403, told apart: the real server
//! answers a paused pipeline and another organisation's alike (an empty
//! 403), but only another organisation's entity is refused its statistics
//! too, so one statistics request says which hint fits.

use bytes::Bytes;
use uuid::Uuid;

use crate::api::Api;
use crate::api::models::RunStart;
use crate::error::{Error, Result};
use crate::kinds::RunKind;
use crate::time::Window;

/// Start a run; a 403 is asked about once and given the hint that fits.
pub async fn start_run(
    api: &Api,
    kind: RunKind,
    id: Uuid,
    input: Option<&Bytes>,
) -> Result<RunStart> {
    match api
        .start_run_with(kind, id, input)
        .await
        .map_err(Error::from)
    {
        Err(e) if e.http_status == Some(403) => Err(explain(api, kind, id, e).await),
        other => other,
    }
}

async fn explain(
    api: &Api,
    kind: RunKind,
    id: Uuid,
    e: crate::error::Error,
) -> crate::error::Error {
    let now = chrono::Utc::now();
    let w = Window {
        from: now - chrono::Duration::days(90),
        to: now,
    };
    let stats = api.range_stats(kind.entity(), id, &w).await;
    match stats {
        Err(s) if s.status == Some(403) => e
            .context(format!("the {kind} belongs to another organisation"))
            .with_hint(
                "its statistics are refused too: check the ID and the profile in use (or the token lacks the stats:read scope)",
            ),
        _ => e.context(format!("the {kind} is paused")).with_hint(format!(
            "resume the {kind} in Ylem, then start it again (if it is not paused, the token lacks the pipelines:run scope)"
        )),
    }
}
