//! What the service says about one entity for `status` and `metrics
//! serve`: its last run (by the one model of a run, `ylem_client::runs::last`), the last
//! 24 hours, and failures per day over a week; and the same as Prometheus
//! samples (the last *finished* run's gauges, and whether one is going).

use chrono::{DateTime, Utc};

use crate::commands::kit::exposition::last_samples;
use crate::commands::kit::last_known::last;
use crate::commands::kit::periods::fill_periods;
use crate::commands::kit::targets::Target;
use crate::context::Context;
use crate::error::Result;
use crate::output::prometheus::{Labels, Sample};
use crate::time::{self, Window};
use ylem_client::Client;
use ylem_client::Period;
use ylem_client::api::models::RangeStats;
use ylem_client::quirks::date_form::DateForms;
use ylem_client::runs::last::Last;

/// Where one entity stands: what the service said about it.
pub struct Standing {
    pub last: Last,
    /// Statistics of the last 24 hours.
    pub day: RangeStats,
    /// Failures per day, oldest first, today last (empty when not asked).
    pub week: Vec<i64>,
}

/// The last 24 hours, the last run and, with `week`, failures per day;
/// `week` is the aggregate date form, learnt once for the whole board.
pub async fn fetch(
    ctx: &Context,
    api: &Client,
    t: &Target,
    now: DateTime<Utc>,
    week: Option<&DateForms<'_>>,
) -> Result<Standing> {
    let last = last(api, t.kind, t.uuid, now).await?;
    let w = Window {
        from: now - chrono::Duration::hours(24),
        to: now,
    };
    let day = api.range_stats(t.kind, t.uuid, &w).await?;
    let week = match week {
        Some(forms) => failures_per_day(ctx, api, t, forms).await?,
        None => Vec::new(),
    };
    Ok(Standing { last, day, week })
}

/// Aggregated statistics, period day, count 7, ending today, in the date
/// form the server reads.
async fn failures_per_day(
    ctx: &Context,
    api: &Client,
    t: &Target,
    forms: &DateForms<'_>,
) -> Result<Vec<i64>> {
    let s = &ctx.settings;
    let today = time::parse_date("today", s.now, s.zone)?;
    let from = time::default_aggregate_from(today, Period::Day, 7);
    let list = forms
        .ask(|form| async move {
            api.aggregated_stats(t.kind, t.uuid, from, form, Period::Day, 7)
                .await
        })
        .await?;
    let mut warn = |w: String| ctx.ui.warn(&format!("{}: {w}", t.uuid));
    Ok(fill_periods(list, from, Period::Day, 7, &mut warn)
        .into_iter()
        .take(7)
        .map(|(a, _)| a.num_of_failures)
        .collect())
}

/// The entity as Prometheus samples: `ylem_up 0` when it failed.
pub fn sample(t: &Target, r: &Result<Standing>) -> Sample {
    let labels = Labels {
        kind: t.kind.to_string(),
        uuid: t.uuid.to_string(),
        alias: t.alias.clone(),
        window: Some("24h".into()),
    };
    let Ok(f) = r else {
        return Sample {
            labels,
            ..Sample::default()
        };
    };
    Sample {
        labels,
        up: true,
        runs: Some(f.day.num_of_successes + f.day.num_of_failures),
        failures: Some(f.day.num_of_failures),
        average_duration_ms: Some(f.day.average_duration),
        ..last_samples(&f.last)
    }
}

/// Each refused ID's reason on stderr, identical reasons once with the IDs
/// they hit; the board still shows its row.
pub fn report(ctx: &Context, targets: &[Target], results: &[Result<Standing>]) {
    for e in said(targets, results) {
        ctx.report(&e);
    }
}

/// The refused IDs' reasons as they are said: identical ones once, naming
/// every ID they hit (`KIND UUID`, with the alias the board shows it by),
/// in the order of the first. A service that is down fails every ID alike.
pub fn said(targets: &[Target], results: &[Result<Standing>]) -> Vec<crate::error::Error> {
    let label = |t: &Target| match &t.alias {
        Some(a) => format!("{a} ({} {})", t.kind, t.uuid),
        None => format!("{} {}", t.kind, t.uuid),
    };
    let errors = targets
        .iter()
        .zip(results)
        .filter_map(|(t, r)| Some((label(t), r.as_ref().err()?.clone())))
        .collect();
    crate::commands::kit::ids::said_once(errors)
}
