//! `ylemctl auth status` (what would authenticate, and how long the cached
//! token lasts; never a secret) and `ylemctl auth token` (a valid token on
//! stdout: the one place a token is printed, on purpose, for other tools).

use std::time::Duration;

use crate::cli::Format;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::login::args::{AuthArgs, AuthCommand, TokenArgs};
use crate::context::Context;
use crate::credentials::profile::not_logged_in;
use crate::credentials::secrets::{self, Opened};
use crate::credentials::store::{Item, StoreKind};
use crate::credentials::stored::read_bound;
use crate::error::Result;
use crate::settings::EnvCredentials;
use crate::time;
use ylem_client::auth::binding::Binding;

pub const CONDUCT: Conduct = Conduct::client("auth");

/// `auth token` prints the token as it is, not JSON: no `--jq`.
pub fn conduct(cmd: &AuthCommand) -> Conduct {
    match cmd {
        AuthCommand::Status => CONDUCT,
        AuthCommand::Token(_) => CONDUCT.no_json(),
    }
}

pub const COMMAND: Entry = Entry {
    command: <AuthArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |m| conduct(&wing::args::<AuthArgs>(m).command),
    run: |m, ctx, _| {
        let args: AuthArgs = wing::args(m);
        wing::done(async move { run(&args.command, ctx).await })
    },
};

pub async fn run(cmd: &AuthCommand, ctx: &Context) -> Result<()> {
    match cmd {
        AuthCommand::Status => status(ctx).await,
        AuthCommand::Token(a) => token(a, ctx).await,
    }
}

async fn token(args: &TokenArgs, ctx: &Context) -> Result<()> {
    let min_ttl = args.min_ttl.unwrap_or(Duration::ZERO);
    let (t, source) = ctx.credentials(min_ttl)?;
    let tok = source.token(&t, None).await?;
    if matches!(source, ylem_client::TokenSource::Provider(_)) && !min_ttl.is_zero() {
        check_min_ttl(ctx, min_ttl).await?;
    }
    ctx.write_out(format!("{}\n", tok.expose()).as_bytes())
}

/// A fresh token that still cannot meet `--min-ttl` means the service's
/// tokens do not last that long: say so, rather than hand out a token that
/// expires before the caller expects.
async fn check_min_ttl(ctx: &Context, min_ttl: Duration) -> Result<()> {
    let r = ctx.profile()?;
    let Some(binding) = r.binding() else {
        return Ok(());
    };
    let cached = read_bound(&r.store(), &binding).await?;
    let Some(expires_at) = cached.and_then(|c| c.expires_at) else {
        return Ok(());
    };
    let left = expires_at.saturating_sub(ctx.settings.now.timestamp());
    if left >= min_ttl.as_secs() as i64 {
        return Ok(());
    }
    let human = |s: i64| time::human_ms(s.saturating_mul(1000));
    Err(crate::error::Error::usage(format!(
        "--min-ttl {} is longer than the service's tokens last: a new token is valid for {}",
        human(min_ttl.as_secs() as i64),
        human(left)
    ))
    .with_hint(format!("ask for at most --min-ttl {}m", left.max(0) / 60)))
}

/// What `auth status` found, as values: prose for the text form is made
/// from it, and `-o json` shows it as it is.
#[derive(Default)]
struct Status {
    profile: String,
    config: Option<String>,
    base_url: Option<String>,
    /// `flag_or_env` (`--base-url`/`YLEM_BASE_URL`) or `profile`.
    base_url_source: Option<&'static str>,
    client_id: Option<String>,
    /// The base URL the stored credentials were saved for: the only
    /// service they are sent to.
    bound_to: Option<String>,
    /// The base URL in effect names another service than `bound_to`:
    /// the stored credentials would not be used.
    refused: bool,
    store: Option<String>,
    store_detail: Option<String>,
    /// The store could not be read (the OS keyring unreachable: no session
    /// bus, locked, not answering): why. The secret and token are unknown.
    store_error: Option<crate::error::Error>,
    secret_stored: bool,
    /// A secret is stored, sealed for another service or client.
    secret_other: bool,
    token_cached: bool,
    /// A token is cached for another service or client (or from before
    /// tokens were bound): it is never sent.
    token_other: bool,
    token_expires_at: Option<i64>,
    /// `YLEM_TOKEN`, `YLEM_CLIENT_ID` (with its secret) or `profile`.
    credentials_source: Option<&'static str>,
    env_client_id: Option<String>,
    logged_in: bool,
}

async fn status(ctx: &Context) -> Result<()> {
    let s = &ctx.settings;
    // One shape per format: the object in JSON, lines for a person; a CSV
    // of one profile's state would be neither.
    if s.format == Format::Csv {
        return Err(crate::error::Error::usage(
            "auth status prints JSON (-o json or jsonl) or text, not CSV",
        ));
    }
    let mut st = Status {
        profile: s.profile.clone(),
        ..Status::default()
    };
    match &s.credentials {
        EnvCredentials::Token(_) => st.credentials_source = Some("YLEM_TOKEN"),
        EnvCredentials::Client { id, .. } => {
            st.credentials_source = Some("YLEM_CLIENT_ID");
            st.env_client_id = Some(id.clone());
        }
        EnvCredentials::None => {}
    }
    // Without a config directory there is no profile to describe.
    let resolved = match ctx.profile() {
        Ok(r) => Some(r),
        Err(_) if s.config_dir.is_none() => None,
        Err(e) => return Err(e),
    };
    if let Some(r) = &resolved {
        (st.base_url, st.base_url_source) = match (&s.base_url, r.base_url(s.base_url.as_deref())) {
            (Some(u), _) => (Some(u.clone()), Some("flag_or_env")),
            (None, Some(u)) => (Some(u.to_string()), Some("profile")),
            (None, None) => (None, None),
        };
        st.config = Some(r.config_dir.join("config.toml").display().to_string());
        st.client_id = r.profile.as_ref().and_then(|p| p.client_id.clone());
        if st.client_id.is_some() {
            st.bound_to = r.saved_base_url().map(str::to_string);
            stored_items(&mut st, r, r.binding().as_ref()).await?;
        }
    }
    // Stored credentials for another service than the one asked for are
    // not used: say so, with the error a command would give.
    let mut refusal = None;
    if st.credentials_source.is_none()
        && st.secret_stored
        && let Some(r) = &resolved
    {
        let from = ctx.base_url_given();
        match r.check_service(s.base_url.as_deref(), from, ctx.config()?) {
            Ok(()) => st.credentials_source = Some("profile"),
            Err(e) => {
                st.refused = true;
                refusal = Some(e);
            }
        }
    }
    st.logged_in = st.credentials_source.is_some();
    let unreadable = st.store_error.clone().filter(|_| !st.logged_in);
    let text = match s.format {
        Format::Json | Format::Jsonl => format!("{}\n", json(&st)),
        _ => prose(&st, s.now.timestamp()),
    };
    ctx.write_out(text.as_bytes())?;
    if let Some(e) = refusal {
        return Err(e);
    }
    // Nothing else to authenticate with: every command would fail as this
    // one does (3), so a script's `auth status ||` sees it.
    if let Some(e) = unreadable {
        return Err(e.context(format!(
            "the stored login of profile '{}' cannot be read",
            s.profile
        )));
    }
    if !st.logged_in && st.secret_other {
        // What an interrupted login of an older version leaves: the config
        // names one service, the store holds another's secret.
        return Err(crate::error::Error::auth(format!(
            "profile '{}' is not logged in whole: its stored secret was saved for another service or client than its config names (an interrupted login); nothing was sent",
            s.profile
        ))
        .with_hint("run 'ylemctl login' again (with --base-url and --client-id of the service you mean) to repair it"));
    }
    if !st.logged_in {
        return Err(not_logged_in(&s.profile));
    }
    Ok(())
}

/// The store's side of a login: where, whether the secret is there, and the
/// cached token if it was sealed for this profile's service and client.
async fn stored_items(
    st: &mut Status,
    r: &crate::credentials::profile::Resolved,
    binding: Option<&Binding>,
) -> Result<()> {
    let store = r.store();
    st.store = Some(r.store.name().to_string());
    st.store_detail = Some(format!("{}; {}", r.store_why, store.location()));
    // A keyring that cannot be reached is a state to show with the rest,
    // not the end of the answer: the profile is still known.
    let secret = match store.get(Item::Secret).await {
        Ok(s) => s,
        Err(e) if store.kind == StoreKind::Keyring => {
            st.store_error = Some(e);
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    // A secret sealed for another service or client is there, but unusable.
    st.secret_other = match (binding, secret.as_deref()) {
        (Some(b), Some(t)) => matches!(secrets::open(b, t), Opened::Other { .. }),
        _ => false,
    };
    st.secret_stored = secret.is_some() && !st.secret_other;
    let cached = match binding {
        Some(b) => read_bound(&store, b).await?,
        None => None,
    };
    st.token_other = cached.is_none() && store.get(Item::Token).await?.is_some();
    st.token_cached = cached.is_some();
    st.token_expires_at = cached.and_then(|c| c.expires_at);
    Ok(())
}

fn rfc3339(t: i64) -> Option<String> {
    chrono::DateTime::from_timestamp(t, 0).map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

fn json(st: &Status) -> serde_json::Value {
    serde_json::json!({
        "profile": st.profile,
        "config": st.config,
        "base_url": st.base_url,
        "base_url_source": st.base_url_source,
        "client_id": st.client_id,
        "bound_to": st.bound_to,
        "base_url_refused": st.refused,
        "store": st.store,
        "store_state": store_state(st),
        // Unknown while the store cannot be read.
        "secret_stored": known(st, st.secret_stored),
        "secret_for_another_service": known(st, st.secret_other),
        "token_cached": known(st, st.token_cached),
        "token_expires_at": st.token_expires_at.and_then(rfc3339),
        "credentials_source": st.credentials_source,
        "logged_in": st.logged_in,
    })
}

/// `ok`, `keyring unreachable: WHY`, or nothing when no store was asked.
fn store_state(st: &Status) -> Option<String> {
    match (&st.store, &st.store_error) {
        (None, _) => None,
        (Some(_), None) => Some("ok".into()),
        (Some(_), Some(e)) => Some(format!("keyring unreachable: {}", e.message)),
    }
}

fn known(st: &Status, v: bool) -> serde_json::Value {
    match st.store_error {
        Some(_) => serde_json::Value::Null,
        None => v.into(),
    }
}

/// The text form: one `key: value` line each, in words.
fn prose(st: &Status, now: i64) -> String {
    let mut rows: Vec<(&str, String)> = vec![("profile", st.profile.clone())];
    if let Some(c) = &st.config {
        rows.push(("config", c.clone()));
        rows.push((
            "base_url",
            match (&st.base_url, st.base_url_source) {
                (Some(u), Some("profile")) => format!("{u} (from the profile)"),
                (Some(u), _) => format!("{u} (from --base-url or YLEM_BASE_URL)"),
                (None, _) => "none".into(),
            },
        ));
        rows.push((
            "client_id",
            st.client_id.clone().unwrap_or_else(|| "none".into()),
        ));
        if st.client_id.is_some() {
            rows.push((
                "bound_to",
                match &st.bound_to {
                    Some(u) => format!("{u} (the stored secret and tokens are sent only there)"),
                    None => {
                        "no base URL saved: the stored credentials are not sent anywhere".into()
                    }
                },
            ));
        }
        if let (Some(store), Some(detail)) = (&st.store, &st.store_detail) {
            rows.push(("store", format!("{store} ({detail})")));
            if let Some(state) = store_state(st).filter(|_| st.store_error.is_some()) {
                let unknown = "unknown: the keyring cannot be read";
                rows.push(("state", state));
                rows.push(("secret", unknown.into()));
                rows.push(("token", unknown.into()));
            }
        }
        if let (Some(_), None) = (&st.store, &st.store_error) {
            let secret = match (st.secret_stored, st.secret_other) {
                (true, _) => "stored",
                (false, true) => {
                    "saved for another service or client: never sent (run 'ylemctl login')"
                }
                (false, false) => "not stored (logged out)",
            };
            rows.push(("secret", secret.into()));
            let token = if st.token_other {
                "cached for another service or client: never sent (a new one is fetched when needed)"
                    .into()
            } else {
                describe(st.token_cached, st.token_expires_at, now)
            };
            rows.push(("token", token));
        }
    }
    let in_use = match (st.credentials_source, &st.env_client_id) {
        (Some("YLEM_TOKEN"), _) => "YLEM_TOKEN from the environment (used as is)".into(),
        (Some("YLEM_CLIENT_ID"), Some(id)) => {
            format!("YLEM_CLIENT_ID ({id}) and YLEM_CLIENT_SECRET from the environment")
        }
        (Some(_), _) => format!("the stored login of profile '{}'", st.profile),
        (None, _) if st.refused => format!(
            "nothing: the stored login is for {}, not {}",
            st.bound_to.as_deref().unwrap_or("?"),
            st.base_url.as_deref().unwrap_or("?")
        ),
        (None, _) if st.store_error.is_some() => {
            "nothing: the stored login cannot be read (the keyring is unreachable)".into()
        }
        (None, _) => "nothing: not logged in".into(),
    };
    rows.push(("in_use", in_use));
    rows.iter()
        .map(|(k, v)| format!("{:<10} {v}\n", format!("{k}:")))
        .collect()
}

/// The cached token's expiry in words, never the token.
fn describe(cached: bool, expires_at: Option<i64>, now: i64) -> String {
    if !cached {
        return "none cached (one is fetched when needed)".into();
    }
    match expires_at {
        None => "cached, no expiry given".into(),
        Some(e) => {
            let at = rfc3339(e).unwrap_or_default();
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
