//! Kill -9 at every write point, and at random moments: the state left is
//! the old one or the new one, whole, and the next command leaves no temp
//! file. A run's figures (points tried, states checked, temp files left)
//! are printed for the notes (`--nocapture`).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{any_file_holds, login, login_args, temps};
use crate::common::login::ylem_in;
use crate::common::sandbox::{Sandbox, start_with};
use crate::common::{Out, P1, P2};

/// Which login the profile holds, checked whole: a token is handed out,
/// and the stored secret alone (no cached token) gets one from the
/// service the config names. `None`: not logged in at all.
fn login_state(dir: &Path) -> Option<String> {
    let o = ylem_in(dir, &["auth", "status", "-o", "json"], None, &[]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout)
        .unwrap_or_else(|e| panic!("auth status: {e}: {} {}", o.stdout, o.stderr));
    if v["logged_in"] != true {
        assert_eq!(o.code, 3, "{}", o.stderr);
        return None;
    }
    let bound = v["bound_to"].as_str().expect("bound_to").to_string();
    let t = ylem_in(dir, &["auth", "token"], None, &[]);
    assert_eq!(t.code, 0, "a token from the stored login: {}", t.stderr);
    // The secret must be sound on its own: a copy without the token cache.
    let copy = tempfile::tempdir().unwrap();
    copy_dir(dir, copy.path());
    let _ = std::fs::remove_file(copy.path().join("credentials/default.token.json"));
    let t = ylem_in(copy.path(), &["auth", "token"], None, &[]);
    assert_eq!(
        t.code, 0,
        "a token from the stored secret alone: {}",
        t.stderr
    );
    Some(bound)
}

fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let dest = to.join(e.file_name());
        if p.is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

fn alias_of(dir: &Path, name: &str) -> Option<String> {
    let o = ylem_in(dir, &["alias", "list", "-o", "json"], None, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    v.as_array()?
        .iter()
        .find(|a| a["alias"] == name || a["name"] == name)
        .and_then(|a| a["uuid"].as_str().or(a["id"].as_str()))
        .map(str::to_string)
}

/// The command under test, run in a config directory with extra variables.
type Act<'a> = &'a dyn Fn(&Path, &[(&str, &str)]) -> Out;

/// One scenario: a set-up, the command killed, what its states may be.
struct Scenario<'a> {
    name: &'static str,
    setup: &'a dyn Fn(&Path),
    act: Act<'a>,
    /// After the kill and the next command: the state, checked whole.
    state: &'a dyn Fn(&Path) -> String,
    old: String,
    new: String,
}

#[derive(Default)]
struct Figures {
    points: usize,
    states: usize,
    temps_left: usize,
}

/// Kill at the 1st, 2nd, ... write point until the command runs through.
fn every_point(s: &Scenario, f: &mut Figures) {
    for n in 1..=40usize {
        let dir = tempfile::tempdir().unwrap();
        (s.setup)(dir.path());
        let at = n.to_string();
        let o = (s.act)(dir.path(), &[("YLEM_TEST_KILL_AT", &at)]);
        if o.code != -1 {
            assert_eq!(o.code, 0, "{}: ran through at {n}: {}", s.name, o.stderr);
            assert_eq!((s.state)(dir.path()), s.new, "{}: unkilled", s.name);
            assert!(n > 1, "{}: no write point at all", s.name);
            return;
        }
        f.points += 1;
        let state = (s.state)(dir.path());
        f.states += 1;
        assert!(
            state == s.old || state == s.new,
            "{}: killed at write point {n}: state {state:?}, neither {:?} nor {:?}",
            s.name,
            s.old,
            s.new
        );
        let left = temps(dir.path());
        f.temps_left += left.len();
        assert!(left.is_empty(), "{}: killed at {n}: {left:?}", s.name);
    }
    panic!("{}: more than 40 write points", s.name);
}

fn sandboxes() -> (Sandbox, Sandbox) {
    (
        start_with("spec", &["--seed", "1"]),
        start_with("spec", &["--seed", "2"]),
    )
}

#[test]
fn every_write_point_of_login_alias_logout_and_renewal_leaves_old_or_new() {
    let (a, b) = sandboxes();
    assert_ne!(a.secret, b.secret, "two services, two secrets");
    let logged_in_a = |d: &Path| assert_eq!(login(d, &a, &[]).code, 0);
    let state = |d: &Path| format!("{:?}", login_state(d));
    let (on_a, on_b) = (
        format!("{:?}", Some(&a.base)),
        format!("{:?}", Some(&b.base)),
    );
    let mut f = Figures::default();
    // A login that moves the profile from A to B.
    every_point(
        &Scenario {
            name: "login (moving A to B)",
            setup: &logged_in_a,
            act: &|d, env| login(d, &b, env),
            state: &state,
            old: on_a.clone(),
            new: on_b.clone(),
        },
        &mut f,
    );
    // A first login.
    every_point(
        &Scenario {
            name: "first login",
            setup: &|_| {},
            act: &|d, env| login(d, &a, env),
            state: &state,
            old: "None".into(),
            new: on_a.clone(),
        },
        &mut f,
    );
    // An alias changed, beside a login.
    every_point(
        &Scenario {
            name: "alias set",
            setup: &|d| {
                logged_in_a(d);
                assert_eq!(
                    ylem_in(d, &["alias", "set", "nightly", P1], None, &[]).code,
                    0
                );
            },
            act: &|d, env| ylem_in(d, &["alias", "set", "nightly", P2], None, env),
            state: &|d| format!("{:?} {}", alias_of(d, "nightly"), state(d)),
            old: format!("{:?} {on_a}", Some(P1)),
            new: format!("{:?} {on_a}", Some(P2)),
        },
        &mut f,
    );
    // A logout: logged in still, or no file holds the secret any more.
    every_point(
        &Scenario {
            name: "logout",
            setup: &logged_in_a,
            act: &|d, env| ylem_in(d, &["logout"], None, env),
            state: &|d| {
                let s = state(d);
                if s == "None" {
                    assert_eq!(any_file_holds(d, &a.secret), None, "secret left");
                }
                s
            },
            old: on_a.clone(),
            new: "None".into(),
        },
        &mut f,
    );
    // A token renewal (the token asked to outlive the one cached).
    every_point(
        &Scenario {
            name: "token renewal",
            setup: &logged_in_a,
            act: &|d, env| ylem_in(d, &["auth", "token", "--min-ttl", "1440m"], None, env),
            state: &state,
            old: on_a.clone(),
            new: on_a.clone(),
        },
        &mut f,
    );
    println!(
        "kill points tried: {}; states checked: {}; temp files left: {}",
        f.points, f.states, f.temps_left
    );
    assert_eq!(f.temps_left, 0);
}

/// A small deterministic generator (no dependency): the seed is printed.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn fifty_random_kills_of_a_moving_login_leave_old_or_new() {
    let (a, b) = sandboxes();
    let bin = env!("CARGO_BIN_EXE_ylemctl");
    let spawn = |d: &Path| {
        let mut c = Command::new(bin);
        c.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("YLEM_CONFIG_DIR", d)
            .args(login_args(&b))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = c.spawn().unwrap();
        use std::io::Write;
        let _ = child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{}\n", b.secret).as_bytes());
        child
    };
    // How long a whole login takes here: the kills fall within it.
    let d = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    assert!(spawn(d.path()).wait().unwrap().success());
    let whole = t0.elapsed().as_micros().max(1000) as u64;
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    println!("seed {seed}, a login takes {whole} µs");
    let (mut old, mut new, mut left) = (0, 0, 0);
    for _ in 0..50 {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(login(dir.path(), &a, &[]).code, 0);
        let mut child = spawn(dir.path());
        std::thread::sleep(Duration::from_micros(next(&mut seed) % whole));
        let _ = child.kill();
        let _ = child.wait();
        match login_state(dir.path()) {
            Some(s) if s == a.base => old += 1,
            Some(s) if s == b.base => new += 1,
            s => panic!("neither A nor B: {s:?}"),
        }
        left += temps(dir.path()).len();
    }
    println!("50 random kills: old login {old}, new login {new}, temp files left {left}");
    assert_eq!(left, 0);
}
