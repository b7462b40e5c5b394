//! The user's modes are theirs: a config file of mode 644, 666 or 400
//! and a directory of 0750 keep their modes through writes (a read-only
//! file is refused, exit 2, unchanged); a non-root user (`setpriv`) with
//! a config directory of 0500 gets a clear error (exit 2) and the
//! directory stays 0500; a root-owned config file is not replaced by one
//! the user owns. New files and directories are private, lock files too.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

use crate::common::login::ylem_in;
use crate::common::{Out, P1, P2};

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn chmod(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

fn alias_set(dir: &Path, id: &str) -> Out {
    ylem_in(dir, &["alias", "set", "nightly", id], None, &[])
}

#[test]
fn existing_modes_are_kept_and_a_read_only_file_is_refused() {
    for m in [0o644, 0o666, 0o600, 0o640] {
        let d = tempfile::tempdir().unwrap();
        chmod(d.path(), 0o750);
        let config = d.path().join("config.toml");
        std::fs::write(&config, format!("[aliases]\nnightly = \"{P1}\"\n")).unwrap();
        chmod(&config, m);
        let o = alias_set(d.path(), P2);
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert_eq!(mode(&config), m, "config.toml of mode {m:o}");
        assert_eq!(mode(d.path()), 0o750, "the directory's mode");
        assert!(std::fs::read_to_string(&config).unwrap().contains(P2));
    }
    let d = tempfile::tempdir().unwrap();
    let config = d.path().join("config.toml");
    let text = format!("[aliases]\nnightly = \"{P1}\"\n");
    std::fs::write(&config, &text).unwrap();
    chmod(&config, 0o400);
    let o = alias_set(d.path(), P2);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("read-only") && o.stderr.contains("config.toml"),
        "{}",
        o.stderr
    );
    assert_eq!(mode(&config), 0o400);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);
}

#[test]
fn what_the_tool_creates_is_private_lock_files_included() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("new");
    assert_eq!(alias_set(&dir, P1).code, 0);
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join("config.toml")), 0o600);
    assert_eq!(mode(&dir.join(".config.lock")), 0o600);
    // The profile's renewal lock, made by a login.
    let sb = crate::common::sandbox::start_with("spec", &[]);
    assert_eq!(super::login(&dir, &sb, &[]).code, 0);
    assert_eq!(mode(&dir.join(".default.lock")), 0o600);
    assert_eq!(mode(&dir.join("credentials")), 0o700);
    assert_eq!(mode(&dir.join("credentials/default.secret.json")), 0o600);
}

/// `ylemctl` as user nobody (the tests run as root, who ignores modes).
fn as_nobody(dir: &Path, args: &[&str]) -> Out {
    let o = Command::new("setpriv")
        .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_ylemctl"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("YLEM_CONFIG_DIR", dir)
        .output()
        .expect("setpriv (util-linux)");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn nobody() -> (u32, u32) {
    let id = |f: &str| {
        let o = Command::new("id").args([f, "nobody"]).output().unwrap();
        String::from_utf8_lossy(&o.stdout)
            .trim()
            .parse::<u32>()
            .unwrap()
    };
    (id("-u"), id("-g"))
}

/// A directory nobody can enter (the test's temp dir is root's 0700).
fn shared_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    chmod(d.path(), 0o755);
    d
}

fn chown(p: &Path, (u, g): (u32, u32)) {
    std::os::unix::fs::chown(p, Some(u), Some(g)).unwrap();
}

#[test]
fn a_read_only_directory_stays_read_only_for_a_user() {
    let top = shared_dir();
    let dir = top.path().join("ylem");
    std::fs::create_dir(&dir).unwrap();
    let config = dir.join("config.toml");
    let text = format!("[aliases]\nnightly = \"{P1}\"\n");
    std::fs::write(&config, &text).unwrap();
    chown(&dir, nobody());
    chown(&config, nobody());
    chmod(&config, 0o600);
    chmod(&dir, 0o500);
    for args in [
        &["alias", "set", "nightly", P2][..],
        &["alias", "remove", "nightly"][..],
        &["alias", "set", "other", P2][..],
    ] {
        let o = as_nobody(&dir, args);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains("ermission denied"),
            "{args:?}: {}",
            o.stderr
        );
        assert!(!o.stderr.contains("internal"), "{}", o.stderr);
        assert_eq!(
            mode(&dir),
            0o500,
            "{args:?}: the directory was made writable"
        );
        assert_eq!(std::fs::read_to_string(&config).unwrap(), text);
    }
    // Reading still works.
    let o = as_nobody(&dir, &["alias", "list"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn a_root_owned_config_file_is_not_replaced_by_the_users() {
    let top = shared_dir();
    let dir = top.path().join("ylem");
    std::fs::create_dir(&dir).unwrap();
    chown(&dir, nobody());
    let config = dir.join("config.toml");
    let text = format!("[aliases]\nnightly = \"{P1}\"\n");
    std::fs::write(&config, &text).unwrap();
    chmod(&config, 0o644);
    let o = as_nobody(&dir, &["alias", "set", "nightly", P2]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("belongs to user 0"), "{}", o.stderr);
    assert_eq!(std::fs::metadata(&config).unwrap().uid(), 0);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);
    assert!(super::temps(&dir).is_empty());
}
