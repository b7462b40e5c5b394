//! The order of `doctor`'s checks and what each depends on: set-up, then
//! network (needs a base URL), clock and credentials (need the network),
//! the API (needs a token), aliases (need the API). A check whose
//! dependency failed is skipped, saying which.

use std::time::Duration;

use super::args::DoctorArgs;
use super::check::{Check, NETWORK, ORDER, Status};
use super::{aliases, api, clock, credentials, network, report, setup};
use crate::cli::Format;
use crate::commands::kit::conduct::{Conduct, Limit, Outputs};
use crate::commands::kit::exit::Exit;
use crate::commands::kit::wing::Entry;
use crate::context::Context;
use crate::error::Result;
use crate::time;

/// 30 s unless `--max-time` says otherwise, and it ends itself then with
/// the checks it made (the one running fails, the rest skip); a missing
/// profile is a failed set-up check, not an error before it; a table or
/// JSON.
pub const CONDUCT: Conduct = Conduct {
    max_time: Some(Duration::from_secs(30)),
    limit: Limit::Own,
    uses_profile: false,
    outputs: Outputs::TableOrJson,
    ..Conduct::client("doctor")
};

pub const COMMAND: Entry = Entry {
    command: <DoctorArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |_, ctx, _| Box::pin(run(ctx)),
};

pub async fn run(ctx: &Context) -> Result<Exit> {
    let checks = checks(ctx).await;
    let out = match ctx.settings.format {
        Format::Json => report::json(&checks),
        _ => report::text(&checks),
    };
    ctx.write_out(out.as_bytes())?;
    let (failed, warned) = checks.iter().fold((0, 0), |(f, w), c| match c.status {
        Status::Fail => (f + 1, w),
        Status::Warn => (f, w + 1),
        _ => (f, w),
    });
    if failed + warned > 0 {
        ctx.note(&format!("doctor: {failed} failed, {warned} warned"));
    }
    Ok(report::exit(&checks))
}

async fn checks(ctx: &Context) -> Vec<Check> {
    let mut all = Vec::new();
    let Some((set_up, plan)) = bounded(ctx, setup::check(ctx)).await else {
        return out_of_time(ctx, all, "set-up");
    };
    all.push(set_up);
    let Some(base_url) = plan.base_url.clone() else {
        return skip_rest(all, "skipped: no base URL (see set-up)");
    };
    let Some(net) = bounded(ctx, network::check(ctx, &base_url)).await else {
        return out_of_time(ctx, all, "network");
    };
    let reached = net.passed();
    all.push(net);
    let transport = match reached.then(|| ctx.transport_to(Some(base_url.clone()))) {
        Some(Ok(t)) => t,
        Some(Err(e)) => {
            all.push(Check::from_error("clock", &e));
            return skip_rest(all, "skipped: no transport (see clock)");
        }
        None => return skip_rest(all, "skipped: the network check failed"),
    };
    let Some(clock) = bounded(ctx, clock::check(ctx, &transport)).await else {
        return out_of_time(ctx, all, "clock");
    };
    all.push(clock);
    let Some((creds, got)) = bounded(ctx, credentials::check(ctx, &transport, &plan.creds)).await
    else {
        return out_of_time(ctx, all, "credentials");
    };
    let creds_failed = creds.status == Status::Fail;
    let mut creds = creds;
    let Some(got) = got else {
        all.push(creds);
        let why = match creds_failed {
            true => "skipped: the credentials check failed",
            false => "skipped: no credentials (see set-up)",
        };
        return skip_rest(all, why);
    };
    let Some((api, client)) = bounded(ctx, api::check(ctx, transport, &got)).await else {
        all.push(creds);
        return out_of_time(ctx, all, "api");
    };
    if api.status == Status::Fail && api.detail.contains("lacks the stats:read scope") {
        credentials::spec_scope_refused(&mut creds, &got);
    } else if api.status == Status::Ok {
        credentials::spec_scope_read(&mut creds, &got);
    }
    all.push(creds);
    all.push(api);
    let Some(client) = client else {
        all.push(Check::skip("aliases", "skipped: the api check failed"));
        return all;
    };
    match bounded(ctx, aliases::check(ctx, &client)).await {
        Some(c) => all.push(c),
        None => return out_of_time(ctx, all, "aliases"),
    }
    all
}

/// `fut`, or `None` when `--max-time` runs out first.
async fn bounded<T>(ctx: &Context, fut: impl Future<Output = T>) -> Option<T> {
    match ctx.deadline {
        Some(at) => tokio::time::timeout_at(at.into(), fut).await.ok(),
        None => Some(fut.await),
    }
}

/// `--max-time` ran out during the check `name`: it fails (a time limit is
/// the network's kind), the rest skip.
fn out_of_time(ctx: &Context, mut all: Vec<Check>, name: &'static str) -> Vec<Check> {
    let limit = ctx.settings.max_time.unwrap_or_default();
    all.push(Check::fail(
        name,
        NETWORK,
        format!(
            "out of time: --max-time of {} ran out during this check",
            time::human_ms(limit.as_millis() as i64)
        ),
        "raise --max-time; a service that answers slowly also shows with -vv",
    ));
    skip_rest(all, "skipped: out of time")
}

/// The checks not reached yet, skipped with `why`.
fn skip_rest(mut all: Vec<Check>, why: &str) -> Vec<Check> {
    for name in ORDER {
        if !all.iter().any(|c| c.name == name) {
            all.push(Check::skip(name, why));
        }
    }
    all
}
