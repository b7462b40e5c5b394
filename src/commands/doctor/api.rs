//! The API check: one statistics request with the token the credentials
//! check got (a 401 to a token issued a moment ago is the real server's
//! plan check), whether workflow endpoints exist, the aggregate date form
//! (learnt and remembered as every command does), and the dialect.

use ylem_client::api::DateForm;
use ylem_client::diagnose::api::{self, Dialect, Statistics};
use ylem_client::diagnose::scopes;
use ylem_client::{Client, ClientBuilder, TokenSource, Transport};

use super::check::{AUTH, Check};
use super::credentials::Got;
use crate::commands::kit::date_form;
use crate::context::Context;
use crate::error::Error;

const NAME: &str = "api";

const AGAIN: &str = "run 'ylemctl doctor -vv' to see the requests and answers";

pub async fn check(ctx: &Context, t: Transport, got: &Got) -> (Check, Option<Client>) {
    let client = ClientBuilder::over(t)
        .token_source(TokenSource::Fixed(got.token.clone()))
        .build()
        .expect("a client with a token source builds");
    let now = ctx.settings.now;
    let failed = match api::statistics(&client, now).await {
        Statistics::Answered => None,
        Statistics::PlanDisabled if got.fresh => Some(Check::fail(
            NAME,
            AUTH,
            "the statistics request was answered 401 with a token issued a moment ago: the organisation's plan has the API switched off",
            "ask the organisation's administrator to switch the API on in its plan (or check the base URL)",
        )),
        Statistics::PlanDisabled => Some(Check::fail(
            NAME,
            AUTH,
            "the statistics request was answered 401: the service refuses YLEM_TOKEN",
            "get a new token (e.g. 'ylemctl auth token'), or unset YLEM_TOKEN to use the profile's login",
        )),
        Statistics::MissingScope => Some(Check::fail(
            NAME,
            AUTH,
            "the statistics request was answered 403: the token lacks the stats:read scope",
            "ask the service's administrator to grant the client stats:read",
        )),
        Statistics::Failed(e) => Some(Check::from_error(NAME, &Error::from(e))),
    };
    if let Some(c) = failed {
        return (c, None);
    }
    let mut found = vec!["one statistics request answered".to_string()];
    // Every warning, in the order found: (what, fix).
    let mut warnings: Vec<(String, &str)> = Vec::new();
    let workflows = match api::workflow_endpoints(&client, now).await {
        Ok(w) => {
            found.push(match w {
                true => "workflow endpoints exist".into(),
                false => "no workflow endpoints (as the open-source Ylem server)".into(),
            });
            Some(w)
        }
        Err(e) => {
            let what = format!("workflow endpoints not known: {}", Error::from(e).message);
            warnings.push((what, AGAIN));
            None
        }
    };
    let forms = date_form::forms(ctx);
    let form = match api::date_form(&client, &forms, now).await {
        Ok(f) => {
            found.push(match f {
                DateForm::Date => "aggregate dates as YYYY-MM-DD".into(),
                DateForm::DateTime => "aggregate dates as YYYY-MM-DD 00:00:00".into(),
            });
            Some(f)
        }
        Err(e) => {
            let what = format!(
                "the aggregate date form not known: {}",
                Error::from(e).message
            );
            warnings.push((what, AGAIN));
            None
        }
    };
    if let (Some(w), Some(f)) = (workflows, form) {
        found.push(match api::dialect(w, f) {
            Dialect::Spec => "dialect: the service spec".into(),
            Dialect::Ylem => "dialect: the open-source Ylem server".into(),
            Dialect::Mixed => "dialect: some of the spec, some of the open-source server".into(),
        });
    }
    found.push("run starts not tried (they start runs)".into());
    let lacks_workflows = workflows == Some(true)
        && got.granted.as_deref().is_some_and(|g| {
            scopes::missing(g, true)
                .iter()
                .any(|n| n.scope == "workflows:run")
        });
    if lacks_workflows {
        warnings.push((
            "the token lacks workflows:run, which workflow runs need".into(),
            "ask the service's administrator to grant the client workflows:run",
        ));
    }
    let detail = found.join("; ");
    let check = match warnings.is_empty() {
        true => Check::ok(NAME, detail),
        false => {
            let whats: Vec<&str> = warnings.iter().map(|w| w.0.as_str()).collect();
            let mut hints: Vec<&str> = warnings.iter().map(|w| w.1).collect();
            hints.dedup();
            Check::warn(
                NAME,
                format!("{detail}; {}", whats.join("; ")),
                hints.join("; "),
            )
        }
    };
    (check, Some(client))
}
