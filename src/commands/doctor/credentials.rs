//! The credentials check: a fresh token by client credentials (never
//! printed nor cached), its type and lifetime, the scopes it grants against
//! what the commands need, and whether the refresh grant works.

use ylem_client::Transport;
use ylem_client::auth::oauth::{self, TokenResponse};
use ylem_client::diagnose::scopes;
use ylem_client::{Secret, time::human_ms};

use super::check::{Check, SET_UP};
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
    let (r, refreshed, query) = match creds {
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
                    let query = params.query_only();
                    (r, refreshed.map(|x| x.map_err(Error::from)), query)
                }
                Err(e) => return (failed(t, &Error::from(e)), None),
            }
        }
        Creds::Profile(p) => match p.fresh(t).await {
            Ok(r) => {
                let refreshed = match &r.refresh_token {
                    Some(rt) => Some(p.refresh(t, rt).await),
                    None => None,
                };
                (r, refreshed, p.query_form())
            }
            Err(e) => return (failed(t, &e), None),
        },
    };
    judge(r, refreshed, query)
}

/// The token request failed. A 404 there is the base URL's path (doctor
/// has no ID that could be wrong): a set-up failure.
fn failed(t: &Transport, e: &Error) -> Check {
    if e.http_status == Some(404) {
        let at = format!("{}/v1/oauth/token", t.base_url().trim_end_matches('/'));
        return Check::fail(
            NAME,
            SET_UP,
            format!("no token endpoint at {at} (HTTP 404)"),
            "is the base URL's path right? it is the service's root, e.g. https://ylem.example.com",
        );
    }
    Check::from_error(NAME, e)
}

/// The token response and the refresh's outcome, judged (each warning
/// kept); `query`: the secret went in the URL. The token the API check uses
/// is the refreshed one when there is one: a server may end the first with
/// its refresh.
fn judge(
    r: TokenResponse,
    refreshed: Option<Result<TokenResponse>>,
    query: bool,
) -> (Check, Option<Got>) {
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
    // Every warning, in the order read: (what, fix).
    let mut warnings: Vec<(String, String)> = Vec::new();
    if !missing.is_empty() {
        let lacks: Vec<String> = missing
            .iter()
            .map(|n| format!("{} ({})", n.scope, n.opens))
            .collect();
        let names: Vec<&str> = missing.iter().map(|n| n.scope).collect();
        warnings.push((
            format!("lacks {}", lacks.join(", ")),
            format!(
                "ask the service's administrator to grant the client {}",
                names.join(" and ")
            ),
        ));
    }
    if !bearer {
        warnings.push((
            format!("token_type {kind} is not Bearer"),
            "the token is sent as a Bearer token: the service may refuse it".into(),
        ));
    }
    if query {
        warnings.push((
            "the token endpoint reads its parameters only from the URL: the client secret reaches the server's access logs (and any proxy's)".into(),
            "ask the service's operators to read the token request's body (RFC 6749 section 2.3.1)".into(),
        ));
    }
    if let Some(h) = refresh_warn {
        warnings.push((String::new(), h));
    }
    let check = match warnings.is_empty() {
        true => Check::ok(NAME, detail),
        false => {
            let whats: Vec<&str> = warnings
                .iter()
                .map(|w| w.0.as_str())
                .filter(|w| !w.is_empty())
                .collect();
            let hints: Vec<&str> = warnings.iter().map(|w| w.1.as_str()).collect();
            let detail = match whats.is_empty() {
                true => detail,
                false => format!("{detail}; {}", whats.join("; ")),
            };
            Check::warn(NAME, detail, hints.join("; "))
        }
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

/// Whether a token grants only the spec's one scope.
fn lone_spec_scope(got: &Got) -> bool {
    got.granted
        .as_deref()
        .is_some_and(|g| g.len() == 1 && g[0] == "workflows:run")
}

/// A lone `workflows:run` with the statistics request allowed: the ok says
/// how it was decided, since the scope names neither `stats:read` nor
/// `pipelines:run` (the spec names no other scope). Reads were tried and
/// passed; a run start is never tried by `doctor` (it would start a run).
pub fn spec_scope_read(creds: &mut Check, got: &Got) {
    if lone_spec_scope(got) && creds.status == super::check::Status::Ok {
        creds.detail = format!(
            "{} (the spec's only scope, naming no other: read as the whole API, and reads work, as the api check shows)",
            creds.detail
        );
    }
}

/// A token granting only the spec's one scope, `workflows:run`, reads as
/// granting the whole API (the spec names no other). When the statistics
/// request was refused 403 all the same, the service guards its endpoints
/// by scope and the token lacks the ones the commands need: the
/// credentials check that said ok warns, naming them.
pub fn spec_scope_refused(creds: &mut Check, got: &Got) {
    if !lone_spec_scope(got) || creds.status != super::check::Status::Ok {
        return;
    }
    let lacks: Vec<String> = scopes::NEEDED
        .iter()
        .filter(|n| n.scope != "workflows:run")
        .map(|n| format!("{} ({})", n.scope, n.opens))
        .collect();
    *creds = Check::warn(
        NAME,
        format!(
            "{}; the service refuses it reading (403): it lacks {}",
            creds.detail,
            lacks.join(", ")
        ),
        "ask the service's administrator to grant the client stats:read and pipelines:run",
    );
}
