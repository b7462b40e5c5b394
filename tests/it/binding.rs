//! Credentials stay with their service: a profile logged in to one sandbox
//! sends nothing to another base URL (recorded by a raw server), the same
//! URL written differently is the same service, environment credentials go
//! to the base URL in effect, a cross-host redirect carries no token and no
//! secret, and a token cached for one URL is never used for another.

use crate::common;
use crate::common::login;

use std::path::Path;

use common::faultserver::*;
use common::report::Scenario;
use common::sandbox::{self, Sandbox};
use common::*;
use login::{TOKEN2, ylem_in};

/// Log profile `default` in to `sb` with the file store.
fn login_to(dir: &Path, base: &str, sb: &Sandbox) -> Out {
    ylem_in(
        dir,
        &[
            "login",
            "--base-url",
            base,
            "--client-id",
            &sb.client_id,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{}\n", sb.secret)),
        &[],
    )
}

/// The values the profile's store holds (secret, access and refresh token):
/// none may ever be shown.
fn stored_values(dir: &Path) -> Vec<String> {
    let creds = dir.join("credentials");
    let mut out = vec![std::fs::read_to_string(creds.join("default.secret.json")).unwrap()];
    let token = std::fs::read_to_string(creds.join("default.token.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&token).unwrap();
    for k in ["access_token", "refresh_token"] {
        out.extend(v[k].as_str().map(str::to_string));
    }
    assert_eq!(out.len(), 3, "{token}");
    out
}

fn assert_hidden(o: &Out, values: &[String]) {
    for v in values {
        assert!(
            !o.all().contains(v.trim()),
            "a secret was shown:\n{}",
            o.all()
        );
    }
}

/// Run with `--base-url URL` (`env` false) or `YLEM_BASE_URL=URL`.
fn against(dir: &Path, url: &str, by_env: bool, args: &[&str]) -> Out {
    if by_env {
        ylem_in(dir, args, None, &[("YLEM_BASE_URL", url)])
    } else {
        let mut a = args.to_vec();
        a.extend(["--base-url", url]);
        ylem_in(dir, &a, None, &[])
    }
}

#[test]
fn a_profile_sends_nothing_to_another_base_url() {
    let mut sc = Scenario::new(
        "binding-other-base-url",
        "secret",
        "a profile logged in to one sandbox, given another base URL (--base-url or YLEM_BASE_URL; another port, or localhost for 127.0.0.1), exits 3 naming both URLs and the fixes, and the other server receives nothing: no request, no token, no secret",
    );
    let a = sandbox::start("spec");
    let b = FaultServer::start(|_, _| Action::Raw(json(200, STATS)));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(login_to(d, &a.base, &a).code, 0);
    let p = a.pipelines[0].0.as_str();
    let o = ylem_in(d, &["stats", "pipeline", p], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let hidden = stored_values(d);
    let elsewhere = [
        b.base(),
        b.base().replace("127.0.0.1", "localhost"),
        a.base.replace("127.0.0.1", "localhost"),
        format!("{}/v2", a.base),
    ];
    let commands: [&[&str]; 4] = [
        &["stats", "pipeline", p, "-vv"],
        &["auth", "token"],
        &["run", "pipeline", p],
        &["last-run", "pipeline", p, "-o", "json"],
    ];
    for url in &elsewhere {
        for by_env in [false, true] {
            for args in commands {
                let o = against(d, url, by_env, args);
                assert_eq!(o.code, 3, "{url} {args:?}: {}", o.stderr);
                assert!(o.stdout.is_empty(), "{}", o.stdout);
                let from = if by_env {
                    "YLEM_BASE_URL"
                } else {
                    "--base-url"
                };
                for want in [a.base.as_str(), url, from, "nothing was sent"] {
                    assert!(o.stderr.contains(want), "{want}: {}", o.stderr);
                }
                if args.contains(&"json") {
                    let v: serde_json::Value = serde_json::from_str(&o.stderr).unwrap();
                    assert_eq!(v["error"]["kind"], "auth", "{v}");
                } else {
                    for want in ["-p PROFILE", "login --base-url"] {
                        assert!(o.stderr.contains(want), "{want}: {}", o.stderr);
                    }
                }
                assert_hidden(&o, &hidden);
                sc.check(&o);
            }
        }
    }
    assert!(b.seen().is_empty(), "{:?}", b.seen());
    // Nothing changed in the store either: the profile still works.
    assert_eq!(stored_values(d), hidden);
    assert_eq!(ylem_in(d, &["stats", "pipeline", p], None, &[]).code, 0);
    sc.check_dir(d);
    sc.done();
}

#[test]
fn the_hint_names_a_profile_logged_in_to_the_other_url() {
    let (a, b) = (sandbox::start("spec"), sandbox::start("ylem"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(login_to(d, &a.base, &a).code, 0);
    let o = ylem_in(
        d,
        &[
            "-p",
            "staging",
            "login",
            "--base-url",
            &b.base,
            "--client-id",
            &b.client_id,
            "--client-secret-stdin",
        ],
        Some(&format!("{}\n", b.secret)),
        &[("YLEM_CREDENTIAL_STORE", "file")],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let p = b.pipelines[0].0.as_str();
    let o = ylem_in(
        d,
        &["stats", "pipeline", p],
        None,
        &[("YLEM_BASE_URL", &b.base)],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("-p staging"), "{}", o.stderr);
    assert!(o.stderr.contains("unset YLEM_BASE_URL"), "{}", o.stderr);
    // Following the hint works.
    let o = ylem_in(
        d,
        &["-p", "staging", "stats", "pipeline", p],
        None,
        &[("YLEM_BASE_URL", &b.base)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn the_same_url_written_differently_is_the_same_service() {
    let a = sandbox::start("spec");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let port = a.base.rsplit(':').next().unwrap().to_string();
    let saved = format!("http://localhost:{port}");
    assert_eq!(login_to(d, &saved, &a).code, 0);
    let p = a.pipelines[0].0.as_str();
    for url in [
        format!("http://localhost:{port}/"),
        format!("http://LOCALHOST:{port}//"),
        format!("HTTP://LocalHost:{port}"),
    ] {
        for by_env in [false, true] {
            let o = against(d, &url, by_env, &["stats", "pipeline", p, "-o", "json"]);
            assert_eq!(o.code, 0, "{url}: {}", o.stderr);
        }
    }
    // A default port written out is the same service: the command is not
    // refused (it fails to connect, or reaches whatever serves there).
    for (saved, written) in [
        ("http://127.0.0.1", "http://127.0.0.1:80/"),
        ("https://127.0.0.1/api", "https://127.0.0.1:443/api/"),
    ] {
        let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
        let edited = config.replace(
            &format!("\"{}\"", current_base(&config)),
            &format!("\"{saved}\""),
        );
        std::fs::write(d.join("config.toml"), edited).unwrap();
        let args = [
            "stats",
            "pipeline",
            p,
            "--retries",
            "0",
            "--connect-timeout",
            "2s",
        ];
        let o = against(d, written, false, &args);
        assert_ne!(o.code, 3, "{written}: {}", o.stderr);
        assert!(!o.stderr.contains("logged in to"), "{}", o.stderr);
        let other = written.replace("127.0.0.1:", "127.0.0.1:1");
        let o = against(d, &other, false, &args);
        assert_eq!(o.code, 3, "{other}: {}", o.stderr);
    }
}

/// The profile's base URL in a config file this test wrote.
fn current_base(config: &str) -> String {
    let t: toml::Table = config.parse().unwrap();
    t["profiles"]["default"]["base_url"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn environment_credentials_go_to_the_base_url_in_effect() {
    let (a, b) = (sandbox::start("spec"), sandbox::start("spec"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(login_to(d, &a.base, &a).code, 0);
    let hidden = stored_values(d);
    let p = b.pipelines[0].0.as_str();
    let creds = [
        ("YLEM_CLIENT_ID", b.client_id.as_str()),
        ("YLEM_CLIENT_SECRET", b.secret.as_str()),
    ];
    let with_env = [&creds[..], &[("YLEM_BASE_URL", b.base.as_str())]].concat();
    let o = ylem_in(d, &["stats", "pipeline", p, "-o", "json"], None, &with_env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = ylem_in(
        d,
        &["stats", "pipeline", p, "--base-url", &b.base],
        None,
        &creds,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_hidden(&o, &hidden);
    let o = ylem_in(d, &["auth", "token"], None, &with_env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let token = o.stdout.trim().to_string();
    let o = ylem_in(
        d,
        &[
            "last-run",
            "pipeline",
            p,
            "--base-url",
            &b.base,
            "-o",
            "json",
        ],
        None,
        &[("YLEM_TOKEN", &token)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_hidden(&o, &hidden);
    assert!(!o.all().contains(&token));
}

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
        assert!(is_home || !s.path.contains(SECRET), "secret sent to {s:?}");
        assert!(is_home || s.header("authorization").is_none(), "{s:?}");
    }
    assert!(
        seen.iter()
            .filter(|s| s.path.contains("client_secret"))
            .count()
            >= 3,
        "login and two token requests at 127.0.0.1: {seen:?}"
    );
    sc.check_dir(d);
    sc.done();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_cached_for_one_url_is_never_used_for_another() {
    use wiremock::matchers::{path, path_regex, query_param};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let mut sc = Scenario::new(
        "token-cache-bound",
        "secret",
        "after a login to a second URL, a token cached for the first (written late, or by a version that did not bind tokens) is never sent there, nor its refresh token: the second server sees only its own token",
    );
    let serve = |token: &'static str, refresh: &'static str| async move {
        let s = MockServer::start().await;
        Mock::given(path("/v1/oauth/token"))
            .and(query_param("grant_type", "client_credentials"))
            .respond_with(login::token_json(token, refresh, 86400))
            .mount(&s)
            .await;
        Mock::given(path_regex("/stats/"))
            .respond_with(ResponseTemplate::new(200).set_body_raw(login::STATS, "application/json"))
            .mount(&s)
            .await;
        s
    };
    let w1 = serve(TOKEN, REFRESH).await;
    let w2 = serve(TOKEN2, login::REFRESH2).await;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cache = d.join("credentials/default.token.json");
    assert_eq!(login::login(d, &w1.uri(), SECRET).code, 0);
    let w1_cache = std::fs::read_to_string(&cache).unwrap();
    assert!(w1_cache.contains(TOKEN));
    assert_eq!(login::login(d, &w2.uri(), SECRET).code, 0);
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
    let seen = w2.received_requests().await.unwrap();
    let bearers: Vec<String> = seen
        .iter()
        .filter(|r| r.url.path().contains("/stats/"))
        .map(|r| {
            r.headers
                .get("authorization")
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(bearers, vec![format!("Bearer {TOKEN2}"); 2]);
    for r in &seen {
        let q = r.url.query().unwrap_or("");
        assert!(!q.contains(REFRESH) && !q.contains(TOKEN), "{q}");
    }
    // One grant at login, one per stale cache: nothing was reused.
    let grants = login::grants(&w2, "client_credentials").await;
    assert_eq!(grants, 3);
    assert_eq!(login::grants(&w2, "refresh_token").await, 0);
    assert!(
        w1.received_requests().await.unwrap().len() == 1,
        "only the first login"
    );
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

#[test]
fn auth_status_says_which_url_the_stored_credentials_belong_to() {
    let (a, b) = (
        sandbox::start("spec"),
        FaultServer::start(|_, _| Action::Raw(json(200, STATS))),
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(login_to(d, &a.base, &a).code, 0);
    let hidden = stored_values(d);
    let o = ylem_in(d, &["auth", "status", "-o", "json"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["bound_to"], a.base.as_str(), "{v}");
    assert_eq!(v["base_url_refused"], false, "{v}");
    let o = ylem_in(d, &["auth", "status"], None, &[]);
    assert!(
        o.stdout.contains(&format!("bound_to:  {}", a.base)),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("sent only there"), "{}", o.stdout);

    let o = ylem_in(
        d,
        &["auth", "status", "-o", "json", "--base-url", &b.base()],
        None,
        &[],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["bound_to"], a.base.as_str(), "{v}");
    assert_eq!(v["base_url"], b.base().as_str(), "{v}");
    assert_eq!(
        (v["base_url_refused"].as_bool(), v["logged_in"].as_bool()),
        (Some(true), Some(false))
    );
    let o = ylem_in(
        d,
        &["auth", "status"],
        None,
        &[("YLEM_BASE_URL", &b.base())],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(
        o.stdout.contains("nothing: the stored login is for"),
        "{}",
        o.stdout
    );
    assert!(o.stderr.contains("unset YLEM_BASE_URL"), "{}", o.stderr);
    assert_hidden(&o, &hidden);
    assert!(b.seen().is_empty());
}

#[test]
fn a_profile_without_a_saved_base_url_sends_its_credentials_nowhere() {
    let b = FaultServer::start(|_, _| Action::Raw(json(200, STATS)));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("config.toml"),
        format!("[profiles.default]\nclient_id = \"{CLIENT_ID}\"\nstore = \"file\"\n"),
    )
    .unwrap();
    std::fs::create_dir_all(d.join("credentials")).unwrap();
    std::fs::write(d.join("credentials/default.secret.json"), SECRET).unwrap();
    let o = ylem_in(
        d,
        &["stats", "task", P1, "--base-url", &b.base()],
        None,
        &[],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("login --base-url URL"), "{}", o.stderr);
    assert!(!o.all().contains(SECRET));
    assert!(b.seen().is_empty());
}

#[test]
fn a_stale_ylem_base_url_does_not_get_a_login_s_secret() {
    let (a, b) = (sandbox::start("spec"), sandbox::start("spec"));
    let rec = FaultServer::start(|_, _| Action::Raw(json(200, STATS)));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(login_to(d, &a.base, &a).code, 0);
    // Logging in again with YLEM_BASE_URL left over from another service.
    let o = ylem_in(
        d,
        &["login", "--client-secret-stdin", "--store", "file"],
        Some(&format!("{}\n", a.secret)),
        &[("YLEM_BASE_URL", &rec.base())],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    for want in [
        a.base.as_str(),
        &rec.base(),
        "unset YLEM_BASE_URL",
        "login --base-url",
    ] {
        assert!(o.stderr.contains(want), "{want}: {}", o.stderr);
    }
    assert!(!o.all().contains(&a.secret));
    assert!(rec.seen().is_empty(), "{:?}", rec.seen());
    // Moving the profile takes an explicit --base-url, and says so.
    let o = login_to(d, &b.base, &b);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains(&format!("it was logged in to {}", a.base)),
        "{}",
        o.stderr
    );
    let p = b.pipelines[0].0.as_str();
    assert_eq!(ylem_in(d, &["stats", "pipeline", p], None, &[]).code, 0);
    let o = against(d, &a.base, true, &["stats", "pipeline", p]);
    assert_eq!(o.code, 3, "{}", o.stderr);
}
