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

/// Replace a token this long before it expires, so it cannot expire in
/// flight; a short-lived token at half its lifetime instead (`renewal`).
pub(crate) const EXPIRY_MARGIN: Duration = Duration::from_secs(60);

/// A token as cached in the store.
#[derive(Debug, Clone)]
pub struct CachedToken {
    /// The bearer token.
    pub access: Secret,
    /// Its refresh token, if the server gave one.
    pub refresh: Option<Secret>,
    /// Unix seconds; `None` when the server gave no lifetime.
    pub expires_at: Option<i64>,
    /// The lifetime the server gave (`expires_in`, seconds); `None` when it
    /// gave none, or for a cache written before lifetimes were kept.
    pub lifetime: Option<i64>,
    /// The scopes the token response said it grants (`scope`, as sent);
    /// `None` when it named none, or for a cache written before they were
    /// kept. Not a secret: it names what a refusal is about.
    pub scope: Option<String>,
}

impl CachedToken {
    /// A token endpoint's answer, its expiry counted from now.
    pub fn from_response(r: &TokenResponse) -> Self {
        CachedToken {
            access: r.access_token.clone(),
            refresh: r.refresh_token.clone(),
            // `expires_in` is already positive and at most a year.
            expires_at: r.expires_in.map(|s| chrono::Utc::now().timestamp() + s),
            lifetime: r.expires_in,
            scope: r.scope.clone(),
        }
    }

    /// As JSON, the form a store keeps.
    pub fn encode(&self) -> String {
        serde_json::json!({
            "access_token": self.access.expose(),
            "refresh_token": self.refresh.as_ref().map(Secret::expose),
            "expires_at": self.expires_at,
            "lifetime": self.lifetime,
            "scope": self.scope,
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
            #[serde(default)]
            lifetime: Option<i64>,
            #[serde(default)]
            scope: Option<String>,
        }
        let r: Raw = serde_json::from_str(text).ok()?;
        Some(CachedToken {
            access: r.access_token,
            refresh: r.refresh_token,
            expires_at: r.expires_at,
            lifetime: r.lifetime,
            scope: r.scope,
        })
    }

    /// How long before its expiry this token is replaced: the smaller of
    /// 60 s and half its lifetime, so a 60-second token serves 30 s rather
    /// than being replaced before every request.
    pub fn renewal(&self) -> Duration {
        match self.lifetime {
            Some(l) => EXPIRY_MARGIN.min(Duration::from_secs((l.max(0) / 2) as u64)),
            None => EXPIRY_MARGIN,
        }
    }

    /// Valid for more than its renewal margin and `min_ttl` from now.
    pub fn fresh(&self, min_ttl: Duration) -> bool {
        let now = chrono::Utc::now().timestamp();
        let margin = min_ttl.max(self.renewal()).as_secs() as i64;
        self.expires_at.is_none_or(|e| now + margin < e)
    }

    /// Fresh, and not the token the server just answered 401 to.
    pub fn usable(&self, min_ttl: Duration, rejected: Option<&Secret>) -> bool {
        self.fresh(min_ttl) && Some(&self.access) != rejected
    }
}

/// The token this process last got, handed out while it stays usable and
/// only for the service and client it was fetched for.
pub struct Memo {
    /// How long a token must still be valid to be handed out, beyond its
    /// renewal margin (zero: only the margin).
    pub margin: Duration,
    cached: Mutex<Option<(Binding, CachedToken)>>,
}

impl Memo {
    /// Empty, handing out tokens valid at least `margin` beyond their
    /// renewal margin.
    pub fn new(margin: Duration) -> Self {
        Memo {
            margin,
            cached: Mutex::new(None),
        }
    }

    /// The scopes the memo's token grants, as its token response said
    /// (`None`: not known, or the memo is busy renewing it).
    pub fn granted(&self) -> Option<String> {
        self.cached.try_lock().ok()?.as_ref()?.1.scope.clone()
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
            lifetime: Some(3600),
            scope: Some("stats:read".into()),
        };
        let d = CachedToken::decode(&c.encode()).unwrap();
        assert_eq!(d.access, c.access);
        assert_eq!(d.refresh, c.refresh);
        assert_eq!(d.lifetime, Some(3600));
        assert_eq!(d.scope.as_deref(), Some("stats:read"));
        assert!(d.fresh(EXPIRY_MARGIN));
        assert!(!d.fresh(Duration::from_secs(7200)));
        assert!(CachedToken::decode("{\"access_tok").is_none());
        // A cache from before lifetimes were kept still reads.
        let old = r#"{"access_token":"a","refresh_token":null,"expires_at":1}"#;
        assert_eq!(CachedToken::decode(old).unwrap().lifetime, None);
    }

    #[test]
    fn renewal_is_the_smaller_of_60_s_and_half_the_lifetime() {
        let now = chrono::Utc::now().timestamp();
        let token = |lifetime: Option<i64>, left: i64| CachedToken {
            access: Secret::new("acc-123456"),
            refresh: None,
            expires_at: Some(now + left),
            lifetime,
            scope: None,
        };
        assert_eq!(token(Some(60), 60).renewal(), Duration::from_secs(30));
        assert_eq!(token(Some(86_400), 1).renewal(), EXPIRY_MARGIN);
        assert_eq!(token(None, 1).renewal(), EXPIRY_MARGIN);
        // A 60-second token: reused with 35 s left, replaced with 25 s left.
        assert!(token(Some(60), 35).fresh(Duration::ZERO));
        assert!(!token(Some(60), 25).fresh(Duration::ZERO));
        // A day's token: replaced a minute before it expires.
        assert!(token(Some(86_400), 65).fresh(Duration::ZERO));
        assert!(!token(Some(86_400), 55).fresh(Duration::ZERO));
        // A margin asks for more than the renewal margin.
        assert!(!token(Some(60), 35).fresh(Duration::from_secs(40)));
    }

    #[tokio::test]
    async fn the_memo_renews_only_an_unusable_token() {
        let memo = Memo::new(Duration::ZERO);
        let token = |s: &str| CachedToken {
            access: Secret::new(s),
            refresh: None,
            expires_at: None,
            lifetime: None,
            scope: None,
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
        let memo = Memo::new(Duration::ZERO);
        let token = |s: &str| CachedToken {
            access: Secret::new(s),
            refresh: None,
            expires_at: None,
            lifetime: None,
            scope: None,
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
