//! The proxy a request goes through, as reqwest picks it from the
//! environment (`http_proxy`/`HTTP_PROXY` for `http://`, `https_proxy`/
//! `HTTPS_PROXY` for `https://`, then `all_proxy`/`ALL_PROXY`, skipped for a
//! host `no_proxy`/`NO_PROXY` names): so that a failure to connect names
//! the proxy and the variable it came from, not only the service.

use reqwest::Url;

/// The variable and the proxy (its password masked) `url` goes through.
pub fn in_use(r: &crate::secret::Redactor, url: &str) -> Option<(&'static str, String)> {
    let u = Url::parse(url).ok()?;
    let host = u.host_str()?.to_ascii_lowercase();
    if bypassed(&host) {
        return None;
    }
    let names: &[&'static str] = match u.scheme() {
        "https" => &["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"],
        _ => &["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"],
    };
    names.iter().find_map(|&k| {
        let v = std::env::var(k).ok().filter(|v| !v.trim().is_empty())?;
        Some((k, shown(r, &v)))
    })
}

/// A proxy URL as it may be shown: without its password.
fn shown(r: &crate::secret::Redactor, v: &str) -> String {
    match Url::parse(v) {
        Ok(mut p) => {
            if p.password().is_some() {
                let _ = p.set_password(Some("***"));
            }
            r.scrub(p.as_str().trim_end_matches('/'))
        }
        Err(_) => "(a value that is no URL)".into(),
    }
}

/// Whether `no_proxy`/`NO_PROXY` names `host`: `*`, the host, or a domain
/// it is in (`example.com`, `.example.com`).
fn bypassed(host: &str) -> bool {
    let list = std::env::var("no_proxy")
        .or_else(|_| std::env::var("NO_PROXY"))
        .unwrap_or_default();
    list.split(',')
        .map(|e| e.trim().to_ascii_lowercase())
        .any(|e| {
            let e = e.trim_start_matches('.');
            !e.is_empty() && (e == "*" || host == e || host.ends_with(&format!(".{e}")))
        })
}
