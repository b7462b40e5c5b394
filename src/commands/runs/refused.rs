//! A refused run start in the CLI's words: the service tells a paused
//! entity from another organisation's (`ylem_client::quirks::refusal`), and this adds
//! the hint that fits each.

use bytes::Bytes;
use uuid::Uuid;

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::context::Context;
use crate::error::{Error, Result};
use ylem_client::Client;
use ylem_client::RunKind;
use ylem_client::api::models::RunStart;
use ylem_client::quirks::refusal::{self, NotStarted};

/// Start a run; a refusal comes back with the hint that fits it. While it
/// is in flight, `ctx.starting` counts it (a follower whose output goes
/// away waits for it, so the run it may start is named).
pub async fn start_run(
    ctx: &Context,
    api: &Client,
    kind: RunKind,
    id: Uuid,
    input: Option<&Bytes>,
) -> Result<RunStart> {
    ctx.starting.fetch_add(1, Ordering::SeqCst);
    let _done = Done(&ctx.starting);
    refusal::start_run(api, kind, id, input)
        .await
        .map_err(|n| worded(kind, n))
}

/// Counts a start off when it ends, however it ends.
struct Done<'a>(&'a AtomicUsize);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The error with the hint for its case.
fn worded(kind: RunKind, n: NotStarted) -> Error {
    match n {
        NotStarted::Elsewhere(e) => Error::from(e).with_hint(
            "its statistics are refused too: check the ID and the profile in use (or the token lacks the stats:read scope)",
        ),
        NotStarted::Paused(e, true) => Error::from(e).with_hint(format!(
            "resume the {kind} in Ylem, then start it again"
        )),
        NotStarted::Paused(e, false) => Error::from(e).with_hint(format!(
            "resume the {kind} in Ylem, then start it again (if it is not paused, the token lacks the pipelines:run scope)"
        )),
        NotStarted::MissingScope(e, scope) => Error::from(e).with_hint(format!(
            "ask the service's administrator to grant the client {scope}"
        )),
        NotStarted::Failed(e) => Error::from(e),
    }
}
