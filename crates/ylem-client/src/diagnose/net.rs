//! The network under a base URL: its host and port, what the host resolves
//! to, and how long a TCP connection to it takes.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use reqwest::Url;
use tokio::net::TcpStream;

use crate::error::{Error, ErrorKind, Result};

/// Where a base URL leads.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Endpoint {
    /// The host as written in the URL (brackets of an IPv6 address removed).
    pub host: String,
    /// The port, the scheme's default when none is written.
    pub port: u16,
    /// `https`: a TLS handshake follows the connection.
    pub tls: bool,
}

impl Endpoint {
    /// `host:port`, with TLS or not (a proxy's, say).
    pub fn new(host: impl Into<String>, port: u16, tls: bool) -> Self {
        Endpoint {
            host: host.into(),
            port,
            tls,
        }
    }
}

/// The endpoint of `base_url`; an `Invalid` error if it names none.
pub fn endpoint(base_url: &str) -> Result<Endpoint> {
    let bad = |why: &str| Error::new(ErrorKind::Invalid, format!("{base_url}: {why}"));
    let url = Url::parse(base_url).map_err(|e| bad(&e.to_string()))?;
    let tls = match url.scheme() {
        "https" => true,
        "http" => false,
        other => {
            return Err(bad(&format!(
                "the scheme {other} is neither http nor https"
            )));
        }
    };
    let host = url.host_str().ok_or_else(|| bad("no host"))?;
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let port = url.port_or_known_default().ok_or_else(|| bad("no port"))?;
    Ok(Endpoint { host, port, tls })
}

/// The addresses `ep`'s host resolves to, within `within`.
pub async fn resolve(ep: &Endpoint, within: Duration) -> Result<Vec<SocketAddr>> {
    let fail = |why: String| {
        Error::network(format!("{} does not resolve: {why}", ep.host))
            .with_cause(crate::error::Cause::ConnectFailed)
    };
    let found = tokio::time::timeout(within, tokio::net::lookup_host((ep.host.as_str(), ep.port)))
        .await
        .map_err(|_| fail(format!("no answer within {} s", within.as_secs())))?
        .map_err(|e| fail(e.to_string()))?;
    let addrs: Vec<SocketAddr> = found.collect();
    if addrs.is_empty() {
        return Err(fail("no address".into()));
    }
    Ok(addrs)
}

/// A TCP connection made to the first of `addrs` that accepts one within
/// `within` each: the stream, where it went, and how long it took.
pub async fn connect(
    addrs: &[SocketAddr],
    within: Duration,
) -> Result<(TcpStream, SocketAddr, Duration)> {
    let mut last = String::from("no address");
    for addr in addrs {
        let began = Instant::now();
        match tokio::time::timeout(within, TcpStream::connect(addr)).await {
            Ok(Ok(s)) => return Ok((s, *addr, began.elapsed())),
            Ok(Err(e)) => last = format!("{addr}: {e}"),
            Err(_) => last = format!("{addr}: no answer within {} s", within.as_secs()),
        }
    }
    Err(Error::network(format!("cannot connect: {last}"))
        .with_cause(crate::error::Cause::ConnectFailed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_of_base_urls() {
        let e = endpoint("https://api.example.com").unwrap();
        assert_eq!(
            (e.host.as_str(), e.port, e.tls),
            ("api.example.com", 443, true)
        );
        let e = endpoint("http://[::1]:7339/prefix").unwrap();
        assert_eq!((e.host.as_str(), e.port, e.tls), ("::1", 7339, false));
        assert!(endpoint("ftp://x").is_err());
        assert!(endpoint("not a url").is_err());
    }
}
