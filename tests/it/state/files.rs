//! Files: a corrupt config.toml is reported with its name and line and never
//! overwritten; saving a profile or an alias keeps everything else; a
//! corrupt token cache or secret file costs a token request or a clear
//! error, never a crash.

use crate::common;
use crate::common::login;

use std::path::Path;

use common::faultserver::*;
use common::report::Scenario;
use common::*;
use login::ylem_in;

/// Tokens for the right secret (or a refresh), 401 for anything else.
fn token_server() -> FaultServer {
    FaultServer::start(|r, _| {
        if r.path.starts_with("/v1/oauth/token") {
            if r.sent().contains(&format!("client_secret={SECRET}")) {
                token_response()
            } else {
                Action::Raw(json(
                    401,
                    r#"{"error":"invalid_client","error_description":"bad"}"#,
                ))
            }
        } else {
            Action::Raw(json(200, STATS))
        }
    })
}

fn grants(s: &FaultServer) -> usize {
    s.seen()
        .iter()
        .filter(|r| r.sent().contains("grant_type=client_credentials"))
        .count()
}

const CORRUPT: &str = "[profiles.default]\nbase_url = \"http://127.0.0.1:9\"\n\nbroken = = 1\n";

#[test]
fn a_corrupt_config_is_named_with_its_line_and_never_overwritten() {
    let mut sc = Scenario::new(
        "corrupt-config",
        "file",
        "a corrupt config.toml gives exit 2 naming file and line 4 for login, alias set/list and stats, and keeps its bytes",
    );
    let s = token_server();
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, CORRUPT).unwrap();
    let secret = format!("{SECRET}\n");
    let base = s.base();
    let login = [
        "login",
        "--base-url",
        &base,
        "--client-id",
        CLIENT_ID,
        "--client-secret-stdin",
        "--store",
        "file",
    ];
    let runs: [(&[&str], Option<&str>); 4] = [
        (&login, Some(&secret)),
        (&["alias", "set", "nightly", P1], None),
        (&["alias", "list"], None),
        (&["stats", "task", P1], None),
    ];
    for (args, stdin) in runs {
        let o = ylem_in(dir.path(), args, stdin, &[]);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains("config.toml at line 4"),
            "{args:?}: {}",
            o.stderr
        );
        assert_eq!(std::fs::read_to_string(&cfg).unwrap(), CORRUPT, "{args:?}");
        sc.check(&o);
    }
    // The failed login kept nothing of what it had stored.
    let left = std::fs::read_dir(dir.path().join("credentials"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(left, 0, "a login that failed left credentials behind");
    // Commands that need no config file still work beside a corrupt one.
    let env = [("YLEM_BASE_URL", base.as_str()), ("YLEM_TOKEN", TOKEN)];
    let o = ylem_in(dir.path(), &["stats", "task", P1], None, &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(std::fs::read_to_string(&cfg).unwrap(), CORRUPT);
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}

#[test]
fn saving_one_profile_or_alias_keeps_every_other() {
    let mut sc = Scenario::new(
        "config-keeps-others",
        "file",
        "login -p, alias set and alias remove keep other profiles, aliases, unknown keys and tables",
    );
    let s = token_server();
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    let start = format!(
        "[extra]\nnote = \"keep me\"\n\n[aliases]\nx = \"{P1}\"\ny = \"{P2}\"\n\n[profiles.a]\nbase_url = \"http://127.0.0.1:1\"\ncolour = \"blue\"\n\n[profiles.b]\nclient_id = \"b-client\"\n"
    );
    std::fs::write(&cfg, &start).unwrap();
    let base = s.base();
    for p in ["c", "a"] {
        let args = [
            "-p",
            p,
            "login",
            "--base-url",
            &base,
            "--client-id",
            CLIENT_ID,
            "--client-secret-stdin",
            "--store",
            "file",
        ];
        let o = ylem_in(dir.path(), &args, Some(&format!("{SECRET}\n")), &[]);
        assert_eq!(o.code, 0, "{}", o.stderr);
        sc.check(&o);
    }
    for args in [
        &["alias", "set", "z", P2][..],
        &["alias", "remove", "x"][..],
    ] {
        let o = ylem_in(dir.path(), args, None, &[]);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        sc.check(&o);
    }
    let t: toml::Table = toml::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    assert_eq!(t["extra"]["note"].as_str(), Some("keep me"));
    assert_eq!(t["aliases"]["y"].as_str(), Some(P2));
    assert_eq!(t["aliases"]["z"].as_str(), Some(P2));
    assert!(t["aliases"].get("x").is_none());
    assert_eq!(t["profiles"]["a"]["colour"].as_str(), Some("blue"));
    assert_eq!(t["profiles"]["a"]["base_url"].as_str(), Some(base.as_str()));
    assert_eq!(t["profiles"]["b"]["client_id"].as_str(), Some("b-client"));
    assert_eq!(t["profiles"]["c"]["client_id"].as_str(), Some(CLIENT_ID));
    sc.check_dir(dir.path());
    sc.done();
}

fn token_file(dir: &Path) -> std::path::PathBuf {
    dir.join("credentials/default.token.json")
}

#[test]
fn a_corrupt_token_cache_is_replaced_and_a_corrupt_secret_is_an_auth_error() {
    let mut sc = Scenario::new(
        "corrupt-credential-files",
        "file",
        "an empty, binary, wrongly typed or null token cache means one fresh token and a rewritten cache; a garbled secret exits 3 with a hint, no crash",
    );
    let s = token_server();
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(login::login(dir.path(), &s.base(), SECRET).code, 0);
    let garbage: [&[u8]; 5] = [
        b"",
        b"\xff\xfe\x00garbage\x80",
        br#"{"access_token": 5, "expires_at": "soon"}"#,
        b"null",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ];
    for g in garbage {
        std::fs::write(token_file(dir.path()), g).unwrap();
        let before = grants(&s);
        let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
        assert_eq!(o.code, 0, "{:?}: {}", String::from_utf8_lossy(g), o.stderr);
        assert_eq!(grants(&s), before + 1, "one fresh token");
        let cached: serde_json::Value =
            serde_json::from_slice(&std::fs::read(token_file(dir.path())).unwrap()).unwrap();
        assert_eq!(cached["access_token"], TOKEN, "the cache was rewritten");
        sc.check(&o);
    }
    std::fs::write(token_file(dir.path()), b"\x00").unwrap();
    std::fs::write(
        dir.path().join("credentials/default.secret.json"),
        b"\xff\x00\xfe",
    )
    .unwrap();
    let o = ylem_in(dir.path(), &["stats", "pipeline", P1], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(
        o.stderr.contains("hint:") && !o.stderr.contains("internal"),
        "{}",
        o.stderr
    );
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}
