//! A pipeline's log over a window folded into per-run totals as it streams
//! (`ylem_client::runs::tally`), for the commands that judge every run of
//! a window (`runs`, `export`).

use uuid::Uuid;

use crate::error::Result;
use crate::time::Window;
use ylem_client::api::{self, Client};
use ylem_client::runs::failure::Finder;
use ylem_client::runs::tally::Runs;

/// The log of `id` in `window` folded; the entries of run `keep` kept
/// whole too, and each run's earliest failed entry read by `finder` as it
/// is folded (its output decoded once, and not kept).
pub async fn fold<'a>(
    api: &Client,
    id: Uuid,
    window: &Window,
    keep: Option<&str>,
    finder: Option<&'a Finder>,
) -> Result<Runs<'a>> {
    let mut s = api.pipeline_logs(id, window).await?;
    let mut runs = Runs::default();
    runs.keep = keep.map(str::to_string);
    runs.finder = finder;
    api::each_entry::<_, crate::error::Error>(
        &mut s,
        None,
        false,
        &mut runs,
        |_| Ok(()),
        |r, e| {
            r.add(&e);
            Ok(())
        },
    )
    .await?;
    Ok(runs)
}
