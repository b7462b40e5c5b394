//! Aliases per profile (`[profiles.NAME.aliases]` wins over `[aliases]`),
//! and completion that offers alias names only where an ID goes; aliases
//! in every command against a sandbox process, `alias set` naming what it
//! replaced, and 32 parallel `alias set` calls keeping every alias.

use std::process::Command;

use crate::common;

use common::faultserver::{FaultServer, json, route};
use common::sandbox::start;
use common::*;
use serde_json::Value;

const STATS: &str = r#"{"num_of_successes":1,"num_of_failures":0,"average_duration":1,"is_last_run_successful":true,"last_run_executed_at":"2024-01-13 18:36:58","last_run_duration":1}"#;

fn config() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        format!(
            "[aliases]\nnightly = \"{P1}\"\nshared = \"{P1}\"\n\n[profiles.staging.aliases]\nnightly = \"{P2}\"\n"
        ),
    )
    .unwrap();
    dir
}

#[test]
fn a_profile_alias_wins_over_the_global_one() {
    let dir = config();
    let d = dir.path().to_str().unwrap();
    let s = FaultServer::routed();
    s.on(route().method("GET").answer(json(200, STATS)));
    let base = s.base();
    let env = [
        ("YLEM_CONFIG_DIR", d),
        ("YLEM_BASE_URL", base.as_str()),
        ("YLEM_TOKEN", TOKEN),
    ];
    for (profile, want) in [("default", P1), ("staging", P2)] {
        let o = ylem(
            &["-p", profile, "stats", "pipeline", "nightly", "-o", "json"],
            &env,
        );
        assert_eq!(o.code, 0, "{profile}: {}", o.stderr);
        let last = s.seen().pop().unwrap();
        assert!(
            last.path_only().contains(want),
            "{profile}: {}",
            last.path_only()
        );
        let o = ylem(&["-p", profile, "alias", "list", "-o", "csv"], &env);
        assert!(
            o.stdout.contains(&format!("nightly,{want}")),
            "{profile}: {}",
            o.stdout
        );
        assert!(
            o.stdout.contains(&format!("shared,{P1}")),
            "{profile}: {}",
            o.stdout
        );
    }
}

/// What the bash completion offers for `words` (the last one is being typed).
fn complete(words: &[&str], config_dir: &str) -> Vec<String> {
    let script = format!("{}/completions/ylemctl.bash", env!("CARGO_MANIFEST_DIR"));
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_ylemctl"))
        .parent()
        .unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cmd = format!(
        "source '{script}' 2>/dev/null; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; _ylemctl_with_aliases ylemctl '{}' '{}' 2>/dev/null; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        quoted.join(" "),
        words.len() - 1,
        words.join(" "),
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let o = Command::new("bash")
        .args(["-c", &cmd])
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .env("YLEM_CONFIG_DIR", config_dir)
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn completion_offers_aliases_only_where_an_id_goes() {
    let dir = config();
    let d = dir.path().to_str().unwrap();
    let has = |w: &[&str]| complete(w, d).iter().any(|c| c == "nightly");
    assert!(has(&["ylemctl", "stats", "pipeline", ""]), "after the KIND");
    assert!(
        has(&["ylemctl", "last-run", "task", "shared", "n"]),
        "several IDs"
    );
    assert!(has(&["ylemctl", "logs", ""]), "logs' pipeline");
    assert!(
        has(&["ylemctl", "alias", "remove", ""]),
        "after alias remove"
    );
    assert!(!has(&["ylemctl", "stats", ""]), "not for the KIND");
    assert!(
        !has(&["ylemctl", "logs", "nightly", "--since", ""]),
        "not a flag's value"
    );
    assert!(!has(&["ylemctl", "logs", "nightly", ""]), "logs takes one");
    assert!(!has(&["ylemctl", "alias", ""]), "not for alias' subcommand");
    assert!(!has(&["ylemctl", ""]), "not for the command");
}

#[test]
fn alias_set_and_remove_for_one_profile() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let env = [("YLEM_CONFIG_DIR", d)];
    assert_eq!(ylem(&["alias", "set", "orders", P1], &env).code, 0);
    let o = ylem(
        &[
            "-p",
            "staging",
            "alias",
            "set",
            "orders",
            P2,
            "--profile-only",
        ],
        &env,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let list = |p: &str| ylem(&["-p", p, "alias", "list", "-o", "csv"], &env).stdout;
    assert!(
        list("staging").contains(&format!("orders,{P2}")),
        "{}",
        list("staging")
    );
    assert!(
        list("default").contains(&format!("orders,{P1}")),
        "{}",
        list("default")
    );
    // The profile's own table does not make a profile that cannot be read.
    let o = ylem(&["-p", "staging", "auth", "status", "-o", "json"], &env);
    assert!(o.stderr.contains("not logged in"), "{}", o.stderr);
    let o = ylem(
        &[
            "-p",
            "staging",
            "alias",
            "remove",
            "orders",
            "--profile-only",
        ],
        &env,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        list("staging").contains(&format!("orders,{P1}")),
        "{}",
        list("staging")
    );
}

#[test]
fn aliases_work_across_commands() {
    let sb = start("spec");
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().to_str().unwrap();
    let env = [("YLEM_CONFIG_DIR", cfg)];
    let p0 = &sb.pipelines[0].0;
    assert_eq!(
        sb.run_with(&["alias", "set", "orders", &p0.to_uppercase()], &env)
            .code,
        0
    );
    let v: Value =
        serde_json::from_str(&sb.run_with(&["alias", "list", "-o", "json"], &env).stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!([{"name": "orders", "uuid": p0, "kind": null}])
    );
    for args in [
        vec!["last-run", "pipeline", "orders"],
        vec!["stats", "pipeline", "orders", p0],
        vec!["logs", "orders", "--since", "1h"],
        vec!["aggregate", "pipeline", "orders"],
        vec!["check", "pipeline", "orders"],
    ] {
        let o = sb.run_with(&args, &env);
        assert!(o.code == 0 || args[0] == "check", "{args:?}: {}", o.stderr);
    }
    assert_eq!(sb.run_with(&["alias", "set", "bad name", p0], &env).code, 2);
    assert_eq!(
        sb.run_with(&["alias", "set", "x", "not-a-uuid"], &env).code,
        2
    );
    assert_eq!(sb.run_with(&["alias", "remove", "orders"], &env).code, 0);
    let o = sb.run_with(&["last-run", "pipeline", "orders"], &env);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("no alias of that name"), "{}", o.stderr);
    assert_eq!(sb.run_with(&["alias", "remove", "orders"], &env).code, 2);
}

#[test]
fn parallel_alias_sets_keep_every_alias() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().to_str().unwrap().to_string();
    let handles: Vec<_> = (0..32)
        .map(|i| {
            let cfg = cfg.clone();
            std::thread::spawn(move || {
                let name = format!("a{i}");
                let id = format!("00000000-0000-4000-8000-{i:012}");
                ylem(&["alias", "set", &name, &id], &[("YLEM_CONFIG_DIR", &cfg)]).code
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 0);
    }
    let o = ylem(&["alias", "list", "--names"], &[("YLEM_CONFIG_DIR", &cfg)]);
    assert_eq!(o.stdout.lines().count(), 32, "{}", o.stdout);
    let mut sc = common::report::Scenario::new(
        "parallel-alias-set",
        "file",
        "32 parallel alias set calls leave a valid config with all 32 (tests/it/alias.rs)",
    );
    sc.check(&o);
    sc.check_dir(dir.path());
    sc.done();
}

/// `alias set` over an alias of the same name says what it pointed at
/// before (in the same table: global, or the profile's with
/// `--profile-only`); a new one and one set again to its value say so.
#[test]
fn alias_set_names_what_it_replaced() {
    use crate::common::{P1, P2, ylem};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let env = [("YLEM_CONFIG_DIR", d)];
    let set = |args: &[&str]| {
        let o = ylem(args, &env);
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        o.stderr
    };
    assert_eq!(
        set(&["alias", "set", "orders", P1]),
        format!("orders → {P1}\n")
    );
    assert_eq!(
        set(&["alias", "set", "orders", &format!("workflow:{P2}")]),
        format!("orders → workflow:{P2} (replaced {P1})\n")
    );
    assert_eq!(
        set(&["alias", "set", "orders", &format!("workflow:{P2}")]),
        format!("orders → workflow:{P2} (unchanged)\n")
    );
    // The profile's own table is another: nothing in it to replace yet.
    assert_eq!(
        set(&[
            "-p",
            "staging",
            "alias",
            "set",
            "orders",
            P1,
            "--profile-only"
        ]),
        format!("orders → {P1}\n")
    );
    assert_eq!(
        set(&[
            "-p",
            "staging",
            "alias",
            "set",
            "orders",
            P2,
            "--profile-only"
        ]),
        format!("orders → {P2} (replaced {P1})\n")
    );
}
