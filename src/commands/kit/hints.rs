//! Hints that fit the command as it was run: the profile in use named in
//! every `ylemctl login`/`logout` hint, credentials from the environment
//! named when the service refuses them, and a profile that does not exist
//! told apart from one that is not logged in.

use crate::context::Context;
use crate::error::{Error, Result};
use crate::settings::EnvCredentials;

/// `e` with its hint fitted to the profile and the credentials in use.
pub fn fit(ctx: &Context, mut e: Error) -> Error {
    let s = &ctx.settings;
    // A fresh token refused is the plan, not the credentials (which were
    // just accepted by the token endpoint): that hint stays.
    let plan = e.hint.as_deref() == Some(crate::client_error::PLAN_HINT);
    if e.http_status == Some(401) && e.kind == crate::error::Kind::Auth && !plan {
        let env = match &s.credentials {
            EnvCredentials::Token(_) => Some(
                "YLEM_TOKEN is set and was refused (it overrides any login): renew or unset it",
            ),
            EnvCredentials::Client { .. } => Some(
                "YLEM_CLIENT_ID and YLEM_CLIENT_SECRET are set and were refused (they override any login): check them, or unset them to use the profile's login",
            ),
            EnvCredentials::None => None,
        };
        if let Some(h) = env {
            e.hint = Some(h.to_string());
        }
    }
    if s.profile != "default" {
        let with = format!("'ylemctl -p {} ", s.profile);
        e.hint = e.hint.map(|h| {
            h.replace("'ylemctl login", &format!("{with}login"))
                .replace("'ylemctl logout", &format!("{with}logout"))
        });
    }
    e
}

/// A profile named with `-p`/`YLEM_PROFILE` that the config file does not
/// have (and no credentials in the environment to use instead): a usage
/// error listing the profiles there are. `login` creates profiles and is
/// not asked.
pub fn profile_exists(ctx: &Context) -> Result<()> {
    let s = &ctx.settings;
    if s.profile == "default" || !matches!(s.credentials, EnvCredentials::None) {
        return Ok(());
    }
    let Ok(Some(config)) = ctx.config() else {
        return Ok(());
    };
    let names: Vec<String> = config
        .table()
        .get("profiles")
        .and_then(|p| p.as_table())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default();
    if names.is_empty() || names.contains(&s.profile) {
        return Ok(());
    }
    let near = crate::config::aliases::nearest(
        &s.profile,
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let mean = match near.first() {
        Some(n) => format!("did you mean '-p {n}'? "),
        None => String::new(),
    };
    Err(Error::usage(format!(
        "no such profile '{}': the profiles are {}",
        s.profile,
        names.join(", ")
    ))
    .with_hint(format!(
        "{mean}to create it, run 'ylemctl -p {} login'",
        s.profile
    )))
}
