//! The credentials check: a fresh token by client credentials (never
//! printed nor cached), its type and lifetime, the scopes it grants against
//! what the commands need, and whether the refresh grant works.

use ylem_client::Transport;
use ylem_client::auth::oauth::{self, TokenResponse};
use ylem_client::diagnose::scopes;
use ylem_client::{Secret, time::human_ms};

use super::check::Check;
use super::setup::Creds;
use crate::context::Context;
use crate::credentials::token_params;
use crate::error::{Error, Result};

const NAME: &str = "credentials";

/// The token the API check uses.
pub struct Got {
    pub token: Secret,
    /// Issued a moment ago (not `YLEM_TOKEN`): a 401 to it is the plan.
    pub fresh: bool,
    /// The scopes granted, when the token response named them.
    pub granted: Option<Vec<String>>,
}

pub async fn check(ctx: &Context, t: &Transport, creds: &Creds) -> (Check, Option<Got>) {
    let (r, refreshed) = match creds {
        Creds::None => {
            return (
                Check::skip(NAME, "skipped: no credentials (see set-up)"),
                None,
            );
        }
        Creds::Token(token) => {
            let got = Got {
                token: token.clone(),
                fresh: false,
                granted: None,
            };
            let detail =
                "YLEM_TOKEN is used as is: no fresh token fetched, its scopes and lifetime unknown";
            return (Check::ok(NAME, detail), Some(got));
        }
        Creds::Client { id, secret } => {
            let params = token_params::warned(ctx.ui);
            match oauth::fetch_token(t, id, secret, &params).await {
                Ok(r) => {
                    let refreshed = match &r.refresh_token {
                        Some(rt) => Some(oauth::refresh_token(t, id, rt, &params).await),
                        None => None,
                    };
                    (r, refreshed.map(|x| x.map_err(Error::from)))
                }
                Err(e) => return (Check::from_error(NAME, &Error::from(e)), None),
            }
        }
        Creds::Profile(p) => match p.fresh(t).await {
            Ok(r) => {
                let refreshed = match &r.refresh_token {
                    Some(rt) => Some(p.refresh(t, rt).await),
                    None => None,
                };
                (r, refreshed)
            }
            Err(e) => return (Check::from_error(NAME, &e), None),
        },
    };
    judge(r, refreshed)
}

/// The token response and the refresh's outcome, judged. The token the API
/// check uses is the refreshed one when there is one: a server may end the
/// first with its refresh.
fn judge(r: TokenResponse, refreshed: Option<Result<TokenResponse>>) -> (Check, Option<Got>) {
    let kind = r
        .token_type
        .clone()
        .unwrap_or_else(|| "no token_type".into());
    let lasts = match r.expires_in {
        Some(s) => format!("valid for {}", human_ms(s.saturating_mul(1000))),
        None => "no lifetime given".into(),
    };
    let granted = r.scope.as_deref().map(scopes::granted);
    let scope_text = match &granted {
        Some(g) if g.is_empty() => "granting no scope".to_string(),
        Some(g) => format!("granting {}", g.join(" ")),
        None => "naming no scopes".into(),
    };
    let (refresh_text, refresh_warn) = match &refreshed {
        None => ("no refresh token given (a new token is fetched with the secret)".to_string(), None),
        Some(Ok(_)) => ("the refresh grant works".into(), None),
        Some(Err(e)) => (
            format!("the refresh grant fails: {}", e.message),
            Some("tokens are fetched with the client secret instead: nothing to do unless the service should offer refresh".to_string()),
        ),
    };
    let detail = format!("a fresh token ({kind}, {lasts}), {scope_text}; {refresh_text}");
    let missing = granted
        .as_deref()
        .map(|g| scopes::missing(g, false))
        .unwrap_or_default();
    let bearer = r
        .token_type
        .as_deref()
        .is_none_or(|k| k.eq_ignore_ascii_case("bearer"));
    let check = if !missing.is_empty() {
        let lacks: Vec<String> = missing
            .iter()
            .map(|n| format!("{} ({})", n.scope, n.opens))
            .collect();
        let names: Vec<&str> = missing.iter().map(|n| n.scope).collect();
        Check::warn(
            NAME,
            format!("{detail}; lacks {}", lacks.join(", ")),
            format!(
                "ask the service's administrator to grant the client {}",
                names.join(" and ")
            ),
        )
    } else if !bearer {
        Check::warn(
            NAME,
            detail,
            "the token is sent as a Bearer token: the service may refuse it",
        )
    } else if let Some(h) = refresh_warn {
        Check::warn(NAME, detail, h)
    } else {
        Check::ok(NAME, detail)
    };
    let token = match refreshed {
        Some(Ok(again)) => again.access_token,
        _ => r.access_token,
    };
    let got = Got {
        token,
        fresh: true,
        granted,
    };
    (check, Some(got))
}
