//! Where the token endpoint reads its parameters: a form-encoded body first
//! (RFC 6749 §2.3.1, what the real server reads), never the URL, where
//! gateways and proxies log them. A server that reads only the spec's query
//! string is asked in that form; whoever made the `TokenParams` hears of it
//! (`on_learnt`: to warn, and to remember it for next time, so that the
//! next process asks so at once).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;

/// Told that a server took the query form after refusing the body: the
/// service's base URL, and what secret the query carried.
pub type OnLearnt = Arc<dyn Fn(&str, &str) + Send + Sync>;

/// What this process knows of a token endpoint's parameter form.
#[derive(Default)]
pub struct TokenParams {
    /// The server reads only the query string.
    query: AtomicBool,
    /// Who hears when that is learnt.
    on_learnt: Option<OnLearnt>,
}

impl TokenParams {
    /// The body first.
    pub fn body_first() -> Self {
        Self::default()
    }

    /// The query form from the start (known from before), or the body first.
    pub fn remembered(query: bool) -> Self {
        TokenParams {
            query: AtomicBool::new(query),
            on_learnt: None,
        }
    }

    /// `f` hears when the query form is learnt (once).
    pub fn on_learnt(mut self, f: impl Fn(&str, &str) + Send + Sync + 'static) -> Self {
        self.on_learnt = Some(Arc::new(f));
        self
    }

    /// Whether to send the parameters in the query string.
    pub fn query_only(&self) -> bool {
        self.query.load(Ordering::Relaxed)
    }

    /// The server took the query form after refusing the body: use it from
    /// now on, and say so to whoever listens (`what`: the secret the query
    /// carried).
    pub(crate) fn learnt_query(&self, service: &str, what: &str) {
        if self.query.swap(true, Ordering::Relaxed) {
            return;
        }
        if let Some(f) = &self.on_learnt {
            f(service, what);
        }
    }
}

/// Whether a token request's error says the server did not read the body:
/// the spec-only server sees no `grant_type` (401 `unsupported_grant_type`),
/// others no client (401 `invalid_client`) or nothing (400 `invalid_request`).
pub(crate) fn refuses_body(e: &Error) -> bool {
    let code = oauth_code(e);
    matches!(
        (e.status, code.as_deref()),
        (Some(400), Some("invalid_request"))
            | (Some(401), Some("invalid_client" | "unsupported_grant_type"))
    )
}

/// Whether the server certainly read nothing of the body: it missed the
/// `grant_type` that was there.
pub(crate) fn missed_grant_type(e: &Error) -> bool {
    oauth_code(e).as_deref() == Some("unsupported_grant_type")
}

/// Whether the server missed the client (401 `invalid_client`): no client
/// id in what it read, or a wrong secret; `oauth::rejected_client` tells
/// which without sending the secret anywhere else.
pub(crate) fn missed_client(e: &Error) -> bool {
    e.status == Some(401) && oauth_code(e).as_deref() == Some("invalid_client")
}

/// The OAuth error code of a token endpoint's error body.
fn oauth_code(e: &Error) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(e.server_body.as_deref()?).ok()?;
    v.get("error")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(status: u16, code: &str) -> Error {
        Error::auth("x")
            .with_status(status)
            .with_server_body(format!(r#"{{"error":"{code}"}}"#).as_bytes())
    }

    #[test]
    fn the_refusals_of_a_server_that_reads_only_the_query() {
        assert!(refuses_body(&refused(401, "unsupported_grant_type")));
        assert!(refuses_body(&refused(401, "invalid_client")));
        assert!(refuses_body(&refused(400, "invalid_request")));
        assert!(!refuses_body(&refused(401, "invalid_grant")));
        assert!(!refuses_body(&refused(400, "invalid_scope")));
        assert!(!refuses_body(&refused(500, "server_error")));
        assert!(!refuses_body(&Error::auth("x").with_status(401)));
    }
}
