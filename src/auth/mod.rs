//! Token providers behind one trait: a fixed token (`YLEM_TOKEN`), client
//! credentials that fetch a token and fetch a fresh one when it expires or
//! is rejected (concurrent requests share one fetch), and a stored profile
//! (`stored`) whose tokens are cached in a credential store (`store`).

pub mod profile;
pub mod store;
pub mod stored;

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::Mutex;

use crate::api::{self, Transport};
use crate::error::{Error, Result};
use crate::secret::Secret;

/// Replace a token this long before it expires, so it cannot expire in flight.
pub const EXPIRY_MARGIN: Duration = Duration::from_secs(60);

/// Where bearer tokens come from.
pub trait TokenSource: Send + Sync {
    /// A token that is valid now, fetching one if need be. `rejected` is a
    /// token the server answered 401 to: never hand it out again.
    fn token<'a>(
        &'a self,
        t: &'a Transport,
        rejected: Option<&'a Secret>,
    ) -> BoxFuture<'a, Result<Secret>>;
    /// Whether a rejected token can be replaced (not so for a fixed token).
    fn can_renew(&self) -> bool;
}

/// `YLEM_TOKEN`: used as is, never refreshed.
pub struct FixedToken(pub Secret);

impl TokenSource for FixedToken {
    fn token<'a>(
        &'a self,
        _t: &'a Transport,
        _rejected: Option<&'a Secret>,
    ) -> BoxFuture<'a, Result<Secret>> {
        Box::pin(async move { Ok(self.0.clone()) })
    }
    fn can_renew(&self) -> bool {
        false
    }
}

/// Client credentials held in memory (from the environment, or the demo).
pub struct ClientCredentials {
    client_id: String,
    secret: Secret,
    cache: Mutex<Option<stored::CachedToken>>,
}

impl ClientCredentials {
    pub fn new(client_id: String, secret: Secret) -> Arc<Self> {
        Arc::new(ClientCredentials {
            client_id,
            secret,
            cache: Mutex::new(None),
        })
    }
}

impl TokenSource for ClientCredentials {
    fn token<'a>(
        &'a self,
        t: &'a Transport,
        rejected: Option<&'a Secret>,
    ) -> BoxFuture<'a, Result<Secret>> {
        Box::pin(async move {
            // Holding the lock across the fetch makes concurrent requests wait
            // for one token instead of each fetching its own.
            let mut cache = self.cache.lock().await;
            if let Some(c) = cache.as_ref().filter(|c| c.usable(EXPIRY_MARGIN, rejected)) {
                return Ok(c.access.clone());
            }
            let resp = api::fetch_token(t, &self.client_id, &self.secret).await?;
            *cache = Some(stored::CachedToken::from_response(&resp));
            Ok(resp.access_token)
        })
    }

    fn can_renew(&self) -> bool {
        true
    }
}

/// When there is nothing to authenticate with.
pub fn no_credentials() -> Error {
    Error::auth("no credentials: set YLEM_TOKEN, or YLEM_CLIENT_ID and YLEM_CLIENT_SECRET")
        .with_hint("try 'ylemctl sandbox' for a local service to practise against")
}
