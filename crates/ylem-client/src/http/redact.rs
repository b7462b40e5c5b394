//! What the HTTP layer shows of a request without showing a secret: URLs with
//! secret query values masked, form and token bodies masked, and reqwest
//! errors described without their URL.

use reqwest::Url;

use crate::secret;

/// The names whose values are secrets, in a query or a form body.
fn is_secret(name: &str) -> bool {
    matches!(name, "client_secret" | "refresh_token" | "access_token")
}

/// A form-encoded body (`a=b&client_secret=c`) with its secret values as
/// `***`, for the request log.
pub fn redact_form(body: &str) -> String {
    let pairs: Vec<String> = body
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((k, _)) if is_secret(k) => format!("{k}=***"),
            _ => pair.to_string(),
        })
        .collect();
    secret::scrub(&pairs.join("&"))
}

/// The URL with secret query values replaced, for logs.
pub fn redact_url(url: &str) -> String {
    let Ok(mut u) = Url::parse(url) else {
        return secret::scrub(url);
    };
    if u.query().is_some() {
        let pairs: Vec<(String, String)> = u
            .query_pairs()
            .map(|(k, v)| {
                let secret = is_secret(&k);
                (
                    k.into_owned(),
                    if secret { "***".into() } else { v.into_owned() },
                )
            })
            .collect();
        u.query_pairs_mut().clear().extend_pairs(pairs);
    }
    secret::scrub(u.as_str()).replace("%2A%2A%2A", "***")
}

/// Token values in a logged JSON body, replaced by `***`.
pub fn redact_json_tokens(text: &str) -> String {
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(text) else {
        return secret::scrub(text);
    };
    if let Some(o) = v.as_object_mut() {
        for k in ["access_token", "refresh_token", "client_secret"] {
            if o.contains_key(k) {
                o.insert(k.into(), "***".into());
            }
        }
    }
    secret::scrub(&v.to_string())
}

/// A reqwest error and its causes, without the URL (it may carry a secret).
pub fn describe(e: &reqwest::Error) -> String {
    use std::error::Error as _;
    let mut parts = vec![strip_url(&e.to_string())];
    let mut src = e.source();
    while let Some(s) = src {
        let t = strip_url(&s.to_string());
        if !parts.iter().any(|p| p.contains(&t)) {
            parts.push(t);
        }
        src = s.source();
    }
    secret::scrub(&parts.join(": "))
}

fn strip_url(s: &str) -> String {
    match s.find(" for url (") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_redacted_for_logs() {
        let u = redact_url(
            "http://h:1/v1/oauth/token?grant_type=client_credentials&client_id=abc&client_secret=shh",
        );
        assert!(u.ends_with("client_id=abc&client_secret=***"), "{u}");
        assert!(!u.contains("shh"));
    }

    #[test]
    fn form_bodies_are_redacted() {
        let f = redact_form("grant_type=refresh_token&client_id=abc&refresh_token=r%2Bs&x");
        assert_eq!(
            f,
            "grant_type=refresh_token&client_id=abc&refresh_token=***&x"
        );
    }

    #[test]
    fn token_bodies_are_redacted() {
        let t = redact_json_tokens(
            r#"{"access_token":"aaaa1111","refresh_token":"bbbb2222","expires_in":5}"#,
        );
        assert!(!t.contains("aaaa1111") && !t.contains("bbbb2222"), "{t}");
    }
}
