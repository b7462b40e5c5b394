//! Issue 44's smaller things, each against the real parts: `-p` beside
//! credentials in the environment says it is not used; a 404 from the token
//! endpoint hints the base URL, not an ID; a hint names the IDs it is about;
//! a hint said once however many errors it is under; `aggregate` refuses a
//! range past the year 9999 before sending.

use crate::common::{sandbox, ylem};

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

#[test]
fn a_last_run_going_hint_names_its_pipeline_and_run() {
    let s = sandbox::start_with("spec", &["--task-delay", "2s"]);
    let p = s.pipelines[0].0.as_str();
    let started = s.json(&["run", "pipeline", p]);
    let run = started["run_uuid"]
        .as_str()
        .unwrap_or_else(|| panic!("{started}"))
        .to_string();
    // Its first entry comes after a task's delay: looked for a bounded
    // number of times, until the last run is this one, still going.
    let mut seen = None;
    for _ in 0..40 {
        let o = s.run(&["last-run", "pipeline", p, "--fail-on-failure"]);
        if o.code == 8 && o.stderr.contains(&run) {
            seen = Some(o);
            break;
        }
        if s.truth(&run)["finished"] == true {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    let o = seen.expect("the started run seen going by last-run");
    let want = format!("'ylemctl runs {p} --run {run} --wait'");
    assert!(o.stderr.contains(&want), "{}", o.stderr);
    assert!(!o.stderr.contains("PIPELINE --run RUN"), "{}", o.stderr);
}

#[test]
fn aggregate_refuses_periods_past_9999_before_sending() {
    let s = sandbox::start("spec");
    let p = s.pipelines[0].0.as_str();
    let before = s.requests().len();
    let args = [
        "aggregate",
        "pipeline",
        p,
        "--from",
        "9999-12-31",
        "--period",
        "year",
        "--count",
        "2",
    ];
    let o = s.run(&args);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stdout.is_empty(), "{}", o.stdout);
    assert!(o.stderr.contains("9999"), "{}", o.stderr);
    assert!(!o.stderr.contains("+10000"), "{}", o.stderr);
    assert_eq!(s.requests().len(), before, "nothing was sent");
    // The last year there is still fine, in the four-digit form.
    let o = s.run(&[&args[..8], &["1", "-o", "csv"]].concat());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("9999-01-01T00:00:00Z"), "{}", o.stdout);
}

#[test]
fn every_status_and_last_run_word_the_board_shows_is_documented() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/monitoring.md"))
            .unwrap();
    let at = readme.find("`status` is `failed`").unwrap();
    let doc = &readme[at..at + 1500];
    let words = [
        "failed",
        "unknown",
        "degraded",
        "never",
        "running",
        "ok",
        "unsettled",
    ];
    for w in words {
        assert!(
            doc.contains(&format!("`{w}")),
            "the guide's status lacks {w}"
        );
    }
    // What the board says of the sandbox's entities is among them.
    let s = sandbox::start("ylem");
    let mut ids: Vec<String> = s
        .pipelines
        .iter()
        .map(|p| format!("pipeline:{}", p.0))
        .collect();
    ids.extend(s.workflows.iter().map(|w| format!("workflow:{w}")));
    let mut args = vec!["status"];
    args.extend(ids.iter().map(String::as_str));
    let v = s.json(&args);
    for row in v.as_array().unwrap() {
        let status = row["status"].as_str().unwrap();
        assert!(words.contains(&status), "{status} undocumented: {row}");
    }
}
