//! A base URL as given (`--base-url`, `YLEM_BASE_URL`, a profile's
//! `base_url` in the config file, `login`'s prompt): checked once, the same
//! way for each, and with any trailing `/` dropped so paths never get `//`.
//! A bad one is a usage error naming it as an invalid base URL, before
//! anything is sent.

use crate::error::{Error, Result};

/// Check a base URL and drop any trailing `/`, so paths never get a `//`.
pub fn normalize(s: &str) -> Result<String> {
    let t = s.trim().trim_end_matches('/');
    let u = reqwest::Url::parse(t).map_err(|_| {
        Error::usage(format!(
            "invalid base URL '{}': use e.g. https://api.example.com",
            without_userinfo(s)
        ))
    })?;
    // A user name or password in the URL would be a credential in
    // config.toml, in every message naming the URL and in a second
    // Authorization header beside the bearer token.
    if !u.username().is_empty() || u.password().is_some() {
        return Err(Error::usage(format!(
            "invalid base URL '{}': no user name or password in it (the service's credentials are the client id and secret)",
            without_userinfo(s)
        ))
        .with_hint("for a proxy that needs a password, use HTTPS_PROXY/HTTP_PROXY"));
    }
    if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none() {
        return Err(Error::usage(format!(
            "invalid base URL '{}': it must start with http:// or https://",
            without_userinfo(s)
        )));
    }
    if u.query().is_some() || u.fragment().is_some() {
        return Err(Error::usage(format!(
            "invalid base URL '{}': no query or fragment allowed",
            without_userinfo(s)
        )));
    }
    // The paths are `/v1/...` below the service root: a base URL that
    // already ends in `/v1` would ask for `/v1/v1/...` and get 404s.
    if u.path().trim_end_matches('/').ends_with("/v1") {
        return Err(Error::usage(format!(
            "base URL '{}' ends in /v1; give the service root, e.g. https://api.example.com",
            without_userinfo(s)
        ))
        .with_hint("drop the /v1 at its end: ylemctl adds it to every request"));
    }
    Ok(t.to_string())
}

/// `s` with anything between `://` and an `@` before the host shown as
/// `***@`, so a refused URL's password is never echoed.
fn without_userinfo(s: &str) -> String {
    let Some((scheme, rest)) = s.split_once("://") else {
        return s.to_string();
    };
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_echoed_and_a_v1_root_is_refused() {
        assert_eq!(without_userinfo("http://a:b@h/p@q"), "http://***@h/p@q");
        assert_eq!(normalize("http://h:1/api/").unwrap(), "http://h:1/api");
        for bad in [
            "https://api.example.com/v1",
            "http://h/x/v1/",
            "http://h/v1//",
        ] {
            let e = normalize(bad).unwrap_err();
            assert!(e.message.contains("ends in /v1"), "{}", e.message);
        }
        assert!(normalize("http://h/v10").is_ok());
        let e = normalize("ht tp://h").unwrap_err();
        assert!(
            e.message.starts_with("invalid base URL 'ht tp://h'"),
            "{}",
            e.message
        );
    }
}
