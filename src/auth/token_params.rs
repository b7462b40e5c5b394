//! Where the token endpoint reads its parameters: a form-encoded body first
//! (RFC 6749 §2.3.1, what the real server reads), never the URL, where
//! gateways and proxies log them. A server that reads only the spec's query
//! string is asked in that form, with a warning; a profile remembers it as
//! `token_params = "query"` in config.toml, so the next command asks so at
//! once (one request, not a refused one and a second).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::ConfigFile;
use crate::error::{Error, Result};
use crate::ui::Ui;

/// The profile key and its one value (its absence means the body).
const KEY: &str = "token_params";
const QUERY: &str = "query";

/// What this process knows of a token endpoint's parameter form.
#[derive(Debug, Default)]
pub struct TokenParams {
    /// The server reads only the query string.
    query: AtomicBool,
    /// Where that is remembered: a profile's config directory and name.
    profile: Option<(PathBuf, String)>,
}

impl TokenParams {
    /// The body first; what is learnt stays in this process.
    pub fn body_first() -> Self {
        Self::default()
    }

    /// For a stored profile: the form it remembers, and learnt forms are
    /// remembered there.
    pub fn for_profile(config_dir: &Path, name: &str, query: bool) -> Self {
        TokenParams {
            query: AtomicBool::new(query),
            profile: Some((config_dir.to_path_buf(), name.to_string())),
        }
    }

    /// The profile remembers the query form: use it from the start.
    pub fn remembered_query(&mut self) {
        *self.query.get_mut() = true;
    }

    /// Whether to send the parameters in the query string.
    pub fn query_only(&self) -> bool {
        self.query.load(Ordering::Relaxed)
    }

    /// The server took the query form after refusing the body: say what it
    /// costs (`what`: the secret the query carried), use the query from now
    /// on and remember it in the profile (best effort: a config that cannot
    /// be written costs one refused request next time).
    pub fn learnt_query(&self, ui: &Ui, service: &str, what: &str) {
        if self.query.swap(true, Ordering::Relaxed) {
            return;
        }
        let kept = match &self.profile {
            Some((dir, name)) if remember(dir, name, true).unwrap_or(false) => {
                format!("; profile '{name}' remembers this ({KEY} = \"{QUERY}\" in config.toml)")
            }
            _ => String::new(),
        };
        ui.warn(&format!(
            "the token endpoint at {service} refused its parameters in the request body and took them in the URL: the {what} now reaches the server's access logs (and any proxy's){kept}"
        ));
    }
}

/// Whether profile `name` of `config` remembers the query form.
pub fn remembered(config: &ConfigFile, name: &str) -> bool {
    config
        .table()
        .get("profiles")
        .and_then(|p| p.get(name))
        .and_then(|p| p.get(KEY))
        .and_then(|v| v.as_str())
        == Some(QUERY)
}

/// Set (`query`) or clear the profile's key, re-read under the config lock;
/// whether the profile exists (nothing is written for one that does not).
pub fn remember(dir: &Path, name: &str, query: bool) -> Result<bool> {
    ConfigFile::update(dir, |c| {
        let Some(t) = c
            .table_mut()
            .get_mut("profiles")
            .and_then(|p| p.get_mut(name))
            .and_then(|p| p.as_table_mut())
        else {
            return Ok((false, false));
        };
        let had = t.get(KEY).and_then(|v| v.as_str()) == Some(QUERY);
        if had == query {
            return Ok((false, true));
        }
        if query {
            t.insert(KEY.into(), toml::Value::String(QUERY.into()));
        } else {
            t.remove(KEY);
        }
        Ok((true, true))
    })
}

/// Whether a token request's error says the server did not read the body:
/// the spec-only server sees no `grant_type` (401 `unsupported_grant_type`),
/// others no client (401 `invalid_client`) or nothing (400 `invalid_request`).
pub fn refuses_body(e: &Error) -> bool {
    let code = oauth_code(e);
    matches!(
        (e.http_status, code.as_deref()),
        (Some(400), Some("invalid_request"))
            | (Some(401), Some("invalid_client" | "unsupported_grant_type"))
    )
}

/// Whether the server certainly read nothing of the body: it missed the
/// `grant_type` that was there.
pub fn missed_grant_type(e: &Error) -> bool {
    oauth_code(e).as_deref() == Some("unsupported_grant_type")
}

/// Whether the server missed the client (401 `invalid_client`): no client
/// id in what it read, or a wrong secret; `oauth::rejected_client` tells
/// which without sending the secret anywhere else.
pub fn missed_client(e: &Error) -> bool {
    e.http_status == Some(401) && oauth_code(e).as_deref() == Some("invalid_client")
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

    #[test]
    fn a_profile_remembers_the_query_form_and_forgets_it() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!remember(dir.path(), "p", true).unwrap(), "no such profile");
        std::fs::write(
            dir.path().join("config.toml"),
            "[profiles.p]\nclient_id = \"c\"\n",
        )
        .unwrap();
        assert!(remember(dir.path(), "p", true).unwrap());
        let c = ConfigFile::load(dir.path()).unwrap();
        assert!(remembered(&c, "p") && !remembered(&c, "q"));
        assert_eq!(
            c.profile("p").unwrap().unwrap().client_id.as_deref(),
            Some("c")
        );
        assert!(remember(dir.path(), "p", false).unwrap());
        assert!(!remembered(&ConfigFile::load(dir.path()).unwrap(), "p"));
    }
}
