//! `ylemctl auth status` (what would authenticate, and how long the cached
//! token lasts; never a secret) and `ylemctl auth token` (a valid token on
//! stdout: the one place a token is printed, on purpose, for other tools).

use std::time::Duration;

use crate::auth::profile::not_logged_in;
use crate::auth::store::Item;
use crate::auth::token::CachedToken;
use crate::cli::{AuthCommand, Format, TokenArgs};
use crate::context::Context;
use crate::error::Result;
use crate::settings::EnvCredentials;
use crate::time;

pub async fn run(cmd: &AuthCommand, ctx: &Context) -> Result<()> {
    match cmd {
        AuthCommand::Status => status(ctx).await,
        AuthCommand::Token(a) => token(a, ctx).await,
    }
}

async fn token(args: &TokenArgs, ctx: &Context) -> Result<()> {
    let (t, source) = ctx.credentials(args.min_ttl.unwrap_or(Duration::ZERO))?;
    let tok = source.token(&t, None).await?;
    ctx.write_out(format!("{}\n", tok.expose()).as_bytes())
}

async fn status(ctx: &Context) -> Result<()> {
    let s = &ctx.settings;
    let mut rows: Vec<(&str, String)> = vec![("profile", s.profile.clone())];
    let env_in_use = match &s.credentials {
        EnvCredentials::Token(_) => Some("YLEM_TOKEN from the environment (used as is)".into()),
        EnvCredentials::Client { id, .. } => Some(format!(
            "YLEM_CLIENT_ID ({id}) and YLEM_CLIENT_SECRET from the environment"
        )),
        EnvCredentials::None => None,
    };
    let mut logged_in = false;
    // Without a config directory there is no profile to describe.
    let resolved = match ctx.profile() {
        Ok(r) => Some(r),
        Err(_) if s.config_dir.is_none() => None,
        Err(e) => return Err(e),
    };
    if let Some(r) = &resolved {
        let base = match (&s.base_url, r.base_url(s.base_url.as_deref())) {
            (Some(u), _) => format!("{u} (from --base-url or YLEM_BASE_URL)"),
            (None, Some(u)) => format!("{u} (from the profile)"),
            (None, None) => "none".into(),
        };
        let path = r.config_dir.join("config.toml");
        rows.push(("config", path.display().to_string()));
        rows.push(("base_url", base));
        let client = r.profile.as_ref().and_then(|p| p.client_id.clone());
        rows.push(("client_id", client.clone().unwrap_or_else(|| "none".into())));
        if client.is_some() {
            let store = r.store();
            rows.push((
                "store",
                format!("{} ({}; {})", r.store.name(), r.store_why, store.location()),
            ));
            logged_in = store.get(Item::Secret).await?.is_some();
            rows.push((
                "secret",
                if logged_in {
                    "stored"
                } else {
                    "not stored (logged out)"
                }
                .into(),
            ));
            let cached = store
                .get(Item::Token)
                .await?
                .and_then(|t| CachedToken::decode(&t));
            rows.push(("token", describe(cached.as_ref(), s.now.timestamp())));
        }
    }
    rows.push((
        "in_use",
        match (&env_in_use, logged_in) {
            (Some(e), _) => e.clone(),
            (None, true) => format!("the stored login of profile '{}'", s.profile),
            (None, false) => "nothing: not logged in".into(),
        },
    ));
    print(ctx, &rows)?;
    if env_in_use.is_none() && !logged_in {
        return Err(not_logged_in(&s.profile));
    }
    Ok(())
}

/// The cached token's expiry in words, never the token.
fn describe(c: Option<&CachedToken>, now: i64) -> String {
    let Some(c) = c else {
        return "none cached (one is fetched when needed)".into();
    };
    match c.expires_at {
        None => "cached, no expiry given".into(),
        Some(e) => {
            let at = chrono::DateTime::from_timestamp(e, 0)
                .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
                .unwrap_or_default();
            if e > now {
                format!(
                    "cached, expires {at} (in {})",
                    time::human_ms(e.saturating_sub(now).saturating_mul(1000))
                )
            } else {
                format!("cached, expired {at} (a new one is fetched when needed)")
            }
        }
    }
}

fn print(ctx: &Context, rows: &[(&str, String)]) -> Result<()> {
    let text = match ctx.settings.format {
        Format::Json | Format::Jsonl => {
            let m: serde_json::Map<String, serde_json::Value> = rows
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone().into()))
                .collect();
            format!("{}\n", serde_json::Value::Object(m))
        }
        _ => rows
            .iter()
            .map(|(k, v)| format!("{:<10} {v}\n", format!("{k}:")))
            .collect(),
    };
    ctx.write_out(text.as_bytes())
}
