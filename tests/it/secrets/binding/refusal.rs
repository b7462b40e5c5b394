//! A profile logged in to one service, given another base URL: refused
//! before anything is sent (exit 3) and how to reach either; the same URL
//! written differently; environment credentials; `auth status`; `login`.

use crate::common;
use crate::common::login;

use common::faultserver::*;
use common::report::Scenario;
use common::sandbox;
use common::*;
use login::ylem_in;

use super::{against, assert_hidden, login_to, stored_values};

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
        // The stored secret is sealed with the service it was saved for, so
        // a config edited by hand would be refused for that alone: store it
        // bare, as before sealing, to be sealed with the edited service.
        std::fs::write(d.join("credentials/default.secret.json"), &a.secret).unwrap();
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
