//! The network check: the base URL's host resolves, a TCP connection and
//! how long it takes, TLS (the chain verifies with the CA in use, days to
//! expiry, the name), and the proxy the environment puts in between.

use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::Url;
use ylem_client::diagnose::net::{self, Endpoint};
use ylem_client::diagnose::tls::{self, TlsFacts, Verdict};

use super::check::{Check, NETWORK, SET_UP};
use crate::context::Context;

const NAME: &str = "network";

/// A certificate that ends sooner is warned about.
const EXPIRY_WARN_DAYS: i64 = 14;

const TRUST_HINT: &str = "add the service's CA to the system's trust store, or point SSL_CERT_FILE at a PEM file holding it (SSL_CERT_DIR: a directory of them)";

pub async fn check(ctx: &Context, base_url: &str) -> Check {
    let ep = match net::endpoint(base_url) {
        Ok(ep) => ep,
        Err(e) => {
            return Check::fail(
                NAME,
                SET_UP,
                e.message(),
                "fix --base-url, YLEM_BASE_URL or the profile's base_url (e.g. https://ylem.example.com)",
            );
        }
    };
    let within = ctx.settings.connect_timeout;
    let proxy = proxy_for(&ctx.settings.proxy_env, &ep);
    let (target, through) = match &proxy {
        Some((var, url)) => match Url::parse(url).ok().and_then(|u| proxy_endpoint(&u)) {
            Some(p) => (p, format!(" through the proxy {var}={}", redacted(url))),
            None => {
                return Check::fail(
                    NAME,
                    NETWORK,
                    format!("the proxy {var}={} is not a URL", redacted(url)),
                    format!("fix or unset {var}"),
                );
            }
        },
        None => (ep.clone(), String::new()),
    };
    let addrs = match net::resolve(&target, within).await {
        Ok(a) => a,
        Err(e) => {
            return Check::fail(
                NAME,
                NETWORK,
                format!("{}{through}", e.message()),
                "check the host name in the base URL, and this machine's DNS",
            );
        }
    };
    let (stream, addr, took) = match net::connect(&addrs, within).await {
        Ok(c) => c,
        Err(e) => {
            return Check::fail(
                NAME,
                NETWORK,
                format!("{}{through}", e.message()),
                format!(
                    "is the service running and listening on port {}? check the base URL, a firewall or the proxy",
                    target.port
                ),
            );
        }
    };
    let reached = format!(
        "{}:{} resolves to {}; TCP connect to {addr} in {}{through}",
        target.host,
        target.port,
        list(&addrs),
        ms(took)
    );
    if proxy.is_some() || !ep.tls {
        let tls = match (proxy.is_some(), ep.tls) {
            (true, true) => "; TLS goes through the proxy's tunnel (checked by the requests below)",
            _ => "; plain http, no TLS",
        };
        let none = if proxy.is_none() { "; no proxy" } else { "" };
        return Check::ok(NAME, format!("{reached}{tls}{none}"));
    }
    match tls::handshake(stream, &ep.host, within + Duration::from_secs(5)).await {
        Ok(facts) => judge(&reached, &ep, &facts, ctx.settings.now),
        Err(e) => Check::fail(
            NAME,
            NETWORK,
            format!("{reached}; {}", e.message()),
            "is it an https service? if it speaks plain http, use http:// in the base URL; else check the port",
        ),
    }
}

/// The TLS facts, judged.
fn judge(reached: &str, ep: &Endpoint, f: &TlsFacts, now: DateTime<Utc>) -> Check {
    let expiry = f.not_after.map(|t| {
        let days = (t - now).num_days();
        let date = t.format("%Y-%m-%d");
        let said = match days {
            d if t < now => format!("expired {date} ({} days ago)", -d),
            0 => format!("expires {date} (today)"),
            d => format!("expires {date} (in {d} days)"),
        };
        (days, said)
    });
    let when = expiry.as_ref().map(|e| e.1.clone()).unwrap_or_default();
    let name = match f.name_matches {
        Some(true) => format!("the name matches {}", ep.host),
        Some(false) => format!("the certificate does not name {}", ep.host),
        None => "the name was not read".into(),
    };
    let version = f.version.clone().unwrap_or_else(|| "TLS".into());
    let fail = |what: String, hint: &str| {
        Check::fail(
            NAME,
            NETWORK,
            format!("{reached}; TLS: {what}; {name}; {when}"),
            hint,
        )
    };
    match &f.verdict {
        Verdict::UnknownIssuer => fail(
            "the certificate chain does not verify: no CA in the trust store issued it".into(),
            TRUST_HINT,
        ),
        Verdict::Expired => fail(
            "the certificate has expired".into(),
            "the service's certificate must be renewed (or this machine's clock is wrong)",
        ),
        Verdict::NameMismatch => fail(
            format!("the certificate is not for {}", ep.host),
            "use the host name the certificate names in the base URL",
        ),
        Verdict::Other(why) => fail(
            format!("the certificate is refused: {why}"),
            "check the service's certificate",
        ),
        Verdict::Trusted => {
            let detail =
                format!("{reached}; {version}, the chain verifies, {name}, {when}; no proxy");
            match expiry {
                Some((days, _)) if days < EXPIRY_WARN_DAYS => Check::warn(
                    NAME,
                    detail,
                    format!(
                        "the service's certificate ends in {days} days: have it renewed before then"
                    ),
                ),
                _ => Check::ok(NAME, detail),
            }
        }
    }
}

/// The proxy the environment sets for `ep`'s scheme, unless `NO_PROXY`
/// exempts its host: (variable, value).
fn proxy_for(env: &[(&'static str, String)], ep: &Endpoint) -> Option<(&'static str, String)> {
    let get = |names: &[&str]| {
        env.iter()
            .find(|(k, _)| names.contains(k))
            .map(|(k, v)| (*k, v.clone()))
    };
    let proxy = match ep.tls {
        true => get(&["HTTPS_PROXY", "https_proxy"]),
        false => get(&["HTTP_PROXY", "http_proxy"]),
    }
    .or_else(|| get(&["ALL_PROXY", "all_proxy"]))?;
    let exempt = get(&["NO_PROXY", "no_proxy"])
        .is_some_and(|(_, list)| list.split(',').any(|n| exempts(n.trim(), &ep.host)));
    (!exempt).then_some(proxy)
}

/// Whether one `NO_PROXY` entry exempts `host`, as reqwest reads it: `*`,
/// an IP address or a CIDR range (`127.0.0.0/8`, `::1/128`) for an IP
/// host, else the domain itself or any name under it (`.corp`, `corp`).
fn exempts(entry: &str, host: &str) -> bool {
    let entry = entry.trim_matches(['[', ']']);
    if entry == "*" {
        return true;
    }
    let ip = host
        .trim_matches(['[', ']'])
        .parse::<std::net::IpAddr>()
        .ok();
    if let (Some(ip), Some((net, bits))) = (ip, entry.split_once('/')) {
        let (Ok(net), Ok(bits)) = (net.parse::<std::net::IpAddr>(), bits.parse::<u32>()) else {
            return false;
        };
        let masked = |a: u128, width: u32| match bits {
            0 => 0,
            b if b >= width => a,
            b => a >> (width - b),
        };
        return match (ip, net) {
            (std::net::IpAddr::V4(a), std::net::IpAddr::V4(n)) => {
                masked(u32::from(a).into(), 32) == masked(u32::from(n).into(), 32)
            }
            (std::net::IpAddr::V6(a), std::net::IpAddr::V6(n)) => {
                masked(u128::from(a), 128) == masked(u128::from(n), 128)
            }
            _ => false,
        };
    }
    let n = entry.trim_start_matches("*.").trim_start_matches('.');
    !n.is_empty() && (host == n || host.ends_with(&format!(".{n}")))
}

fn proxy_endpoint(u: &Url) -> Option<Endpoint> {
    Some(Endpoint::new(
        u.host_str()?.trim_matches(['[', ']']),
        u.port_or_known_default().unwrap_or(3128),
        false,
    ))
}

/// A proxy URL without its credentials.
fn redacted(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut u) if !u.username().is_empty() || u.password().is_some() => {
            let _ = u.set_username("***");
            let _ = u.set_password(None);
            u.to_string()
        }
        Ok(u) => u.to_string(),
        Err(_) => "(not a URL)".into(),
    }
}

fn list(addrs: &[std::net::SocketAddr]) -> String {
    let ips: Vec<String> = addrs.iter().map(|a| a.ip().to_string()).collect();
    ips.join(", ")
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep(host: &str, tls: bool) -> Endpoint {
        Endpoint::new(host, 443, tls)
    }

    #[test]
    fn proxies_by_scheme_and_no_proxy() {
        let env = vec![
            ("HTTPS_PROXY", "http://u:pw@proxy:3128".to_string()),
            ("NO_PROXY", "internal.example, .corp".to_string()),
        ];
        assert_eq!(
            proxy_for(&env, &ep("api.example.com", true)).unwrap().0,
            "HTTPS_PROXY"
        );
        assert!(proxy_for(&env, &ep("api.example.com", false)).is_none());
        assert!(proxy_for(&env, &ep("internal.example", true)).is_none());
        assert!(proxy_for(&env, &ep("a.corp", true)).is_none());
        assert_eq!(redacted("http://u:pw@proxy:3128"), "http://***@proxy:3128/");
    }

    /// CIDR ranges exempt the IP hosts in them, as reqwest's NO_PROXY.
    #[test]
    fn no_proxy_takes_cidr_ranges() {
        for (entry, host, exempt) in [
            ("127.0.0.0/8", "127.0.0.1", true),
            ("127.0.0.0/8", "127.9.8.7", true),
            ("10.0.0.0/8", "127.0.0.1", false),
            ("192.168.1.0/24", "192.168.2.1", false),
            ("::1/128", "::1", true),
            ("[::1]", "::1", true),
            ("0.0.0.0/0", "127.0.0.1", true),
            ("127.0.0.0/8", "localhost", false),
            ("*.corp", "a.corp", true),
        ] {
            assert_eq!(exempts(entry, host), exempt, "{entry} {host}");
        }
        let env = vec![
            ("HTTP_PROXY", "http://proxy:3128".to_string()),
            ("NO_PROXY", "example.com, 127.0.0.0/8".to_string()),
        ];
        assert!(proxy_for(&env, &ep("127.0.0.1", false)).is_none());
    }

    /// An expired certificate says how long ago, not "in -3 days".
    #[test]
    fn an_expired_certificate_says_days_ago() {
        let now = chrono::Utc::now();
        let mut f = TlsFacts::new(Verdict::Expired);
        f.not_after = Some(now - chrono::Duration::days(3) - chrono::Duration::hours(1));
        f.name_matches = Some(true);
        let c = judge("reached", &ep("h", true), &f, now);
        assert!(c.detail.contains("3 days ago"), "{}", c.detail);
        assert!(!c.detail.contains("in -"), "{}", c.detail);
    }
}
