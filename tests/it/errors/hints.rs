//! What a new operator tripped over (issue 27), continued: hints that fit
//! (profile, credentials, URL, nearest names, `--watch`), aliases of the
//! wrong kind, `check` names whole, `--max-time` on a started run, help
//! that agrees, `--fields` by header, `aggregate` of several IDs; a profile
//! named beside credentials in the environment said unused, a login to a
//! wrong path hinting the base URL, identical errors and one hint said once.

use serde_json::Value;

use crate::common::process::free_port;
use crate::common::{sandbox, ylem};

const UNKNOWN: &str = "00000000-0000-4000-8000-0000000000aa";

/// A config directory with `config.toml` holding `text`.
fn config(text: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("config.toml"), text).unwrap();
    d
}

#[test]
fn an_alias_of_another_kind_is_a_usage_error_and_a_typo_gets_the_nearest_names() {
    let s = sandbox::start("spec");
    let wf = &s.workflows[0];
    let d = config(&format!(
        "[aliases]\ntriage = \"workflow:{wf}\"\norders = \"{wf}\"\n"
    ));
    let dir = d.path().to_str().unwrap();
    for args in [
        vec!["logs", "triage"],
        vec!["stats", "pipeline", "triage"],
        vec!["run", "pipeline", "triage"],
        vec!["aggregate", "task", "triage"],
    ] {
        let o = s.run_with(&args, &[("YLEM_CONFIG_DIR", dir)]);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        assert!(
            o.stderr.contains("'triage' is a workflow"),
            "{args:?}: {}",
            o.stderr
        );
    }
    let o = s.run_with(
        &["stats", "workflow", "triage"],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert_eq!(o.code, 0, "the kind it was set with: {}", o.stderr);
    let o = s.run_with(
        &["stats", "pipeline", "triagr"],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("did you mean triage"), "{}", o.stderr);
}

#[test]
fn check_names_the_entity_whole() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let o = s.run(&["check", "pipeline", p, "--max-age", "100d"]);
    assert!(o.stdout.contains(&format!("pipeline {p} ")), "{}", o.stdout);
    assert!(!o.stdout.contains('…'), "{}", o.stdout);
    let d = config(&format!("[aliases]\npayments-nightly = \"pipeline:{p}\"\n"));
    let dir = d.path().to_str().unwrap();
    let o = s.run_with(
        &["check", "pipeline", "payments-nightly"],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert!(
        o.stdout.contains("pipeline payments-nightly "),
        "{}",
        o.stdout
    );
}

#[test]
fn hints_name_the_profile_and_the_credentials_in_use() {
    let s = sandbox::start("spec");
    let d = config(&format!(
        "[profiles.default]\nbase_url = \"{}\"\n\n[profiles.ttl]\nbase_url = \"{}\"\nclient_id = \"{}\"\n",
        s.base, s.base, s.client_id
    ));
    let dir = d.path().to_str().unwrap();
    let p = s.pipelines[0].0.as_str();
    let bare = |args: &[&str]| crate::common::ylem(args, &[("YLEM_CONFIG_DIR", dir)]);
    // A profile that does not exist: exit 2, listing those there are.
    let o = bare(&["-p", "ttll", "stats", "pipeline", p]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("no such profile 'ttll'"), "{}", o.stderr);
    assert!(o.stderr.contains("default, ttl"), "{}", o.stderr);
    // One that exists but has no secret (after logout): the hint names it.
    let o = bare(&["-p", "ttl", "stats", "pipeline", p]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("ylemctl -p ttl login"), "{}", o.stderr);
    assert!(!o.stderr.contains("'ylemctl login"), "{}", o.stderr);
    // Credentials from the environment still work under a new name.
    let o = s.run_with(
        &["-p", "brand-new", "stats", "pipeline", p],
        &[("YLEM_CONFIG_DIR", dir)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // A refused secret from the environment names the variable.
    let o = s.run_with(
        &["stats", "pipeline", p],
        &[(
            "YLEM_CLIENT_SECRET",
            "0000000000000000000000000000000000000000000000000000000000000000",
        )],
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("YLEM_CLIENT_SECRET"), "{}", o.stderr);
    assert!(!o.stderr.contains("run 'ylemctl login'"), "{}", o.stderr);
}

#[test]
fn a_connection_error_names_the_url() {
    let env = [
        ("YLEM_BASE_URL", "http://127.0.0.1:9"),
        ("YLEM_TOKEN", "tok-x"),
    ];
    let o = crate::common::ylem(
        &["stats", "pipeline", crate::common::P1, "--retries", "0"],
        &env,
    );
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stderr.contains("http://127.0.0.1:9"), "{}", o.stderr);
}

#[test]
fn watch_gets_advice_and_help_is_consistent() {
    let o = crate::common::ylem(&["status", "--watch"], &[]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("watch -n 30 ylemctl status"),
        "{}",
        o.stderr
    );
    let o = crate::common::ylem(&["status", "--help"], &[]);
    assert!(o.stdout.contains("Exit status:"), "{}", o.stdout);
    let o = crate::common::ylem(&["logs", "--help"], &[]);
    assert!(!o.stdout.contains("--concurrency"), "{}", o.stdout);
    let o = crate::common::ylem(&["aggregate", "--help"], &[]);
    assert!(o.stdout.contains("<ID>..."), "{}", o.stdout);
    // Still accepted where ignored: a script may set it for every command.
    let o = crate::common::ylem(&["logs", "x", "--concurrency", "2"], &[]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("invalid ID"), "{}", o.stderr);
}

#[test]
fn fields_take_the_table_headers_and_aggregate_takes_several_ids() {
    let s = sandbox::start("spec");
    let (p1, p2) = (s.pipelines[0].0.as_str(), s.pipelines[1].0.as_str());
    let o = s.run(&[
        "logs",
        p1,
        "--since",
        "7d",
        "--fields",
        "RUN_UUID,result",
        "-o",
        "csv",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.starts_with("workflow_run_uuid,is_successful\n"),
        "{}",
        o.stdout
    );
    let o = s.run(&[
        "aggregate",
        "pipeline",
        p2,
        UNKNOWN,
        p1,
        "-o",
        "jsonl",
        "--count",
        "3",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let rows: Vec<Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let uuids: Vec<&str> = rows.iter().map(|r| r["uuid"].as_str().unwrap()).collect();
    assert_eq!(uuids, [p2, p2, p2, UNKNOWN, UNKNOWN, UNKNOWN, p1, p1, p1]);
    assert!(rows.iter().all(|r| r["error"].is_null()));
    // One ID: the periods alone, as before.
    let v = s.json(&["aggregate", "pipeline", p1, "--count", "2"]);
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert!(v[0].get("uuid").is_none(), "{v}");
}

#[test]
fn max_time_on_a_started_run_names_it_and_how_to_follow_it() {
    let s = sandbox::start_with("spec", &["--task-delay", "3s"]);
    let p = s.pipelines[0].0.as_str();
    let o = s.run(&["run", "pipeline", p, "--wait", "--max-time", "2s"]);
    assert!(o.code == 6 || o.code == 8, "{}: {}", o.code, o.stderr);
    assert!(!o.stderr.contains("may have started"), "{}", o.stderr);
    assert!(
        o.stderr.contains(&format!("ylemctl runs {p} --run ")),
        "{}",
        o.stderr
    );
}

/// A service that is down fails every ID alike: the error is said once,
/// naming every ID it hit, with the exit code it had (6); `status -o
/// prometheus` says it once too and still exits 0 (`ylem_up 0` each).
#[test]
fn identical_errors_of_several_ids_are_said_once() {
    use crate::common::{TOKEN, ylem};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // Nothing listens there: bound, then let go.
    let down = format!("http://127.0.0.1:{}", free_port());
    let env = [
        ("YLEM_CONFIG_DIR", d),
        ("YLEM_BASE_URL", down.as_str()),
        ("YLEM_TOKEN", TOKEN),
    ];
    let ids: Vec<String> = (1..=7)
        .map(|i| format!("3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5{i}"))
        .collect();
    for (i, id) in ids.iter().enumerate() {
        let name = format!("p{i}");
        assert_eq!(ylem(&["alias", "set", &name, id], &env).code, 0);
    }
    let mut stats = vec!["stats", "pipeline"];
    stats.extend(ids.iter().map(String::as_str));
    let o = ylem(&stats, &env);
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert_eq!(
        o.stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .count(),
        1,
        "{}",
        o.stderr
    );
    assert_eq!(
        o.stderr.lines().filter(|l| l.starts_with("hint: ")).count(),
        1,
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .starts_with(&format!("error: {}: cannot connect", ids.join(", "))),
        "{}",
        o.stderr
    );
    let o = ylem(&["status", "-o", "prometheus"], &env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        o.stderr
            .lines()
            .filter(|l| l.starts_with("error: "))
            .count(),
        1,
        "{}",
        o.stderr
    );
    assert_eq!(o.stdout.matches("ylem_up{").count(), 7, "{}", o.stdout);
    for id in &ids {
        assert!(o.stderr.contains(&format!("pipeline {id}")), "{}", o.stderr);
    }
}

#[test]
fn a_profile_named_beside_credentials_in_the_environment_is_said_unused() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let o = s.run(&["-p", "staging", "stats", "pipeline", p, "--since", "1d"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let said: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.contains("profile 'staging'"))
        .collect();
    assert_eq!(said.len(), 1, "{}", o.stderr);
    assert!(said[0].contains("YLEM_CLIENT_ID"), "{}", o.stderr);
    // Without -p, no word of it.
    let o = s.run(&["stats", "pipeline", p, "--since", "1d"]);
    assert!(!o.stderr.contains("profile"), "{}", o.stderr);
}

#[test]
fn a_login_to_a_wrong_path_hints_the_base_url() {
    let s = sandbox::start("spec");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let wrong = format!("{}/not/the/api", s.base);
    let o = crate::common::login::ylem_in(
        dir.path(),
        &[
            "login",
            "--base-url",
            &wrong,
            "--client-id",
            &s.client_id,
            "--client-secret-stdin",
            "--store",
            "file",
        ],
        Some(&format!("{}\n", s.secret)),
        &[("YLEM_CONFIG_DIR", d)],
    );
    assert_ne!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("404"), "{}", o.stderr);
    let hint = o.stderr.lines().find(|l| l.starts_with("hint:")).unwrap();
    assert!(hint.contains("base URL"), "{}", o.stderr);
    assert!(!hint.contains("the ID"), "{}", o.stderr);
}

#[test]
fn one_hint_under_several_errors_is_said_once() {
    let s = sandbox::start("spec");
    // Two pipelines the statistics endpoints refuse alike (another base
    // path: a 404 each, with its own path in the message).
    let base = format!("{}/elsewhere", s.base);
    let (p1, p2) = (s.pipelines[0].0.as_str(), s.pipelines[1].0.as_str());
    let o = ylem(
        &["stats", "pipeline", p1, p2, "--since", "1d"],
        &[("YLEM_BASE_URL", base.as_str()), ("YLEM_TOKEN", "t0ken")],
    );
    assert_ne!(o.code, 0, "{}", o.stderr);
    let hints: Vec<&str> = o
        .stderr
        .lines()
        .filter(|l| l.starts_with("hint:"))
        .collect();
    let mut unique = hints.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        hints.len(),
        unique.len(),
        "a hint said twice:\n{}",
        o.stderr
    );
}
