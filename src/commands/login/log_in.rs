//! `ylemctl login` and `ylemctl logout`: save a checked OAuth client in a
//! profile, and remove it again.
//!
//! `login` fetches a token before it saves anything, writes so that a
//! process killed at any point leaves the old login or the new one whole
//! (`Saving::save`), and a save that fails half-way puts back what was
//! there.

use std::io::{BufRead, IsTerminal, Read};

use crate::cli::StoreChoice;
use crate::commands::kit::conduct::Conduct;
use crate::commands::kit::wing::{self, Entry};
use crate::commands::login::args::{LoginArgs, LogoutArgs};
use crate::config::{ConfigFile, Profile, check_profile_name};
use crate::context::Context;
use crate::credentials::store::{self, Item, Store, StoreKind};
use crate::credentials::{binding, profile, secrets, stored, token_params};
use crate::error::{Error, Result};
use crate::settings::{Settings, normalize_base_url};
use crate::ui::Ui;
use ylem_client::Secret;
use ylem_client::auth::binding::{Binding, same_service};
use ylem_client::auth::oauth;
use ylem_client::auth::token::CachedToken;

/// `login` makes the profile it logs in to; `logout` acts for one.
pub const CONDUCT: Conduct = Conduct::local("login");
pub const LOGOUT_CONDUCT: Conduct = Conduct::client("logout").no_json();

pub const COMMAND: Entry = Entry {
    command: <LoginArgs as clap::CommandFactory>::command,
    declared: CONDUCT,
    conduct: |_| CONDUCT,
    run: |m, ctx, _| {
        let args: LoginArgs = wing::args(m);
        wing::done(async move { run(&args, ctx).await })
    },
};

pub const LOGOUT: Entry = Entry {
    command: <LogoutArgs as clap::CommandFactory>::command,
    declared: LOGOUT_CONDUCT,
    conduct: |_| LOGOUT_CONDUCT,
    run: |_, ctx, _| wing::done(logout(ctx)),
};

pub async fn run(args: &LoginArgs, ctx: &Context) -> Result<()> {
    let s = &ctx.settings;
    check_profile_name(&s.profile)?;
    let dir = profile::config_dir(s.config_dir.as_deref())?;
    // A config file we cannot read stops the login before anything is asked.
    let old = match ctx.config()? {
        Some(c) => c.profile(&s.profile)?.unwrap_or_default(),
        None => Profile::default(),
    };
    // With the secret on stdin there is no one to ask the other questions.
    let ask = !args.client_secret_stdin && std::io::stdin().is_terminal();

    let base_url = match s.base_url.clone().or(old.base_url.clone()) {
        Some(u) => u,
        None => normalize_base_url(&prompt(
            &ctx.ui,
            "Base URL (e.g. https://api.datamin.io)",
            ask,
            "--base-url",
        )?)?,
    };
    // A stale YLEM_BASE_URL must not receive the secret of the service the
    // profile logged in to; moving a profile takes an explicit --base-url.
    if s.base_url_from_env
        && let Some(was) = old.base_url.as_deref()
        && !same_service(was, &base_url)
    {
        return Err(binding::login_elsewhere(&s.profile, was, &base_url));
    }
    let client_id = match args.client_id.clone().or(old.client_id.clone()) {
        Some(c) => c.trim().to_string(),
        None => prompt(&ctx.ui, "Client id", ask, "--client-id")?,
    };
    let secret = read_secret(args.client_secret_stdin, ask)?;

    let t = ctx.transport_to(Some(base_url.clone()))?;
    // The form the server reads is learnt here and kept with the profile.
    let params = token_params::warned(ctx.ui);
    let resp = oauth::fetch_token(&t, &client_id, &secret, &params)
        .await
        .map_err(|e| e.context("login failed, nothing was saved"))?;
    let token = CachedToken::from_response(&resp);

    let kind = choose_store(args.store, s, &ctx.ui).await?;
    let store = Store::new(kind, &dir, &s.profile);
    let new = Profile {
        aggregate_date_time: old.aggregate_date_time && old.base_url.as_deref() == Some(&base_url),
        base_url: Some(base_url.clone()),
        client_id: Some(client_id.clone()),
        store: Some(kind.name().to_string()),
    };
    // The cached token is sealed with the service and client it is for, so
    // that no later command sends it (or its refresh token) anywhere else.
    // The secret too: a command that read the config before this login
    // must not send this service's secret to the one it had read.
    let binding = Binding::new(&base_url, &client_id);
    let (sealed, sealed_secret) = (
        binding.seal(&token.encode()),
        crate::redact::hold(binding.seal_secret(&secret)),
    );
    // Under the profile's lock: a renewal in flight finishes first, with
    // the secret it was started with.
    let _lock = stored::lock_profile(&dir, &s.profile).await;
    // The old login is kept beside the new one until the config names the
    // new one (`secrets`): only when both are in the same store.
    let old_binding = match (&old.base_url, &old.client_id, old.store.as_deref()) {
        (Some(u), Some(c), Some(k)) if StoreKind::parse(k) == Some(kind) => {
            Some(Binding::new(u, c))
        }
        _ => None,
    };
    let saving = Saving {
        store: &store,
        secret: &sealed_secret,
        token: &sealed,
        config_dir: &dir,
        name: &s.profile,
        profile: &new,
        query: params.query_only(),
    };
    saving.save(old_binding.as_ref()).await?;
    // The old store's copy would be a stale secret nobody looks after.
    if let Some(k) = old.store.as_deref().and_then(StoreKind::parse)
        && k != kind
    {
        let old_store = Store::new(k, &dir, &s.profile);
        let _ = old_store.delete(Item::Secret).await;
        let _ = old_store.delete(Item::Token).await;
    }
    // Moving a profile to another service is allowed (the user typed the
    // secret for it), but worth saying: the old one is no longer reached.
    let moved = match old.base_url.as_deref() {
        Some(was) if !same_service(was, &base_url) => format!("; it was logged in to {was}"),
        _ => String::new(),
    };
    ctx.note(&format!(
        "Logged in to {base_url} as client {client_id} (profile '{}', secret in the {} store: {}){moved}",
        s.profile,
        kind.name(),
        store.location()
    ));
    Ok(())
}

/// Ask on the terminal, or say which flag would have answered.
fn prompt(ui: &Ui, question: &str, ask: bool, flag: &str) -> Result<String> {
    if !ask {
        return Err(Error::usage(format!(
            "{flag} is needed: there is no terminal to ask on"
        )));
    }
    ui.prompt(question)?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let v = line.trim().to_string();
    if v.is_empty() {
        return Err(Error::usage(format!(
            "no {} given",
            question.to_lowercase()
        )));
    }
    Ok(v)
}

/// The secret from stdin (`--client-secret-stdin`) or a prompt without echo;
/// never from the command line, where `ps` and shell history would see it.
fn read_secret(from_stdin: bool, ask: bool) -> Result<Secret> {
    // `--client-secret-stdin` typed at a terminal would echo the secret:
    // read it without echo instead.
    let raw = if from_stdin && std::io::stdin().is_terminal() {
        rpassword::prompt_password("Client secret: ")
            .map_err(|e| Error::usage(format!("cannot read the secret: {e}")))?
    } else if from_stdin {
        // A secret is 64 characters: a bound keeps `--client-secret-stdin <
        // /dev/zero` from growing without end.
        let mut s = String::new();
        std::io::stdin().take(64 << 10).read_to_string(&mut s)?;
        s
    } else if ask {
        rpassword::prompt_password("Client secret: ")
            .map_err(|e| Error::usage(format!("cannot read the secret: {e}")))?
    } else {
        return Err(
            Error::usage("no client secret: there is no terminal to ask on")
                .with_hint("pipe it in: ... | ylemctl login --client-secret-stdin"),
        );
    };
    let v = raw.trim();
    if v.is_empty() {
        return Err(Error::usage("the client secret is empty"));
    }
    Ok(crate::redact::secret(v))
}

/// `--store`, else `YLEM_CREDENTIAL_STORE`, else `file` under `CI`, else auto:
/// the keyring if it can store a value within the time limit, else the file
/// with one warning.
async fn choose_store(flag: Option<StoreChoice>, s: &Settings, ui: &Ui) -> Result<StoreKind> {
    let choice = match flag.or(s.store_override) {
        Some(c) => c,
        None if s.ci => StoreChoice::File,
        None => StoreChoice::Auto,
    };
    match choice {
        StoreChoice::File => Ok(StoreKind::File),
        StoreChoice::Keyring => {
            store::probe_keyring().await?;
            Ok(StoreKind::Keyring)
        }
        StoreChoice::Auto => match store::probe_keyring().await {
            Ok(()) => Ok(StoreKind::Keyring),
            Err(e) => {
                ui.warn(&format!(
                    "{e}; keeping the credentials in a file of mode 0600 instead"
                ));
                Ok(StoreKind::File)
            }
        },
    }
}

/// What a login writes: the secret (sealed), the token (sealed), the
/// profile and its token form, in that order.
struct Saving<'a> {
    store: &'a Store,
    secret: &'a Secret,
    token: &'a str,
    config_dir: &'a std::path::Path,
    name: &'a str,
    profile: &'a Profile,
    query: bool,
}

impl Saving<'_> {
    /// Written so that every prefix leaves a whole login (killed at any
    /// point, the old one or the new one works): the secret with the old
    /// login's kept beside it (`secrets::pending`), the token (a token the
    /// old config does not open is no cache to it: it renews with its own
    /// secret), then the config in one write, naming the new login; last,
    /// the new secret alone. On failure the store items are put back.
    async fn save(&self, old: Option<&Binding>) -> Result<()> {
        let store = self.store;
        let before = (
            store.get(Item::Secret).await.ok().flatten(),
            store.get(Item::Token).await.ok().flatten(),
        );
        let kept = match (old, before.0.as_deref()) {
            (Some(b), Some(t)) => match secrets::open(b, t) {
                secrets::Opened::Bound(s, _) | secrets::Opened::Unsealed(s) => {
                    Some(crate::redact::hold(b.seal_secret(&s)))
                }
                _ => None,
            },
            _ => None,
        };
        let pending = secrets::pending(self.secret, kept.as_ref().map(|k| k.expose()));
        let attempt = async {
            store
                .set(Item::Secret, pending.expose().to_string())
                .await?;
            store.set(Item::Token, self.token.to_string()).await?;
            // Re-read under the config lock: another process may have saved
            // another profile or an alias since this login began.
            ConfigFile::update(self.config_dir, |c| {
                c.set_profile(self.name, self.profile);
                token_params::set_in(c, self.name, self.query);
                Ok((true, ()))
            })
        };
        if let Err(e) = attempt.await {
            for (item, old) in [(Item::Secret, before.0), (Item::Token, before.1)] {
                let _ = match old {
                    Some(v) => store.set(item, v).await,
                    None => store.delete(item).await,
                };
            }
            return Err(e.context("login not saved"));
        }
        // Best effort: a renewal prunes the old secret otherwise.
        if kept.is_some() {
            let _ = store
                .set(Item::Secret, self.secret.expose().to_string())
                .await;
        }
        Ok(())
    }
}

pub async fn logout(ctx: &Context) -> Result<()> {
    let r = ctx.profile()?;
    let store = r.store();
    let had = store.get(Item::Secret).await?.is_some();
    // Under the profile's lock: no renewal caches a token after this.
    let _lock = stored::lock_profile(&r.config_dir, &r.name).await;
    // The secret goes last, so a logout killed half-way leaves the login
    // working (it renews its token); every file that may hold it goes:
    // the file store's copy whatever store the profile names (a killed
    // move between stores leaves one), and killed writes' temp files.
    store.delete(Item::Token).await?;
    let files = Store::new(StoreKind::File, &r.config_dir, &r.name);
    for item in [Item::Token, Item::Secret] {
        Store::delete_temps(&r.config_dir, &r.name, item)?;
        if store.kind != StoreKind::File {
            files.delete(item).await?;
        }
    }
    store.delete(Item::Secret).await?;
    if had {
        ctx.note(&format!(
            "Logged out: removed the secret and token of profile '{}' from the {} store (its base URL and client id stay in {})",
            r.name,
            r.store.name(),
            r.config_dir.join("config.toml").display()
        ));
    } else {
        ctx.note(&format!("profile '{}' was not logged in", r.name));
    }
    Ok(())
}
