//! The one mapping from an HTTP status and body, or a transport failure, to
//! an error kind, message and cause (a program words its hints from the
//! cause).

use std::time::Duration;

use reqwest::{Method, Response};

use super::redact::{describe, redact_url};
use crate::error::{Cause, Error, ErrorKind};
use crate::secret::Redactor;

/// Longest piece of a server's error text shown to a person.
const MAX_TEXT: usize = 300;

/// Turn a non-success response into an error, reading (a bounded part of) its body.
pub async fn from_response(r: &Redactor, resp: Response, method: &Method, path: &str) -> Error {
    let status = resp.status().as_u16();
    let retry_after = retry_after_header(&resp);
    let proxy = super::proxy::in_use(r, resp.url().as_str());
    let challenge = |h: &str| {
        resp.headers()
            .get(h)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    // The service asks for a bearer token; a Basic challenge (tinyproxy
    // answers 401 so) or a 407 on a request through a proxy is the proxy's.
    let by_proxy = proxy.is_some()
        && (status == 407
            || challenge("proxy-authenticate").is_some()
            || (status == 401
                && challenge("www-authenticate")
                    .is_some_and(|c| c.to_ascii_lowercase().starts_with("basic"))));
    // A redirect took the request elsewhere: a refusal there is not about
    // the caller's credentials, which never go outside the service.
    let asked = path.split('?').next().unwrap_or("");
    let target = resp.url().clone();
    // The path as the URL encodes it (a log window's space is `%20`).
    let asked = reqwest::Url::parse("http://x/")
        .and_then(|u| u.join(asked.trim_start_matches('/')))
        .map(|u| u.path().to_string())
        .unwrap_or_default();
    let redirected = asked.len() > 1 && !target.path().ends_with(&asked);
    let body = read_limited(resp, 64 * 1024).await;
    if redirected && matches!(status, 401 | 403) {
        let mut shown = target;
        shown.set_query(None);
        let shown = super::redact::redact_url(r, shown.as_str());
        return Error::server(format!(
            "HTTP {status} from {shown}, where a redirect from the service led: the token is sent only within the service's origin and path, so it was not sent there; the redirect, not the credentials, is wrong"
        ))
        .with_status(status);
    }
    if let (true, Some((var, p))) = (by_proxy, proxy) {
        return Error::network(format!(
            "the proxy {p} (from {var}) refused the request (HTTP {status}): its user and password are missing or wrong; the service was not reached"
        ))
        .with_status(status)
        .with_cause(Cause::ProxyFailed { proxy: p, var: var.to_string() });
    }
    let e = from_status(r, status, &body, method, path);
    match status {
        429 => rate_limited(r, e, retry_after.as_deref(), method, path),
        _ => e,
    }
}

/// A response's `Retry-After` as sent (trimmed, at most 40 characters).
pub fn retry_after_header(resp: &Response) -> Option<String> {
    resp.headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().chars().take(40).collect::<String>())
}

/// An error whose response asked for a wait that is not made (`beyond`
/// says why: past the deadline, or past the total cap): the wait named,
/// as the service asked it, so the error is not a bare status.
pub fn asked_to_wait(
    r: &Redactor,
    e: Error,
    asked: Duration,
    header: Option<&str>,
    beyond: &str,
) -> Error {
    let header = header.map_or_else(String::new, |h| format!(" (Retry-After: {})", r.scrub(h)));
    let wait = crate::time::human_ms(asked.as_millis().min(i64::MAX as u128) as i64);
    Error {
        message: format!(
            "{}; the service asked to wait {wait}{header}, {beyond}",
            e.message
        ),
        ..e
    }
}

/// A final 429: what the service asked for.
fn rate_limited(
    r: &Redactor,
    e: Error,
    retry_after: Option<&str>,
    method: &Method,
    path: &str,
) -> Error {
    let shown = path.split('?').next().unwrap_or("");
    let asked = match retry_after {
        Some(v) => format!("the service asked to wait (Retry-After: {})", r.scrub(v)),
        None => "the service gave no Retry-After".to_string(),
    };
    Error {
        message: format!("rate limited (HTTP 429) for {method} {shown}: {asked}"),
        ..e
    }
    .with_cause(match *method == Method::POST && shown.ends_with("/runs/") {
        true => Cause::RateLimitedRunStart,
        false => Cause::RateLimited,
    })
}

async fn read_limited(mut resp: Response, limit: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while let Ok(Some(chunk)) = resp.chunk().await {
        out.extend_from_slice(&chunk);
        if out.len() >= limit {
            out.truncate(limit);
            break;
        }
    }
    out
}

/// What the server said, from whichever error body shape it used.
pub fn server_text(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        // {"error": CODE, "error_description": TEXT} from the token endpoint.
        if let Some(d) = v.get("error_description").and_then(|d| d.as_str()) {
            let code = v.get("error").and_then(|c| c.as_str()).unwrap_or("");
            return Some(format!("{d} ({code})"));
        }
        // {"code":400,"message":"Bad Request","errors":["..."]} from statistics.
        let msg = v
            .get("message")
            .and_then(|m| m.as_str())
            .map(str::to_string);
        let errs: Vec<String> = v
            .get("errors")
            .and_then(|e| e.as_array())
            .map(|a| {
                a.iter()
                    .map(|e| {
                        e.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| e.to_string())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let joined = match (msg, errs.is_empty()) {
            (Some(m), false) => format!("{m}: {}", errs.join("; ")),
            (Some(m), true) => m,
            (None, false) => errs.join("; "),
            (None, true) => v
                .get("error")
                .map(|e| e.to_string())
                .unwrap_or_else(|| text.to_string()),
        };
        return Some(shorten(&joined));
    }
    // Plain text (`404 page not found`) or an HTML error page: its first line.
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if first.starts_with('<') {
        return Some("an HTML error page".into());
    }
    Some(shorten(first))
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= MAX_TEXT {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(MAX_TEXT).collect::<String>())
    }
}

/// Map a status and body to an error with its cause.
pub fn from_status(r: &Redactor, status: u16, body: &[u8], method: &Method, path: &str) -> Error {
    // Whatever the status, a body may carry tokens (a token endpoint that
    // answers a token with 400): none reaches a message or `server_body`.
    let body = match path.starts_with("/v1/oauth/token") {
        true => super::redact::redact_token_body(r, &String::from_utf8_lossy(body)).into_bytes(),
        false => super::redact::redact_body(r, body),
    };
    let body = &body[..];
    let said = server_text(body)
        .map(|t| format!(": {t}"))
        .unwrap_or_default();
    let is_token = path.starts_with("/v1/oauth/token");
    let is_run_start = *method == Method::POST && path.ends_with("/runs/");
    let is_workflow =
        path.starts_with("/v1/workflows/") || path.starts_with("/v1/stats/workflows/");
    let is_stats = path.starts_with("/v1/stats/");
    let shown = redact_url(r, path);
    let shown = shown.split('?').next().unwrap_or("").to_string();
    let not_found = format!("not found (HTTP 404) for {method} {shown}{said}");
    let forbidden = format!("forbidden (HTTP 403) for {method} {shown}");
    let err = match status {
        401 if is_token => {
            Error::auth(format!("the service rejected the client credentials{said}"))
                .with_cause(Cause::CredentialsRejected)
        }
        401 => Error::auth(format!(
            "not authorised (HTTP 401) for {method} {shown}{said}"
        ))
        .with_cause(Cause::Unauthorized),
        // The statistics handlers check the organisation only when a query
        // found rows: an unknown UUID gets no 403 there.
        403 if is_stats => {
            Error::auth(format!("{forbidden}{said}")).with_cause(Cause::ForbiddenStats)
        }
        403 if is_run_start && body.iter().all(u8::is_ascii_whitespace) => {
            Error::auth(forbidden).with_cause(Cause::ForbiddenRunStart)
        }
        403 => Error::auth(format!("{forbidden}{said}")).with_cause(Cause::Forbidden),
        404 if is_workflow => {
            Error::new(ErrorKind::NotFound, not_found).with_cause(Cause::NotFoundWorkflow)
        }
        404 if is_token => {
            Error::new(ErrorKind::NotFound, not_found).with_cause(Cause::NotFoundTokenEndpoint)
        }
        404 if is_run_start => {
            Error::new(ErrorKind::NotFound, not_found).with_cause(Cause::NotFoundRunStart)
        }
        404 => Error::new(ErrorKind::NotFound, not_found).with_cause(Cause::NotFound),
        // Only a proxy answers 407: the service never saw the request.
        407 => {
            let proxy = super::proxy::in_use(r, path).map_or_else(
                || "the proxy".to_string(),
                |(var, p)| format!("the proxy {p} (from {var})"),
            );
            Error::network(format!(
                "{proxy} refused the request (HTTP 407 Proxy Authentication Required): its user and password are missing or wrong"
            ))
        }
        // The Ylem server's answer to a client id it does not know: an
        // authentication problem, not an outage.
        500 if is_token && server_error(body) => {
            Error::auth(format!("the token endpoint failed (HTTP 500){said}"))
                .with_cause(Cause::UnknownClient)
        }
        500 if is_token => Error::server(format!("the token endpoint failed (HTTP 500){said}"))
            .with_cause(Cause::TokenEndpointFailed),
        _ if is_run_start && status >= 500 => {
            Error::server(format!("the run start failed (HTTP {status}){said}"))
                .with_may_have_started()
        }
        _ if status >= 500 => Error::server(format!(
            "server error (HTTP {status}) for {method} {shown}{said}"
        )),
        _ => Error::server(format!(
            "unexpected HTTP {status} for {method} {shown}{said}"
        )),
    };
    err.with_status(status).with_server_body(body)
}

/// An OAuth error body whose code is `server_error`.
fn server_error(body: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .is_some_and(|v| v.get("error").and_then(|c| c.as_str()) == Some("server_error"))
}

/// Map a transport failure (no response) to an error. Shows the base URL
/// (redacted, without its query) only, never the request's own URL.
pub fn from_transport(
    r: &Redactor,
    e: reqwest::Error,
    method: &Method,
    base: &str,
    path: &str,
    timeout: Duration,
) -> Error {
    let is_run_start = *method == Method::POST && path.ends_with("/runs/");
    let base = redact_url(r, base);
    let base = base.split(['?', '#']).next().unwrap_or("");
    let waited = crate::time::human_ms(timeout.as_millis() as i64);
    let err = if e.is_timeout() && e.is_connect() {
        Error::network(format!(
            "cannot connect to the service at {base} within the connect timeout ({method} request)"
        ))
        .with_cause(Cause::ConnectTimeout {
            base: base.to_string(),
            method: method.to_string(),
        })
    } else if e.is_timeout() && path.contains("/logs/") {
        Error::network(format!("no response for {waited} ({method} request)"))
            .with_cause(Cause::NoResponseLog)
    } else if e.is_timeout() {
        Error::network(format!("no response for {waited} ({method} request)"))
            .with_cause(Cause::NoResponse)
    } else if is_untrusted_certificate(&e) {
        Error::network(format!(
            "TLS: the service's certificate is not trusted: {}",
            describe(r, &e)
        ))
        .with_cause(Cause::UntrustedCertificate)
    } else if e.is_connect() {
        Error::network(format!(
            "cannot connect to the service at {base}: {}",
            describe(r, &e)
        ))
        .with_cause(Cause::ConnectFailed)
    } else if e.is_decode() || e.is_body() {
        body_error(r, &e)
    } else {
        Error::network(format!("request failed: {}", describe(r, &e)))
    };
    let err = match super::proxy::in_use(r, &format!("{base}{path}")) {
        // Not the service: the proxy in between could not be reached, or
        // refused the tunnel.
        Some((var, proxy)) if e.is_connect() => Error {
            message: format!(
                "cannot connect through the proxy {proxy} (from {var}) to the service at {base}: {}",
                describe(r, &e)
            ),
            ..err
        }
        .with_cause(Cause::ProxyFailed {
            proxy,
            var: var.to_string(),
        }),
        _ => err,
    };
    let started = is_run_start && (e.is_timeout() || !e.is_connect());
    // Kept as the source without its URL: the request's may hold a secret.
    let err = err.with_source(e.without_url());
    match started {
        true => err.with_may_have_started(),
        false => err,
    }
}

/// A certificate the TLS layer refused (rustls names the reason in its
/// error, which reqwest keeps in the source chain).
fn is_untrusted_certificate(e: &reqwest::Error) -> bool {
    let mut src: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = src {
        if s.to_string().contains("certificate") {
            return true;
        }
        src = s.source();
    }
    false
}

/// A failure while the body of a successful response arrived. A body that
/// stops early is a server's failure; only the read timeout running out
/// while it trickled in is a network failure.
pub fn from_body(r: &Redactor, e: reqwest::Error) -> Error {
    body_error(r, &e).with_source(e.without_url())
}

fn body_error(r: &Redactor, e: &reqwest::Error) -> Error {
    if e.is_timeout() {
        Error::network("the response stalled: no data for the read timeout")
            .with_cause(Cause::Stalled)
    } else {
        Error::server(format!(
            "the response was cut off before it was complete: {}",
            describe(r, e)
        ))
    }
}

/// Decode a JSON body, naming the field that does not fit (serde_json's own
/// message gives only a line and column).
pub fn decode_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let v = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let at = e.path().to_string();
        if at == "." {
            e.inner().to_string()
        } else {
            format!("field `{at}`: {}", e.inner())
        }
    })?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_of_each_shape() {
        assert_eq!(server_text(b"").as_deref(), None);
        assert_eq!(
            server_text(b"404 page not found\n").as_deref(),
            Some("404 page not found")
        );
        assert_eq!(
            server_text(br#"{"code":400,"message":"Bad Request","errors":["bad uuid"]}"#)
                .as_deref(),
            Some("Bad Request: bad uuid")
        );
        assert_eq!(
            server_text(
                br#"{"error":"invalid_client","error_description":"Client authentication failed"}"#
            )
            .as_deref(),
            Some("Client authentication failed (invalid_client)")
        );
        assert_eq!(
            server_text(b"<html><body>Bad gateway</body></html>").as_deref(),
            Some("an HTML error page")
        );
    }

    #[test]
    fn statuses_map_to_kinds() {
        let g = Method::GET;
        assert_eq!(
            from_status(&Redactor::new(), 401, b"", &g, "/v1/stats/x").kind,
            ErrorKind::Auth
        );
        assert_eq!(
            from_status(&Redactor::new(), 403, b"", &g, "/v1/stats/x").kind,
            ErrorKind::Auth
        );
        assert_eq!(
            from_status(&Redactor::new(), 404, b"", &g, "/v1/stats/x").kind,
            ErrorKind::NotFound
        );
        assert_eq!(
            from_status(&Redactor::new(), 502, b"", &g, "/v1/stats/x").kind,
            ErrorKind::Server
        );
        let e = from_status(
            &Redactor::new(),
            500,
            b"",
            &Method::POST,
            "/v1/pipelines/x/runs/",
        );
        assert!(e.may_have_started);
        let e = from_status(
            &Redactor::new(),
            404,
            b"404 page not found",
            &g,
            "/v1/stats/workflows/x/last-run/stats",
        );
        assert!(matches!(e.cause, Cause::NotFoundWorkflow));
    }

    #[test]
    fn an_unknown_client_id_is_an_auth_error() {
        let body = br#"{"error":"server_error","error_description":"The authorization server encountered an unexpected condition"}"#;
        let e = from_status(
            &Redactor::new(),
            500,
            body,
            &Method::POST,
            "/v1/oauth/token",
        );
        assert_eq!(e.kind, ErrorKind::Auth);
        assert!(matches!(e.cause, Cause::UnknownClient));
        // Any other 500 of the token endpoint stays a server error.
        let e = from_status(
            &Redactor::new(),
            500,
            b"oops",
            &Method::POST,
            "/v1/oauth/token",
        );
        assert_eq!(e.kind, ErrorKind::Server);
    }

    #[test]
    fn a_final_429_names_the_wait() {
        let e = from_status(&Redactor::new(), 429, b"", &Method::GET, "/v1/stats/x");
        let e = rate_limited(
            &Redactor::new(),
            e,
            Some("120"),
            &Method::GET,
            "/v1/stats/x",
        );
        assert!(e.message.contains("Retry-After: 120"), "{}", e.message);
        assert!(!e.message.contains("unexpected"), "{}", e.message);
        assert!(matches!(e.cause, Cause::RateLimited));
        assert_eq!(e.status, Some(429));
    }

    #[test]
    fn the_server_body_is_kept_as_data() {
        let e = from_status(
            &Redactor::new(),
            403,
            b" {\"code\":403} \n",
            &Method::GET,
            "/v1/stats/x",
        );
        assert_eq!(e.server_body.as_deref(), Some("{\"code\":403}"));
        assert_eq!(
            from_status(&Redactor::new(), 403, b"  ", &Method::GET, "/v1/stats/x").server_body,
            None
        );
    }
}
