//! How the API answers a token fetched a moment ago: one statistics
//! request (a 401 then is the real server's plan check: the organisation's
//! plan has the API switched off; a 403 is a missing scope), whether the
//! server routes workflow endpoints, the aggregate date form it reads, and
//! the dialect these add up to. Only `PROBE` is asked about: it belongs to
//! no organisation and starts nothing.

use chrono::{DateTime, Duration, Utc};
use uuid::Uuid;

use crate::api::{Client, DateForm};
use crate::error::Error;
use crate::kinds::{Entity, Period};
use crate::quirks::date_form::DateForms;
use crate::time::Window;

/// The ID asked about: all zeros but for the marks of a version-4 UUID,
/// which the open-source server insists on (a nil UUID is answered 400).
pub(crate) const PROBE: Uuid = Uuid::from_u128(0x0000_0000_0000_4000_8000_0000_0000_0000);

/// How the statistics request went.
#[derive(Debug, Clone)]
pub enum Statistics {
    /// Answered with statistics.
    Answered,
    /// 401 to a token issued a moment ago: the plan check.
    PlanDisabled,
    /// 403: the token lacks the scope that guards statistics.
    MissingScope,
    /// Anything else.
    Failed(Error),
}

/// The last hour's statistics of the `PROBE` pipeline. `client` should hold
/// the fresh token as a fixed one, so that a 401 is not answered with yet
/// another token.
pub async fn statistics(client: &Client, now: DateTime<Utc>) -> Statistics {
    let w = Window {
        from: now - Duration::hours(1),
        to: now,
    };
    match client.range_stats(Entity::Pipeline, PROBE, &w).await {
        Ok(_) => Statistics::Answered,
        Err(e) if e.status == Some(401) => Statistics::PlanDisabled,
        Err(e) if e.status == Some(403) => Statistics::MissingScope,
        Err(e) => Statistics::Failed(e),
    }
}

/// Whether the server routes workflow statistics: the open-source server
/// answers every workflow path with its router's plain-text 404.
pub async fn workflow_endpoints(client: &Client, now: DateTime<Utc>) -> Result<bool, Error> {
    let w = Window {
        from: now - Duration::hours(1),
        to: now,
    };
    match client.range_stats(Entity::Workflow, PROBE, &w).await {
        Ok(_) => Ok(true),
        Err(e) if no_route(&e) => Ok(false),
        // Routed, and refused or not found for `PROBE`.
        Err(e) if matches!(e.status, Some(403 | 404)) => Ok(true),
        Err(e) => Err(e),
    }
}

/// A 404 from the router rather than from a handler: not the JSON error
/// body of the statistics service.
fn no_route(e: &Error) -> bool {
    e.status == Some(404)
        && !e
            .server_body
            .as_deref()
            .is_some_and(|b| b.trim_start().starts_with('{'))
}

/// The aggregate date form the server reads, learnt through `forms` (so
/// that whoever made them hears of it) from one day of the `PROBE` pipeline.
pub async fn date_form(
    client: &Client,
    forms: &DateForms<'_>,
    now: DateTime<Utc>,
) -> Result<DateForm, Error> {
    let today = now.date_naive();
    forms
        .ask(|form| async move {
            client
                .aggregated_stats(Entity::Pipeline, PROBE, today, form, Period::Day, 1)
                .await
                .map(|_| form)
        })
        .await
}

/// The dialect a server speaks, from what it showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// As the service spec has it: workflow endpoints, bare aggregate dates.
    Spec,
    /// The open-source Ylem server: no workflow endpoints, a time in the
    /// aggregate date.
    Ylem,
    /// Some of each.
    Mixed,
}

/// The dialect that workflow endpoints (`workflows`) and the date form add
/// up to.
pub fn dialect(workflows: bool, form: DateForm) -> Dialect {
    match (workflows, form) {
        (true, DateForm::Date) => Dialect::Spec,
        (false, DateForm::DateTime) => Dialect::Ylem,
        _ => Dialect::Mixed,
    }
}
