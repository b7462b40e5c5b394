//! Black-box tests of `login`, `logout` and `auth status|token` with the file
//! store, and of secret hygiene: the built binary with a clean environment
//! and `YLEM_CONFIG_DIR` in a temp dir, against a fault server on loopback;
//! client credentials fetch one token, in a form body, for many requests.

use crate::common;
use crate::common::login;

use common::faultserver::{self, FaultServer, route, text};
use common::*;
use login::*;

#[test]
fn login_with_the_file_store_then_use_status_token_and_logout() {
    let s = server(86400);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = login(d, &s.base(), SECRET);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_clean(&o, d);

    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    assert!(
        config.contains(&s.base()) && config.contains(CLIENT_ID),
        "{config}"
    );
    assert!(config.contains("store = \"file\""), "{config}");
    let creds = d.join("credentials");
    assert_eq!(mode(&creds), 0o700);
    let names: Vec<_> = std::fs::read_dir(&creds)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    for p in &names {
        assert_eq!(mode(p), 0o600, "{}", p.display());
    }
    let secret_file = std::fs::read_to_string(creds.join("default.secret.json")).unwrap();
    assert!(secret_file.contains(SECRET));

    // No env credentials, no base URL: the profile gives both.
    let o = ylem_in(d, &["stats", "task", P1, "-o", "json"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("num_of_successes"));

    let o = ylem_in(d, &["auth", "status"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains(CLIENT_ID) && o.stdout.contains("file"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("expires"), "{}", o.stdout);
    assert_clean(&o, d);
    // As values for scripts: no prose inside them.
    let o = ylem_in(d, &["auth", "status", "-o", "json"], None, &[]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["logged_in"], true, "{v}");
    assert_eq!(v["credentials_source"], "profile", "{v}");
    assert_eq!(v["base_url_source"], "profile", "{v}");
    assert!(!v["base_url"].as_str().unwrap().contains(' '), "{v}");
    let exp = v["token_expires_at"].as_str().unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(exp).is_ok(), "{v}");
    assert_clean(&o, d);

    let o = ylem_in(d, &["auth", "token"], None, &[]);
    assert_eq!(
        (o.code, o.stdout.as_str()),
        (0, format!("{TOKEN}\n").as_str()),
        "{}",
        o.stderr
    );
    // Asking for more life than the cached token has left gets a new one;
    // more than a new one has (tokens last 1 day here) is a clear error.
    let o = ylem_in(d, &["auth", "token", "--min-ttl", "2d"], None, &[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stdout.is_empty() && o.stderr.contains("--min-ttl"),
        "{}",
        o.stderr
    );
    assert_eq!(grants(&s, "refresh_token"), 1);
    assert_eq!(grants(&s, "client_credentials"), 1);

    let o = ylem_in(d, &["logout"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::read_dir(&creds).unwrap().count(), 0);
    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    assert!(
        config.contains(CLIENT_ID),
        "the profile entry stays: {config}"
    );
    let o = ylem_in(d, &["stats", "task", P1], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("ylemctl login"), "{}", o.stderr);
    let o = ylem_in(d, &["auth", "status"], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
}

#[test]
fn a_failed_login_saves_nothing_and_exits_3() {
    let s = server(86400);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        "[profiles.other]\nbase_url = \"http://o\"\n",
    )
    .unwrap();
    let o = login(dir.path(), &s.base(), "wrong-secret-value");
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(!o.all().contains("wrong-secret-value"), "{}", o.all());
    assert!(!dir.path().join("credentials").exists());
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap();
    assert_eq!(config, "[profiles.other]\nbase_url = \"http://o\"\n");
}

#[test]
fn a_corrupt_config_is_a_usage_error_and_is_kept() {
    let s = server(86400);
    let dir = tempfile::tempdir().unwrap();
    let bad = "[profiles.default]\nbase_url = \"http://x\"\nclient_id = = 1\n";
    std::fs::write(dir.path().join("config.toml"), bad).unwrap();
    let o = login(dir.path(), &s.base(), SECRET);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("config.toml at line 3"), "{}", o.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("config.toml")).unwrap(),
        bad
    );
    assert_eq!(grants(&s, "client_credentials"), 0);
}

#[test]
fn secrets_stay_out_of_output_and_config_on_failures() {
    let s = server(86400);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = login(d, &s.base(), SECRET);
    assert_clean(&o, d);
    for args in [
        vec!["auth", "status", "-vv"],
        vec!["auth", "status", "-o", "json"],
        vec!["stats", "task", P1, "-vv"],
    ] {
        let o = ylem_in(d, &args, None, &[]);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        assert_clean(&o, d);
    }
    // A bad secret at login, a server error, a refused connection.
    let o = ylem_in(
        d,
        &["login", "--client-secret-stdin", "--store", "file", "-vv"],
        Some("sec-WRONGWRONGWRONG"),
        &[],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(!o.all().contains("sec-WRONGWRONGWRONG"));
    assert_clean(&o, d);
    let broken = FaultServer::routed();
    broken.on(route().answer(text(500, TOKEN)));
    // A token goes to the broken server, which echoes it back. (Not the
    // profile's: its credentials go only to the service it logged in to.)
    for base in [broken.base(), "http://127.0.0.1:9".to_string()] {
        let o = ylem_in(
            d,
            &[
                "stats",
                "task",
                P1,
                "-vv",
                "--retries",
                "0",
                "--base-url",
                &base,
            ],
            None,
            &[("YLEM_TOKEN", TOKEN)],
        );
        assert!(matches!(o.code, 5 | 6), "{}: {}", o.code, o.stderr);
        assert_clean(&o, d);
    }
}

/// A profile whose store is the OS keyring, with no session bus (cron, SSH,
/// CI): `auth status` still shows what it knows (base URL, client id,
/// binding, store) with the store's state, the secret and token unknown.
/// Exit 3 when nothing else would authenticate (every command would fail
/// so: a script's `auth status ||` must see it); 0 with credentials from
/// the environment, which need no keyring.
#[test]
fn auth_status_shows_the_profile_when_the_keyring_cannot_be_reached() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("config.toml"),
        format!(
            "[profiles.default]\nbase_url = \"http://127.0.0.1:9\"\nclient_id = \"{CLIENT_ID}\"\nstore = \"keyring\"\n"
        ),
    )
    .unwrap();
    // No DBUS_SESSION_BUS_ADDRESS: `ylem_in` clears the environment.
    let o = ylem_in(d, &["auth", "status"], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    for line in [
        "base_url:  http://127.0.0.1:9 (from the profile)",
        &format!("client_id: {CLIENT_ID}"),
        "bound_to:  http://127.0.0.1:9",
        "store:     keyring",
        "state:     keyring unreachable: no OS keyring is reachable",
        "secret:    unknown",
        "in_use:    nothing: the stored login cannot be read",
    ] {
        assert!(o.stdout.contains(line), "{line:?} in:\n{}", o.stdout);
    }
    assert!(
        o.stderr
            .contains("error: the stored login of profile 'default' cannot be read: no OS keyring is reachable"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--store file"), "{}", o.stderr);

    let o = ylem_in(d, &["auth", "status", "-o", "json"], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["client_id"], CLIENT_ID, "{v}");
    assert_eq!(v["store"], "keyring", "{v}");
    assert!(
        v["store_state"]
            .as_str()
            .unwrap()
            .starts_with("keyring unreachable: "),
        "{v}"
    );
    assert_eq!(v["secret_stored"], serde_json::Value::Null, "unknown: {v}");
    assert_eq!(v["logged_in"], false, "{v}");

    let o = ylem_in(d, &["auth", "status"], None, &[("YLEM_TOKEN", TOKEN)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("state:     keyring unreachable"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("in_use:    YLEM_TOKEN"), "{}", o.stdout);
    assert!(!o.all().contains(TOKEN));
}

#[test]
fn client_credentials_fetch_one_token_for_many_requests() {
    let s = FaultServer::routed();
    let token = s.on(route()
        .method("POST")
        .path("/v1/oauth/token")
        .body_has("grant_type=client_credentials")
        .body_has(format!("client_id={CLIENT_ID}"))
        .body_has(format!("client_secret={SECRET}"))
        .answer(faultserver::json(200, &format!(
            r#"{{"access_token":"{TOKEN}","expires_in":86400,"refresh_token":"{REFRESH}","scope":"workflows:run","token_type":"Bearer"}}"#
        ))));
    s.on(route()
        .path_like("*/stats/*")
        .header("authorization", format!("Bearer {TOKEN}"))
        .answer(faultserver::json(200, STATS)));
    let env = vec![
        ("YLEM_BASE_URL", format!("{}/", s.base())),
        ("YLEM_CLIENT_ID", CLIENT_ID.to_string()),
        ("YLEM_CLIENT_SECRET", SECRET.to_string()),
    ];
    let o = run_env(&["stats", "task", P1, P2, "-vv", "-o", "json"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for secret in [SECRET, TOKEN, REFRESH] {
        assert!(!o.all().contains(secret), "secret leaked: {}", o.all());
    }
    assert!(o.stderr.contains("client_secret=***"), "{}", o.stderr);
    let r = s.seen();
    let token_req = &r[0];
    // The parameters in a form body, none in the URL.
    assert!(!token_req.path.contains('?'), "{}", token_req.path);
    assert_eq!(
        token_req.header("content-type").unwrap(),
        "application/x-www-form-urlencoded"
    );
    assert!(token_req.header("authorization").is_none());
    assert!(r.iter().all(|r| !r.path_only().contains("//")));
    assert_eq!(token.get(), 1, "one token request, for every request");
}
