//! The order of `doctor`'s checks and what each depends on: set-up, then
//! network (needs a base URL), clock and credentials (need the network),
//! the API (needs a token), aliases (need the API). A check whose
//! dependency failed is skipped, saying which.

use std::time::Duration;

use super::check::{Check, Status};
use super::{aliases, api, clock, credentials, network, report, setup};
use crate::cli::Format;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::exit::Exit;
use crate::context::Context;
use crate::error::{Error, Result};

/// 30 s unless `--max-time` says otherwise; a missing profile is a failed
/// set-up check, not an error before it.
pub const CONDUCT: Conduct = Conduct {
    max_time: Some(Duration::from_secs(30)),
    uses_profile: false,
    ..Conduct::client("doctor")
};

pub async fn run(ctx: &Context) -> Result<Exit> {
    if !matches!(ctx.settings.format, Format::Table | Format::Json) {
        return Err(Error::usage(
            "doctor prints its checks as a table or as JSON: use -o json (or -o table)",
        ));
    }
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
    let (set_up, plan) = setup::check(ctx).await;
    all.push(set_up);
    let Some(base_url) = plan.base_url.clone() else {
        for name in ["network", "clock", "credentials", "api", "aliases"] {
            all.push(Check::skip(name, "skipped: no base URL (see set-up)"));
        }
        return all;
    };
    let net = network::check(ctx, &base_url).await;
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
    all.push(clock::check(ctx, &transport).await);
    let (creds, got) = credentials::check(ctx, &transport, &plan.creds).await;
    let creds_failed = creds.status == Status::Fail;
    all.push(creds);
    let Some(got) = got else {
        let why = match creds_failed {
            true => "skipped: the credentials check failed",
            false => "skipped: no credentials (see set-up)",
        };
        return skip_rest(all, why);
    };
    let (api, client) = api::check(ctx, transport, &got).await;
    all.push(api);
    match client {
        Some(c) => all.push(aliases::check(ctx, &c).await),
        None => all.push(Check::skip("aliases", "skipped: the api check failed")),
    }
    all
}

/// The checks not reached yet, skipped with `why`.
fn skip_rest(mut all: Vec<Check>, why: &str) -> Vec<Check> {
    for name in ["network", "clock", "credentials", "api", "aliases"] {
        if !all.iter().any(|c| c.name == name) {
            all.push(Check::skip(name, why));
        }
    }
    all
}
