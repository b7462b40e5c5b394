//! Black-box tests of exit codes, error output and rejected input (nothing
//! sent), against a recording fault server on loopback. (`-vv`'s secret
//! hygiene: `secrets::verbose`.)

use crate::common;

use std::time::Duration;

use common::faultserver::{Action, FaultServer, json, response, route, text};
use common::*;
use serde_json::Value;

fn count(s: &FaultServer) -> usize {
    s.seen().len()
}

/// A response with this status and nothing else.
fn status(code: u16) -> Vec<u8> {
    response(code, &[], b"")
}

#[test]
fn invalid_input_exits_2_and_sends_nothing() {
    let s = FaultServer::routed();
    s.on(route().answer(status(200)));
    let env = token_env(&s.base());
    let cases: Vec<Vec<&str>> = vec![
        vec!["stats", "pipeline", "not-a-uuid"],
        vec!["stats", "pipeline", P1, "zzzz"],
        vec!["stats", "pipeline", "3f2a1b4c5d6e4f708a9b0c1d2e3f4a5b"],
        vec!["stats", "pipeline", P1, "--from", "2024-13-01"],
        vec!["stats", "pipeline", P1, "--from", "yesterdayish"],
        vec![
            "stats",
            "pipeline",
            P1,
            "--from",
            "2024-02-01",
            "--to",
            "2024-01-01",
        ],
        vec!["stats", "pipeline", P1, "--since", "5y"],
        vec![
            "stats",
            "pipeline",
            P1,
            "--since",
            "1h",
            "--from",
            "2024-01-01",
        ],
        vec!["stats", "gadget", P1],
        vec!["logs", P1, "--run", "nope"],
        vec!["logs", P1, "--to", "2024-01-01T25:00:00"],
        vec!["aggregate", "task", P1, "--period", "fortnight"],
        vec!["aggregate", "task", P1, "--count", "0"],
        vec!["aggregate", "task", P1, "--count", "-3"],
        vec!["aggregate", "task", P1, "--count", "many"],
        vec!["aggregate", "task", P1, "--from", "2024-02-30"],
        vec!["last-run", "task", P1, "--fields", "is_successful,colour"],
        vec!["stats", "task", P1, "-o", "yaml"],
        vec!["stats", "task", P1, "--timeout", "soon"],
        vec!["run", "pipeline", P1, "not-a-uuid"],
        vec!["run", "pipeline"],
        vec!["--base-url", "ftp://example", "stats", "task", P1],
    ];
    for args in cases {
        let o = run_env(&args, &env);
        assert_eq!(o.code, 2, "{args:?} exited {}: {}", o.code, o.stderr);
        assert!(o.stderr.contains("error"), "{args:?}: {}", o.stderr);
    }
    assert_eq!(count(&s), 0, "a request was sent for invalid input");
    // The message names the bad value.
    let o = run_env(&["stats", "pipeline", "not-a-uuid"], &env);
    assert!(o.stderr.contains("'not-a-uuid'"), "{}", o.stderr);
    let o = run_env(&["last-run", "task", P1, "--fields", "colour"], &env);
    assert!(
        o.stderr.contains("'colour'") && o.stderr.contains("is_successful, executed_at"),
        "{}",
        o.stderr
    );
}

#[test]
fn each_http_failure_has_its_exit_code() {
    let s = FaultServer::routed();
    s.on(route().path_like("*/tasks/*").answer(status(403)));
    s.on(route()
        .path_like("*/pipelines/*")
        .answer(text(404, "404 page not found")));
    s.on(route().path_like("*/workflows/*").answer(status(500)));
    let env = token_env(&s.base());
    let o = run_env(&["last-run", "task", P1], &env);
    assert_eq!(o.code, 3, "{}", o.stderr);
    let o = run_env(&["last-run", "pipeline", P1], &env);
    assert_eq!(o.code, 4, "{}", o.stderr);
    assert!(o.stderr.contains("404 page not found") && o.stderr.contains("hint:"));
    let o = run_env(&["last-run", "workflow", P1, "-o", "json"], &env);
    assert_eq!(o.code, 5, "{}", o.stderr);
    let v: Value = serde_json::from_str(o.stderr.trim()).unwrap();
    assert_eq!(v["error"]["kind"], "server");
    assert_eq!(v["error"]["http_status"], 500);
    // A wrong body is a protocol error naming the field.
    let s = FaultServer::routed();
    s.on(route().answer(json(
        200,
        r#"{"is_successful":"yes","executed_at":"x","duration":1}"#,
    )));
    let o = run_env(&["last-run", "task", P1], &token_env(&s.base()));
    assert_eq!(o.code, 5);
    assert!(
        o.stderr.contains("unexpected response body"),
        "{}",
        o.stderr
    );
}

#[test]
fn workflow_404_hints_at_missing_workflow_routes() {
    let s = FaultServer::routed();
    s.on(route()
        .path_like("*/workflows/*")
        .answer(text(404, "404 page not found")));
    let o = run_env(&["run", "workflow", P1], &token_env(&s.base()));
    assert_eq!(o.code, 4);
    assert!(o.stderr.contains("workflow endpoints"), "{}", o.stderr);
}

#[test]
fn a_401_gets_one_fresh_token_and_one_repeat() {
    let s = token_server();
    s.on(route().path_like("*/stats/*").answer(status(401)));
    let o = run_env(&["stats", "task", P1, "-vv"], &client_env(&s.base()));
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert_no_secret(&o);
    let r = s.seen();
    let tokens = r
        .iter()
        .filter(|r| r.path_only() == "/v1/oauth/token")
        .count();
    let stats = r.len() - tokens;
    assert_eq!((tokens, stats), (2, 2), "one re-auth and one repeat");
    // A fixed token cannot be renewed: one request, exit 3.
    let s = FaultServer::routed();
    s.on(route().answer(status(401)));
    let o = run_env(&["stats", "task", P1], &token_env(&s.base()));
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("YLEM_TOKEN"), "{}", o.stderr);
    assert_eq!(count(&s), 1);
}

#[test]
fn rejected_client_credentials_exit_3_without_leaking() {
    let s = FaultServer::routed();
    s.on(route().path("/v1/oauth/token").answer(json(
        401,
        &format!(r#"{{"error":"invalid_client","error_description":"bad secret {SECRET}"}}"#),
    )));
    let o = run_env(
        &["stats", "task", P1, "-vv", "-o", "json"],
        &client_env(&s.base()),
    );
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert_no_secret(&o);
    serde_json::from_str::<Value>(o.stderr.lines().last().unwrap()).unwrap();
}

#[test]
fn server_errors_are_retried_for_get_only() {
    let s = FaultServer::routed();
    s.on(route().path_like("*/stats/*").answer(status(503)));
    s.on(route().method("POST").answer(status(503)));
    let env = token_env(&s.base());
    let o = run_env(&["stats", "task", P1, "--retries", "2"], &env);
    assert_eq!(o.code, 5);
    assert_eq!(count(&s), 3, "one try and two retries");
    let o = run_env(&["run", "pipeline", P1], &env);
    assert_eq!(o.code, 5);
    assert!(o.stderr.contains("may have started"), "{}", o.stderr);
    assert_eq!(count(&s), 4, "exactly one POST");
}

#[test]
fn network_failures_exit_6() {
    // A port that was just bound and closed refuses connections.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let o = run_env(
        &["stats", "task", P1, "--retries", "0", "-vv"],
        &client_env(&base),
    );
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert_no_secret(&o);
    let error_line = o.stderr.lines().find(|l| l.starts_with("error:")).unwrap();
    // The base URL is named (which service could not be reached), never a
    // request's own URL with its query.
    assert!(error_line.contains(&base), "{}", o.stderr);
    assert!(
        !error_line.contains('?') && !error_line.contains("/v1/"),
        "no request URL in errors: {}",
        o.stderr
    );
    // A server that takes the request and never answers within --timeout.
    let s = FaultServer::routed();
    s.on(route().answer_with(|_| Action::Hang {
        head: Vec::new(),
        hold: Duration::from_secs(5),
    }));
    let o = run_env(
        &["stats", "task", P1, "--timeout", "300ms", "--retries", "0"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 6, "{}", o.stderr);
    let o = run_env(
        &["run", "pipeline", P1, "--timeout", "300ms"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert!(o.stderr.contains("may have started"), "{}", o.stderr);
}

#[test]
fn no_credentials_exit_3() {
    let o = ylem(
        &["stats", "task", P1],
        &[("YLEM_BASE_URL", "http://127.0.0.1:9")],
    );
    assert_eq!(o.code, 3);
    assert!(o.stderr.contains("hint:"));
    let o = ylem(&["stats", "task", P1], &[("YLEM_TOKEN", TOKEN)]);
    assert_eq!(o.code, 3);
}

#[test]
fn help_and_version_exit_0() {
    let o = ylem(&["--help"], &[]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.contains("Examples"));
    let o = ylem(&["--version"], &[]);
    assert_eq!(o.code, 0);
    let o = ylem(&["completions", "bash"], &[]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.contains("ylemctl"));
}

#[test]
fn an_empty_run_start_is_a_protocol_error_not_a_finished_run() {
    let s = FaultServer::routed();
    s.on(route().method("POST").answer(json(200, "[]")));
    let env = token_env(&s.base());
    for args in [
        vec!["run", "pipeline", P1],
        vec!["run", "pipeline", P1, "--wait"],
    ] {
        let o = run_env(&args, &env);
        assert_eq!(o.code, 5, "{args:?}: {}", o.stderr);
        assert!(o.stderr.contains("no run record") && o.stderr.contains("may have started"));
    }
    // (--wait first looks up the pipeline's history with a GET.)
    let posts = s.count("POST");
    assert_eq!(posts, 2, "one POST each, never retried");
}

#[test]
fn several_failures_with_json_output_are_each_a_json_object() {
    let s = FaultServer::routed();
    s.on(route().answer(status(404)));
    let o = run_env(
        &["last-run", "task", P1, P2, "-o", "json"],
        &token_env(&s.base()),
    );
    assert_eq!(o.code, 4);
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", o.stderr);
    for l in lines {
        let v: Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["error"]["kind"], "not_found");
    }
}

#[test]
fn a_huge_token_lifetime_is_no_crash() {
    let s = FaultServer::routed();
    s.on(route().path("/v1/oauth/token").answer(json(
        200,
        &format!(
            r#"{{"access_token":"{TOKEN}","expires_in":9223372036854775807,"token_type":"Bearer"}}"#
        ),
    )));
    s.on(route().path_like("*/last-run/*").answer(json(
        200,
        r#"{"is_successful":true,"executed_at":"2024-01-01 00:00:00","duration":1}"#,
    )));
    let o = run_env(&["last-run", "task", P1], &client_env(&s.base()));
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn a_token_from_the_environment_uses_the_profile_base_url() {
    let s = FaultServer::routed();
    s.on(route().path_like("*/last-run/*").answer(json(
        200,
        r#"{"is_successful":true,"executed_at":"2024-01-01 00:00:00","duration":1}"#,
    )));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.toml"),
        format!("[profiles.default]\nbase_url = \"{}\"\n", s.base()),
    )
    .unwrap();
    let cfg = dir.path().to_str().unwrap();
    let o = ylem(
        &["last-run", "task", P1],
        &[("YLEM_TOKEN", TOKEN), ("YLEM_CONFIG_DIR", cfg)],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(count(&s), 1);
}

/// Every flag with a typed value: a bad value is a usage error (exit 2)
/// that names the flag, found before anything is sent.
#[test]
fn every_bad_flag_value_is_exit_2_naming_the_flag() {
    // Nothing listens on port 9: had a request been sent, it would not be a 2.
    let env = [
        ("YLEM_BASE_URL", "http://127.0.0.1:9"),
        ("YLEM_TOKEN", TOKEN),
    ];
    let cases: &[(&[&str], &str)] = &[
        (&["stats", "task", P1, "--timeout", "soon"], "--timeout"),
        (&["stats", "task", P1, "--timeout", "0s"], "--timeout"),
        (
            &["stats", "task", P1, "--concurrency", "0"],
            "--concurrency",
        ),
        (&["stats", "task", P1, "--retries", "many"], "--retries"),
        (&["run", "pipeline", P1, "--wait", "--poll", "5y"], "--poll"),
        (
            &["run", "pipeline", P1, "--wait", "--poll", "0ms"],
            "--poll",
        ),
        (&["aggregate", "task", P1, "--count", "0"], "--count"),
        (&["aggregate", "task", P1, "--count", "1001"], "--count"),
        (&["auth", "token", "--min-ttl", "ten"], "--min-ttl"),
        (&["sandbox", "--listen", "0.0.0.0:0"], "--listen"),
        (&["sandbox", "--listen", "nowhere"], "--listen"),
        (&["sandbox", "--latency", "fast"], "--latency"),
        (&["sandbox", "--fail-rate", "2"], "--fail-rate"),
        (&["sandbox", "--token-ttl", "500ms"], "--token-ttl"),
        (&["sandbox", "--task-delay", "1x"], "--task-delay"),
        (&["stats", "task", P1, "-o", "yaml"], "--output"),
    ];
    for (args, flag) in cases {
        let o = ylem(args, &env);
        assert_eq!(o.code, 2, "{args:?} exited {}: {}", o.code, o.stderr);
        assert!(
            o.stderr.contains(flag),
            "{args:?} does not name {flag}: {}",
            o.stderr
        );
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout);
    }
    // `check` keeps the monitoring convention: a bad threshold is UNKNOWN (3),
    // one status line naming the flag.
    for (flag, value) in [
        ("--max-age", "49h,25h"),
        ("--max-duration", "soon"),
        ("--max-failure-rate", "120"),
        ("--window", "5y"),
    ] {
        let o = ylem(&["check", "task", P1, flag, value], &env);
        assert_eq!(o.code, 3, "{flag} {value}: {}", o.stderr);
        assert!(
            o.stdout.starts_with("UNKNOWN - ") && o.stdout.contains(flag),
            "{}",
            o.stdout
        );
        assert_eq!(o.stdout.lines().count(), 1, "{}", o.stdout);
    }
}

/// `YLEM_OUTPUT=json` asks for JSON errors as `-o json` does, also for the
/// errors clap finds while parsing.
#[test]
fn ylem_output_json_makes_usage_errors_json() {
    for args in [
        &["stats", "task", P1, "--timeout", "soon"][..],
        &["aggregate", "task", P1, "--count", "many"],
        &["stats", "gadget", P1],
        &["stats", "task", "not-a-uuid"],
    ] {
        let o = ylem(args, &[("YLEM_OUTPUT", "json"), ("YLEM_TOKEN", TOKEN)]);
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
        let v: Value = serde_json::from_str(o.stderr.trim())
            .unwrap_or_else(|e| panic!("{args:?}: not one JSON object ({e}): {}", o.stderr));
        assert_eq!(v["error"]["kind"], "usage", "{}", o.stderr);
        assert!(v["error"]["message"].is_string(), "{}", o.stderr);
    }
    // `-o json` after the bad value counts too, and beats YLEM_OUTPUT.
    let o = ylem(
        &["stats", "task", P1, "--timeout", "soon", "-o", "json"],
        &[("YLEM_OUTPUT", "csv")],
    );
    assert_eq!(o.code, 2);
    let v: Value = serde_json::from_str(o.stderr.trim()).unwrap();
    assert_eq!(v["error"]["kind"], "usage");
    let o = ylem(
        &["stats", "task", P1, "--timeout", "soon"],
        &[("YLEM_OUTPUT", "jsonl")],
    );
    let v: Value = serde_json::from_str(o.stderr.trim()).unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--timeout"),
        "{}",
        o.stderr
    );
}
