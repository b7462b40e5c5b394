//! Which service credentials belong to: a base URL reduced to the service it
//! names (scheme, host, port, path prefix), and the `Binding` of a client id
//! to one service that seals a cached token or a stored secret.
//!
//! Credentials are sent only to their own service: a stale base URL or a
//! mistyped host must never receive them.

use reqwest::Url;

use crate::secret::Secret;

/// `url` reduced to what names a service: scheme and host in lower case, no
/// default port (80, 443), no trailing `/`; the path prefix keeps its case
/// (servers may tell `/API` from `/api`). `None` for what is not a URL.
pub fn service_of(url: &str) -> Option<String> {
    let u = Url::parse(url.trim()).ok()?;
    // `Url` has already lower-cased the host of `http`/`https` URLs and
    // dropped their default port.
    let host = u.host_str()?;
    let port = u.port().map(|p| format!(":{p}")).unwrap_or_default();
    let path = u.path().trim_end_matches('/');
    Some(format!("{}://{host}{port}{path}", u.scheme()))
}

/// Whether two base URLs name the same service, however they are written.
/// Text that is not a URL matches only itself.
pub fn same_service(a: &str, b: &str) -> bool {
    match (service_of(a), service_of(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a.trim().trim_end_matches('/') == b.trim().trim_end_matches('/'),
    }
}

/// Whether an `http://` URL goes to a host other than this machine, so
/// that credentials sent to it travel in clear over a network.
pub fn in_clear_off_machine(url: &str) -> bool {
    let Ok(u) = Url::parse(url.trim()) else {
        return false;
    };
    if u.scheme() != "http" {
        return false;
    }
    let Some(host) = u.host_str() else {
        return false;
    };
    match host.trim_matches(['[', ']']).parse::<std::net::IpAddr>() {
        Ok(ip) => !ip.is_loopback(),
        // `localhost` and its subdomains resolve to loopback (RFC 6761).
        Err(_) => host != "localhost" && !host.ends_with(".localhost"),
    }
}

/// A client id bound to one service: the key of a token cache, in the
/// store and in memory. A token is handed out only under the binding it
/// was fetched with, so a login to another URL or with another client never
/// reuses an old token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    service: String,
    client_id: String,
}

impl Binding {
    /// `client_id` bound to the service `base_url` names.
    pub fn new(base_url: &str, client_id: &str) -> Self {
        Binding {
            service: service_of(base_url)
                .unwrap_or_else(|| base_url.trim().trim_end_matches('/').to_string()),
            client_id: client_id.to_string(),
        }
    }

    /// The service, normalised.
    pub fn service(&self) -> &str {
        &self.service
    }

    /// A cached token's JSON object with this binding added to it.
    pub fn seal(&self, token_json: &str) -> String {
        let mut v: serde_json::Value =
            serde_json::from_str(token_json).unwrap_or_else(|_| serde_json::json!({}));
        if let Some(o) = v.as_object_mut() {
            o.insert("base_url".into(), self.service.clone().into());
            o.insert("client_id".into(), self.client_id.clone().into());
        }
        v.to_string()
    }

    /// Whether a cached token's text was sealed with this binding. A cache
    /// written before tokens were bound carries none, and never matches: its
    /// service is unknown, so its tokens are not sent anywhere.
    pub fn opens(&self, text: &str) -> bool {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
            return false;
        };
        v.get("base_url").and_then(|s| s.as_str()) == Some(self.service.as_str())
            && v.get("client_id").and_then(|s| s.as_str()) == Some(self.client_id.as_str())
    }

    /// A client secret as the store keeps it: sealed with this binding, so
    /// a secret saved for one service is never sent to another, even by a
    /// process that read its config before a login moved the profile.
    pub fn seal_secret(&self, secret: &Secret) -> Secret {
        Secret::new(
            serde_json::json!({
                "client_secret": secret.expose(),
                "base_url": self.service,
                "client_id": self.client_id,
            })
            .to_string(),
        )
    }

    /// What a stored secret's text is to this binding.
    pub fn open_secret(&self, text: &str) -> StoredSecret {
        // A secret saved before sealing is the bare string (64 hex digits
        // from the real server), never a JSON object with a client_secret.
        let v = match serde_json::from_str::<serde_json::Value>(text) {
            Ok(v) if v.get("client_secret").is_some_and(|s| s.is_string()) => v,
            _ => return StoredSecret::Unsealed(Secret::new(text.to_string())),
        };
        let field = |k: &str| v.get(k).and_then(|s| s.as_str()).unwrap_or("").to_string();
        let (service, client) = (field("base_url"), field("client_id"));
        if service == self.service && client == self.client_id {
            StoredSecret::Bound(Secret::new(field("client_secret")))
        } else {
            StoredSecret::Other { service, client }
        }
    }

    /// The service a cached token's text was sealed for, if any.
    pub fn sealed_for(text: &str) -> Option<String> {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        v.get("base_url")?.as_str().map(str::to_string)
    }
}

/// A stored client secret, opened under a profile's binding.
pub enum StoredSecret {
    /// Sealed for this service and client.
    Bound(Secret),
    /// Sealed for another service or client: never sent.
    Other {
        /// The service it was sealed for.
        service: String,
        /// The client it was sealed for.
        client: String,
    },
    /// Saved before secrets were sealed: the profile's config is the only
    /// record of its service (what every earlier version trusted), so it
    /// is used for that service and sealed with it on first use.
    Unsealed(Secret),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_service_however_it_is_written() {
        for (a, b) in [
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080/"),
            ("https://API.example.com", "https://api.example.com:443"),
            ("http://h/api", "HTTP://H:80/api//"),
            ("http://[::1]:7339", "http://[0:0:0:0:0:0:0:1]:7339/"),
        ] {
            assert!(same_service(a, b), "{a} {b}");
        }
        for (a, b) in [
            ("http://127.0.0.1:8080", "http://localhost:8080"),
            ("http://h", "https://h"),
            ("https://h", "https://h:8443"),
            ("https://h/api", "https://h/API"),
            ("https://h/api", "https://h"),
            ("https://h/api", "https://h/api/v2"),
            ("https://a.example.com", "https://b.example.com"),
        ] {
            assert!(!same_service(a, b), "{a} {b}");
        }
        assert_eq!(
            service_of("HTTPS://Api.Example.com:443/Base/").as_deref(),
            Some("https://api.example.com/Base")
        );
    }

    #[test]
    fn plain_http_off_this_machine_is_in_clear() {
        for u in [
            "http://api.example.com",
            "http://10.0.0.5:8080",
            "http://[2001:db8::1]",
        ] {
            assert!(in_clear_off_machine(u), "{u}");
        }
        for u in [
            "https://api.example.com",
            "http://127.0.0.1:7339",
            "http://127.1.2.3",
            "http://localhost:1",
            "http://LOCALHOST",
            "http://x.localhost",
            "http://[::1]:9",
        ] {
            assert!(!in_clear_off_machine(u), "{u}");
        }
    }

    #[test]
    fn a_token_opens_only_under_its_binding() {
        let a = Binding::new("http://127.0.0.1:1/", "client-1");
        let sealed = a.seal(r#"{"access_token":"t","expires_at":5}"#);
        assert!(a.opens(&sealed));
        assert!(Binding::new("HTTP://127.0.0.1:1", "client-1").opens(&sealed));
        assert!(!Binding::new("http://localhost:1", "client-1").opens(&sealed));
        assert!(!Binding::new("http://127.0.0.1:1", "client-2").opens(&sealed));
        // A cache from before tokens were bound belongs to no service.
        assert!(!a.opens(r#"{"access_token":"t","expires_at":5}"#));
        assert!(!a.opens("not json"));
        assert_eq!(
            Binding::sealed_for(&sealed).as_deref(),
            Some("http://127.0.0.1:1")
        );
    }
}
