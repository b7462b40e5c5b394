//! Help a new user can act on: the command's own flags first, then the
//! global ones; defaults, `<KIND>`, exit codes and two examples shown;
//! advice for the flags people try from other tools.

use crate::common::ylem;

fn help(args: &[&str]) -> String {
    let mut a = args.to_vec();
    a.push("--help");
    let o = ylem(&a, &[("COLUMNS", "200")]);
    assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    o.stdout
}

#[test]
fn own_flags_first_then_global_options_with_defaults() {
    let h = help(&["stats"]);
    let own = h.find("--since").unwrap();
    let global = h.find("Global options:").expect(&h);
    assert!(own < global && global < h.find("--retries").unwrap(), "{h}");
    for d in [
        "[default: 2]",
        "[default: 8]",
        "[default: 60s]",
        "[default: 10s]",
    ] {
        assert!(h.contains(d), "{d}: {h}");
    }
    assert!(h.contains("<KIND>   What the IDs are"), "{h}");
    let h = help(&["run"]);
    assert!(
        h.contains("[default: 5s]") && h.contains("[default: 30m]"),
        "{h}"
    );
    assert!(h.contains("7 a run failed, 8 --wait timed out"), "{h}");
}

#[test]
fn every_command_has_two_examples_and_the_service_ones_their_exit_codes() {
    let cmd = ylemctl::command();
    let mut paths: Vec<Vec<String>> = Vec::new();
    for c in cmd.get_subcommands() {
        if c.has_subcommands() {
            for s in c.get_subcommands() {
                paths.push(vec![c.get_name().into(), s.get_name().into()]);
            }
        } else {
            paths.push(vec![c.get_name().into()]);
        }
    }
    for p in &paths {
        let args: Vec<&str> = p.iter().map(String::as_str).collect();
        let h = help(&args);
        let examples = h
            .split("Examples:")
            .nth(1)
            .unwrap_or_else(|| panic!("{p:?}: {h}"));
        let n = examples
            .lines()
            .take_while(|l| !l.trim().is_empty() || l.is_empty())
            .filter(|l| {
                l.trim_start().starts_with("ylemctl")
                    || l.contains("| ylemctl")
                    || l.trim_start().starts_with("curl")
                    || l.trim_start().starts_with("cargo")
            })
            .count();
        assert!(n >= 2, "{p:?} has {n} examples:\n{h}");
    }
    for c in ["run", "logs", "stats", "aggregate", "last-run"] {
        assert!(help(&[c]).contains("Exit status: 0 ok"), "{c}");
    }
}

#[test]
fn unknown_flags_get_advice() {
    let o = ylem(&["stats", "pipeline", "x", "--json"], &[]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("use '-o json'"), "{}", o.stderr);
    assert!(!o.stderr.contains("-- --json"), "{}", o.stderr);
    let o = ylem(&["aggregate", "pipeline", "x", "--since", "7d"], &[]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("aggregate takes --from and --count"),
        "{}",
        o.stderr
    );
    let o = ylem(
        &["aggregate", "pipeline", "x", "--since", "7d", "-o", "json"],
        &[],
    );
    let v: serde_json::Value = serde_json::from_str(o.stderr.trim()).unwrap();
    assert!(
        v["error"]["hint"].as_str().unwrap().contains("--from"),
        "{v}"
    );
}

#[test]
fn options_a_command_ignores_are_not_offered_but_still_accepted() {
    let h = help(&["sandbox"]);
    for flag in ["--fields", "--retries", "--base-url", "--timeout"] {
        assert!(!h.contains(flag), "sandbox offers {flag}:\n{h}");
    }
    assert!(!help(&["login"]).contains("--fields"));
    assert!(!help(&["check"]).contains("--fields"));
    assert!(help(&["stats"]).contains("--fields"));
    // A script that sets them for every command still works.
    let o = ylem(&["completions", "bash", "--fields", "a", "-o", "json"], &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = ylem(&["login", "--concurrency", "0"], &[]);
    assert_eq!(o.code, 2, "still checked: {}", o.stderr);
}
