//! The token sources: a fixed token, client credentials held in memory
//! (renewed through one `Memo`, so concurrent requests share one fetch),
//! or a `TokenProvider` the program using the client brings.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use super::binding::Binding;
use super::oauth;
use super::token::{CachedToken, Memo};
use super::token_params::TokenParams;
use crate::error::Result;
use crate::http::Transport;
use crate::secret::Secret;

/// A future a `TokenProvider` returns: boxed, so that the trait can be
/// held as `dyn`, and `Send`, so that every request future of the client
/// is `Send` too (a request may be spawned on any runtime's worker).
pub type TokenFuture<'a> = Pin<Box<dyn Future<Output = Result<Secret>> + Send + 'a>>;

/// A source of tokens the client does not know itself (a stored login
/// with its cache and lock): asked for a token before each request.
pub trait TokenProvider: Send + Sync {
    /// A token that is valid now for the service `t` sends to, fetching
    /// one if need be (through `t`: see `oauth`). `rejected` is a token the
    /// server answered 401 to: never hand it out again.
    fn token<'a>(&'a self, t: &'a Transport, rejected: Option<&'a Secret>) -> TokenFuture<'a>;

    /// The scopes the last token handed out grants, as its token response
    /// said (`None`: not known).
    fn granted(&self) -> Option<String> {
        None
    }
}

/// Where bearer tokens come from.
pub enum TokenSource {
    /// A token used as is, never renewed.
    Fixed(Secret),
    /// Client credentials held in memory (boxed: a memo and a lock).
    Client(Box<ClientCredentials>),
    /// Tokens from the caller's own provider.
    Provider(Arc<dyn TokenProvider>),
}

/// The source's kind, never a secret: `Fixed(***)`, the client ID, or
/// `Provider`.
impl std::fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenSource::Fixed(_) => f.write_str("Fixed(***)"),
            TokenSource::Client(c) => c.fmt(f),
            TokenSource::Provider(_) => f.write_str("Provider"),
        }
    }
}

/// The client ID; the secret as `***`.
impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("client_id", &self.client_id)
            .field("secret", &self.secret)
            .finish()
    }
}

impl TokenSource {
    /// A token that is valid now, fetching one if need be. `rejected` is a
    /// token the server answered 401 to: never hand it out again.
    pub async fn token(&self, t: &Transport, rejected: Option<&Secret>) -> Result<Secret> {
        match self {
            TokenSource::Fixed(token) => Ok(token.clone()),
            TokenSource::Client(c) => c.token(t, rejected).await,
            TokenSource::Provider(p) => p.token(t, rejected).await,
        }
    }

    /// The scopes the token in use grants, as its token response said
    /// (`None`: not known, as for a fixed token).
    pub fn granted(&self) -> Option<String> {
        match self {
            TokenSource::Fixed(_) => None,
            TokenSource::Client(c) => c.memo.granted(),
            TokenSource::Provider(p) => p.granted(),
        }
    }

    /// The same source, its secrets held by `r` (the client's redactor).
    pub(crate) fn held_by(self, r: &crate::secret::Redactor) -> Self {
        match self {
            TokenSource::Fixed(token) => TokenSource::Fixed(r.hold(token)),
            TokenSource::Client(mut c) => {
                let secret = std::mem::replace(&mut c.secret, Secret::new(String::new()));
                c.secret = r.hold(secret);
                TokenSource::Client(c)
            }
            p @ TokenSource::Provider(_) => p,
        }
    }

    /// Whether a rejected token can be replaced (not so for a fixed token).
    pub(crate) fn can_renew(&self) -> bool {
        !matches!(self, TokenSource::Fixed(_))
    }
}

/// Client credentials held in memory: a token is fetched when the memo has
/// none usable, and kept only in this process.
pub struct ClientCredentials {
    client_id: String,
    secret: Secret,
    memo: Memo,
    /// Learnt for this process only, unless the caller hears of it.
    params: TokenParams,
}

impl ClientCredentials {
    /// `client_id` and its secret; the parameters go in the body first.
    pub fn new(client_id: String, secret: Secret) -> Self {
        ClientCredentials {
            client_id,
            secret,
            memo: Memo::new(Duration::ZERO),
            params: TokenParams::body_first(),
        }
    }

    /// Where the token endpoint reads its parameters, and who hears when
    /// that is learnt.
    pub fn with_params(mut self, params: TokenParams) -> Self {
        self.params = params;
        self
    }

    /// A token for the transport's service: the credentials go to the
    /// base URL in effect, and the memo keeps a token for that one only.
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
