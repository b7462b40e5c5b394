//! What operators meet under cron and in CI: a config that is not found says
//! where it was looked for; a non-terminal wait says it is still waiting;
//! the README's cron lines are quiet and its example paths exist.

use crate::common::{self, sandbox};

use common::*;

#[test]
fn no_config_found_names_the_path_and_the_variable() {
    let dir = std::env::temp_dir().join(format!("ylemctl-typo-{}", std::process::id()));
    let o = ylem(
        &["stats", "pipeline", P1],
        &[("YLEM_CONFIG_DIR", dir.to_str().unwrap())],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    let file = dir.join("config.toml");
    assert!(
        o.stderr.contains(&format!("looked in {}", file.display())),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("YLEM_CONFIG_DIR"), "{}", o.stderr);
}

#[test]
fn the_guides_cron_lines_are_quiet_and_example_paths_exist() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = crate::common::docs::text();
    for line in readme.lines() {
        let l = line.trim();
        // A crontab line: five time fields, then the command.
        let fields: Vec<&str> = l.split_whitespace().collect();
        let is_cron = fields.len() > 5
            && fields[..5]
                .iter()
                .all(|f| f.chars().all(|c| c.is_ascii_digit() || "*/,-".contains(c)))
            && l.contains("ylemctl");
        if is_cron {
            assert!(
                l.contains(">/dev/null")
                    || l.contains("> /dev/null")
                    || l.contains(">>")
                    || l.contains("grep -v '^OK'")
                    || l.contains("--output-file"),
                "a cron line that mails every run: {l}"
            );
        }
        for word in l.split(|c: char| c.is_whitespace() || "`()'\"[]".contains(c)) {
            if let Some(rest) = word.strip_prefix("examples/") {
                let path = format!(
                    "{root}/examples/{}",
                    rest.trim_end_matches([',', '.', ':', ';'])
                );
                assert!(
                    std::path::Path::new(&path).exists(),
                    "the guide names {word}, which examples/ does not have"
                );
            }
        }
    }
}

#[test]
fn a_wait_outside_a_terminal_says_it_is_still_waiting() {
    let sb = sandbox::start_with("spec", &["--task-delay", "800ms"]);
    let p = sb.pipelines[0].0.as_str();
    let wait = [
        "run",
        "pipeline",
        p,
        "--wait",
        "--poll",
        "200ms",
        "--heartbeat",
        "1s",
    ];
    let o = sb.run(&wait);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("still waiting ("), "{}", o.stderr);
    // Not with -q, nor with machine output.
    for extra in ["-q", "-ojson"] {
        let mut a = wait.to_vec();
        a.push(extra);
        let o = sb.run(&a);
        assert!(!o.stderr.contains("still waiting"), "{extra}: {}", o.stderr);
    }
}

#[test]
fn a_min_ttl_longer_than_the_token_lifetime_is_a_clear_error() {
    let sb = sandbox::start_with("spec", &["--token-ttl", "1h"]);
    let dir = tempfile::tempdir().unwrap();
    let secret = format!("{}\n", sb.secret);
    let login = [
        "login",
        "--base-url",
        &sb.base,
        "--client-id",
        &sb.client_id,
        "--client-secret-stdin",
        "--store",
        "file",
    ];
    let o = common::login::ylem_in(dir.path(), &login, Some(&secret), &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = common::login::ylem_in(dir.path(), &["auth", "token", "--min-ttl", "2h"], None, &[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stdout.is_empty(), "no token that cannot meet it");
    assert!(
        o.stderr.contains("longer than the service's tokens last"),
        "{}",
        o.stderr
    );
    let o = common::login::ylem_in(
        dir.path(),
        &["auth", "token", "--min-ttl", "30m"],
        None,
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
}
