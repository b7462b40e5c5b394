//! What reaches a server: a redirect from 127.0.0.1 to localhost (another
//! host, same machine) carries no token and no secret; a token cached for
//! one URL is never sent to another; plain http to another machine warns.

use crate::common;
use crate::common::login;

use common::faultserver::*;
use common::report::Scenario;
use common::*;
use login::{TOKEN2, ylem_in};

#[test]
fn a_cross_host_redirect_carries_no_token_and_no_secret() {
    let mut sc = Scenario::new(
        "redirect-to-localhost",
        "secret",
        "a server on 127.0.0.1 redirecting to localhost (another host, same machine): a GET follows without the Authorization header; a token request answered 307 with its query is not followed, for a stored login and for environment credentials",
    );
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};
    let port: Arc<OnceLock<u16>> = Arc::default();
    let redirect_tokens = Arc::new(AtomicBool::new(false));
    let (p2, rt2) = (port.clone(), redirect_tokens.clone());
    let r = FaultServer::start(move |req, _| {
        let here = req.header("host").unwrap_or("").starts_with("127.0.0.1");
        let token = req.path.starts_with("/v1/oauth/token");
        let elsewhere = format!("http://localhost:{}{}", p2.get().unwrap(), req.path);
        match (here, token) {
            (true, true) if rt2.load(Ordering::SeqCst) => {
                Action::Raw(response(307, &[("location", &elsewhere)], b""))
            }
            (true, false) => Action::Raw(response(302, &[("location", &elsewhere)], b"")),
            (_, true) => token_response(),
            (false, false) => Action::Raw(json(200, STATS)),
        }
    });
    port.set(r.base().rsplit(':').next().unwrap().parse().unwrap())
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = login::login(d, &r.base(), SECRET);
    assert_eq!(o.code, 0, "{}", o.stderr);

    // A GET with the bearer header: redirected to localhost, followed bare.
    let o = ylem_in(d, &["stats", "task", P1, "-vv"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    sc.check(&o);
    let moved: Vec<Seen> = r
        .seen()
        .into_iter()
        .filter(|s| s.header("host").is_some_and(|h| h.starts_with("localhost")))
        .collect();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert_eq!(
        moved[0].header("authorization"),
        None,
        "bearer sent to localhost"
    );

    // A token request answered 307 with its own query: never followed.
    redirect_tokens.store(true, Ordering::SeqCst);
    std::fs::remove_file(d.join("credentials/default.token.json")).unwrap();
    let env_creds = [
        ("YLEM_BASE_URL", r.base()),
        ("YLEM_CLIENT_ID", CLIENT_ID.to_string()),
        ("YLEM_CLIENT_SECRET", SECRET.to_string()),
    ];
    let env_creds: Vec<(&str, &str)> = env_creds.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for env in [&[][..], &env_creds[..]] {
        let o = ylem_in(
            d,
            &["stats", "task", P1, "-vv", "--retries", "0"],
            None,
            env,
        );
        assert_ne!(o.code, 0, "{}", o.stderr);
        assert!(o.stderr.contains("307"), "{}", o.stderr);
        sc.check(&o);
    }
    let seen = r.seen();
    let to_localhost: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.header("host").is_some_and(|h| h.starts_with("localhost")))
        .collect();
    assert_eq!(to_localhost.len(), 1, "only the GET went: {to_localhost:?}");
    for s in &seen {
        let is_home = s.header("host").is_some_and(|h| h.starts_with("127.0.0.1"));
        assert!(
            is_home || !s.sent().contains(SECRET),
            "secret sent to {s:?}"
        );
        assert!(!s.path.contains(SECRET), "secret in a URL: {s:?}");
        assert!(is_home || s.header("authorization").is_none(), "{s:?}");
    }
    assert!(
        seen.iter()
            .filter(|s| s.body.contains("client_secret"))
            .count()
            >= 3,
        "login and two token requests at 127.0.0.1: {seen:?}"
    );
    sc.check_dir(d);
    sc.done();
}

#[test]
fn a_token_cached_for_one_url_is_never_used_for_another() {
    let mut sc = Scenario::new(
        "token-cache-bound",
        "secret",
        "after a login to a second URL, a token cached for the first (written late, or by a version that did not bind tokens) is never sent there, nor its refresh token: the second server sees only its own token",
    );
    let serve = |token: &'static str, refresh: &'static str| {
        let s = FaultServer::routed();
        s.on(route()
            .path("/v1/oauth/token")
            .body_has("grant_type=client_credentials")
            .answer(login::token_json(token, refresh, 86400)));
        s.on(route()
            .path_like("*/stats/*")
            .answer(json(200, login::STATS)));
        s
    };
    let w1 = serve(TOKEN, REFRESH);
    let w2 = serve(TOKEN2, login::REFRESH2);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cache = d.join("credentials/default.token.json");
    assert_eq!(login::login(d, &w1.base(), SECRET).code, 0);
    let w1_cache = std::fs::read_to_string(&cache).unwrap();
    assert!(w1_cache.contains(TOKEN));
    assert_eq!(login::login(d, &w2.base(), SECRET).code, 0);
    // The old token written back, as by a command of the first login that
    // renewed late; then as a version before binding wrote it.
    let mut unbound: serde_json::Value = serde_json::from_str(&w1_cache).unwrap();
    unbound.as_object_mut().unwrap().remove("base_url");
    unbound.as_object_mut().unwrap().remove("client_id");
    for stale in [w1_cache.clone(), unbound.to_string()] {
        std::fs::write(&cache, &stale).unwrap();
        let o = ylem_in(d, &["stats", "task", P1, "-vv"], None, &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        sc.check(&o);
    }
    let seen = w2.seen();
    let bearers: Vec<String> = seen
        .iter()
        .filter(|r| r.path_only().contains("/stats/"))
        .map(|r| r.header("authorization").unwrap().to_string())
        .collect();
    assert_eq!(bearers, vec![format!("Bearer {TOKEN2}"); 2]);
    for r in &seen {
        let q = r.path.split_once('?').map_or("", |(_, q)| q);
        assert!(!q.contains(REFRESH) && !q.contains(TOKEN), "{q}");
    }
    // One grant at login, one per stale cache: nothing was reused.
    let grants = login::grants(&w2, "client_credentials");
    assert_eq!(grants, 3);
    assert_eq!(login::grants(&w2, "refresh_token"), 0);
    assert!(w1.seen().len() == 1, "only the first login");
    sc.check_dir(d);
    sc.done();
}

#[test]
fn plain_http_to_another_machine_is_warned_about_once() {
    // The other machine is reached through a proxy on loopback: nothing
    // leaves this one.
    let proxy = with_token(|_, _| Action::Raw(json(200, STATS)));
    let env = |quiet: bool, base: &str| {
        let mut args = vec!["stats", "task", P1, P2];
        if quiet {
            args.push("-q");
        }
        let url = proxy.base();
        ylem(
            &args,
            &[
                ("YLEM_BASE_URL", base),
                ("YLEM_TOKEN", TOKEN),
                ("HTTP_PROXY", &url),
                ("http_proxy", &url),
            ],
        )
    };
    let o = env(false, "http://api.example.com");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stderr.matches("in clear").count(), 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("warning: http://api.example.com"),
        "{}",
        o.stderr
    );
    assert!(!o.all().contains(TOKEN));
    let o = env(true, "http://api.example.com");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    assert_eq!(proxy.api().len(), 4);
    let o = env(false, &proxy.base());
    assert!(!o.stderr.contains("in clear"), "{}", o.stderr);
}
