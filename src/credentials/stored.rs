//! `StoredProfile`: tokens for a logged-in profile, cached in its credential
//! store with their expiry and shared between processes.
//!
//! A cached token is reused while it has more than its renewal margin left
//! (the smaller of 60 s and half its lifetime); then the
//! refresh token is tried, then the stored client secret. Renewal happens
//! under an exclusive `flock` on a lock file in the config directory, and the
//! cache is read again once the lock is held, so cron jobs that start
//! together make one token request between them, not one each.
//!
//! The profile is bound to the service it logged in to (`Binding`): its
//! tokens are cached sealed with that service and its client id, a cache
//! sealed otherwise (or not at all, as before tokens were bound) is never
//! used nor its refresh token sent, and no token or secret goes to a
//! transport for another service.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::Duration;

use ylem_client::auth::binding::{Binding, service_of};
use ylem_client::auth::oauth;
use ylem_client::auth::token::{CachedToken, Memo};
use ylem_client::auth::token_params::TokenParams;
use ylem_client::auth::{TokenFuture, TokenProvider};
use ylem_client::{Secret, Transport};

use super::secrets::{self, Opened};
use super::store::{Item, Store, StoreKind};
use crate::error::{Error, Result};
use crate::ui::Ui;

/// How long to wait for another process's renewal before renewing anyway.
const LOCK_WAIT: Duration = Duration::from_secs(90);

pub struct StoredProfile {
    client_id: String,
    /// The service the profile logged in to, with its client id.
    binding: Binding,
    store: Store,
    lock_path: PathBuf,
    /// Says at `-v` why a refresh or a cache write failed.
    ui: Ui,
    memo: Memo,
    /// Where the profile's token endpoint reads its parameters.
    params: TokenParams,
}

impl StoredProfile {
    /// `base_url`: the service the profile logged in to, the only one its
    /// credentials go to. `min_ttl`: hand out only tokens valid at least this
    /// long (`auth token`). `token_query`: the profile remembers that its
    /// token endpoint reads only the query.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        client_id: String,
        base_url: &str,
        store: Store,
        config_dir: &Path,
        profile: &str,
        min_ttl: Duration,
        ui: Ui,
        token_query: bool,
    ) -> Self {
        StoredProfile {
            params: super::token_params::for_profile(ui, config_dir, profile, token_query),
            binding: Binding::new(base_url, &client_id),
            client_id,
            store,
            lock_path: lock_path(config_dir, profile),
            ui,
            memo: Memo::new(min_ttl),
        }
    }

    /// The memo's token, else the store's cached one, else a renewed one.
    /// The memo makes concurrent requests of one command wait for one
    /// renewal; the file lock does the same across processes.
    pub async fn token(&self, t: &Transport, rejected: Option<&Secret>) -> Result<Secret> {
        // The context refuses another base URL before building anything;
        // this keeps the rule where the credentials are, whoever calls.
        if service_of(t.base_url()).as_deref() != Some(self.binding.service()) {
            return Err(Error::auth(format!(
                "the stored credentials are for {}, not {}: nothing was sent",
                self.binding.service(),
                t.base_url()
            )));
        }
        let renew = || async {
            self.read_or_renew(t, rejected)
                .await
                .map_err(ylem_client::Error::from)
        };
        Ok(self.memo.token(&self.binding, rejected, renew).await?)
    }

    fn usable(&self, c: &CachedToken, rejected: Option<&Secret>) -> bool {
        c.usable(self.memo.margin, rejected)
    }

    /// The store's cached token if usable, else a renewed one, cached there
    /// for the next process.
    async fn read_or_renew(&self, t: &Transport, rejected: Option<&Secret>) -> Result<CachedToken> {
        if let Some(c) = self.read_cache().await?
            && self.usable(&c, rejected)
        {
            return Ok(c);
        }
        let _lock = lock(&self.lock_path).await;
        let cached = self.read_cache().await?;
        if let Some(c) = cached.as_ref().filter(|c| self.usable(c, rejected)) {
            return Ok(c.clone());
        }
        let fresh = self.renew(t, cached, rejected).await?;
        // A cache that cannot be written costs a token request next
        // time, not this command.
        let sealed = self.binding.seal(&fresh.encode());
        if let Err(e) = self.store.set(Item::Token, sealed).await {
            self.ui.verbose(&format!("cannot cache the token: {e}"));
        }
        Ok(fresh)
    }

    /// The cached token, if it was sealed for this profile's service and
    /// client: any other is treated as no cache at all.
    async fn read_cache(&self) -> Result<Option<CachedToken>> {
        read_bound(&self.store, &self.binding).await
    }

    async fn renew(
        &self,
        t: &Transport,
        cached: Option<CachedToken>,
        rejected: Option<&Secret>,
    ) -> Result<CachedToken> {
        // A rejected token's refresh token is not worth a request: the
        // server issues them in pairs and they die together.
        if let Some(refresh) = cached
            .filter(|c| Some(&c.access) != rejected)
            .and_then(|c| c.refresh)
        {
            match oauth::refresh_token(t, &self.client_id, &refresh, &self.params).await {
                Ok(r) => return Ok(CachedToken::from_response(&r)),
                // In the CLI's words (a time limit named by its flag), as
                // every other error it shows.
                Err(e) => self.ui.verbose(&format!(
                    "refresh failed ({}); using the client secret",
                    crate::error::Error::from(e)
                )),
            }
        }
        let secret = self.secret_pruned(true).await?;
        let r = oauth::fetch_token(t, &self.client_id, &secret, &self.params)
            .await
            .map_err(|e| {
                let e = Error::from(e);
                if e.http_status == Some(401) {
                    e.with_hint("the stored client secret was rejected: run 'ylemctl login' again")
                } else {
                    e
                }
            })?;
        Ok(CachedToken::from_response(&r))
    }
}

impl StoredProfile {
    /// A token fetched now with the stored secret, neither cached nor
    /// taken from the cache (`doctor`'s proof that the login works).
    pub async fn fresh(&self, t: &Transport) -> Result<oauth::TokenResponse> {
        let secret = self.secret().await?;
        Ok(oauth::fetch_token(t, &self.client_id, &secret, &self.params).await?)
    }

    /// Whether its token endpoint takes the parameters only in the URL
    /// (remembered, or learnt by a request above).
    pub fn query_form(&self) -> bool {
        self.params.query_only()
    }

    /// The refresh grant with `refresh`, its answer not cached.
    pub async fn refresh(&self, t: &Transport, refresh: &Secret) -> Result<oauth::TokenResponse> {
        Ok(oauth::refresh_token(t, &self.client_id, refresh, &self.params).await?)
    }
}

impl StoredProfile {
    /// The stored client secret, if it was saved for this profile's service
    /// and client. The config this process read may be older than the
    /// store: a login that moved the profile meanwhile left another
    /// service's secret there, which must not go to this one.
    async fn secret(&self) -> Result<Secret> {
        self.secret_pruned(false).await
    }

    /// The stored secret; `prune` (under the profile's lock): the other
    /// login a killed login left beside it is dropped.
    async fn secret_pruned(&self, prune: bool) -> Result<Secret> {
        let text = self.store.get(Item::Secret).await?.ok_or_else(|| {
            Error::auth("this profile has no stored client secret (logged out?)")
                .with_hint("run 'ylemctl login'")
        })?;
        match secrets::open(&self.binding, &text) {
            Opened::Bound(s, others) => {
                if others && prune {
                    self.keep(&crate::redact::hold(self.binding.seal_secret(&s)), "prune the stored secret").await;
                }
                Ok(s)
            }
            Opened::Unsealed(s) => {
                self.keep(&crate::redact::hold(self.binding.seal_secret(&s)), "seal the stored secret").await;
                Ok(s)
            }
            Opened::Other { service, client } => Err(Error::auth(format!(
                "the stored client secret was saved for {service} (client {client}), but the profile's config names {} (client {}): nothing was sent",
                self.binding.service(),
                self.client_id
            ))
            .with_hint("a login was interrupted, or moved the profile while this ran: run 'ylemctl login' (with --base-url and --client-id of the service you mean) to log the profile in whole again")),
            Opened::Corrupt => Err(Error::auth(format!(
                "the stored client secret {} is damaged (not a secret as ylemctl saves it): it was not sent",
                self.where_secret()
            ))
            .with_hint("run 'ylemctl login' again to save the secret anew")),
        }
    }

    /// Write the secret back (sealed, or alone), best effort.
    async fn keep(&self, sealed: &Secret, what: &str) {
        if let Err(e) = self
            .store
            .set(Item::Secret, sealed.expose().to_string())
            .await
        {
            self.ui.verbose(&format!("cannot {what}: {e}"));
        }
    }

    /// The secret's file, or the keyring entry, for an error.
    fn where_secret(&self) -> String {
        match self.store.kind {
            StoreKind::File => format!("in {}", self.store.file_of(Item::Secret).display()),
            StoreKind::Keyring => format!("in the {}", self.store.location()),
        }
    }
}

/// The client asks a stored profile for its tokens; its errors go through
/// the client whole (hints and all).
impl TokenProvider for StoredProfile {
    fn token<'a>(&'a self, t: &'a Transport, rejected: Option<&'a Secret>) -> TokenFuture<'a> {
        Box::pin(async move {
            StoredProfile::token(self, t, rejected)
                .await
                .map_err(ylem_client::Error::from)
        })
    }

    fn granted(&self) -> Option<String> {
        self.memo.granted()
    }
}

/// The token cached in `store` under `binding`, if any (`auth status` and
/// `auth token` read it too).
pub async fn read_bound(store: &Store, binding: &Binding) -> Result<Option<CachedToken>> {
    Ok(store
        .get(Item::Token)
        .await?
        .filter(|t| binding.opens(t))
        .and_then(|t| CachedToken::decode(&t))
        .map(crate::redact::hold_token))
}

fn lock_path(config_dir: &Path, profile: &str) -> PathBuf {
    config_dir.join(format!(".{profile}.lock"))
}

/// The profile's renewal lock (`login` takes it to write new credentials).
pub async fn lock_profile(config_dir: &Path, profile: &str) -> Option<File> {
    lock(&lock_path(config_dir, profile)).await
}

/// Take the exclusive lock on `path` (released when the file is dropped).
/// `None` if it cannot be had in time: renewing without it only costs an
/// extra token request.
async fn lock(path: &Path) -> Option<File> {
    let path = path.to_path_buf();
    let task = tokio::task::spawn_blocking(move || -> std::io::Result<File> {
        if let Some(dir) = path.parent() {
            crate::config::ensure_private_dir(dir).map_err(std::io::Error::other)?;
        }
        let mut o = OpenOptions::new();
        o.create(true).truncate(false).write(true);
        // Private, as the config's lock is.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
        let f = o.open(&path)?;
        f.lock()?;
        Ok(f)
    });
    match tokio::time::timeout(LOCK_WAIT, task).await {
        Ok(Ok(Ok(f))) => Some(f),
        _ => None,
    }
}
