//! The entries of one run read from a pipeline's log for showing the run
//! whole (`runs --run`, `-o junit`): each a bounded summary (no successful
//! output, a failed one cut at `KEPT_OUTPUT`, and at most
//! `KEPT_RUN_OUTPUTS` of them all), at most `KEPT_ENTRIES` of them and a
//! count of the rest, so memory never grows with the log.

use uuid::Uuid;

use crate::context::Context;
use crate::error::Result;
use crate::time::Window;
use ylem_client::api::{self, Client, models::LogEntry};
use ylem_client::runs::tally::{KEPT_ENTRIES, KEPT_RUN_OUTPUTS, summary_within};

/// Run `run`'s entries in `w`, and how many more it had than were kept.
pub async fn read(api: &Client, id: Uuid, w: &Window, run: &str) -> Result<(Vec<LogEntry>, usize)> {
    let mut s = api.pipeline_logs(id, w).await?;
    let mut kept = (Vec::new(), 0usize, KEPT_RUN_OUTPUTS);
    api::each_entry::<_, crate::error::Error>(
        &mut s,
        Some(run),
        false,
        &mut kept,
        |_| Ok(()),
        |(v, over, left), e| {
            match v.len() < KEPT_ENTRIES {
                true => v.push(summary_within(&e, left)),
                false => *over += 1,
            }
            Ok(())
        },
    )
    .await?;
    Ok((kept.0, kept.1))
}

/// Said once when a run had more entries than are kept.
pub fn say_over(ctx: &Context, run: &str, over: usize) {
    if over > 0 {
        ctx.ui.warn(&format!(
            "run {} has {} more than are listed: only the newest {KEPT_ENTRIES} are kept",
            crate::output::table::escape(run),
            crate::count::count(over, "entry", "entries")
        ));
    }
}
