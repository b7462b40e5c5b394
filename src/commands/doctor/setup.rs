//! The set-up check: the config file and profile in use, where the base URL
//! and the credentials come from, the credential store and whether it can
//! be read, the file modes of the config and credential files, and the
//! login's binding against the base URL in effect. Nothing is sent.

use std::path::Path;

use super::check::{Check, SET_UP};
use crate::config::temps;
use crate::context::Context;
use crate::credentials::profile::{Resolved, not_logged_in};
use crate::credentials::store::{Item, Store, StoreKind};
use crate::credentials::stored::StoredProfile;
use crate::error::Error;
use crate::settings::EnvCredentials;
use ylem_client::Secret;

const NAME: &str = "set-up";

/// Where tokens will come from.
pub enum Creds {
    /// None usable: the check failed.
    None,
    /// `YLEM_TOKEN`, used as is.
    Token(Secret),
    /// `YLEM_CLIENT_ID` and `YLEM_CLIENT_SECRET`.
    Client { id: String, secret: Secret },
    /// The profile's stored login.
    Profile(Box<StoredProfile>),
}

/// What the later checks use.
pub struct Plan {
    pub base_url: Option<String>,
    pub creds: Creds,
}

pub async fn check(ctx: &Context) -> (Check, Plan) {
    let mut found = Vec::new();
    let mut plan = Plan {
        base_url: ctx.settings.base_url.clone(),
        creds: Creds::None,
    };
    let outcome = inspect(ctx, &mut found, &mut plan).await;
    let detail = found.join("; ");
    let check = match outcome {
        Ok(None) => Check::ok(NAME, detail),
        Ok(Some((what, hint))) => Check::warn(NAME, format!("{detail}; {what}"), hint),
        Err(e) => {
            plan.creds = Creds::None;
            let detail = match detail.is_empty() {
                true => e.message.clone(),
                false => format!("{detail}; {}", e.message),
            };
            let hint = e.hint.clone();
            let hint = hint.unwrap_or_else(|| super::check::default_hint(NAME).into());
            Check::fail(NAME, SET_UP, detail, hint)
        }
    };
    (check, plan)
}

/// Fills `found` with what it sees and `plan` with what later checks use;
/// a warning (what, fix) or the error that fails the check.
async fn inspect(
    ctx: &Context,
    found: &mut Vec<String>,
    plan: &mut Plan,
) -> Result<Option<(String, String)>, Error> {
    let s = &ctx.settings;
    found.push(format!(
        "profile '{}' ({})",
        s.profile,
        profile_source(&s.profile)
    ));
    let config = ctx.config()?;
    let resolved = match (&s.config_dir, config) {
        (Some(dir), _) => {
            let file = dir.join("config.toml");
            let there = if file.exists() { "" } else { " (none yet)" };
            found.push(format!("config {}{there}", file.display()));
            ctx.profile().ok()
        }
        (None, _) => {
            found.push("no config directory".into());
            None
        }
    };
    let from_profile = resolved.as_ref().and_then(|r| r.base_url(None));
    plan.base_url = s.base_url.clone().or(from_profile);
    found.push(match (&s.base_url, &plan.base_url) {
        (Some(u), _) if s.base_url_from_env => format!("base URL {u} (from YLEM_BASE_URL)"),
        (Some(u), _) => format!("base URL {u} (from --base-url)"),
        (None, Some(u)) => format!("base URL {u} (from the profile)"),
        (None, None) => "no base URL".into(),
    });
    let warning = match resolved.as_ref() {
        Some(r) => file_modes(r, s.config_dir.as_deref()),
        None => None,
    };
    plan.creds = credentials(ctx, resolved.as_ref(), found).await?;
    if plan.base_url.is_none() {
        return Err(Error::usage("no base URL to check")
            .with_hint("run 'ylemctl login', or set --base-url or YLEM_BASE_URL"));
    }
    Ok(warning)
}

/// Where the credentials come from, and the store's side of a login.
async fn credentials(
    ctx: &Context,
    r: Option<&Resolved>,
    found: &mut Vec<String>,
) -> Result<Creds, Error> {
    let s = &ctx.settings;
    match &s.credentials {
        EnvCredentials::Token(t) => {
            found.push("credentials: YLEM_TOKEN (environment, used as is)".into());
            return Ok(Creds::Token(t.clone()));
        }
        EnvCredentials::Client { id, secret } => {
            found.push(format!(
                "credentials: YLEM_CLIENT_ID ({id}) and YLEM_CLIENT_SECRET (environment)"
            ));
            return Ok(Creds::Client {
                id: id.clone(),
                secret: secret.clone(),
            });
        }
        EnvCredentials::None => {}
    }
    let Some(r) = r.filter(|r| r.profile.as_ref().is_some_and(|p| p.client_id.is_some())) else {
        return Err(not_logged_in(&s.profile));
    };
    let store = r.store();
    found.push(format!(
        "credentials: the stored login (store {}, {}; {})",
        r.store.name(),
        r.store_why,
        store.location()
    ));
    if let Some(saved) = r.saved_base_url() {
        found.push(format!("bound to {saved}"));
    }
    match store.get(Item::Secret).await {
        Ok(Some(_)) => {}
        Ok(None) => {
            return Err(
                Error::auth("the profile has no stored client secret (logged out)")
                    .with_hint(login_hint(&s.profile)),
            );
        }
        Err(e) => return Err(e.context("the credential store cannot be read")),
    }
    r.check_service(s.base_url.as_deref(), ctx.base_url_given(), ctx.config()?)?;
    Ok(Creds::Profile(Box::new(
        r.token_source(std::time::Duration::ZERO, ctx.ui)?,
    )))
}

/// Where the profile's name came from: `-p`/`--profile` on the command
/// line, `YLEM_PROFILE`, or neither (the default). Clap reads both into one
/// value, so the arguments are looked at again (before any `--`).
fn profile_source(profile: &str) -> &'static str {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut given = false;
    for a in args.iter().take_while(|a| *a != "--") {
        given |= a == "-p"
            || a == "--profile"
            || a.starts_with("--profile=")
            || (a.starts_with("-p") && !a.starts_with("--"));
    }
    let env = std::env::var("YLEM_PROFILE").ok().filter(|v| !v.is_empty());
    match (given, env) {
        (true, _) => "from -p/--profile",
        (false, Some(v)) if v == profile => "from YLEM_PROFILE",
        _ => "the default",
    }
}

fn login_hint(profile: &str) -> String {
    match profile {
        "default" => "run 'ylemctl login'".into(),
        p => format!("run 'ylemctl -p {p} login'"),
    }
}

/// A config file others may write, a credentials directory or files others
/// may read (each one, with its chmod), and temp files killed writes left.
fn file_modes(r: &Resolved, dir: Option<&Path>) -> Option<(String, String)> {
    let dir = dir?;
    let mut loose = Vec::new();
    let config = dir.join("config.toml");
    if mode(&config).is_some_and(|m| m & 0o022 != 0) {
        loose.push((config, 0o644));
    }
    if r.store == StoreKind::File {
        let files = Store::files_dir(dir);
        if mode(&files).is_some_and(|m| m & 0o077 != 0) {
            loose.push((files.clone(), 0o700));
        }
        let prefix = format!("{}.", r.name);
        for e in std::fs::read_dir(&files).into_iter().flatten().flatten() {
            let named = e.file_name().to_string_lossy().starts_with(&prefix);
            if named && mode(&e.path()).is_some_and(|m| m & 0o077 != 0) {
                loose.push((e.path(), 0o600));
            }
        }
    }
    let mut whats: Vec<String> = loose
        .iter()
        .map(|(p, _)| {
            let m = mode(p).unwrap_or(0);
            format!("{} has mode {m:o}, open to other users", p.display())
        })
        .collect();
    let mut fixes: Vec<String> = loose
        .iter()
        .map(|(p, want)| format!("chmod {want:o} {}", p.display()))
        .collect();
    // A killed write's temp files that no sweep could remove (a read-only
    // directory): one may hold a client secret.
    for p in [dir.to_path_buf(), Store::files_dir(dir)]
        .iter()
        .flat_map(|d| temps::ours(d, temps::is_state))
    {
        whats.push(format!(
            "{} is the temp file of a write that was killed (it may hold a secret)",
            p.display()
        ));
        fixes.push(format!("rm {}", p.display()));
    }
    if whats.is_empty() {
        return None;
    }
    Some((whats.join("; "), fixes.join("; ")))
}

#[cfg(unix)]
fn mode(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777)
}

#[cfg(not(unix))]
fn mode(_: &Path) -> Option<u32> {
    None
}
