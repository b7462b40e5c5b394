//! Endpoint 1, the token endpoint: the client-credentials and refresh grants,
//! and the token response checked (a Bearer token that can be sent as a
//! header) with its lifetime made safe to compute with.
//!
//! The parameters go in a form-encoded body, never the URL; a server that
//! reads only the query string is asked there once (`token_params`).

use bytes::Bytes;
use reqwest::{Method, Url};
use serde::{Deserialize, Deserializer};

use super::token_params::{self, TokenParams};
use crate::error::{Error, Result};
use crate::http::{Retry, Sent, Transport};
use crate::secret::Secret;

const PATH: &str = "/v1/oauth/token";

/// 2.1: the token response.
#[derive(Debug, Clone, Deserialize)]
pub struct TokenResponse {
    /// The bearer token.
    pub access_token: Secret,
    /// Seconds; clamped to a year, so that no arithmetic on it can overflow;
    /// 0 (expired: used for the request it was fetched for, then renewed)
    /// for a lifetime of 0 or less. `None`: the server gave none.
    #[serde(default, deserialize_with = "lifetime")]
    pub expires_in: Option<i64>,
    /// A token for the refresh grant, when the server gives one.
    #[serde(default)]
    pub refresh_token: Option<Secret>,
    /// The scopes granted, space-separated.
    #[serde(default)]
    pub scope: Option<String>,
    /// `Bearer` (any case): anything else, or none, is refused (`checked`).
    #[serde(default)]
    pub token_type: Option<String>,
}

impl TokenResponse {
    /// Its tokens held by the transport's redactor: what the client
    /// fetches it holds, for as long as anything keeps a copy.
    fn held_by(mut self, t: &Transport) -> Self {
        let r = t.redactor();
        self.access_token = r.hold(self.access_token);
        self.refresh_token = self.refresh_token.map(|s| r.hold(s));
        self
    }
}

/// A token response the client can use, or exit-5 material naming the field:
/// RFC 6749 5.1 makes `token_type` required and the real server always
/// sends `Bearer`, so a missing one is refused as another type is (a `mac`
/// or `DPoP` token sent as Bearer would be refused or misused). The token
/// itself is never shown, only what is wrong with it.
pub fn checked(r: TokenResponse) -> Result<TokenResponse> {
    let bad = |what: String| Err(Error::server(format!("the token endpoint answered {what}")));
    match r.token_type.as_deref() {
        Some(t) if t.eq_ignore_ascii_case("bearer") => {}
        Some(t) => {
            let t = crate::text::escape(t);
            return bad(format!(
                "token_type \"{t}\", not Bearer: this client sends Bearer tokens only"
            ));
        }
        None => return bad("no token_type (RFC 6749 5.1 requires it; Bearer expected)".into()),
    }
    let token = r.access_token.expose();
    if token.is_empty() {
        return bad("an empty access_token".into());
    }
    if reqwest::header::HeaderValue::from_str(&format!("Bearer {token}")).is_err() {
        return bad(
            "an access_token that cannot be sent as a header (a control or non-ASCII character)"
                .into(),
        );
    }
    Ok(r)
}

/// `expires_in`: seconds, at most a year; 0 or less is 0, expired (not "no
/// expiry"); a value that is no number is "unknown".
fn lifetime<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    const YEAR: i64 = 366 * 86_400;
    let v: Option<serde_json::Number> = Option::deserialize(d)?;
    Ok(v.and_then(|n| {
        n.as_i64()
            .or_else(|| n.as_f64().map(|f| f.min(i64::MAX as f64) as i64))
    })
    .map(|s| s.clamp(0, YEAR)))
}

/// Client credentials, no bearer.
pub async fn fetch_token(
    t: &Transport,
    client_id: &str,
    secret: &Secret,
    form: &TokenParams,
) -> Result<TokenResponse> {
    let params = [
        ("grant_type", "client_credentials"),
        ("client_id", client_id),
        ("client_secret", secret.expose()),
    ];
    token_request(t, &params, form, "client secret").await
}

/// The refresh grant the real server offers.
pub async fn refresh_token(
    t: &Transport,
    client_id: &str,
    refresh: &Secret,
    form: &TokenParams,
) -> Result<TokenResponse> {
    let params = [
        ("grant_type", "refresh_token"),
        ("client_id", client_id),
        ("refresh_token", refresh.expose()),
    ];
    token_request(t, &params, form, "refresh token").await
}

/// In the body; in the query where the server is known to read only that,
/// or once when it refuses the body as such a server does. When both forms
/// are refused, the body's refusal says why, unless the server plainly did
/// not read the body (it missed the grant type), when the query's does.
async fn token_request(
    t: &Transport,
    params: &[(&str, &str)],
    form: &TokenParams,
    what: &str,
) -> Result<TokenResponse> {
    if form.query_only() {
        return in_query(t, params).await;
    }
    match in_body(t, params).await {
        Err(e) if token_params::refuses_body(&e) && !read_the_body(t, params, &e).await => {
            // `e` shown, not its message: the server's words escaped.
            t.log_line(&format!(
                "the token endpoint refused the body form ({e}); asking in the query form"
            ));
            match in_query(t, params).await {
                Ok(r) => {
                    form.learnt_query(t.base_url(), what);
                    Ok(r)
                }
                Err(q) if token_params::missed_grant_type(&e) => Err(q),
                Err(_) => Err(e),
            }
        }
        other => other,
    }
}

/// Whether a server that refused the body (400 `invalid_request`, 401
/// `invalid_client`) did read it and refused what it said: a wrong secret,
/// often a near miss of the right one, must not be tried again in the URL,
/// where the server's access log keeps it. A body with the grant type alone,
/// which carries no secret, tells: a server that reads the body misses the
/// client (`invalid_client`); one that does not misses the grant type, or
/// answers as it did. A server that missed the grant type the first time
/// (`unsupported_grant_type`) plainly did not read the body: no probe.
async fn read_the_body(t: &Transport, params: &[(&str, &str)], e: &Error) -> bool {
    if token_params::missed_grant_type(e) {
        return false;
    }
    let grant: Vec<(&str, &str)> = params
        .iter()
        .filter(|(k, _)| *k == "grant_type")
        .copied()
        .collect();
    match in_body(t, &grant).await {
        Err(probe) => token_params::missed_client(&probe),
        Ok(_) => true,
    }
}

/// `POST /v1/oauth/token` with an `application/x-www-form-urlencoded` body.
async fn in_body(t: &Transport, params: &[(&str, &str)]) -> Result<TokenResponse> {
    let body = Bytes::from(encode(params)?);
    let resp = t
        .fetch(
            Method::POST,
            PATH,
            None,
            Retry::Idempotent,
            Some(Sent::Form(&body)),
        )
        .await?;
    Ok(checked(t.decode(&resp, PATH)?)?.held_by(t))
}

/// `POST /v1/oauth/token?...`: the spec's form, for a server that reads
/// nothing else.
async fn in_query(t: &Transport, params: &[(&str, &str)]) -> Result<TokenResponse> {
    let path = format!("{PATH}?{}", encode(params)?);
    let resp = t
        .fetch(Method::POST, &path, None, Retry::Idempotent, None)
        .await?;
    Ok(checked(t.decode(&resp, PATH)?)?.held_by(t))
}

/// `a=b&c=d`, form-encoded.
fn encode(params: &[(&str, &str)]) -> Result<String> {
    let mut u = Url::parse("http://x/").map_err(|e| Error::internal(e.to_string()))?;
    u.query_pairs_mut().extend_pairs(params);
    Ok(u.query().unwrap_or("").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_lifetimes_are_clamped() {
        for (json, want) in [
            (
                r#"{"access_token":"t","expires_in":9223372036854775807}"#,
                Some(366 * 86_400),
            ),
            (
                r#"{"access_token":"t","expires_in":1e300}"#,
                Some(366 * 86_400),
            ),
            (r#"{"access_token":"t","expires_in":-5}"#, Some(0)),
            (r#"{"access_token":"t","expires_in":0}"#, Some(0)),
            (r#"{"access_token":"t"}"#, None),
            (r#"{"access_token":"t","expires_in":86400}"#, Some(86_400)),
        ] {
            let t: TokenResponse = serde_json::from_str(json).unwrap();
            assert_eq!(t.expires_in, want, "{json}");
        }
    }

    #[test]
    fn token_responses_are_checked() {
        let parse = |j: &str| checked(serde_json::from_str(j).unwrap());
        for ok in ["Bearer", "bearer", "BEARER"] {
            let j = format!(r#"{{"access_token":"AT-zq81","token_type":"{ok}"}}"#);
            assert!(parse(&j).is_ok(), "{j}");
        }
        for (j, says) in [
            (
                r#"{"access_token":"AT-zq81","token_type":"mac"}"#,
                "token_type \"mac\"",
            ),
            (
                r#"{"access_token":"AT-zq81","token_type":"DPoP"}"#,
                "token_type \"DPoP\"",
            ),
            (
                r#"{"access_token":"AT-zq81","token_type":"x\u001b[2J"}"#,
                "token_type \"x\\u{1b}[2J\"",
            ),
            (r#"{"access_token":"AT-zq81"}"#, "no token_type"),
            (
                r#"{"access_token":"","token_type":"Bearer"}"#,
                "an empty access_token",
            ),
            (
                r#"{"access_token":"AT-zq81\r\nX: 1","token_type":"Bearer"}"#,
                "cannot be sent as a header",
            ),
        ] {
            let e = parse(j).unwrap_err();
            assert_eq!(e.kind, crate::error::ErrorKind::Server, "{j}");
            assert!(e.message.contains(says), "{j}: {}", e.message);
            assert!(
                !e.message.contains("AT-zq81"),
                "the token shown: {}",
                e.message
            );
        }
    }

    #[test]
    fn an_expired_lifetime_is_expired_not_endless() {
        let r: TokenResponse =
            serde_json::from_str(r#"{"access_token":"t","expires_in":0,"token_type":"Bearer"}"#)
                .unwrap();
        let c = super::super::token::CachedToken::from_response(&r);
        assert!(!c.fresh(std::time::Duration::ZERO));
    }
}
