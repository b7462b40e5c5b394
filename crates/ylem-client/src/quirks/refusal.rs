//! A run start the service refused with 403, told apart: the real server
//! answers a paused pipeline and another organisation's alike (an empty
//! 403), but only another organisation's entity is refused its statistics
//! too, so one statistics request says which it is. What to do about it is
//! the caller's to word (`NotStarted` says which case it is).

use bytes::Bytes;
use uuid::Uuid;

use crate::api::Client;
use crate::api::models::RunStart;
use crate::error::Error;
use crate::kinds::RunKind;
use crate::time::Window;

/// Why a run did not start: each error says what happened (the 403s with
/// what the statistics request told), the variant which case it is.
#[derive(Debug)]
pub enum NotStarted {
    /// A 403, and the entity's statistics are refused too: another
    /// organisation's entity (or a token without the statistics scope).
    Elsewhere(Error),
    /// A 403 for an entity whose statistics can be read: a paused pipeline
    /// (or a token without the scope to start runs).
    Paused(Error),
    /// Any other failure, as the request gave it.
    Failed(Error),
}

impl NotStarted {
    /// The error, whichever the case.
    pub fn into_error(self) -> Error {
        match self {
            NotStarted::Elsewhere(e) | NotStarted::Paused(e) | NotStarted::Failed(e) => e,
        }
    }
}

/// Start a run; a 403 is asked about once and told apart.
pub async fn start_run(
    api: &Client,
    kind: RunKind,
    id: Uuid,
    input: Option<&Bytes>,
) -> Result<RunStart, NotStarted> {
    match api.start_run_with(kind, id, input).await {
        Ok(s) => Ok(s),
        Err(e) if e.status == Some(403) => Err(explain(api, kind, id, e).await),
        Err(e) => Err(NotStarted::Failed(e)),
    }
}

async fn explain(api: &Client, kind: RunKind, id: Uuid, e: Error) -> NotStarted {
    let now = chrono::Utc::now();
    let w = Window {
        from: now - chrono::Duration::days(90),
        to: now,
    };
    let stats = api.range_stats(kind.entity(), id, &w).await;
    match stats {
        Err(s) if s.status == Some(403) => {
            NotStarted::Elsewhere(e.context(format!("the {kind} belongs to another organisation")))
        }
        _ => NotStarted::Paused(e.context(format!("the {kind} is paused"))),
    }
}
