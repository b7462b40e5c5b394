//! The aliases check: each alias of the profile asked once, as `last-run`
//! asks it (the run model: the last-run answer, then at most one request
//! that confirms it): reachable, never run (or unknown, or not of its
//! kind: the service answers these alike), or refused (403: another
//! organisation's, or a scope the token lacks).

use ylem_client::runs::{Last, NotKnown};
use ylem_client::{Client, Entity};

use super::check::Check;
use crate::context::Context;
use crate::error::Error;

const NAME: &str = "aliases";

/// At most this many are asked, so that a long list stays within the
/// command's time.
const MOST: usize = 50;

pub async fn check(ctx: &Context, client: &Client) -> Check {
    let targets = match ctx.config() {
        Ok(Some(c)) => match c.alias_targets(&ctx.settings.profile) {
            Ok(t) => t,
            Err(e) => return Check::warn(NAME, e.message, e.hint.unwrap_or_default()),
        },
        Ok(None) => Default::default(),
        Err(e) => return Check::warn(NAME, e.message, e.hint.unwrap_or_default()),
    };
    if targets.is_empty() {
        return Check::ok(NAME, "no aliases in this profile");
    }
    let mut problems = Vec::new();
    let mut kindless = Vec::new();
    let asked = targets.len().min(MOST);
    for (name, (kind, id)) in targets.iter().take(MOST) {
        if kind.is_none() {
            kindless.push(name.as_str());
        }
        let kind = kind.unwrap_or(Entity::Pipeline);
        let refused = || {
            format!("{name} ({kind}): refused: another organisation's, or a scope the token lacks")
        };
        match ylem_client::runs::last::last(client, kind, *id, ctx.settings.now).await {
            Ok(Last::Ran { .. }) => {}
            Ok(Last::NoRunFound) => problems.push(format!(
                "{name}: no run found: never ran, unknown, or not a {kind}"
            )),
            Err(NotKnown::Unconfirmed(_)) => problems.push(refused()),
            Err(NotKnown::Failed(e)) if e.status() == Some(403) => problems.push(refused()),
            Err(NotKnown::Failed(e)) if e.status() == Some(404) => {
                problems.push(format!("{name}: no {kind} {id} on this service"))
            }
            Err(NotKnown::Failed(e)) => {
                problems.push(format!("{name}: {}", Error::from(e).message))
            }
        }
    }
    let mut detail = format!(
        "{} asked, {} answered",
        crate::count::count(asked, "alias", "aliases"),
        asked - problems.len()
    );
    if targets.len() > MOST {
        detail.push_str(&format!(" ({} more not asked)", targets.len() - MOST));
    }
    if !kindless.is_empty() {
        detail.push_str(&format!(
            "; set without a kind (asked as pipelines): {}",
            kindless.join(", ")
        ));
    }
    match problems.is_empty() {
        true => Check::ok(NAME, detail),
        false => Check::warn(
            NAME,
            format!("{detail}; {}", problems.join("; ")),
            "check the UUID and its kind, then 'ylemctl alias set NAME KIND:UUID'",
        ),
    }
}
