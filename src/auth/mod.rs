//! Where bearer tokens come from, as a closed set: a fixed token
//! (`YLEM_TOKEN`), client credentials held in memory, or a stored profile
//! (`stored`) whose tokens are cached in a credential store (`store`). The
//! renewable ones keep their token in one `token::Memo`, so concurrent
//! requests share one fetch; `oauth` is the token endpoint they fetch from.

pub(crate) mod binding;
pub mod oauth;
pub(crate) mod profile;
pub(crate) mod store;
pub(crate) mod stored;
pub(crate) mod token;
pub mod token_params;

use std::time::Duration;

use crate::error::Result;
use crate::http::Transport;
use crate::secret::Secret;
use binding::Binding;
use stored::StoredProfile;
use token::{CachedToken, Memo};
use token_params::TokenParams;

/// Where bearer tokens come from.
pub enum TokenSource {
    /// `YLEM_TOKEN`: used as is, never renewed.
    Fixed(Secret),
    /// Client credentials from the environment (or the demo).
    Client(ClientCredentials),
    /// A logged-in profile.
    Stored(StoredProfile),
}

impl TokenSource {
    /// A token that is valid now, fetching one if need be. `rejected` is a
    /// token the server answered 401 to: never hand it out again.
    pub async fn token(&self, t: &Transport, rejected: Option<&Secret>) -> Result<Secret> {
        match self {
            TokenSource::Fixed(token) => Ok(token.clone()),
            TokenSource::Client(c) => c.token(t, rejected).await,
            TokenSource::Stored(p) => p.token(t, rejected).await,
        }
    }

    /// Whether a rejected token can be replaced (not so for a fixed token).
    pub fn can_renew(&self) -> bool {
        !matches!(self, TokenSource::Fixed(_))
    }
}

/// Client credentials held in memory: a token is fetched when the memo has
/// none usable, and kept only in this process.
pub struct ClientCredentials {
    client_id: String,
    secret: Secret,
    memo: Memo,
    /// Learnt for this process only: no profile to remember it in.
    params: TokenParams,
}

impl ClientCredentials {
    pub fn new(client_id: String, secret: Secret) -> Self {
        ClientCredentials {
            client_id,
            secret,
            memo: Memo::new(Duration::ZERO),
            params: TokenParams::body_first(),
        }
    }

    /// A token for the transport's service: environment credentials go to
    /// the base URL in effect, and the memo keeps a token for that one only.
    async fn token(&self, t: &Transport, rejected: Option<&Secret>) -> Result<Secret> {
        let key = Binding::new(t.base_url(), &self.client_id);
        self.memo
            .token(&key, rejected, || async {
                let r = oauth::fetch_token(t, &self.client_id, &self.secret, &self.params).await?;
                Ok(CachedToken::from_response(&r))
            })
            .await
    }
}
