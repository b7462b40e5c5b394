//! `StoredProfile`: tokens for a logged-in profile, cached in its credential
//! store with their expiry and shared between processes.
//!
//! A cached token is reused while it has more than the margin left; then the
//! refresh token is tried, then the stored client secret. Renewal happens
//! under an exclusive `flock` on a lock file in the config directory, and the
//! cache is read again once the lock is held, so cron jobs that start
//! together make one token request between them, not one each.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::Mutex;

use super::store::{Item, Store};
use super::{EXPIRY_MARGIN, TokenSource};
use crate::api::{self, Transport, models::TokenResponse};
use crate::error::{Error, Result};
use crate::secret::Secret;

/// How long to wait for another process's renewal before renewing anyway.
const LOCK_WAIT: Duration = Duration::from_secs(90);

/// A token as cached in the store.
#[derive(Debug, Clone)]
pub struct CachedToken {
    pub access: Secret,
    pub refresh: Option<Secret>,
    /// Unix seconds; `None` when the server gave no lifetime.
    pub expires_at: Option<i64>,
}

impl CachedToken {
    pub fn from_response(r: &TokenResponse) -> Self {
        CachedToken {
            access: r.access_token.clone(),
            refresh: r.refresh_token.clone(),
            // `expires_in` is already positive and at most a year.
            expires_at: r.expires_in.map(|s| chrono::Utc::now().timestamp() + s),
        }
    }

    pub fn encode(&self) -> String {
        serde_json::json!({
            "access_token": self.access.expose(),
            "refresh_token": self.refresh.as_ref().map(Secret::expose),
            "expires_at": self.expires_at,
        })
        .to_string()
    }

    /// `None` for anything unreadable: a corrupt cache just means a new token.
    pub fn decode(text: &str) -> Option<Self> {
        #[derive(serde::Deserialize)]
        struct Raw {
            access_token: Secret,
            refresh_token: Option<Secret>,
            expires_at: Option<i64>,
        }
        let r: Raw = serde_json::from_str(text).ok()?;
        Some(CachedToken {
            access: r.access_token,
            refresh: r.refresh_token,
            expires_at: r.expires_at,
        })
    }

    /// Valid for more than `margin` from now.
    pub fn fresh(&self, margin: Duration) -> bool {
        let now = chrono::Utc::now().timestamp();
        self.expires_at
            .is_none_or(|e| now + (margin.as_secs() as i64) < e)
    }

    /// Fresh, and not the token the server just answered 401 to.
    pub fn usable(&self, margin: Duration, rejected: Option<&Secret>) -> bool {
        self.fresh(margin) && Some(&self.access) != rejected
    }
}

pub struct StoredProfile {
    client_id: String,
    store: Store,
    lock_path: PathBuf,
    margin: Duration,
    verbose: bool,
    memo: Mutex<Option<CachedToken>>,
}

impl StoredProfile {
    /// `min_ttl`: hand out only tokens valid at least this long (`auth token`).
    pub fn new(
        client_id: String,
        store: Store,
        config_dir: &Path,
        profile: &str,
        min_ttl: Duration,
        verbose: bool,
    ) -> Self {
        StoredProfile {
            client_id,
            store,
            lock_path: config_dir.join(format!(".{profile}.lock")),
            margin: min_ttl.max(EXPIRY_MARGIN),
            verbose,
            memo: Mutex::new(None),
        }
    }

    fn usable(&self, c: &CachedToken, rejected: Option<&Secret>) -> bool {
        c.usable(self.margin, rejected)
    }

    async fn read_cache(&self) -> Result<Option<CachedToken>> {
        Ok(self
            .store
            .get(Item::Token)
            .await?
            .and_then(|t| CachedToken::decode(&t)))
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
            match api::refresh_token(t, &self.client_id, &refresh).await {
                Ok(r) => return Ok(CachedToken::from_response(&r)),
                Err(e) if self.verbose => {
                    eprintln!("refresh failed ({e}); using the client secret")
                }
                Err(_) => {}
            }
        }
        let secret = self.store.get(Item::Secret).await?.ok_or_else(|| {
            Error::auth("this profile has no stored client secret (logged out?)")
                .with_hint("run 'ylemctl login'")
        })?;
        let r = api::fetch_token(t, &self.client_id, &Secret::new(secret))
            .await
            .map_err(|e| {
                if e.http_status == Some(401) {
                    e.with_hint("the stored client secret was rejected: run 'ylemctl login' again")
                } else {
                    e
                }
            })?;
        Ok(CachedToken::from_response(&r))
    }
}

impl TokenSource for StoredProfile {
    fn token<'a>(
        &'a self,
        t: &'a Transport,
        rejected: Option<&'a Secret>,
    ) -> BoxFuture<'a, Result<Secret>> {
        Box::pin(async move {
            // The in-process mutex makes concurrent requests of one command
            // wait for one renewal; the file lock does the same across processes.
            let mut memo = self.memo.lock().await;
            if let Some(c) = memo.as_ref().filter(|c| self.usable(c, rejected)) {
                return Ok(c.access.clone());
            }
            if let Some(c) = self.read_cache().await?
                && self.usable(&c, rejected)
            {
                let token = c.access.clone();
                *memo = Some(c);
                return Ok(token);
            }
            let _lock = lock(&self.lock_path).await;
            let cached = self.read_cache().await?;
            if let Some(c) = cached.as_ref().filter(|c| self.usable(c, rejected)) {
                let token = c.access.clone();
                *memo = cached;
                return Ok(token);
            }
            let fresh = self.renew(t, cached, rejected).await?;
            // A cache that cannot be written costs a token request next
            // time, not this command.
            if let Err(e) = self.store.set(Item::Token, fresh.encode()).await
                && self.verbose
            {
                eprintln!("cannot cache the token: {e}");
            }
            let token = fresh.access.clone();
            *memo = Some(fresh);
            Ok(token)
        })
    }

    fn can_renew(&self) -> bool {
        true
    }
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
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        f.lock()?;
        Ok(f)
    });
    match tokio::time::timeout(LOCK_WAIT, task).await {
        Ok(Ok(Ok(f))) => Some(f),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_round_trips_and_corrupt_is_none() {
        let c = CachedToken {
            access: Secret::new("acc-123456"),
            refresh: Some(Secret::new("ref-123456")),
            expires_at: Some(chrono::Utc::now().timestamp() + 3600),
        };
        let d = CachedToken::decode(&c.encode()).unwrap();
        assert_eq!(d.access, c.access);
        assert_eq!(d.refresh, c.refresh);
        assert!(d.fresh(EXPIRY_MARGIN));
        assert!(!d.fresh(Duration::from_secs(7200)));
        assert!(CachedToken::decode("{\"access_tok").is_none());
    }
}
