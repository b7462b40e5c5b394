//! Files and values at their edges, through the built binary against a
//! recording server: a config that is a directory, a link loop, a device,
//! a FIFO, invalid UTF-8 or too big, a config directory that is a file, a
//! base URL that does not parse or ends in `/v1`, an `--input` that is a
//! FIFO or a device: each exits 2 naming what is wrong, at once, and no
//! request reaches the server. (`YLEM_TZ` in `output/zones.rs`, with the same
//! helpers.)

use std::path::Path;
use std::time::Duration;

use crate::common;

use common::faultserver::*;
use common::report::Scenario;
use common::*;

/// A server that would answer everything, to count what reached it.
pub fn recorder() -> FaultServer {
    FaultServer::start(|r, _| {
        if r.path.starts_with("/v1/oauth/token") {
            token_response()
        } else {
            Action::Raw(json(200, STATS))
        }
    })
}

/// Run with client credentials to `base` (none without it) and `dir` as
/// the config directory, under a
/// a guard: a read that blocks (a FIFO) fails the test instead of hanging it.
pub fn guarded(dir: &Path, base: &str, args: &[&str], extra: &[(&str, &str)]) -> Out {
    // Without a base URL, no credentials either: the profile is read.
    let mut env = vec![("YLEM_CONFIG_DIR", dir.to_str().unwrap())];
    if !base.is_empty() {
        env.extend([
            ("YLEM_BASE_URL", base),
            ("YLEM_CLIENT_ID", CLIENT_ID),
            ("YLEM_CLIENT_SECRET", SECRET),
        ]);
    }
    env.extend_from_slice(extra);
    let env: Vec<(String, String)> = env
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let e: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let _ = tx.send(ylem(&a, &e));
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("ylemctl did not end within 30 s: a read blocked")
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A config directory prepared by `make`, and what the message must name.
type Case = (&'static str, fn(&Path) -> std::path::PathBuf, &'static str);

fn config_cases() -> Vec<Case> {
    vec![
        (
            "a directory",
            |d| {
                std::fs::create_dir(d.join("config.toml")).unwrap();
                d.to_path_buf()
            },
            "a directory, not a regular file",
        ),
        (
            "a link loop",
            |d| {
                std::os::unix::fs::symlink(d.join("b"), d.join("config.toml")).unwrap();
                std::os::unix::fs::symlink(d.join("config.toml"), d.join("b")).unwrap();
                d.to_path_buf()
            },
            "loop of symbolic links",
        ),
        (
            "invalid UTF-8",
            |d| {
                std::fs::write(d.join("config.toml"), b"[aliases]\nx = \"\xff\"\n").unwrap();
                d.to_path_buf()
            },
            "not UTF-8 text",
        ),
        (
            "/dev/zero by a link",
            |d| {
                std::os::unix::fs::symlink("/dev/zero", d.join("config.toml")).unwrap();
                d.to_path_buf()
            },
            "a character device, not a regular file",
        ),
        (
            "a FIFO",
            |d| {
                mkfifo(&d.join("config.toml"));
                d.to_path_buf()
            },
            "a FIFO (named pipe), not a regular file",
        ),
        (
            "too big",
            |d| {
                let f = std::fs::File::create(d.join("config.toml")).unwrap();
                f.set_len(2 << 20).unwrap();
                d.to_path_buf()
            },
            "larger than 1 MiB",
        ),
        (
            "a config directory that is a file",
            |d| {
                let f = d.join("cfg");
                std::fs::write(&f, "x").unwrap();
                f
            },
            "is a file, not a directory",
        ),
        (
            "a bad base_url",
            |d| {
                std::fs::write(
                    d.join("config.toml"),
                    "[profiles.default]\nbase_url = \"ht tp://127.0.0.1:9\"\nclient_id = \"c\"\n",
                )
                .unwrap();
                d.to_path_buf()
            },
            "invalid base URL 'ht tp://127.0.0.1:9'",
        ),
        (
            "a base_url ending in /v1",
            |d| {
                std::fs::write(
                d.join("config.toml"),
                "[profiles.default]\nbase_url = \"http://127.0.0.1:9/v1/\"\nclient_id = \"c\"\n",
            )
            .unwrap();
                d.to_path_buf()
            },
            "ends in /v1; give the service root",
        ),
    ]
}

#[test]
fn every_config_edge_exits_2_naming_it_and_sends_nothing() {
    let mut sc = Scenario::new(
        "config-edges",
        "input",
        "a config.toml that is a directory, a link loop, invalid UTF-8, /dev/zero, a FIFO or over 1 MiB, a config directory that is a file, a base_url that does not parse or ends in /v1: exit 2 naming it, with the base URL from the profile or the environment, and no request sent",
    );
    let s = recorder();
    // Commands that need the config: an alias, the profile's base URL,
    // the alias list. (One that needs nothing of it does not read it.)
    let base = s.base();
    let runs: [(&str, &[&str]); 4] = [
        (&base, &["last-run", "task", "nightly"]),
        (&base, &["alias", "list"]),
        ("", &["stats", "pipeline", P1]),
        ("", &["last-run", "task", "nightly", "-o", "json"]),
    ];
    let mut tried = 0;
    for (what, make, says) in config_cases() {
        for (base, cmd) in runs {
            let tmp = tempfile::tempdir().unwrap();
            let dir = make(tmp.path());
            let o = guarded(&dir, base, cmd, &[]);
            tried += 1;
            sc.check(&o);
            assert_eq!(o.code, 2, "{what}, {cmd:?}: {}", o.stderr);
            assert!(o.stderr.contains(says), "{what}, {cmd:?}: {}", o.stderr);
            assert!(!o.stderr.contains("internal"), "{what}: {}", o.stderr);
        }
    }
    assert_eq!(s.seen().len(), 0, "nothing reaches the server");
    sc.cases(tried);
    sc.done();
}

#[test]
fn a_bad_base_url_from_a_flag_or_the_environment_is_named_as_such() {
    let mut sc = Scenario::new(
        "base-url-edges",
        "input",
        "a base URL that does not parse or ends in /v1, from --base-url or YLEM_BASE_URL: exit 2 naming it as an invalid base URL, nothing sent",
    );
    let tmp = tempfile::tempdir().unwrap();
    let mut tried = 0;
    for (url, says) in [
        (
            "ht tp://127.0.0.1:9",
            "invalid base URL 'ht tp://127.0.0.1:9'",
        ),
        (
            "http://127.0.0.1:9/v1",
            "ends in /v1; give the service root",
        ),
        (
            "http://127.0.0.1:9/v1/",
            "ends in /v1; give the service root",
        ),
        (
            "http://127.0.0.1:9/api/v1",
            "ends in /v1; give the service root",
        ),
        ("127.0.0.1:9", "invalid base URL"),
    ] {
        for o in [
            guarded(tmp.path(), url, &["stats", "pipeline", P1], &[]),
            guarded(
                tmp.path(),
                "",
                &["--base-url", url, "stats", "pipeline", P1],
                &[],
            ),
        ] {
            tried += 1;
            sc.check(&o);
            assert_eq!(o.code, 2, "{url}: {}", o.stderr);
            assert!(o.stderr.contains(says), "{url}: {}", o.stderr);
        }
    }
    sc.cases(tried);
    sc.done();
}

#[test]
fn an_input_that_is_a_fifo_or_a_device_is_refused_at_once() {
    let mut sc = Scenario::new(
        "input-edges",
        "input",
        "--input @FIFO (no writer), @/dev/zero, @/dev/null, a directory or a link to a device, and --decrypt-key-file of the same kinds: exit 2 at once, nothing sent",
    );
    let s = recorder();
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("in.fifo");
    mkfifo(&fifo);
    let zero = tmp.path().join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let mut tried = 0;
    for (path, says) in [
        (fifo.as_path(), "a FIFO (named pipe), not a regular file"),
        (zero.as_path(), "a character device"),
        (Path::new("/dev/zero"), "a character device"),
        (Path::new("/dev/null"), "a character device"),
        (tmp.path(), "a directory"),
    ] {
        let at = format!("@{}", path.display());
        let o = guarded(
            tmp.path(),
            &s.base(),
            &["run", "pipeline", P1, "--input", &at],
            &[],
        );
        tried += 1;
        sc.check(&o);
        assert_eq!(o.code, 2, "{at}: {}", o.stderr);
        assert!(o.stderr.contains(says), "{at}: {}", o.stderr);
        assert!(o.stderr.contains("--input"), "{at}: {}", o.stderr);
    }
    assert_eq!(s.count("POST") - grants(&s), 0, "no run started");
    // The key file: the same rule, before the log is asked for.
    let gets = s.count("GET");
    for (path, says) in [
        (zero.as_path(), "a character device"),
        (fifo.as_path(), "a FIFO (named pipe)"),
        (tmp.path(), "a directory"),
    ] {
        let key = path.to_str().unwrap();
        let o = guarded(
            tmp.path(),
            &s.base(),
            &["logs", P1, "--decrypt-key-file", key],
            &[],
        );
        tried += 1;
        sc.check(&o);
        assert_eq!(o.code, 2, "{key}: {}", o.stderr);
        assert!(
            o.stderr.contains(says) && o.stderr.contains("key file"),
            "{}",
            o.stderr
        );
    }
    assert_eq!(s.count("GET"), gets, "no log asked for");
    sc.cases(tried);
    sc.done();
}

fn grants(s: &FaultServer) -> usize {
    s.seen()
        .iter()
        .filter(|r| r.path.starts_with("/v1/oauth/token"))
        .count()
}
