//! Endpoint 1, the token endpoint: the client-credentials and refresh grants,
//! and the token response with its lifetime made safe to compute with.

use reqwest::{Method, Url};
use serde::{Deserialize, Deserializer};

use crate::error::{Error, Result};
use crate::http::{Retry, Transport};
use crate::secret::Secret;

const PATH: &str = "/v1/oauth/token";

/// 2.1: the token response.
#[derive(Debug, Clone, Deserialize)]
pub struct TokenResponse {
    pub access_token: Secret,
    /// Seconds; clamped to a year, so that no arithmetic on it can overflow.
    #[serde(default, deserialize_with = "lifetime")]
    pub expires_in: Option<i64>,
    #[serde(default)]
    pub refresh_token: Option<Secret>,
    #[serde(default)]
    pub scope: Option<String>,
    #[serde(default)]
    pub token_type: Option<String>,
}

/// `expires_in`: positive seconds, at most a year; anything else is "unknown".
fn lifetime<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    const YEAR: i64 = 366 * 86_400;
    let v: Option<serde_json::Number> = Option::deserialize(d)?;
    Ok(v.and_then(|n| {
        n.as_i64()
            .or_else(|| n.as_f64().map(|f| f.min(i64::MAX as f64) as i64))
    })
    .filter(|s| *s > 0)
    .map(|s| s.min(YEAR)))
}

/// Client credentials: query parameters and an empty body, no bearer.
pub async fn fetch_token(t: &Transport, client_id: &str, secret: &Secret) -> Result<TokenResponse> {
    token_request(
        t,
        &[
            ("grant_type", "client_credentials"),
            ("client_id", client_id),
            ("client_secret", secret.expose()),
        ],
    )
    .await
}

/// The refresh grant the real server offers.
pub async fn refresh_token(
    t: &Transport,
    client_id: &str,
    refresh: &Secret,
) -> Result<TokenResponse> {
    token_request(
        t,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", client_id),
            ("refresh_token", refresh.expose()),
        ],
    )
    .await
}

async fn token_request(t: &Transport, params: &[(&str, &str)]) -> Result<TokenResponse> {
    let mut u =
        Url::parse(&format!("http://x{PATH}")).map_err(|e| Error::internal(e.to_string()))?;
    u.query_pairs_mut().extend_pairs(params);
    let path = format!("{}?{}", u.path(), u.query().unwrap_or(""));
    let resp = t.send(Method::POST, &path, None, Retry::Idempotent).await?;
    t.decode(resp, PATH).await
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
            (r#"{"access_token":"t","expires_in":-5}"#, None),
            (r#"{"access_token":"t","expires_in":86400}"#, Some(86_400)),
        ] {
            let t: TokenResponse = serde_json::from_str(json).unwrap();
            assert_eq!(t.expires_in, want, "{json}");
        }
    }
}
