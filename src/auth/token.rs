//! A token with its expiry (`CachedToken`, as a store caches it) and the
//! in-process memo every renewable token source keeps (`Memo`), keyed by
//! the service and client the token was fetched for.

use std::future::Future;
use std::time::Duration;

use tokio::sync::Mutex;

use super::binding::Binding;
use super::oauth::TokenResponse;
use crate::error::Result;
use crate::secret::Secret;

/// Replace a token this long before it expires, so it cannot expire in flight.
pub const EXPIRY_MARGIN: Duration = Duration::from_secs(60);

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

/// The token this process last got, handed out while it stays usable and
/// only for the service and client it was fetched for.
pub struct Memo {
    /// How long a token must still be valid to be handed out.
    pub margin: Duration,
    cached: Mutex<Option<(Binding, CachedToken)>>,
}

impl Memo {
    pub fn new(margin: Duration) -> Self {
        Memo {
            margin,
            cached: Mutex::new(None),
        }
    }

    /// The memo's token if usable and fetched under `key`, else the one
    /// `renew` gets (kept for next time, under `key`). `rejected` is a token
    /// the server answered 401 to.
    pub async fn token<F, Fut>(
        &self,
        key: &Binding,
        rejected: Option<&Secret>,
        renew: F,
    ) -> Result<Secret>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<CachedToken>>,
    {
        // Holding the lock across the renewal makes concurrent requests wait
        // for one token instead of each fetching its own.
        let mut cached = self.cached.lock().await;
        if let Some((_, c)) = cached
            .as_ref()
            .filter(|(k, c)| k == key && c.usable(self.margin, rejected))
        {
            return Ok(c.access.clone());
        }
        let fresh = renew().await?;
        let token = fresh.access.clone();
        *cached = Some((key.clone(), fresh));
        Ok(token)
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

    #[tokio::test]
    async fn the_memo_renews_only_an_unusable_token() {
        let memo = Memo::new(EXPIRY_MARGIN);
        let token = |s: &str| CachedToken {
            access: Secret::new(s),
            refresh: None,
            expires_at: None,
        };
        let key = Binding::new("http://127.0.0.1:1", "client-1");
        let a = memo
            .token(&key, None, || async { Ok(token("tok-aaaa1")) })
            .await;
        assert_eq!(a.unwrap(), Secret::new("tok-aaaa1"));
        let again = || async { Err(crate::error::Error::internal("renewed a usable token")) };
        let b = memo.token(&key, None, again).await;
        assert_eq!(b.unwrap(), Secret::new("tok-aaaa1"));
        let rejected = Secret::new("tok-aaaa1");
        let c = memo
            .token(&key, Some(&rejected), || async { Ok(token("tok-bbbb2")) })
            .await;
        assert_eq!(c.unwrap(), Secret::new("tok-bbbb2"));
    }

    #[tokio::test]
    async fn the_memo_never_hands_a_token_to_another_service_or_client() {
        let memo = Memo::new(EXPIRY_MARGIN);
        let token = |s: &str| CachedToken {
            access: Secret::new(s),
            refresh: None,
            expires_at: None,
        };
        let a = Binding::new("http://127.0.0.1:1", "client-1");
        let t = memo.token(&a, None, || async { Ok(token("tok-aaaa1")) });
        assert_eq!(t.await.unwrap(), Secret::new("tok-aaaa1"));
        for other in [
            Binding::new("http://localhost:1", "client-1"),
            Binding::new("http://127.0.0.1:1", "client-2"),
        ] {
            let t = memo.token(&other, None, || async { Ok(token("tok-cccc3")) });
            assert_eq!(t.await.unwrap(), Secret::new("tok-cccc3"));
        }
        // The same service written differently is the same key.
        let same = Binding::new("HTTP://127.0.0.1:1/", "client-2");
        let again = || async { Err(crate::error::Error::internal("renewed a usable token")) };
        assert_eq!(
            memo.token(&same, None, again).await.unwrap(),
            Secret::new("tok-cccc3")
        );
    }
}
