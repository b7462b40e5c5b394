//! The stored client secret is sealed with the service and client it was
//! saved for, as the cached token is: when the store and the config a
//! command read disagree (the profile logged in again elsewhere while a
//! long command ran, or its config edited by hand), the secret is not sent
//! and the command says why; a secret saved before sealing is sealed on
//! first use.

use crate::common::faultserver::*;
use crate::common::login::ylem_in;
use crate::common::sandbox;
use crate::common::*;

/// Log profile `default` in to a recording token server with the file store.
fn login_to_recorder(dir: &std::path::Path, s: &FaultServer) {
    let o = ylem_in(
        dir,
        &[
            "login",
            "--base-url",
            &s.base(),
            "--client-id",
            CLIENT_ID,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{SECRET}\n")),
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
}

fn creds(dir: &std::path::Path, item: &str) -> std::path::PathBuf {
    dir.join(format!("credentials/default.{item}.json"))
}

/// Token requests the server saw (their query holds the client secret).
fn token_requests(s: &FaultServer) -> Vec<String> {
    s.seen()
        .into_iter()
        .filter(|r| r.path.starts_with("/v1/oauth/token"))
        .map(|r| r.sent())
        .collect()
}

#[test]
fn another_services_secret_left_in_the_store_is_never_sent() {
    // Service A (records everything) and B (a sandbox), one profile each
    // in its own config directory.
    let a = with_token(|_, _| Action::Raw(json(200, STATS)));
    let b = sandbox::start("spec");
    let (da, db) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    login_to_recorder(da.path(), &a);
    let o = super::login_to(db.path(), &b.base, &b);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let sealed = std::fs::read_to_string(creds(da.path(), "secret")).unwrap();
    assert!(
        sealed.contains(&a.base()) && sealed.contains(CLIENT_ID),
        "the secret is sealed with its service and client: {sealed}"
    );

    // What a login of the same profile to B leaves under a command that
    // read A's config: B's secret in the store, no token usable for A.
    std::fs::copy(creds(db.path(), "secret"), creds(da.path(), "secret")).unwrap();
    std::fs::remove_file(creds(da.path(), "token")).unwrap();
    let before = token_requests(&a).len();
    let o = ylem_in(da.path(), &["stats", "pipeline", P1], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(
        o.stderr.contains("saved for")
            && o.stderr.contains(&b.base)
            && o.stderr.contains("nothing was sent"),
        "{}",
        o.stderr
    );
    assert_eq!(
        token_requests(&a).len(),
        before,
        "a token request reached A"
    );
    assert!(!o.all().contains(&b.secret));
    // auth status says the stored secret is not this service's.
    let o = ylem_in(da.path(), &["auth", "status", "-o", "json"], None, &[]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["secret_for_another_service"], true, "{v}");
    assert_eq!(v["secret_stored"], false, "{v}");
}

#[test]
fn a_config_edited_by_hand_does_not_move_the_secret() {
    let a = with_token(|_, _| Action::Raw(json(200, STATS)));
    let c = with_token(|_, _| Action::Raw(json(200, STATS)));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    login_to_recorder(d, &a);
    let config = std::fs::read_to_string(d.join("config.toml")).unwrap();
    std::fs::write(d.join("config.toml"), config.replace(&a.base(), &c.base())).unwrap();
    let o = ylem_in(d, &["stats", "pipeline", P1], None, &[]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("saved for"), "{}", o.stderr);
    assert!(c.seen().is_empty(), "{:?}", c.seen());
}

#[test]
fn a_secret_saved_before_sealing_is_used_and_sealed() {
    let a = with_token(|_, _| Action::Raw(json(200, STATS)));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    login_to_recorder(d, &a);
    // As an earlier version stored it: the bare secret, and no token.
    std::fs::write(creds(d, "secret"), SECRET).unwrap();
    std::fs::remove_file(creds(d, "token")).unwrap();
    let o = ylem_in(d, &["stats", "pipeline", P1], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let t = token_requests(&a);
    assert!(t.last().unwrap().contains(SECRET), "{t:?}");
    let now = std::fs::read_to_string(creds(d, "secret")).unwrap();
    assert!(now.contains(&a.base()) && now.contains(SECRET), "{now}");
}

/// A service is its origin and path prefix: a redirect to another prefix
/// of the same host is followed without the bearer token, and a base URL
/// with a user name or password in it is refused without echoing them.
#[test]
fn the_token_stays_within_the_path_prefix_and_urls_carry_no_password() {
    let s = FaultServer::start(|r, _| {
        if r.path.starts_with("/tenant-a/") {
            let next = r.path.replacen("/tenant-a/", "/tenant-b/", 1);
            Action::Raw(response(302, &[("location", &next)], b""))
        } else {
            Action::Raw(json(200, STATS))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let base = format!("{}/tenant-a", s.base());
    let env = [("YLEM_BASE_URL", base.as_str()), ("YLEM_TOKEN", TOKEN)];
    let o = ylem_in(dir.path(), &["stats", "task", P1], None, &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let seen = s.seen();
    let (a, b): (Vec<_>, Vec<_>) = seen.iter().partition(|r| r.path.starts_with("/tenant-a/"));
    assert_eq!((a.len(), b.len()), (1, 1), "{seen:?}");
    assert!(a[0].header("authorization").is_some());
    assert_eq!(
        b[0].header("authorization"),
        None,
        "bearer sent to /tenant-b"
    );

    let with_password = s.base().replace("http://", "http://admin:hunter2@");
    let env = [
        ("YLEM_BASE_URL", with_password.as_str()),
        ("YLEM_TOKEN", TOKEN),
    ];
    let before = s.seen().len();
    let o = ylem_in(dir.path(), &["stats", "task", P1], None, &env);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(!o.all().contains("hunter2"), "{}", o.all());
    assert_eq!(s.seen().len(), before, "nothing is sent");
}
